import BinaryInspect
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport

@testable import AndroidArtifacts

/// An artifact written by `AndroidExampleWriter` and read back by the production walker, and
/// how what was read differs from what was written, fact by fact: each difference names the
/// entry and the field, so a reader that drops or misreads one fact fails by name.
enum ReadBack {
    static let binaryInspector = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules)

    /// Writes the artifact and reads it back as `shipcheck binary` reads it (the walker under
    /// `AndroidInspector.inspect`).
    static func read(_ artifact: AndroidArtifact) throws -> (artifact: AndroidArtifact?, result: CheckResult) {
        let directory = TemporaryDirectory("shipcheck-android-example")
        let root = try AndroidExampleWriter.write(artifact, into: directory)
        return AndroidWalker(inspector: binaryInspector).read(path: root, kind: artifact.kind)
    }

    /// Every fact of `written` the read artifact does not state alike.
    static func differences(_ read: AndroidArtifact, from written: AndroidArtifact) -> [String] {
        var found: [String] = []
        let expectedManifests = AndroidExampleWriter.expectedManifests(written)
        for expected in expectedManifests {
            guard let manifest = read.manifests.first(where: { $0.path == expected.path }) else {
                found.append("\(expected.path): no manifest read")
                continue
            }
            if manifest.module != expected.module { found.append("\(expected.path): module \(manifest.module)") }
            found += fields(manifest.manifest, expected.manifest, at: expected.path)
        }
        if read.manifests.count != expectedManifests.count {
            found.append("\(read.manifests.count) manifests read, \(expectedManifests.count) written")
        }
        if written.kind == .aab {
            switch (read.bundleConfig, written.bundleConfig) {
            case (let config?, let expected?): found += fields(config, expected, at: expected.path)
            case (nil, nil): break
            case (let config, _): found.append("BundleConfig.pb: read \(String(describing: config))")
            }
        }
        for expected in written.libraries {
            guard let library = read.libraries.first(where: { $0.path == expected.path }) else {
                found.append("\(expected.path): no library read")
                continue
            }
            let place = expected.path.isEmpty ? written.root : expected.path
            var (have, want) = (library, readable(expected, in: written.kind))
            switch (have.elf.map(loaderView), want.elf) {
            case (let readELF?, let writtenELF?): found += fields(readELF, writtenELF, at: place)
            case (nil, nil): break
            case (let readELF, let writtenELF):
                found.append(
                    "\(place): ELF read as \(String(describing: readELF)), written \(String(describing: writtenELF))")
            }
            (have.elf, want.elf) = (nil, nil)
            found += fields(have, want, at: place)
        }
        if read.libraries.count != written.libraries.count {
            found.append("\(read.libraries.count) libraries read, \(written.libraries.count) written")
        }
        for file in written.files where !read.files.contains(file) { found.append("\(file): not listed") }
        return found
    }

    /// A library as the readers can state it: its zip storage only where the walker measures
    /// data offsets (an APK, an APK of a set; other zips' libraries are inflated, never loaded
    /// in place, and a file on disk has none), and its ELF facts as `loaderView` has them.
    private static func readable(_ library: NativeLibrary, in kind: AndroidArtifactKind) -> NativeLibrary {
        var library = library
        switch kind {
        case .apk, .apks: break
        case .aab, .aar: library.storage = .deflated
        case .library, .libraryFolder: library.storage = nil
        }
        library.elf = library.elf.map(loaderView)
        return library
    }

    /// The facts the loader and the walker state of a library: of its load segments the
    /// alignment and flags (the examples set no addresses or sizes, nor list sections: the
    /// writer adds what an ELF file needs); nothing from sections past a section-header problem
    /// (the loader refuses those, and the walker reads no further).
    static func loaderView(_ facts: ELFLoadFacts) -> ELFLoadFacts {
        var facts = facts
        facts.loadSegments = facts.loadSegments.map {
            .init(alignment: $0.alignment, isWritable: $0.isWritable, isExecutable: $0.isExecutable)
        }
        facts.sections = []
        if facts.sectionHeaderProblem != nil {
            facts.debugSections = []
            facts.androidAPILevel = nil
        }
        return facts
    }

    /// Field by field, by the stored properties' names.
    static func fields<Value>(_ read: Value, _ expected: Value, at place: String) -> [String] {
        zip(Mirror(reflecting: read).children, Mirror(reflecting: expected).children).compactMap { have, want in
            let (readText, writtenText) = (String(describing: have.value), String(describing: want.value))
            return readText == writtenText
                ? nil : "\(place): \(have.label ?? "?") read as \(readText), written \(writtenText)"
        }
    }
}
