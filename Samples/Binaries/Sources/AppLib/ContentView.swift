import DeveloperToolsSupport
import SwiftUI

public struct ContentView: View {
    public let title: String
    public init(title: String) { self.title = title }
}

/// An internal classic preview: removed by `-O -wmo`, kept by `-Onone` and non-WMO builds.
struct ContentView_Previews: PreviewProvider {
    static var previews: Text { Text(PreviewFixtures.developerPath) }
}

/// A `public` preview: no optimiser may remove it, it ships in every build.
public struct PublicCard_Previews: PreviewProvider {
    public static var previews: Text { Text("Preview Content/card.json") }
}

/// Shared preview setup, also public.
public struct SampleModifier: PreviewModifier {
    public static func makeSharedContext() -> String { "lorem ipsum dolor sit amet, consectetur" }
}

#Preview("Content") {
    @Previewable var title = "Hello from the preview canvas"
    return ContentView(title: title)
}
