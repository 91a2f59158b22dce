import SwiftUI

struct DemoView: View {
    var body: some View {
        Text("Demo")
    }
}

// shipcheck:ignore preview-outside-debug -- the demo target is an internal showcase, never archived
#Preview {
    DemoView()
}

// A catalog of preview providers for the internal showcase: uses the type, does not conform.
// #Preview { DemoView() }
let previewCatalog: [String: any PreviewProvider.Type] = [:]
let previewTitle = "#Preview is a macro"
