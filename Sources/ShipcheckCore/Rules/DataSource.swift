/// Where a data table comes from and when it was copied: reports and docs quote it, and whoever
/// refreshes a table compares it with the page named here.
package struct DataSource: Sendable, Hashable {
    package var title: String
    package var url: String
    /// The day the table was compared with the page (ISO 8601).
    package var retrieved: String

    package init(title: String, url: String, retrieved: String) {
        self.title = title
        self.url = url
        self.retrieved = retrieved
    }
}
