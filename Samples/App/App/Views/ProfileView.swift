import SwiftUI

struct ProfileView: View {
    let name: String

    var body: some View {
        Text("Hello, \(name)")
            .font(.title)
    }
}

/// The profile with a long name.
@available(iOS 17, macOS 14, *)
#Preview("Long name", traits: .sizeThatFitsLayout) {
    ProfileView(name: "Ada Lovelace, Countess of Lovelace")
}

#Preview("Short name") {
    ProfileView(name: "Ada")
}
