import BinaryInspect
import ShipcheckCore
import ShipcheckTestSupport

/// A binary rule example of facts only Mach-O states, written by the Apple writer
/// (`MachOSliceWriter`) as the files an iOS build leaves: an arm64 `MH_DYLIB` holding its load
/// commands (`dylib`, `weak-dylib`) and its Objective-C class list (`objc-class`, the
/// superclass a local `class_t`), and an `MH_OBJECT` holding its `LC_LINKER_OPTION`s (the linker
/// consumes them: no linked image keeps one). `fact uuid` is the `LC_UUID` of the image, or of
/// the object when the example states nothing only an image has: a linked image always states
/// whether it is signed, a fact the example does not state.
enum BinaryExampleMachO {
    /// The example's files (name and bytes), the contents its text states with each record
    /// named as the file holds it, and its places in the files.
    static func write(_ text: String) throws -> (
        files: [(name: String, bytes: [UInt8])], contents: BinaryContents, places: ExamplePlaces
    ) {
        var (contents, places) = try BinaryContents.example(text)
        for line in text.split(separator: "\n") where !BinaryExampleELF.needsMachO(String(line)) {
            throw BinaryExampleELF.NotWritable(description: "not a Mach-O fact: \(line)")
        }
        var image = ImageSlice(architecture: "arm64")
        image.fileType = .sharedLibrary
        image.platform = .iOS
        (image.minimumOS, image.sdk, image.versionCommand) = (OSVersion("17.0"), OSVersion("17.5"), "LC_BUILD_VERSION")
        // No LC_BUILD_VERSION in the object: its platform fact is one no example states.
        var object = ImageSlice(architecture: "arm64")
        object.fileType = .object
        image.libraries = contents.libraries.filter { $0.record != "LC_LINKER_OPTION" }
        object.libraries = contents.libraries.filter { $0.record == "LC_LINKER_OPTION" }
        var superclasses: [String: String] = [:]
        for objcClass in contents.metadata.objcClasses {
            let name = runtimeName(objcClass.name)
            image.definedObjCClasses.append(name)
            superclasses[name] = objcClass.superclass.map(runtimeName)
        }
        let needsImage = !image.libraries.isEmpty || !image.definedObjCClasses.isEmpty
        for (index, fact) in contents.buildFacts.enumerated() {
            guard fact.message.hasPrefix("uuid ") else {
                throw BinaryExampleELF.NotWritable(description: "no Mach-O record states the fact \(fact.message)")
            }
            let uuid = String(fact.message.dropFirst("uuid ".count))
            if needsImage { image.uuid = uuid } else { object.uuid = uuid }
            contents.buildFacts[index].section = "LC_UUID"
        }

        var files: [(name: String, bytes: [UInt8])] = []
        var moved: [UInt64: MetadataPlace] = [:]
        if needsImage {
            let (bytes, segments) = try MachOSliceWriter(slice: image, entitlements: nil, superclasses: superclasses)
                .image()
            files.append(("libExample.dylib", bytes))
            // The class list holds one 8-byte pointer per class, in the example's order (a finding
            // names a Mach-O section `SEGMENT,SECTION`); a class's synthetic place is its line's
            // number.
            if let classList = segments.flatMap(\.sections).first(where: { $0.name == "__objc_classlist" }) {
                for index in contents.metadata.objcClasses.indices {
                    let place = MetadataPlace(
                        section: "\(classList.segment),\(classList.name)", offset: classList.offset + UInt64(index * 8))
                    moved[contents.metadata.objcClasses[index].place.offset] = place
                    contents.metadata.objcClasses[index].place = place
                }
            }
        }
        if !object.libraries.isEmpty || object.uuid != nil {
            files.append(("Example.o", try MachOSliceWriter(slice: object, entitlements: nil).bytes()))
        }
        for index in places.places.indices where places.places[index].section == "example" {
            if let line = places.places[index].offset, let place = moved[line] {
                places.places[index].section = place.section
                places.places[index].offset = place.offset
            } else if places.places[index].offset == nil {
                // A fact line: the load command its fact names.
                places.places[index].section = "LC_UUID"
            }
        }
        return (files, contents, places)
    }

    /// The name the Objective-C runtime registers a Swift class under (`App.AppDelegate` →
    /// `_TtC3App11AppDelegate`); an Objective-C class's name is its own.
    static func runtimeName(_ name: String) -> String {
        let components = name.split(separator: ".")
        guard components.count > 1 else { return name }
        return "_Tt" + String(repeating: "C", count: components.count - 1)
            + components.map { "\($0.utf8.count)\($0)" }.joined()
    }
}
