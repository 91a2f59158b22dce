import DeveloperToolsSupport
import SwiftUI

public struct ContentView: View {
    public init() {}
}

/// An internal classic preview (kept: the fixtures are built without optimisation).
struct ContentView_Previews: PreviewProvider {
    static var previews: ContentView { ContentView() }
}

/// A `public` preview: no optimiser may remove it.
public struct PublicCard_Previews: PreviewProvider {
    public static var previews: ContentView { ContentView() }
}

/// Shared preview setup.
public struct SampleModifier: PreviewModifier {
    public static func makeSharedContext() {}
}

#Preview {
    @Previewable var view = ContentView()
    return view
}
