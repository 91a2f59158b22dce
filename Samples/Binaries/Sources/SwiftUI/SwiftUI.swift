// A stand-in for Apple's SwiftUI: just enough API, under the real module name, that the
// sample's mangled names (`$s…7SwiftUI15PreviewProvider…`) match what Xcode builds produce.

public protocol View {}

public struct Text: View {
    public let content: String
    public init(_ content: String) { self.content = content }
}

/// Apple's classic preview protocol: a type whose `previews` the canvas renders.
public protocol PreviewProvider {
    associatedtype Previews: View
    static var previews: Previews { get }
}

/// Apple's shared preview setup (iOS 18+): a modifier applied to previews.
public protocol PreviewModifier {
    static func makeSharedContext() -> String
}
