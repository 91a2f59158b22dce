import Testing

@testable import SourceScan

/// The cut itself: where pieces start and end, what refuses a cut, which type headers the
/// facts are read from. Each test states the pieces' exact text, so a mis-cut fails here
/// before any finding could hide it.
@Suite struct DeclarationCutTests {
    /// Each piece as `kind: text`, `kind` being `#` for a directive line or the introducer.
    private func pieces(_ source: String) throws -> [String] {
        let bytes = Array(source.utf8)
        return try DeclarationCut(bytes: bytes).pieces.map { piece in
            let kind: String =
                switch piece.kind {
                case .directive: "#"
                case .declaration(let introducer): introducer ?? "-"
                }
            return kind + ": " + String(decoding: bytes[piece.range], as: UTF8.self)
        }
    }

    private func refusal(_ source: String) -> String? {
        do {
            _ = try DeclarationCut(bytes: Array(source.utf8))
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func rawStringsWithHashesAndQuotesStayInTheirDeclaration() throws {
        let source = """
            let a = #"He said "}" and \\#(name) "#
            let b = ##"a "# is not the end, "## + "x"
            struct C {}

            """
        #expect(
            try pieces(source) == [
                "let: let a = #\"He said \"}\" and \\#(name) \"#\n",
                "let: let b = ##\"a \"# is not the end, \"## + \"x\"\n",
                "struct: struct C {}\n"
            ])
    }

    @Test func multilineStringsHoldBracesAndDirectives() throws {
        let source = """
            let text = \"\"\"
                }
                #if DEBUG
                struct Fake {
                \\(value.map { "\\($0)" })
                \"\"\"
            func f() {}

            """
        let cut = try pieces(source)
        #expect(cut.count == 2)
        #expect(cut.first?.hasPrefix("let: let text = \"\"\"\n    }\n    #if DEBUG") == true)
        #expect(cut.last == "func: func f() {}\n")
    }

    @Test func nestedCommentsAreSkippedWhole() throws {
        let source = """
            /* outer /* inner } */ still { a comment */
            struct A {}
            // struct B {
            struct C {}

            """
        #expect(
            try pieces(source) == [
                "struct: /* outer /* inner } */ still { a comment */\nstruct A {}\n",
                "struct: // struct B {\nstruct C {}\n"
            ])
    }

