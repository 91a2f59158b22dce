/// How compiled code refers to an API, as a Mach-O image shows it: an imported C function or
/// data symbol (without the leading underscore: `stat`, `NSFileModificationDate`), an
/// Objective-C selector (`systemUptime`), an Objective-C class (`NSUserDefaults`), or a Swift
/// type of an Apple framework (`Network.NWBrowser`, whose symbols the image imports).
package enum BinaryReference: Sendable, Hashable, CustomStringConvertible {
    case function(String)
    case constant(String)
    case selector(String)
    case objcClass(String)
    case swiftType(module: String, name: String)

    package var description: String {
        switch self {
        case .function(let name): "\(name)()"
        case .constant(let name): name
        case .selector(let name): "-\(name)"
        case .objcClass(let name): name
        case .swiftType(let module, let name): "\(module).\(name)"
        }
    }

    /// What a finding calls it: "the function stat()", "the selector systemUptime".
    package var phrase: String {
        switch self {
        case .function(let name): "the function \(name)()"
        case .constant(let name): "the constant \(name)"
        case .selector(let name): "the selector \(name)"
        case .objcClass(let name): "the class \(name)"
        case .swiftType(let module, let name): "the Swift type \(module).\(name)"
        }
    }

    /// The prefix of the mangled names of a Swift type's symbols (`$s7Network9NWBrowserC`).
    package var swiftSymbolPrefix: String? {
        guard case .swiftType(let module, let name) = self else { return nil }
        return "$s\(module.utf8.count)\(module)\(name.utf8.count)\(name)"
    }

    /// An imported symbol's name as the API table spells it: the leading underscore of C names
    /// dropped, and the suffix of the variants the headers select (`_stat$INODE64`).
    package static func importedName(_ symbol: Substring) -> Substring {
        var name = symbol.hasPrefix("_") ? symbol.dropFirst() : symbol
        if let dollar = name.firstIndex(of: "$"), dollar != name.startIndex { name = name[..<dollar] }
        return name
    }
}

/// How Swift or Objective-C source spells a use of an API, matched on the tokens of code (never
/// in comments or string literals): a call of a free function (`stat(`, not `.stat(` or
/// `func stat(`), a member (`.systemUptime`), a type or other name (`UserDefaults`), a member of
/// one named type (`FileAttributeKey.creationDate`), or an implicit member used as a subscript
/// or dictionary key (`attributes[.modificationDate]`, `[.creationDate: date]`), which is how an
/// attribute key too common as a word elsewhere is recognised.
package enum SourcePattern: Sendable, Hashable, CustomStringConvertible {
    case call(String)
    case member(String)
    case word(String)
    case qualified(type: String, member: String)
    case key(String)

    package var description: String {
        switch self {
        case .call(let name): "\(name)()"
        case .member(let name): ".\(name)"
        case .word(let name): name
        case .qualified(let type, let member): "\(type).\(member)"
        case .key(let name): "[.\(name)]"
        }
    }

    /// The identifier a file must contain for the pattern to match (the byte prefilter).
    package var identifier: String {
        switch self {
        case .call(let name), .member(let name), .word(let name), .key(let name): name
        case .qualified(_, let member): member
        }
    }
}
