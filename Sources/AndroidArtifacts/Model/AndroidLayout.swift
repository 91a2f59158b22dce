/// Where each kind of Android artifact keeps its native libraries and manifests: one answer for
/// the walker and the rule examples alike.
enum AndroidLayout {
    /// The module and ABI of a native library at `path` inside an artifact of `kind`; nil when
    /// the path is not one of its native libraries (`lib/<abi>/x.so` of an APK,
    /// `<module>/lib/<abi>/x.so` of a bundle, `jni/<abi>/x.so` of an AAR, `<abi>/x.so` of a
    /// library folder, `<apk>/lib/<abi>/x.so` of an APK set). A library in a folder that names
    /// no ABI Android knows is still one (its ABI nil): the loader never sees it, which a rule says.
    static func library(at path: String, in kind: AndroidArtifactKind) -> (module: String, abi: AndroidABI?)? {
        guard path.hasSuffix(".so") else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        switch kind {
        case .apk:
            guard components.count == 3, components[0] == "lib" else { return nil }
            return ("", AndroidABI(folder: components[1]))
        case .aab:
            guard components.count == 4, components[1] == "lib" else { return nil }
            return (String(components[0]), AndroidABI(folder: components[2]))
        case .aar:
            guard components.count == 3, components[0] == "jni" else { return nil }
            return ("", AndroidABI(folder: components[1]))
        case .libraryFolder:
            guard components.count == 2 else { return nil }
            return ("", AndroidABI(folder: components[0]))
        case .apks:
            guard components.count >= 4, let apk = components.firstIndex(where: { $0.hasSuffix(".apk") }),
                components.count == apk + 4, components[apk + 1] == "lib"
            else { return nil }
            return (components[...apk].joined(separator: "/"), AndroidABI(folder: components[apk + 2]))
        case .library:
            return ("", nil)
        }
    }

    /// The module whose manifest is at `path`, when it is one.
    static func manifestModule(at path: String, in kind: AndroidArtifactKind) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.last == "AndroidManifest.xml" else { return nil }
        switch kind {
        case .apk, .aar: return components.count == 1 ? "" : nil
        case .aab: return components.count == 3 && components[1] == "manifest" ? String(components[0]) : nil
        case .apks:
            guard components.count >= 2, components[components.count - 2].hasSuffix(".apk") else { return nil }
            return components.dropLast().joined(separator: "/")
        case .library, .libraryFolder: return nil
        }
    }
}
