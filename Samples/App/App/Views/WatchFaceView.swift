import SwiftUI

struct WatchFaceView: View {
    var body: some View {
        Circle().stroke(lineWidth: 4)
    }
}

#if !os(watchOS)
#Preview("Watch face on a phone") {
    WatchFaceView()
        .frame(width: 200, height: 200)
}
#endif
