// The `#Preview` and `@Previewable` macros of the stand-in DeveloperToolsSupport. Built as a
// compiler *library* plugin against the toolchain's own swift-syntax (lib/swift/host), so the
// samples need no swift-syntax build (see build.sh).
import SwiftSyntax
import SwiftSyntaxMacros

public struct PreviewMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let registry = context.makeUniqueName("PreviewRegistry")
        let statements = node.trailingClosure?.statements ?? []
        // `@Previewable var x = …` lines become stored properties of a wrapper, like Apple's expansion.
        var wrapped: [String] = []
        var body: [String] = []
        for item in statements {
            let text = item.trimmedDescription
            if text.hasPrefix("@Previewable") {
                wrapped.append(String(text.dropFirst("@Previewable".count)))
            } else {
                body.append(text)
            }
        }
        let wrapper = wrapped.isEmpty ? "" : """
            struct __P_Previewable_Transform_Wrapper {
                \(wrapped.joined(separator: "\n"))
                func body() -> Any { \(body.joined(separator: "\n")) }
            }
            """
        let make = wrapped.isEmpty ? body.joined(separator: "\n") : "__P_Previewable_Transform_Wrapper().body()"
        return ["""
            struct \(registry): DeveloperToolsSupport.PreviewRegistry {
                \(raw: wrapper)
                static func makePreview() -> Any {
                    \(raw: make)
                }
            }
            """]
    }
}

public struct PreviewableMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}