    @Test func directivesInsideATypeStayInIt() throws {
        let source = """
            struct A {
            #if DEBUG
                var debug = 1
            #else
                var release = 2
            #endif
            }
            enum B {}

            """
        #expect(
            try pieces(source) == [
                "struct: struct A {\n#if DEBUG\n    var debug = 1\n#else\n    var release = 2\n#endif\n}\n",
                "enum: enum B {}\n"
            ])
    }

    @Test func topLevelDirectivesAreTheirOwnPieces() throws {
        let source = """
            import SwiftUI
            #Preview { Text("A") }
            #if DEBUG
            #Preview("Dark") {
                Text("B")
            }
            #endif

            """
        #expect(
            try pieces(source) == [
                "import: import SwiftUI\n",
                "-: #Preview { Text(\"A\") }\n",
                "#: #if DEBUG\n",
                "-: #Preview(\"Dark\") {\n    Text(\"B\")\n}\n",
                "#: #endif\n"
            ])
    }

    @Test func attributesBelongToTheDeclarationBelowThem() throws {
        let source = """
            @available(iOS 17, *)
            struct A {}
            @available(*, deprecated, message: "use B")
            @MainActor
            public final class C {}
            private(set) var d = 1

            """
        #expect(
            try pieces(source) == [
                "struct: @available(iOS 17, *)\nstruct A {}\n",
                "class: @available(*, deprecated, message: \"use B\")\n@MainActor\npublic final class C {}\n",
                "var: private(set) var d = 1\n"
            ])
    }

    @Test func aContinuedLineIsNotCut() throws {
        let source = """
            guard let a = b,
                let c = d else { fatalError() }
            let e = [1, 2]
                .map { $0 }

            """
        #expect(
            try pieces(source) == [
                "-: guard let a = b,\n    let c = d else { fatalError() }\n", "let: let e = [1, 2]\n    .map { $0 }\n"
            ])
    }

    @Test func doubtfulFilesAreRefused() {
        #expect(refusal("#if DEBUG\nstruct A {}\n") == "unbalanced #if")
        #expect(refusal("struct A {}\n#endif\n") == "unbalanced #if")
        #expect(refusal("struct A {\n#if DEBUG\n}\n#endif\n") == "unbalanced #if")
        #expect(refusal("struct A {\n") == "unbalanced brackets")
        #expect(refusal("let s = \"open\n") == "an unterminated string literal")
        #expect(refusal("/* /* */\n") == "an unterminated /* comment")
        #expect(refusal("let r = /a\"b/\n") == "a '/' that may start a regex literal")
        #expect(refusal("let r = #/a/#\n") == "a #/ regex literal")
        #expect(refusal("let x = foo\n#if DEBUG\n.debug()\n#endif\n") == "a clause starting with '.'")
        #expect(refusal("#if A ||\nB\nlet x = 1\n#endif\n") == "a directive condition running onto the next line")
        #expect(refusal("let half = a / 2\n") == nil)
    }

    /// The facts of a blanked piece come from its type headers: nested types yes, types in
    /// function bodies no, `class func` is no class.
    @Test func typeHeadersAreThoseTheFactsCollectorVisits() throws {
        func texts(_ source: String) throws -> [String] {
            let bytes = Array(source.utf8)
            let cut = try DeclarationCut(bytes: bytes)
            let words = DeclarationCut.Words(tokens: cut.tokens, partner: cut.partner, bytes: bytes)
            guard case .headers(let ranges) = TypeHeaders.of(try #require(cut.pieces.first), in: words) else {
                return ["unsure"]
            }
            return ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        let source = """
            @MainActor final class Model<T: Equatable>: ObservableObject where T: Sendable {
                class func make() -> Model { struct Local: P {}; fatalError() }
                var kind: Kind = .class
                enum Kind: String { case `class`, other }
            #if DEBUG
                actor Probe: Sendable {}
            #endif
                var body: some View { struct Hidden: View {} }
            }
            """
        #expect(
            try texts(source) == [
                "class Model<T: Equatable>: ObservableObject where T: Sendable ", "enum Kind: String ",
                "actor Probe: Sendable "
            ])
        #expect(try texts("func f() { class Local {} }\n") == ["unsure"])
        #expect(try texts("let x = 1\n") == [])
        #expect(try texts("foo { class A {} }\n") == ["unsure"])
        #expect(try texts("struct A {\n  #warning(\"x\")\n}\n") == ["unsure"])
    }

    /// Within a parsed type, the bodies of methods and computed properties are what may be
    /// left out; initialisers, stored properties with values or observers, nested types stay.
    @Test func memberBodiesAreMethodsAndComputedProperties() throws {
        let source = """
            struct V: View {
                @State private var count = 0 { didSet {} }
                let make = { Model() }
                init() { _count = State(initialValue: 1) }
                var body: some View { Text("\\(count)") }
                static func helper() -> Int where T == U { 1 }
                struct Inner { func nested() {} }
            #if DEBUG
                var debug: Int { get { 1 } }
            #endif
            }

            """
        let bytes = Array(source.utf8)
        let cut = try DeclarationCut(bytes: bytes)
        let words = DeclarationCut.Words(tokens: cut.tokens, partner: cut.partner, bytes: bytes)
        let bodies = MemberBodies.of(try #require(cut.pieces.first), in: words)
        #expect(
            bodies.map { String(decoding: bytes[$0], as: UTF8.self) } == [
                " Text(\"\\(count)\") ", " 1 ", " get { 1 } "
            ])
    }
}
