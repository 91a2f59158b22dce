import SwiftUI

struct ContentView: View {
    var body: some View {
        NavigationStack {
            List {
                NavigationLink("Profile") { ProfileView(name: "Ada") }
                NavigationLink("Settings") { SettingsView() }
                NavigationLink("Gallery") { GalleryView() }
            }
        }
    }
}

#if DEBUG
#Preview {
    ContentView()
}
#endif
