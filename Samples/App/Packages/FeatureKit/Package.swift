// swift-tools-version: 6.0
import PackageDescription

// A local package the app links. Its settings apply to the app's Release builds too.
let package = Package(
    name: "FeatureKit",
    targets: [
        .target(
            name: "FeatureKit",
            swiftSettings: [
                .define("DEBUG"),
                .define("TRACE_LAYOUT", .when(configuration: .debug)),
            ]
        ),
    ]
)
