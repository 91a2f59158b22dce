import Foundation

/// Foundation's property-list parser, whose signature takes an optional out-pointer for the
/// format: a call the memory-safety check outside the engine refuses, so it is made here.
/// Callers check the bytes first (`PropertyListReader`): on Linux Foundation traps on some
/// damaged binary property lists.
package enum PropertyListCall {
    /// The object in `data`; Foundation's error when it cannot read it.
    package static func object(from data: Data) throws -> Any {
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// A number's type encoding (`objCType`: `c` for a boolean on Linux, `d` / `f` for reals),
    /// which Foundation hands out as a C string.
    package static func typeEncoding(of number: NSNumber) -> String { String(cString: number.objCType) }
}
