/// One build setting as written in a file: where it is, what it says.
package struct BuildSetting: Sendable, Hashable, Codable {
    /// The key without a condition: `OTHER_SWIFT_FLAGS`.
    package var key: String
    /// The condition suffix as written, if any: `[sdk=iphoneos*]` or `[config=Release]`.
    package var condition: String?
    package var value: BuildSettingValue
    /// The file that assigns it (a `project.pbxproj`, `.xcconfig` or `project.yml`), as given to the reader.
    package var file: String
    /// 1-based line of the assignment, when known.
    package var line: Int?
    /// 1-based UTF-8 column of the key on that line, when known.
    package var column: Int?

    package init(
        key: String, condition: String? = nil, value: BuildSettingValue, file: String, line: Int?, column: Int? = nil
    ) {
        self.key = key
        self.condition = condition
        self.value = value
        self.file = file
        self.line = line
        self.column = column
    }

    /// Splits `KEY[sdk=*]` into the key and its condition.
    static func splitCondition(_ raw: String) -> (key: String, condition: String?) {
        guard let bracket = raw.firstIndex(of: "[") else { return (raw, nil) }
        return (String(raw[..<bracket]), String(raw[bracket...]))
    }
}

/// A setting's value: pbxproj and XcodeGen allow a string or a list of strings.
package enum BuildSettingValue: Sendable, Hashable, Codable {
    case string(String)
    case list([String])

    /// The value as Xcode would see it on one line (list items joined with spaces, each
    /// item quoted when it holds whitespace so splitting gives the same items back).
    package var text: String {
        switch self {
        case .string(let text): text
        case .list(let items):
            items.map { $0.contains(where: { $0 == " " || $0 == "\t" }) && !$0.hasPrefix("\"") ? "\"\($0)\"" : $0 }
                .joined(separator: " ")
        }
    }

    /// The value's words: Xcode splits string-list settings on unquoted whitespace, honouring
    /// double and single quotes and backslash escapes.
    package var words: [String] { BuildSettingWords.split(text) }
}

/// Xcode's splitting of string-list settings (`DEVELOPMENT_ASSET_PATHS`, `OTHER_SWIFT_FLAGS`, …).
package enum BuildSettingWords {
    /// `"\"App/Preview Content\""` (already unescaped by the plist reader to `"App/Preview Content"`)
    /// gives one word; `Preview\ Content` gives one word; an empty value gives none.
    package static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                inWord = true
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                inWord = true
                continue
            }
            if character == " " || character == "\t" || character == "\n" || character == "\r" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
                continue
            }
            current.append(character)
            inWord = true
        }
        if escaped { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }
}
