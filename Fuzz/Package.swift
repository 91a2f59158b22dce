// swift-tools-version: 6.2
// libFuzzer drivers for shipcheck's readers. A package of its own because its executable only
// links with `-sanitize=fuzzer`: build and run it with `make fuzz` (see bench/fuzz/run.sh).
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the checkout is called.
let shipcheck = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "ShipcheckFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "shipcheck-fuzz",
            dependencies: [.product(name: "ShipcheckHostileInputTargets", package: shipcheck)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
