import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scripts' macOS paths, run here with Apple's commands (`uname` saying Darwin, `lipo`,
/// `otool`, `strip`, `xcrun`) and the Swift build stubbed by small scripts on PATH: what each
/// script asks of them and what it makes of their answers. Whether the real commands answer so
/// only a Mac can tell (docs/distribution.md, "Not tried on a Mac").
@Suite struct MacScriptTests {
    let release = PackedRelease.shared

    /// A folder of stand-in commands, first on PATH; each records its arguments in `calls`.
    struct FakeTools {
        let scratch: TemporaryDirectory
        var bin: String { scratch.path + "/fake-bin" }
        var log: String { scratch.path + "/calls" }

        init(_ label: String) {
            scratch = TemporaryDirectory(label)
            try? FileManager.default.createDirectory(
                atPath: scratch.path + "/fake-bin", withIntermediateDirectories: true)
        }

        /// `NAME`, a shell script: it logs "NAME ARGUMENTS" and runs `body`.
        func add(_ name: String, _ body: String) {
            let path = scratch.write("fake-bin/" + name, "#!/bin/sh\necho \"\(name) $*\" >>'\(log)'\n\(body)\n")
            SystemCalls.setMode(path, 0o755)
        }

        /// `uname` of a Mac (arm64 unless told).
        func mac(machine: String = "arm64") {
            add("uname", "case \"$1\" in -m) echo \(machine) ;; *) echo Darwin ;; esac")
        }

        /// The logged calls of one command, its arguments only.
        func calls(_ name: String) -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { $0.hasPrefix(name + " ") || $0 == name }.map { String($0.dropFirst(name.count + 1)) }
        }

        /// This folder, then the test process's PATH.
        var path: String { bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }
    }

    // MARK: make dist

    /// dist.sh's macOS tools: `swift build` writing, for a triple, a stand-in binary that names its
    /// architecture and libraries in comments (and runs the real shipcheck, for --version and
    /// the completions); `lipo` joining and checking those; `otool -L` listing them as Apple's
    /// does, with one header per architecture in a universal file; `strip` doing nothing.
    static func distTools(foreignLibraryIn foreignArch: String? = nil) -> FakeTools {
        let tools = FakeTools("shipcheck-dist-darwin")
        tools.mac()
        let build = tools.scratch.path + "/build"
        tools.add(
            "swift",
            #"""
            [ "$1" = build ] || exit 1
            triple=host product= show= previous=
            for argument in "$@"; do
              case "$previous" in --triple) triple="$argument" ;; --product) product="$argument" ;; esac
              case "$argument" in --show-bin-path) show=1 ;; --arch) echo "swift build --arch: XCBuild" >&2; exit 1 ;; esac
              previous="$argument"
            done
            dir="\#(build)/$triple/release"
            mkdir -p "$dir"
            if [ -n "$show" ]; then echo "$dir"; exit 0; fi
            arch="${triple%%-*}"
            case "$product" in
              shipcheck)
                {
                  echo '#!/bin/sh'
                  echo "# arch $arch"
                  echo "# lib $arch /usr/lib/libSystem.B.dylib"
                  echo "# lib $arch /usr/lib/swift/libswiftCore.dylib"
                  echo "# lib $arch /System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"
                  [ "$arch" = "\#(foreignArch ?? "none")" ] && echo "# lib $arch /opt/homebrew/opt/pcre2/lib/libpcre2-8.0.dylib"
                  echo "exec '\#(CommandRunner.shipcheckPath)' \"\$@\""
                } >"$dir/shipcheck"
                chmod 755 "$dir/shipcheck" ;;
              generate-manual)
                printf '%s\n' '#!/bin/sh' 'while [ "$1" != --output-directory ]; do shift; done' \
                  'mkdir -p "$2" && echo ".TH SHIPCHECK 1" >"$2/shipcheck.1"' >"$dir/generate-manual"
                chmod 755 "$dir/generate-manual" ;;
            esac
            """#)
        tools.add(
            "lipo",
            #"""
            if [ "$1" = -create ]; then
              output="$3"; shift 3
              { echo '#!/bin/sh'; grep -h '^# ' "$@"; grep -h '^exec ' "$1"; } >"$output"
              chmod 755 "$output"
            else
              grep -qx "# arch $3" "$1"
            fi
            """#)
        tools.add(
            "otool",
            #"""
            [ "$1" = -L ] || exit 1
            archs="$(sed -n 's/^# arch //p' "$2")"
            for arch in $archs; do
              if [ "$(echo "$archs" | wc -w)" -gt 1 ]; then echo "$2 (architecture $arch):"; else echo "$2:"; fi
              sed -n "s|^# lib $arch \(.*\)|	\1 (compatibility version 1.0.0, current version 1.0.0)|p" "$2"
            done
            """#)
        tools.add("strip", "exit 0")
        _ = tools.scratch.write("pcre2/lib/libpcre2-8.a", "")
        return tools
    }

    static func dist(_ tools: FakeTools) -> CommandResult {
        CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/dist.sh")],
            environment: [
                "PATH": tools.path, "DIST_DIR": tools.scratch.path + "/dist",
                "PCRE2_UNIVERSAL_PREFIX": tools.scratch.path + "/pcre2"
            ])
    }

    /// Each architecture is its own `swift build --triple` (never `--arch`, which hands the build
    /// to XCBuild), stripped and checked, then joined with `lipo -create`; the universal file's
    /// `otool -L` headers are not taken for libraries; the tarball and the artifact bundle carry
    /// the joined binary under the universal name.
    @Test func distBuildsEachArchitectureWithItsOwnTripleAndJoinsThem() throws {
        let tools = Self.distTools()
        let result = Self.dist(tools)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        let builds = tools.calls("swift").filter {
            $0.contains("--product shipcheck") && !$0.contains("--show-bin-path")
        }
        #expect(
            builds == [
                "build --product shipcheck -c release --triple arm64-apple-macosx15.0",
                "build --product shipcheck -c release --triple x86_64-apple-macosx15.0"
            ], "\(builds)")
        #expect(!tools.calls("swift").contains { $0.contains("--arch") })
        #expect(tools.calls("strip").map { String($0.split(separator: " ").first ?? "") } == ["-Sx", "-Sx"])
        let create = try #require(tools.calls("lipo").first { $0.hasPrefix("-create") })
        let joined = create.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
        #expect(create == "-create -output \(joined) \(joined)-arm64 \(joined)-x86_64", "\(create)")
        #expect(tools.calls("otool").count == 1)

        let name = "shipcheck-\(release.version)-universal-apple-macosx"
        let dist = tools.scratch.path + "/dist"
        let unpacked = TemporaryDirectory("shipcheck-dist-darwin-unpacked")
        #expect(CommandRunner.run("tar", ["-xzf", "\(dist)/\(name).tar.gz", "-C", unpacked.path]).status == 0)
        let packed = unpacked.read(name + "/bin/shipcheck") ?? ""
        #expect(packed.contains("# arch arm64\n") && packed.contains("# arch x86_64\n"), "the joined binary: \(packed)")
        #expect(unpacked.exists(name + "/share/man/man1/shipcheck.1"))
        let info = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: dist + "/shipcheck.artifactbundle/info.json")))
                as? [String: Any])
        let variants = (info["artifacts"] as? [String: [String: Any]])?["shipcheck"]?["variants"] as? [[String: Any]]
        #expect(
            variants?.map { $0["supportedTriples"] as? [String] ?? [] } == [
                ["arm64-apple-macosx", "x86_64-apple-macosx"]
            ])
    }

    /// A slice that loads a library from outside the OS (Homebrew's pcre2) fails the release,
    /// and the library is named.
    @Test func distRefusesASliceLinkingALibraryOutsideTheOS() {
        let tools = Self.distTools(foreignLibraryIn: "x86_64")
        let result = Self.dist(tools)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("/opt/homebrew/opt/pcre2/lib/libpcre2-8.0.dylib"), "\(result.stdout)")
        #expect(result.stderr.contains("dist: the binary links a library outside the OS"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tools.scratch.path + "/dist"))
    }

    // MARK: scripts/install.sh

    /// install.sh on each platform asks for the tarball `make dist` names for it (one universal
    /// build for both Mac architectures) and checks it; a Mac has `shasum`, and no `sha256sum`
    /// in this PATH.
    @Test(arguments: [
        ("Darwin", "arm64", "universal-apple-macosx"), ("Darwin", "x86_64", "universal-apple-macosx"),
        ("Linux", "x86_64", "x86_64-unknown-linux-gnu"), ("Linux", "aarch64", "aarch64-unknown-linux-gnu")
    ])
    func installScriptFetchesAndChecksThePlatformsRelease(system: String, machine: String, platform: String) {
        let tools = FakeTools("shipcheck-install-\(machine)")
        tools.add("uname", "case \"$1\" in -m) echo \(machine) ;; *) echo \(system) ;; esac")
        let site = tools.scratch.path + "/releases"
        try? FileManager.default.createDirectory(
            atPath: site + "/" + release.version, withIntermediateDirectories: true)
        WorkflowTests.repack(release, as: platform, into: site + "/" + release.version)
        let path = ToolchainFreePath.make(
            in: tools.scratch, extra: [tools.bin], leaving: system == "Darwin" ? ["sha256sum"] : [])
        let install = { (prefix: String) in
            CommandRunner.run(
                "/bin/bash", [Repository.path("scripts/install.sh"), release.version, prefix],
                environment: ["PATH": path, "SHIPCHECK_RELEASE_URL": "file://" + site])
        }
        let result = install(tools.scratch.path + "/prefix")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(release.version) (revision"), "\(result.stdout)")
        #expect(tools.scratch.exists("prefix/share/zsh/site-functions/_shipcheck"))

        // A checksum that does not match: nothing is installed.
        let checksum = "\(site)/\(release.version)/shipcheck-\(release.version)-\(platform).tar.gz.sha256"
        try? "\(String(repeating: "0", count: 64))  shipcheck-\(release.version)-\(platform).tar.gz\n".write(
            toFile: checksum, atomically: true, encoding: .utf8)
        let tampered = install(tools.scratch.path + "/tampered")
        #expect(tampered.status != 0, "\(tampered.stdout)\(tampered.stderr)")
        #expect(!tools.scratch.exists("tampered/bin/shipcheck"))
    }

    @Test func installScriptNamesAPlatformWithNoRelease() {
        let tools = FakeTools("shipcheck-install-freebsd")
        tools.add("uname", "case \"$1\" in -m) echo amd64 ;; *) echo FreeBSD ;; esac")
        let result = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/install.sh"), release.version, tools.scratch.path + "/prefix"],
            environment: ["PATH": tools.path, "SHIPCHECK_RELEASE_URL": "file:///nonexistent"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no shipcheck release for FreeBSD amd64"), "\(result.stderr)")
    }

    // MARK: The formula's floors

    /// Homebrew refuses a Mac older than the binary's deployment target, which Package.swift,
    /// dist.sh's triples and the universal PCRE2 all name.
    @Test func formulaAsksForTheMacOSTheBinaryIsBuiltFor() throws {
        let manifest = try String(contentsOfFile: Repository.path("Package.swift"), encoding: .utf8)
        let major = try #require(manifest.firstMatch(of: /\.macOS\(\.v(\d+)\)/)).1
        let names = ["13": "ventura", "14": "sonoma", "15": "sequoia", "26": "tahoe"]
        let name = try #require(names[String(major)], "macOS \(major): add its Homebrew name")
        let formula = try String(contentsOfFile: Repository.path("Formula/shipcheck.rb"), encoding: .utf8)
        let macBlock = try #require(formula.firstMatch(of: /\n  on_macos do\n((?s).*?)\n  end\n/)).1
        #expect(macBlock.contains("depends_on macos: :\(name)"), "\(macBlock)")
        let dist = try String(contentsOfFile: Repository.path("scripts/dist.sh"), encoding: .utf8)
        #expect(dist.contains("arm64-apple-macosx\(major).0 x86_64-apple-macosx\(major).0"))
        let pcre2 = try String(contentsOfFile: Repository.path("scripts/pcre2-universal.sh"), encoding: .utf8)
        #expect(pcre2.contains("-DCMAKE_OSX_DEPLOYMENT_TARGET=\(major).0"))
    }

    /// Every shared library the Linux binary needs (its ELF NEEDED entries) is the system's C and
    /// C++ runtime, the Swift runtime (linked in by make dist), or a formula the Linux part of the
    /// formula depends on: a new library cannot ship without one.
    @Test(.enabled(if: MacScriptTests.onLinux, "reads the NEEDED entries of the Linux binary"))
    func formulaDependsOnWhatTheLinuxBinaryLoads() throws {
        let dynamic = CommandRunner.run("readelf", ["-d", CommandRunner.shipcheckPath])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        let needed = dynamic.stdout.matches(of: /\(NEEDED\)\s+Shared library: \[([^\]]+)\]/).map { String($0.1) }
        #expect(needed.contains("libc.so.6"), "\(dynamic.stdout)")
        let formula = try String(contentsOfFile: Repository.path("Formula/shipcheck.rb"), encoding: .utf8)
        let linuxBlock = try #require(formula.firstMatch(of: /\n  on_linux do\n((?s).*?)\n  end\n/)).1
        let dependencies = Set(linuxBlock.matches(of: /depends_on "([^"]+)"/).map { String($0.1) })
            .union(formula.matches(of: /\n  uses_from_macos "([^"]+)"/).map { String($0.1) })
        let formulae = ["libelf.so.1": "elfutils", "libpcre2-8.so.0": "pcre2", "libz.so.1": "zlib"]
        let system = /(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+)\.so\.\d+|ld-linux-[^ ]+/
        let swiftRuntime = /lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime|XCTest|Testing).*\.so/
        for library in needed where library.wholeMatch(of: system) == nil && library.wholeMatch(of: swiftRuntime) == nil
        {
            let formulaName = try #require(formulae[library], "\(library): which Homebrew formula provides it?")
            #expect(dependencies.contains(formulaName), "\(library): the formula's Linux part lacks \(formulaName)")
        }
    }

    static var onLinux: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    // MARK: make bench, make fuzz, make lint
    // (make demo on a Mac: SamplesAuditTests, which runs the demo one at a time)

    /// make bench and make fuzz stop before building anything on a Mac, saying why in one line.
    @Test(arguments: ["bench", "fuzz"])
    func benchAndFuzzStopAtOnceOnAMac(target: String) {
        let tools = FakeTools("shipcheck-\(target)-darwin")
        tools.mac()
        tools.add("swift", "exit 1")
        let result = CommandRunner.run(
            "make", ["-C", Repository.root, target], environment: ["PATH": tools.path, "MAKEFLAGS": ""])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("make: ***") && !$0.hasPrefix("make[") }
        #expect(
            lines == [
                "make \(target): Linux only (GNU time and tar, /proc, nproc, ELF tools, libFuzzer): run it in a Linux container"
            ], "\(result.stderr)")
        #expect(tools.calls("swift").isEmpty, "built: \(tools.calls("swift"))")
        let script = target == "bench" ? "bench/run.sh" : "bench/fuzz/run.sh"
        let direct = CommandRunner.run("/bin/bash", [Repository.path(script)], environment: ["PATH": tools.path])
        #expect(direct.status == 2 && direct.stderr.hasPrefix("make \(target): Linux only"), "\(direct.stderr)")
    }

    /// make lint on a Mac finds swift-format through `xcrun --find` when it is not on PATH.
    @Test func lintFindsSwiftFormatThroughXcrun() {
        let tools = FakeTools("shipcheck-lint-darwin")
        tools.mac()
        // Says it is 6.3.0 (the tree's version), logs the rest.
        let formatter = tools.scratch.write(
            "Xcode/usr/bin/swift-format",
            """
            #!/bin/sh
            [ "$1" = --version ] && { echo 6.3.0; exit 0; }
            echo "swift-format $*" >>'\(tools.log)'

            """)
        SystemCalls.setMode(formatter, 0o755)
        tools.add("xcrun", "[ \"$1 $2\" = '--find swift-format' ] && [ -z \"$NO_XCODE\" ] && echo '\(formatter)'")
        // git, xargs and the shell, but no swift-format: the toolchain's folder is left off.
        let path = tools.bin + ":/usr/bin:/bin"
        #expect(
            CommandRunner.run("/bin/sh", ["-c", "command -v swift-format"], environment: ["PATH": path]).stdout.isEmpty)
        let result = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/lint.sh"), "swift_format"], environment: ["PATH": path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lint = tools.calls("swift-format")
        #expect(
            !lint.isEmpty
                && lint.allSatisfy { $0.hasPrefix("lint --strict --parallel --configuration .swift-format ") },
            "\(lint)")
        #expect(lint.joined(separator: " ").contains("Sources/ScanEngine/Pipeline/BackgroundValue.swift"))

        let noXcode = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/lint.sh"), "swift_format"],
            environment: ["PATH": path, "NO_XCODE": "1"])
        #expect(noXcode.status == 1)
        #expect(noXcode.stderr.contains("no swift-format on PATH nor through xcrun"), "\(noXcode.stderr)")
    }

    /// Xcode 26.0-26.3 ship swift-format 6.2, whose line breaking differs from 6.3's (the tree's):
    /// make lint names the version it expects and skips the style check rather than fail on
    /// style, except in CI, where the wrong swift-format fails the step.
    @Test func lintSaysWhichSwiftFormatItExpects() {
        let tools = FakeTools("shipcheck-lint-format-version")
        tools.add("swift-format", "[ \"$1\" = --version ] && echo 6.2.1")
        let formatter = tools.bin + "/swift-format"
        let path = tools.bin + ":/usr/bin:/bin"
        let local = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/lint.sh"), "swift_format"], environment: ["PATH": path, "CI": ""])
        #expect(local.status == 0, "\(local.stdout)\(local.stderr)")
        #expect(
            local.stderr.contains(
                "swift-format 6.2.1 (\(formatter)) is not 6.3, the version the tree is formatted with"),
            "\(local.stderr)")
        #expect(tools.calls("swift-format") == ["--version"], "linted with 6.2: \(tools.calls("swift-format"))")
        let ci = CommandRunner.run(
            "/bin/bash", [Repository.path("scripts/lint.sh"), "swift_format"], environment: ["PATH": path, "CI": "true"]
        )
        #expect(ci.status == 1, "\(ci.stdout)\(ci.stderr)")
        #expect(ci.stderr.contains("lint: failed: swift_format"), "\(ci.stderr)")
    }
}
