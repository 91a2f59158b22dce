import AndroidArtifacts

/// Which part of a release a file counts toward in the size tables, as diffuse groups an APK
/// (dex, resources, native libraries, assets…) and as App Store Connect's size report groups an
/// app (its executable, each framework and extension, resources).
enum SizeParts {
    static func part(of path: String, in family: ArtifactFamilyName) -> String {
        switch family {
        case .android: android(path)
        case .apple: apple(path)
        case .elf: "binary"
        }
    }

    private static func android(_ path: String) -> String {
        let components = path.split(separator: "/").map(String.init)
        if components.last?.hasSuffix(".so") == true {
            let folder = components.count >= 2 ? components[components.count - 2] : ""
            return AndroidABI(folder: folder).map { "native libraries (\($0.rawValue))" } ?? "native libraries"
        }
        let name = components.last ?? path
        if name.hasSuffix(".dex") { return "dex" }
        if name == "classes.jar" || name.hasSuffix(".jar") { return "classes" }
        if name == "AndroidManifest.xml" { return "manifest" }
        if components.contains("META-INF") { return "signature and metadata" }
        if components.contains("assets") { return "assets" }
        if name == "resources.arsc" || name == "resources.pb" || components.contains("res") { return "resources" }
        return "other"
    }

    private static func apple(_ path: String) -> String {
        let components = path.split(separator: "/").map(String.init)
        if components.contains(where: { $0.hasSuffix(".dSYM") }) { return "dSYMs" }
        // The innermost code bundle holding the file names the part.
        if let index = components.lastIndex(where: { $0.hasSuffix(".framework") || $0.hasSuffix(".appex") }) {
            let kind = components[index].hasSuffix(".appex") ? "extension" : "framework"
            return "\(kind) \(components[index])"
        }
        if let app = components.lastIndex(where: { $0.hasSuffix(".app") }) {
            let inside = components[(app + 1)...]
            let executable = components[app].dropLast(4)
            if inside.count == 1 && inside.first.map({ $0 == executable }) == true { return "executable" }
            if inside == ["Contents", "MacOS", String(executable)] { return "executable" }
            if inside.contains("_CodeSignature") || inside.last == "embedded.mobileprovision" {
                return "signature and profile"
            }
            return "resources"
        }
        return components.count <= 1 ? "binary" : "other"
    }
}
