import AppLib
import SwiftUI

// The release app: uses the library, never the previews.
let view = ContentView(title: "Shipping")
print(view.title, StubbornRetryPolicy().attempts)
