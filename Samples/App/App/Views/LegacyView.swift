import SwiftUI

struct LegacyView: View {
    var body: some View {
        Text(PreviewText.greeting)
    }
}

#if DEBUG
enum PreviewText {
    static let greeting = "Hello from the past"
}
#else
enum PreviewText {
    static let greeting = "Hello"
}
#endif

#Preview {
    LegacyView()
}

#if DEBUG
struct LegacyView_Previews: PreviewProvider {
    static var previews: some View {
        LegacyView()
    }
}
#endif
