import BinaryInspect
import Foundation

/// How releases are ordered by their version strings, as the stores order them: numerically,
/// component by component (`1.10` is above `1.9`; `1.0` equals `1`). A component that is not a
/// number stops the comparison there (App Store Connect requires one to three period-separated
/// integers; Android's versionName is free text and only versionCode orders releases).
package enum VersionOrder {
    /// The leading numeric components of `text` (`1.2.3-beta` → [1, 2, 3]); nil when it does not
    /// start with a number.
    package static func components(_ text: String) -> [Int]? {
        var numbers: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            let digits = part.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 18, let number = Int(digits) else { break }
            numbers.append(number)
            if digits.count != part.count { break }
        }
        return numbers.isEmpty ? nil : numbers
    }

    /// Compares two version strings; nil when either is not numeric.
    package static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult? {
        guard let left = components(lhs).map(OSVersion.init), let right = components(rhs).map(OSVersion.init) else {
            return nil
        }
        // OSVersion's order: component by component, missing trailing components as zero.
        return left < right ? .orderedAscending : right < left ? .orderedDescending : .orderedSame
    }
}
