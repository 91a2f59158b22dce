import SwiftUI

struct CounterRow: View {
    @State private var count = 0
    private let onTap: () -> Void

    init() {
        // A method reference copies `self` before SwiftUI attaches `count`: taps never update the row.
        onTap = increment
    }

    var body: some View {
        Button("Tapped \(count) times", action: onTap)
    }

    private func increment() { count += 1 }
}
