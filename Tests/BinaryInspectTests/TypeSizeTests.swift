import Testing

@testable import BinaryInspect

/// A type's cost in a message is the sum of the sizes of the symbols that name the type or its
/// members: a longer identifier that starts with the name is another type.
@Suite struct TypeSizeTests {
    static func contents(_ symbols: [(String, UInt64)], hasSymbolTable: Bool = true) -> BinaryContents {
        var contents = BinaryContents(path: "App")
        contents.hasSymbolTable = hasSymbolTable
        contents.symbols = symbols.enumerated().map { index, symbol in
            BinaryContents.NamedSymbol(
                mangled: "$s\(index)", demangled: symbol.0, size: symbol.1, section: ".text", offset: UInt64(index))
        }
        return contents
    }

    @Test func membersCountLongerIdentifiersDoNot() {
        let contents = Self.contents([
            ("App.MockUser.init() -> App.MockUser", 100),
            ("static App.MockUser.shared : App.MockUser", 20),
            ("type metadata for App.MockUser", 3),
            ("App.MockUserStore.load() -> ()", 1000),
            ("App.MockUser_2.init()", 2000),
            ("App.MockUser2.init()", 4000),
            ("App.MockUserStore.user(App.MockUserStore) -> App.MockUser", 5),
            ("App.MockUserÉtat.init()", 8000),
            ("App.MockUser→x", 7)
        ])
        #expect(contents.size(ofType: "App.MockUser") == 135)
        #expect(contents.size(ofType: "App.MockUserStore") == 1005)
        #expect(contents.size(ofType: "App.Missing") == nil)
    }

    @Test func nonASCIINamesAndSums() {
        let contents = Self.contents([("App.Café.init()", 10), ("App.Café.body", UInt64.max), ("App.Cafés", 1)])
        #expect(contents.size(ofType: "App.Café") == UInt64.max)
        #expect(Self.contents([("App.Café", 10)], hasSymbolTable: false).size(ofType: "App.Café") == nil)
    }
}
