// A SwiftUI preview left outside #if DEBUG, compiled into the Android build of the app's code.
import SwiftUI

struct ContentView: View {}

struct ContentView_Previews: PreviewProvider {
    static var previews: ContentView { ContentView() }
}
