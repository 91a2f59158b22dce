/// Feature switches read at launch.
public enum FeatureFlags {
    #if DEBUG
    public static let showsDebugMenu = true
    #else
    public static let showsDebugMenu = false
    #endif
}
