// A stand-in for Apple's DeveloperToolsSupport: `#Preview` expands to a type conforming to
// `DeveloperToolsSupport.PreviewRegistry`, named by the macro's unique name
// (`…fMf_15PreviewRegistryfMu_`), exactly the shape Xcode's PreviewsMacros produce.

public protocol PreviewRegistry {
    static func makePreview() -> Any
}

@freestanding(declaration)
public macro Preview(_ name: String = "", body: () -> Any) = #externalMacro(module: "PreviewMacros", type: "PreviewMacro")

/// Marks `@State`-like variables declared inside a `#Preview` body; the expansion wraps them
/// in `__P_Previewable_Transform_Wrapper`, as Apple's macro does.
@attached(peer)
public macro Previewable() = #externalMacro(module: "PreviewMacros", type: "PreviewableMacro")
