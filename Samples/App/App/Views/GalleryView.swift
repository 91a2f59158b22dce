import SwiftUI

struct GalleryView: View {
    let items = ["sunrise", "moon", "cloud"]

    var body: some View {
        ScrollView {
            ForEach(items, id: \.self) { Image(systemName: $0) }
        }
    }
}

#if canImport(SwiftUI) && DEBUG
#Preview("Gallery") {
    GalleryView()
}
#endif

#if DEBUG || targetEnvironment(simulator)
#Preview("Gallery in the simulator") {
    GalleryView()
        .environment(\.colorScheme, .dark)
}
#endif
