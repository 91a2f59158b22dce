import SwiftUI

@main
struct ShipcheckSampleApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}
