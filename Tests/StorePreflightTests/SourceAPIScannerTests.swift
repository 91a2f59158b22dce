import ScanEngine
import ShipcheckCore
import StorePreflight
import Testing

@Suite struct SourceAPIScannerTests {
    let scanner = SourceAPIScanner()

    /// "spelling@line" for each use, categories or keys named.
    func uses(_ source: String, _ language: SourceAPIScanner.Language = .swift) -> [String] {
        let bytes = Array(source.utf8)
        return bytes.withByteView { scanner.scan($0, language: language) }.map { use in
            let line = bytes[..<use.offset].filter { $0 == UInt8(ascii: "\n") }.count + 1
            switch use.subject {
            case .requiredReason(let index):
                return
                    "\(use.spelling)@\(line) \(RequiredReasonAPIs.apis[index].categories.map(\.title).joined(separator: "|"))"
            case .purpose(let index):
                return "\(use.spelling)@\(line) \(PurposeStrings.requirements[index].keys[0])"
            }
        }
    }

    @Test func swiftCallsAndKeysAreFoundNotTheirMentions() {
        let source = """
            import Foundation
            // stat(path) and UserDefaults in a comment
            /* nested /* UserDefaults */ still a comment: systemUptime */
            let note = "UserDefaults.standard and stat(x)"
            let raw = #"mach_absolute_time() "quoted" "#
            let multi = \"\"\"
                ProcessInfo.processInfo.systemUptime
                \"\"\"
            func stat(_ x: Int) -> Int { x }
            struct Note { var modificationDate: Date }
            let when = note.modificationDate
            var info = Darwin.stat()
            if stat(path, &info) == 0 {}
            let date = attributes[.modificationDate] as? Date
            let key = FileAttributeKey.creationDate
            let up = ProcessInfo.processInfo.systemUptime
            let defaults = UserDefaults(suiteName: "group")
            """
        #expect(
            uses(source) == [
                "stat()@12 file timestamp", "stat()@13 file timestamp", "[.modificationDate]@14 file timestamp",
                "FileAttributeKey.creationDate@15 file timestamp", ".systemUptime@16 system boot time",
                "UserDefaults@17 user defaults"
            ])
    }

    @Test func objectiveCCallsAndConstantsAreFoundNotIncludes() {
        let source = """
            #import <Foundation/NSUserDefaults.h>
            #include <sys/stat.h>
            // [[NSProcessInfo processInfo] systemUptime]
            NSString *s = @"NSFileModificationDate";
            struct stat st;
            if (stat(path, &st) == 0 && sizeof(struct stat) > 0) {}
            NSTimeInterval up = [[NSProcessInfo processInfo] systemUptime];
            NSDate *date = attributes[NSFileModificationDate];
            uint64_t t = mach_absolute_time();
            int n = p->stat(1);
            """
        #expect(
            uses(source, .cFamily) == [
                "stat()@6 file timestamp", "systemUptime@7 system boot time", "NSFileModificationDate@8 file timestamp",
                "mach_absolute_time()@9 system boot time"
            ])
    }

    @Test func purposeRowsNeedEveryPatternInTheFile() {
        #expect(
            uses("let manager = CLLocationManager()\nmanager.requestWhenInUseAuthorization()") == [
                ".requestWhenInUseAuthorization@2 NSLocationWhenInUseUsageDescription"
            ])
        #expect(uses("manager.requestWhenInUseAuthorization()").isEmpty)
        #expect(uses("let store = CNContactStore()").contains("CNContactStore@1 NSContactsUsageDescription"))
        #expect(
            uses("[[CLLocationManager new] requestAlwaysAuthorization];", .cFamily).sorted() == [
                "requestAlwaysAuthorization@1 NSLocationAlwaysAndWhenInUseUsageDescription",
                "requestAlwaysAuthorization@1 NSLocationWhenInUseUsageDescription"
            ])
        #expect(uses("let s = \"CLLocationManager requestWhenInUseAuthorization\"").isEmpty)
    }

    @Test func debugOnlyBranchesAreNotReleaseCode() {
        let swift = """
            #if DEBUG
            let a = UserDefaults.standard
            #elseif os(iOS)
            let b = ProcessInfo.processInfo.systemUptime
            #else
            let c = mach_absolute_time()
            #endif
            #if !DEBUG
            let d = stat(p, &s)
            #else
            let e = UserDefaults.standard
            #endif
            #if DEBUG && targetEnvironment(simulator)
            let f = UserDefaults.standard
            #endif
            #if DEBUG || BETA
            let g = UserDefaults.standard
            #endif
            """
        #expect(
            uses(swift) == [
                ".systemUptime@4 system boot time", "mach_absolute_time()@6 system boot time",
                "stat()@9 file timestamp",
                "UserDefaults@17 user defaults"
            ])
        let objc =
            "#ifdef DEBUG\nuint64_t t = mach_absolute_time();\n#endif\n#if defined(DEBUG) && 1\nstat(p, &s);\n#else\nfstat(1, &s);\n#endif\n"
        #expect(uses(objc, .cFamily) == ["fstat()@7 file timestamp"])
        let custom = Array("#if INTERNAL_MENU\nlet a = UserDefaults.standard\n#endif\n".utf8)
        #expect(
            custom.withByteView {
                SourceAPIScanner(flags: ReleaseBuildFlags(debugOnly: ["INTERNAL_MENU"])).scan($0, language: .swift)
            }
            .isEmpty)
    }

    /// Hostile directives neither overflow the stack nor cost each directive as much as the
    /// file: a condition nested deeper than any parser could follow (one unknown: compiled),
    /// thousands of branches of one `#if`, `#if`s nested thousands deep inside `#ifdef DEBUG`
    /// (still excluded: the outer `#if`s count).
    @Test func hostileDirectivesEndQuietly() {
        let parens = "#if " + String(repeating: "(", count: 100_000) + "DEBUG\nstat(a, &s);\n#endif\n"
        #expect(uses(parens, .cFamily) == ["stat()@2 file timestamp"])
        let branches = ["#if DEBUG"] + (0..<5_000).map { "#elif A\($0)" } + ["#else", "stat(a, &s);", "#endif"]
        #expect(uses(branches.joined(separator: "\n"), .cFamily) == ["stat()@\(branches.count - 1) file timestamp"])
        let nested =
            ["#ifdef DEBUG"] + Array(repeating: "#if A", count: 5_000) + ["stat(a, &s);"]
            + Array(repeating: "#endif", count: 5_001) + ["fstat(1, &s);"]
        #expect(uses(nested.joined(separator: "\n"), .cFamily) == ["fstat()@\(nested.count) file timestamp"])
    }

    @Test func unterminatedLiteralsAndCommentsEndTheFileQuietly() {
        #expect(uses("let s = \"stat(").isEmpty)
        #expect(uses("/* stat(").isEmpty)
        #expect(uses("let s = #\"stat(").isEmpty)
        #expect(uses("let s = \"\"\"\nstat(").isEmpty)
        #expect(uses("#define X \\\n stat(x)\nstat(y);", .cFamily) == ["stat()@3 file timestamp"])
    }
}
