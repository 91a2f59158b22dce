import Foundation

/// Decodes JSON and describes failures in one line (what and where), for input errors.
package enum JSONDecoding {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(Failure) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw Failure(description: "missing key '\(key.stringValue)' at \(path(context))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw Failure(description: "wrong type at \(path(context))")
        } catch let DecodingError.dataCorrupted(context) {
            throw Failure(description: "invalid JSON\(context.codingPath.isEmpty ? "" : " at \(path(context))")")
        } catch {
            throw Failure(description: "invalid JSON")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty
            ? "the top level"
            : context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
