import BinaryInspect
import ConflictScan
import ReleaseAudit
import SavedQueries
import ShipcheckCore
import SourceScan

/// Every rule of every capability: for SARIF rule lists and config validation.
enum AllRules {
    static let all: [RuleDescription] =
        SourceScanRules.all + ConflictScanRules.all + BinaryInspectRules.all + SavedQueriesRules.all + ReleaseAuditRules.all

    static var ids: Set<String> { Set(all.map(\.id)) }
}
