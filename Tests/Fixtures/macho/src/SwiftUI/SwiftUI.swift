// A stand-in for Apple's SwiftUI (compiled with -parse-stdlib: no standard library on Linux for
// Apple targets), under the real module name so the mangled names match what Xcode builds produce.

public protocol View {}

/// Apple's classic preview protocol.
public protocol PreviewProvider {
    associatedtype Previews: View
    static var previews: Previews { get }
}

/// Apple's shared preview setup (iOS 18+).
public protocol PreviewModifier {
    static func makeSharedContext()
}
