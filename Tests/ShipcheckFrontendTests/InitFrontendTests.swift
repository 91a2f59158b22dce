import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

@Suite struct InitFrontendTests {
    /// Each file written is said as it is written; existing files are refused before anything is
    /// written, unless forced; the run-state line is added to `.gitignore` once.
    @Test func writesTheStarterAndTheCIJobsAndRefusesToOverwrite() throws {
        let directory = TemporaryDirectory("shipcheck-init-frontend")
        directory.write(".gitignore", "build/")
        var said: [String] = []
        try Frontend.writeStarterFiles(into: directory.path, force: false, githubActions: true, gitlabCI: false) {
            said.append($0)
        }
        #expect(
            said == [
                "wrote \(directory.path)/.shipcheck.yml\n",
                "wrote \(directory.path)/.github/workflows/shipcheck.yml\n",
                "added .shipcheck/state/ to \(directory.path)/.gitignore\n"
            ])
        #expect(directory.read(".shipcheck.yml") == StarterConfiguration.text)
        #expect(directory.read(".gitignore") == "build/\n.shipcheck/state/\n")

        directory.write(".shipcheck.yml", "exclude: [mine]\n")
        said = []
        #expect(throws: InputError.self) {
            try Frontend.writeStarterFiles(into: directory.path, force: false, githubActions: false, gitlabCI: true) {
                said.append($0)
            }
        }
        #expect(said.isEmpty && directory.read(".gitlab/shipcheck.yml") == nil)

        try Frontend.writeStarterFiles(into: directory.path, force: true, githubActions: false, gitlabCI: false) {
            said.append($0)
        }
        #expect(said == ["wrote \(directory.path)/.shipcheck.yml\n"], "the ignore line is there already")
        #expect(directory.read(".shipcheck.yml") == StarterConfiguration.text)
    }
}
