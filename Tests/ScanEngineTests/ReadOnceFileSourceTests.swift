import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

/// A file read whole before a scan (the configuration, a baseline) is not opened again by the
/// scan, however its path is spelled; other files are read from disk.
@Suite struct ReadOnceFileSourceTests {
    @Test func oneFileUnderEverySpellingOfItsPath() throws {
        let directory = TemporaryDirectory("shipcheck-read-once")
        let path = directory.write("Config/settings.yml", "first\n")
        let other = directory.write("Config/other.yml", "other\n")
        let source = ReadOnceFileSource()
        #expect(
            try source.read(directory.path + "/./Config//settings.yml", displayPath: "settings.yml", sizeLimit: 100)
                == Array("first\n".utf8))
        // Changed on disk since: every spelling still gets the bytes read first.
        _ = directory.write("Config/settings.yml", "second\n")
        for spelling in [path, directory.path + "/Config/./settings.yml", directory.path + "//Config/settings.yml"] {
            let bytes = try source.withContents(spelling, displayPath: "settings.yml", sizeLimit: 100) { view, _ in
                view.array()
            }
            #expect(bytes == Array("first\n".utf8), "\(spelling)")
        }
        let otherBytes = try source.withContents(other, displayPath: "other.yml", sizeLimit: 100) { view, _ in
            view.array()
        }
        #expect(otherBytes == Array("other\n".utf8))
    }
}
