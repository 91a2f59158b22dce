import ArgumentParser
import ShipcheckFrontend

/// Options for running `sources` as a build step (the ShipcheckBuildTool plugin, an Xcode Run
/// Script phase): warnings only, absolute paths.
struct BuildStepOptions: ParsableArguments {
    @Flag(help: "Report errors as warnings, so findings never fail the run (for build steps).")
    var lenient = false

    @Flag(help: "Name files by absolute path, so build systems (Xcode's issue navigator) can open them.")
    var absolutePaths = false

    var mode: SourcesBuildStep { SourcesBuildStep(lenient: lenient, absolutePaths: absolutePaths) }
}
