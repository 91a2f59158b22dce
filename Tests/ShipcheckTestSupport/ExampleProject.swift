/// `project.pbxproj` files for tests, in the text form Xcode writes.
package enum ExampleProject {
    package static let path = "App.xcodeproj/project.pbxproj"

    /// A project file around `objects` (the entries, each line as the file holds it, tabs
    /// included) whose root object is `rootObject`. `xcodeHeader` adds the archive and object
    /// versions Xcode writes before the objects (the reader ignores them; a test counting lines
    /// sees them).
    package static func pbxproj(objects: String, rootObject: String, xcodeHeader: Bool = false) -> String {
        let header = xcodeHeader ? "\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n" : ""
        return "// !$*UTF8*$!\n{\n\(header)\tobjects = {\n\(objects)\t};\n\trootObject = \(rootObject);\n}\n"
    }

    /// A minimal Xcode-shaped project for rule examples: one app target with Debug and Release
    /// configurations whose `DEVELOPMENT_ASSET_PATHS` line is `assetPathsLine` (written as is,
    /// so examples can put the `↓` marker on it).
    package static func pbxproj(assetPathsLine: String) -> String {
        pbxproj(
            objects: """

                /* Begin PBXNativeTarget section */
                \t\tA10000000000000000000001 /* App */ = {
                \t\t\tisa = PBXNativeTarget;
                \t\t\tbuildConfigurationList = A10000000000000000000010 /* Build configuration list for PBXNativeTarget "App" */;
                \t\t\tname = App;
                \t\t\tproductType = "com.apple.product-type.application";
                \t\t};
                /* End PBXNativeTarget section */

                /* Begin PBXProject section */
                \t\tA10000000000000000000002 /* Project object */ = {
                \t\t\tisa = PBXProject;
                \t\t\tbuildConfigurationList = A10000000000000000000011 /* Build configuration list for PBXProject "App" */;
                \t\t\tmainGroup = A10000000000000000000003;
                \t\t\ttargets = (
                \t\t\t\tA10000000000000000000001 /* App */,
                \t\t\t);
                \t\t};
                /* End PBXProject section */

                /* Begin PBXGroup section */
                \t\tA10000000000000000000003 = {
                \t\t\tisa = PBXGroup;
                \t\t\tchildren = (
                \t\t\t);
                \t\t\tsourceTree = "<group>";
                \t\t};
                /* End PBXGroup section */

                /* Begin XCBuildConfiguration section */
                \t\tA10000000000000000000020 /* Debug */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbuildSettings = {
                \(assetPathsLine)
                \t\t\t\tSWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG $(inherited)";
                \t\t\t};
                \t\t\tname = Debug;
                \t\t};
                \t\tA10000000000000000000021 /* Release */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbuildSettings = {
                \t\t\t\tDEVELOPMENT_ASSET_PATHS = "$(inherited)";
                \t\t\t};
                \t\t\tname = Release;
                \t\t};
                \t\tA10000000000000000000022 /* Debug */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbuildSettings = {
                \t\t\t};
                \t\t\tname = Debug;
                \t\t};
                /* End XCBuildConfiguration section */

                /* Begin XCConfigurationList section */
                \t\tA10000000000000000000010 /* Build configuration list for PBXNativeTarget "App" */ = {
                \t\t\tisa = XCConfigurationList;
                \t\t\tbuildConfigurations = (
                \t\t\t\tA10000000000000000000020 /* Debug */,
                \t\t\t\tA10000000000000000000021 /* Release */,
                \t\t\t);
                \t\t\tdefaultConfigurationName = Release;
                \t\t};
                \t\tA10000000000000000000011 /* Build configuration list for PBXProject "App" */ = {
                \t\t\tisa = XCConfigurationList;
                \t\t\tbuildConfigurations = (
                \t\t\t\tA10000000000000000000022 /* Debug */,
                \t\t\t);
                \t\t\tdefaultConfigurationName = Debug;
                \t\t};
                /* End XCConfigurationList section */

                """,
            rootObject: "A10000000000000000000002 /* Project object */", xcodeHeader: true)
    }

    /// The project with Xcode's default `"\"App/Preview Content\""`.
    package static let withPreviewContent = pbxproj(
        assetPathsLine: "\t\t\t\tDEVELOPMENT_ASSET_PATHS = \"\\\"App/Preview Content\\\"\";")
}
