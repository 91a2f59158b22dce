/// What the Swift (and, on Mach-O, Objective-C) metadata of one image says, with names resolved
/// to full Swift names (`Module.Outer.Inner`). Present whether or not the symbol table was stripped.
package struct SwiftMetadata: Sendable, Hashable {
    package var types: [SwiftTypeRecord] = []
    package var conformances: [SwiftConformanceRecord] = []
    package var protocols: [SwiftProtocolRecord] = []
    package var tests: [SwiftTestRecord] = []
    /// Stored properties and enum case payloads, with the types they are declared as.
    package var fields: [SwiftFieldRecord] = []
    /// Classes the Objective-C runtime registers (`__objc_classlist`): Objective-C classes and
    /// Swift classes alike, with their superclasses.
    package var objcClasses: [ObjCClassRecord] = []

    package init(
        types: [SwiftTypeRecord] = [], conformances: [SwiftConformanceRecord] = [],
        protocols: [SwiftProtocolRecord] = [], tests: [SwiftTestRecord] = [], fields: [SwiftFieldRecord] = [],
        objcClasses: [ObjCClassRecord] = []
    ) {
        self.types = types
        self.conformances = conformances
        self.protocols = protocols
        self.tests = tests
        self.fields = fields
        self.objcClasses = objcClasses
    }
}

/// Where a metadata record sits: its section and its offset in the file (or archive member).
package struct MetadataPlace: Sendable, Hashable {
    package var section: String
    package var offset: UInt64

    package init(section: String, offset: UInt64) {
        self.section = section
        self.offset = offset
    }
}

package enum SwiftTypeKind: String, Sendable {
    case `class`, `struct`, `enum`, `protocol`, other
}

/// A nominal type with a context descriptor (`swift5_type_metadata`).
package struct SwiftTypeRecord: Sendable, Hashable {
    package var name: String
    package var kind: SwiftTypeKind
    /// The superclass's full name, for classes that have one.
    package var superclass: String?
    package var place: MetadataPlace

    package init(name: String, kind: SwiftTypeKind, superclass: String? = nil, place: MetadataPlace) {
        self.name = name
        self.kind = kind
        self.superclass = superclass
        self.place = place
    }
}

/// `Type: Protocol`, from `swift5_protocol_conformances`.
package struct SwiftConformanceRecord: Sendable, Hashable {
    package var typeName: String
    package var protocolName: String
    package var place: MetadataPlace

    package init(typeName: String, protocolName: String, place: MetadataPlace) {
        self.typeName = typeName
        self.protocolName = protocolName
        self.place = place
    }
}

/// A protocol defined in the image (`swift5_protocols`).
package struct SwiftProtocolRecord: Sendable, Hashable {
    package var name: String
    package var place: MetadataPlace

    package init(name: String, place: MetadataPlace) {
        self.name = name
        self.place = place
    }
}

/// A stored property of a struct or class, or an enum case with a payload (`swift5_fieldmd`
/// field records).
package struct SwiftFieldRecord: Sendable, Hashable {
    /// The type that declares the field (`Module.Outer.Type`).
    package var ownerName: String
    /// The field's name; empty when the compiler left reflection names out.
    package var name: String
    /// The nominal types the field's declared type names: `var cache: [Key: MockStore]?` names
    /// `Module.MockStore` (from its symbolic reference) and, where the type is mangled without
    /// references, every type name of its demangling (`Swift.Int`).
    package var typeNames: [String]
    package var isEnumCase: Bool
    package var place: MetadataPlace

    package init(ownerName: String, name: String, typeNames: [String], isEnumCase: Bool = false, place: MetadataPlace) {
        self.ownerName = ownerName
        self.name = name
        self.typeNames = typeNames
        self.isEnumCase = isEnumCase
        self.place = place
    }
}

/// A swift-testing record (`swift5_tests`): `test` for `@Test` functions and suites, `exit` for exit tests.
package struct SwiftTestRecord: Sendable, Hashable {
    package var kind: String
    /// The accessor's symbol, demangled, when the symbol table has it.
    package var accessor: String?
    package var place: MetadataPlace
    /// Bytes of the record itself.
    package var size: UInt64

    package init(kind: String, accessor: String? = nil, place: MetadataPlace, size: UInt64) {
        self.kind = kind
        self.accessor = accessor
        self.place = place
        self.size = size
    }
}

/// A class of `__objc_classlist`: its runtime name (Swift classes' `_TtC…` names demangled to
/// `Module.Class`) and its superclass's (`XCTestCase` when bound to `_OBJC_CLASS_$_XCTestCase`).
package struct ObjCClassRecord: Sendable, Hashable {
    package var name: String
    package var superclass: String?
    package var place: MetadataPlace

    package init(name: String, superclass: String?, place: MetadataPlace) {
        self.name = name
        self.superclass = superclass
        self.place = place
    }
}
