import AndroidArtifacts
import BinaryInspect
import ShipcheckCore

extension ReleaseFacts {
    /// The facts of an Android artifact: the application manifest for identity (every module's
    /// and split's manifest for what the app requests), every native library by ABI with its
    /// load segments and sections, and every entry's stored and inflated sizes.
    package init(android artifact: AndroidArtifact) {
        self.init(
            root: artifact.root, family: .android,
            kind: artifact.kind == .library ? "so" : artifact.kind.rawValue)
        isUpload = artifact.isUploaded
        if let main = artifact.mainManifest {
            identity.identifier = main.manifest.package
            identity.version = main.manifest.versionName
            identity.build = main.manifest.versionCode.map(String.init)
            identity.statedIn = main.path
            identity.minimumOS = main.manifest.minSdk.map { MinimumOS(platform: "Android", version: [$0]) }
            identity.targetSDK = main.manifest.targetSdkText.map { "API \($0)" }
            identity.platforms = [main.manifest.formFactor.rawValue]
        }
        // What the app requests and exposes, over every module and split: a device installs them together.
        let manifests = artifact.manifests.map(\.manifest)
        permissions = manifests.flatMap(\.permissions).sortedUnique
        let components = manifests.flatMap(\.components)
        exportedComponents = components.filter(\.isExported).map { "\($0.kind.rawValue):\($0.name)" }.sortedUnique
        foregroundServiceTypes = components.flatMap(\.foregroundServiceTypes).sortedUnique
        queries = manifests.flatMap(\.queries).sortedUnique
        architectures = artifact.libraries.compactMap { $0.abi?.rawValue }.sortedUnique
        linkedLibraries = artifact.libraries.flatMap { $0.elf?.needed ?? [] }.map(Self.module).sortedUnique
        images = artifact.libraries.compactMap { library in
            guard let elf = library.elf else { return nil }
            return Self.image(
                at: library.path, architecture: library.abi?.rawValue ?? ELFMachine.name(elf.machine), elf)
        }
        entries = Self.entries(artifact.entrySizes)
    }

    /// A plain ELF file (not Android's) of `size` bytes: its one image.
    package init(elf facts: ELFLoadFacts, path: String, size: UInt64) {
        self.init(root: path, family: .elf, kind: "binary")
        let architecture = ELFMachine.name(facts.machine)
        architectures = [architecture]
        linkedLibraries = facts.needed.map(Self.module).sortedUnique
        images = [Self.image(at: "", architecture: architecture, facts)]
        entries = [Entry(path: "", EntrySize(onDisk: size))]
    }

    /// One library's image: its loadable segments named by index and permissions, as
    /// `llvm-readelf -l` lists them.
    static func image(at path: String, architecture: String, _ elf: ELFLoadFacts) -> Image {
        var image = Image(path: path, architecture: architecture)
        image.libraries = elf.needed.map(module).sortedUnique
        image.segments = elf.loadSegments.enumerated().map { index, segment in
            let flags = "r" + (segment.isWritable ? "w" : "-") + (segment.isExecutable ? "x" : "-")
            return Part(name: "LOAD[\(index)] \(flags)", size: segment.fileSize)
        }
        // Section sizes as llvm-readelf -S gives them (.bss's in memory: it takes no file bytes).
        image.sections = elf.sections.filter { !$0.name.isEmpty }.map { Part(name: $0.name, size: $0.size) }
        return image
    }

    /// `libXCTest.so.1` → `XCTest`: a `DT_NEEDED` name as the module it loads.
    static func module(_ needed: String) -> String {
        LinkedLibrary(name: needed, kind: .loaded, record: "DT_NEEDED", section: ".dynamic").module
    }
}

/// `e_machine` values as the Android ABI or architecture they are built for.
enum ELFMachine {
    static func name(_ machine: UInt16) -> String {
        switch machine {
        case 183: "aarch64"
        case 40: "arm"
        case 62: "x86_64"
        case 3: "x86"
        case 243: "riscv"
        default: "machine \(machine)"
        }
    }
}
