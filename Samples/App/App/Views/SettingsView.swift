import SwiftUI

struct SettingsView: View {
    @State private var notifications = true

    var body: some View {
        Form {
            Toggle("Notifications", isOn: $notifications)
        }
    }
}

#if os(iOS)
#if DEBUG
#Preview("Settings on iPhone") {
    SettingsView()
}
#endif
#endif

struct SettingsView_Previews: PreviewProvider {
    static var previews: some View {
        SettingsView()
    }
}
