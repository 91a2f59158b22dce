// A stand-in for Apple's DeveloperToolsSupport: `#Preview` expands to a type conforming to
// `DeveloperToolsSupport.PreviewRegistry`, named by the macro's unique name. The macros are the
// ones Samples/Binaries builds (a compiler plugin against the toolchain's own swift-syntax).

public protocol PreviewRegistry {
    static func makePreview() -> Any
}

@freestanding(declaration)
public macro Preview(body: () -> Any) = #externalMacro(module: "PreviewMacros", type: "PreviewMacro")

@attached(peer)
public macro Previewable() = #externalMacro(module: "PreviewMacros", type: "PreviewableMacro")
