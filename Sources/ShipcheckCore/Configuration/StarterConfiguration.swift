/// The commented `.shipcheck.yml` that `shipcheck init` writes. It must always load with
/// `ConfigurationLoader` (a test holds it to that).
package enum StarterConfiguration {
    package static let text = """
        # shipcheck configuration: https://github.com/shipcheck/shipcheck#configuration
        # Every key is optional; delete what you do not need.

        # Paths to scan (default: every file git tracks or would track). A leading ! re-excludes.
        # include:
        #   - "App/**"
        # Paths no check ever reads.
        exclude:
          - "Pods/**"
          - "Carthage/**"
          - ".build/**"

        # Per rule: a severity (error, warning, note, or off), or a mapping with the severity and
        # the rule's options (`shipcheck help audit` and docs/ list each rule's).
        # rules:
        #   dev-asset-path-missing: warning
        #   binary-mock-symbol:
        #     severity: warning
        #     patterns: ["Mocks?(?![a-z])", "^Dummy"]   # replaces the built-in ones
        #   preflight-sdk-too-old:
        #     minimum-sdk:                              # replaces Apple's dated table
        #       ios: "26.0"
        #   preflight-test-code-linked:
        #     debugging-tools: [InHouseInspector]       # besides the built-in list
        #   previous-size-budget:                       # growth allowed since the previous release
        #     total: 5%
        #     download: 2 MB
        #     parts:
        #       "native libraries (arm64-v8a)": 500 KB

        # Compilation conditions. DEBUG is never set in release; list your own debug-only
        # flags (never set in release) and flags your release builds always set.
        flags:
          debug-only: []
          release-set: []

        # Development-only paths besides Xcode's DEVELOPMENT_ASSET_PATHS ("Preview Content").
        # development-paths:
        #   - "App/PreviewSupport/**"

        # Generated code besides files whose header says so (Sourcery, SwiftGen, R.swift,
        # swift-protobuf, Apollo, swift-openapi-generator, DO NOT EDIT, @generated): the run-time
        # source rules and release-references-debug-only do not report in it. A leading ! says a
        # file is not generated whatever its header.
        # generated:
        #   - "App/API/Generated/**"
        # Rules that report in generated files too.
        # check-generated: [unchecked-sendable-closure]

        # Release artifacts for the binary inspector (globs relative to this file's folder):
        # binaries, Apple bundles and .ipa files, Android .apk / .aab / .aar files. The
        # repository's jniLibs folders are checked without being listed here.
        # binaries:
        #   - ".build/release/MyApp"
        #   - "android/app/build/outputs/bundle/release/*.aab"

        # The previous release's artifact: the release artifact above (exactly one) is judged
        # against it (build number, version, SDKs an update adds, new permissions, size budgets;
        # `shipcheck diff` shows everything it adds).
        # previous: "releases/App-2.3.ipa"

        # How Apple bundles and .ipa files ship (app-store, ad-hoc, development, enterprise);
        # the App Store pre-flight rules check only what is meant for the store.
        # bundle:
        #   distribution: app-store

        # Where the team's saved queries live.
        queries: .shipcheck/queries.yml

        # Files that show conflict markers on purpose (docs, test fixtures).
        # conflicts:
        #   allow:
        #     - "Docs/merging.md"

        # Build configurations treated as release (default: those used by Archive, and any
        # named Release, Production or AppStore).
        # release-configurations: [Release, AppStore]

        # Largest file the text scanners read, in bytes.
        # max-file-size: 268435456

        """
}
