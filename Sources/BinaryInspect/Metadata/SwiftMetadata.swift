/// What the Swift (and, on Mach-O, Objective-C) metadata of one image says, with names resolved
/// to full Swift names (`Module.Outer.Inner`). Present whether or not the symbol table was stripped.
public struct SwiftMetadata: Sendable, Hashable {
    public var types: [SwiftTypeRecord] = []
    public var conformances: [SwiftConformanceRecord] = []
    public var protocols: [SwiftProtocolRecord] = []
    public var tests: [SwiftTestRecord] = []
    /// Stored properties and enum case payloads, with the types they are declared as.
    public var fields: [SwiftFieldRecord] = []
    /// Classes the Objective-C runtime registers (`__objc_classlist`): Objective-C classes and
    /// Swift classes alike, with their superclasses.
    public var objcClasses: [ObjCClassRecord] = []

    public init(
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
public struct MetadataPlace: Sendable, Hashable {
    public var section: String
    public var offset: UInt64

    public init(section: String, offset: UInt64) {
        self.section = section
        self.offset = offset
    }
}

public enum SwiftTypeKind: String, Sendable {
    case `class`, `struct`, `enum`, `protocol`, other
}

/// A nominal type with a context descriptor (`swift5_type_metadata`).
public struct SwiftTypeRecord: Sendable, Hashable {
    public var name: String
    public var kind: SwiftTypeKind
    /// The superclass's full name, for classes that have one.
    public var superclass: String?
    public var place: MetadataPlace

    public init(name: String, kind: SwiftTypeKind, superclass: String? = nil, place: MetadataPlace) {
        self.name = name
        self.kind = kind
        self.superclass = superclass
        self.place = place
    }
}

/// `Type: Protocol`, from `swift5_protocol_conformances`.
public struct SwiftConformanceRecord: Sendable, Hashable {
    public var typeName: String
    public var protocolName: String
    public var place: MetadataPlace

    public init(typeName: String, protocolName: String, place: MetadataPlace) {
        self.typeName = typeName
        self.protocolName = protocolName
        self.place = place
    }
}

/// A protocol defined in the image (`swift5_protocols`).
public struct SwiftProtocolRecord: Sendable, Hashable {
    public var name: String
    public var place: MetadataPlace

    public init(name: String, place: MetadataPlace) {
        self.name = name
        self.place = place
    }
}

/// A stored property of a struct or class, or an enum case with a payload (`swift5_fieldmd`
/// field records).
public struct SwiftFieldRecord: Sendable, Hashable {
    /// The type that declares the field (`Module.Outer.Type`).
    public var ownerName: String
    /// The field's name; empty when the compiler left reflection names out.
    public var name: String
    /// The nominal types the field's declared type names: `var cache: [Key: MockStore]?` names
    /// `Module.MockStore` (from its symbolic reference) and, where the type is mangled without
    /// references, every type name of its demangling (`Swift.Int`).
    public var typeNames: [String]
    public var isEnumCase: Bool
    public var place: MetadataPlace

    public init(ownerName: String, name: String, typeNames: [String], isEnumCase: Bool = false, place: MetadataPlace) {
        self.ownerName = ownerName
        self.name = name
        self.typeNames = typeNames
        self.isEnumCase = isEnumCase
        self.place = place
    }
}

/// A swift-testing record (`swift5_tests`): `test` for `@Test` functions and suites, `exit` for exit tests.
public struct SwiftTestRecord: Sendable, Hashable {
    public var kind: String
    /// The accessor's symbol, demangled, when the symbol table has it.
    public var accessor: String?
    public var place: MetadataPlace
    /// Bytes of the record itself.
    public var size: UInt64

    public init(kind: String, accessor: String? = nil, place: MetadataPlace, size: UInt64) {
        self.kind = kind
        self.accessor = accessor
        self.place = place
        self.size = size
    }
}

/// A class of `__objc_classlist`: its runtime name (Swift classes' `_TtC…` names demangled to
/// `Module.Class`) and its superclass's (`XCTestCase` when bound to `_OBJC_CLASS_$_XCTestCase`).
public struct ObjCClassRecord: Sendable, Hashable {
    public var name: String
    public var superclass: String?
    public var place: MetadataPlace

    public init(name: String, superclass: String?, place: MetadataPlace) {
        self.name = name
        self.superclass = superclass
        self.place = place
    }
}
