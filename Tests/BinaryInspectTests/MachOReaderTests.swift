import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import BinaryInspect

/// Pieces of the Mach-O reader that no fixture exercises whole: the chained-pointer formats
/// lld cannot write (the fixtures cover DYLD_CHAINED_PTR_64, _64_OFFSET and
/// ARM64E_USERLAND24), the names of libraries and runtime classes.
@Suite struct MachOReaderTests {
    typealias Format = MachOImage.ChainedPointerFormat
    static let base: UInt64 = 0x1_0000_0000

    @Test func pointer64RebaseHoldsTheAddressAndOffsetFormatTheOffset() {
        // target 0x1_0000_4470, high8 0, next 2 (strides of 4 bytes), rebase.
        let raw: UInt64 = 0x1_0000_4470 | (2 << 51)
        #expect(
            MachOImage.decodeChainedPointer(raw, format: .pointer64, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 2
            ))
        let offset: UInt64 = 0x4470 | (2 << 51)
        #expect(
            MachOImage.decodeChainedPointer(offset, format: .pointer64Offset, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 2
            ))
        let bind: UInt64 = 1 << 63 | 7 | (1 << 51)
        #expect(MachOImage.decodeChainedPointer(bind, format: .pointer64, base: Self.base) == (.bind(ordinal: 7), 1))
    }

    @Test func arm64eRebasesAndBindsPlainAndAuthenticated() {
        // Plain rebase: vmaddr (ARM64E) or offset (USERLAND, USERLAND24); next in 8-byte strides.
        let rebase: UInt64 = 0x4470 | (3 << 51)
        #expect(
            MachOImage.decodeChainedPointer(0x1_0000_4470 | (3 << 51), format: .arm64e, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 3
            ))
        #expect(
            MachOImage.decodeChainedPointer(rebase, format: .arm64eUserland, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 3
            ))
        // Authenticated rebase: a 32-bit offset from the base, whatever the arm64e variant.
        let authRebase: UInt64 = 1 << 63 | 0x5678 << 32 | 0x4470 | (1 << 51)
        for format in [Format.arm64e, .arm64eUserland, .arm64eUserland24] {
            #expect(
                MachOImage.decodeChainedPointer(authRebase, format: format, base: Self.base) == (
                    .rebase(target: 0x1_0000_4470), 1
                ))
        }
        // Binds: 16-bit ordinals, 24-bit in USERLAND24; authenticated or not.
        let bind: UInt64 = 1 << 62 | 0x01_0005
        #expect(MachOImage.decodeChainedPointer(bind, format: .arm64e, base: Self.base) == (.bind(ordinal: 5), 0))
        #expect(
            MachOImage.decodeChainedPointer(bind, format: .arm64eUserland24, base: Self.base) == (
                .bind(ordinal: 0x01_0005), 0
            ))
        let authBind: UInt64 = 1 << 63 | 1 << 62 | 2 << 49 | 0x1234 << 32 | 9 | (4 << 51)
        #expect(
            MachOImage.decodeChainedPointer(authBind, format: .arm64eUserland24, base: Self.base) == (
                .bind(ordinal: 9), 4
            ))
    }

    @Test func librariesAreNamedByModuleWhateverTheirShape() {
        let names = [
            "libXCTest.so": "XCTest", "libXCTest.so.1": "XCTest", "-lTesting": "Testing", "-framework XCTest": "XCTest",
            "@rpath/XCTest.framework/XCTest": "XCTest",
            "/Applications/Xcode.app/Contents/Developer/Library/Frameworks/XCTest.framework/Versions/A/XCTest":
                "XCTest",
            "@rpath/libXCTestSwiftSupport.dylib": "XCTestSwiftSupport",
            "/usr/lib/swift/libswiftCore.dylib": "swiftCore",
            "libTestingHelpers.so": "TestingHelpers"
        ]
        for (name, module) in names {
            #expect(LinkedLibrary(name: name, kind: .loaded, record: "", section: "").module == module, "\(name)")
        }
    }

    @Test func swiftClassRuntimeNamesReadAsSwiftNames() {
        #expect(
            LinkedMetadataDecoder.objcDisplayName("_TtC14AppTestSupport13LoginTestCase")
                == "AppTestSupport.LoginTestCase")
        #expect(LinkedMetadataDecoder.objcDisplayName("_TtCC3App5Outer5Inner") == "App.Outer.Inner")
        #expect(LinkedMetadataDecoder.objcDisplayName("_TtCs12_SwiftObject") == "Swift._SwiftObject")
        #expect(LinkedMetadataDecoder.objcDisplayName("XCTestCase") == "XCTestCase")
        #expect(
            LinkedMetadataDecoder.objcDisplayName("_TtC3App99Short") == "_TtC3App99Short",
            "a length past the end is kept as it is")
        #expect(LinkedMetadataDecoder.objcClassName(ofSymbol: "OBJC_CLASS_$_XCTestCase") == "XCTestCase")
    }

    /// GNU archives name long members through the `//` table; both dialects' symbol tables are skipped.
    @Test func gnuLongNamesAndBothSymbolTables() throws {
        func member(_ name: String, _ body: [UInt8]) -> [UInt8] {
            let header =
                name.padding(toLength: 16, withPad: " ", startingAt: 0) + String(repeating: " ", count: 32)
                + String(body.count).padding(toLength: 10, withPad: " ", startingAt: 0) + "`\n"
            return Array(header.utf8) + body + (body.count % 2 == 1 ? [0x0A] : [])
        }
        let object = HostileBytes.read(Repository.machOFixture("AppLib.o"))
        let archive =
            Array("!<arch>\n".utf8) + member("/", [0, 0, 0, 0]) + member("__.SYMDEF SORTED", [0, 0, 0, 0])
            + member("//", Array("AppLib-with-a-long-name.o/\n".utf8)) + member("/0", object)
        let file = try BinaryFile(bytes: archive, path: "libLong.a")
        #expect(file.errors.isEmpty, "\(file.errors)")
        #expect(file.images.map(\.origin.displayName) == ["libLong.a(AppLib-with-a-long-name.o)"])
    }
}
