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

import CoreLocation

/// Remembers the last tab and asks for location to show nearby episodes. The target ships no
/// PrivacyInfo.xcprivacy declaring user defaults, and no INFOPLIST_KEY_NSLocationWhenInUseUsageDescription
/// says why it asks for location: App Store Connect would reject the archive (ITMS-91053, ITMS-90683).
enum LaunchState {
    static func rememberTab(_ tab: Int) { UserDefaults.standard.set(tab, forKey: "tab") }
    static func askForLocation(_ manager: CLLocationManager) { manager.requestWhenInUseAuthorization() }
}
