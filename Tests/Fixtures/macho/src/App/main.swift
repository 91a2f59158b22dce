import AppLib

// The release app: uses the library, never the previews.
let view = ContentView()
