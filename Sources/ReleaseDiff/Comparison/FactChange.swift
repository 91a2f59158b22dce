/// A list of facts of one kind (permissions, usage descriptions, SDKs…) as two releases state
/// it: what the new one adds and what it drops.
package struct FactChange: Sendable, Hashable, Encodable {
    /// How the section names the facts (`permissions`, `usage descriptions`).
    package var name: String
    package var added: [String]
    package var removed: [String]

    package init(name: String, old: [String], new: [String]) {
        self.name = name
        let before = Set(old)
        let after = Set(new)
        added = after.subtracting(before).sorted()
        removed = before.subtracting(after).sorted()
    }

    package var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}

/// One value two releases state differently (a version, the minimum OS).
package struct ValueChange: Sendable, Hashable, Encodable {
    package var name: String
    package var old: String?
    package var new: String?

    package init(name: String, old: String?, new: String?) {
        self.name = name
        self.old = old
        self.new = new
    }
}

/// A row of a size table: a part's size in both releases, in the download and installed.
package struct SizeRow: Sendable, Hashable, Encodable {
    package var name: String
    package var old: Sizes
    package var new: Sizes

    package init(name: String, old: Sizes, new: Sizes) {
        self.name = name
        self.old = old
        self.new = new
    }

    package struct Sizes: Sendable, Hashable, Encodable {
        package var download: UInt64
        package var install: UInt64

        package init(download: UInt64 = 0, install: UInt64 = 0) {
            self.download = download
            self.install = install
        }

        static func + (lhs: Sizes, rhs: Sizes) -> Sizes {
            Sizes(download: lhs.download &+ rhs.download, install: lhs.install &+ rhs.install)
        }
    }

    /// How much the installed size grew (negative: shrank).
    package var installGrowth: Int64 { Int64(bitPattern: new.install &- old.install) }
    package var downloadGrowth: Int64 { Int64(bitPattern: new.download &- old.download) }
    package var isChanged: Bool { old != new }
}
