// swift-tools-version: 6.2
// The leak samples. `./build.sh` is the build used by tests and `make demo` (it produces the
// -Onone / -O -wmo / stripped / non-WMO variants with swiftc directly and builds the #Preview
// macro against the toolchain's own swift-syntax). This manifest describes the same modules so
// the sources open in an editor; `#Preview` needs build.sh's plugin, so ContentView.swift's
// macro use only compiles there.
import PackageDescription

let package = Package(
    name: "LeakSamples",
    targets: [
        .target(name: "SwiftUI"),
        .target(name: "DeveloperToolsSupport"),
        .target(name: "AppLib", dependencies: ["SwiftUI", "DeveloperToolsSupport"]),
        .target(name: "AppTestSupport"),
        .executableTarget(name: "App", dependencies: ["AppLib", "AppTestSupport"])
    ]
)
