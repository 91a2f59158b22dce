import Foundation
import ScanEngine
import ShipcheckCore

/// Entry points for `shipcheck audit`.
package enum SavedQueries {
    /// The audit's saved-query gate as a check for its scan: every `expect: none` query of the
    /// repository store (and the personal store when given); their matches are findings. A store
    /// that does not parse is an input error. Does not touch last-run state. No queries when the
    /// configuration turns `saved-query` off.
    package static func gates(
        root: String, configuration: Configuration, personalStore: QueryStore? = nil,
        timeout: Double? = QueryRunner.defaultTimeout, source: any FileSource = DiskFileSource()
    ) -> QueryCheck {
        var gates: [ScopedQuery] = []
        var errors: [InputError] = []
        if configuration.isEnabled(SavedQueryRule.description) {
            for store in [QueryStore.repository(root: root, configuration: configuration)]
                + (personalStore.map { [$0] } ?? [])
            {
                do {
                    gates += try store.loadScoped(source: source).filter(\.query.expectNone)
                } catch {
                    errors.append(error)
                }
            }
        }
        return QueryCheck(
            queries: gates, configuration: configuration, timeout: timeout, setupErrors: errors, reportsFindings: true)
    }
}
