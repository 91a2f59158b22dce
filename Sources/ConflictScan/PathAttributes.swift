import ScanEngine
import ShipcheckCore

/// The git attributes that change how a path is scanned.
struct PathAttributes: Sendable, Hashable {
    static let names = ["conflict-marker-size", "binary", "diff"]
    static let standard = PathAttributes(markerSize: ContentScanner.defaultMarkerSize, isBinary: false)

    /// `conflict-marker-size`: git writes and expects markers of this length.
    var markerSize: Int
    /// `binary` set or `diff` unset: git treats the content as binary and writes no markers.
    var isBinary: Bool

    init(markerSize: Int, isBinary: Bool) {
        self.markerSize = markerSize
        self.isBinary = isBinary
    }

    /// From `git check-attr` values; anything but a positive number leaves git's default size.
    init(_ values: [String: String]) {
        let size = values["conflict-marker-size"].flatMap { Int($0) } ?? 0
        markerSize = size > 0 ? size : ContentScanner.defaultMarkerSize
        isBinary = values["binary"] == "set" || values["diff"] == "unset"
    }

    /// Attributes for every path, in one `git check-attr` run (`cached`: from the index's
    /// `.gitattributes`, for index and revision scans).
    static func lookUp(_ paths: [String], in repository: GitRepository, cached: Bool) throws(InputError) -> [String:
        PathAttributes]
    {
        try repository.attributes(names, for: paths, cached: cached).mapValues(PathAttributes.init)
    }
}
