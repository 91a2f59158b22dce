import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

@Suite struct DurableSyncTests {
    @Test func syncsAFileAndReportsABadDescriptor() {
        let directory = TemporaryDirectory("shipcheck-durable-sync")
        let path = directory.write("file", "bytes")
        let descriptor = open(path, O_RDWR)
        defer { close(descriptor) }
        #expect(DurableSync.sync(descriptor) == 0)
        #expect(DurableSync.sync(-1) == -1 && errno == EBADF)
    }
}
