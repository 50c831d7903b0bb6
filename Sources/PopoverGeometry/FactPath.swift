/// Where one fact sits in a `Facts` tree, spelled as `Facts.flattened()` names it:
/// `image`, `apex.x`, `stages[0].insets.left`. Tables of facts (a golden's facts table)
/// use these as column names and rebuild the tree from them with `Facts(leaves:)`.
public struct FactPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var steps: [Step]

    public init(_ steps: [Step]) {
        self.steps = steps
    }

    /// `apex.x`, `stages[0].width`.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }

    /// Reads a path back from its text; nil unless `text` is exactly how `description`
    /// writes some path (so each path has one spelling, and a table cannot name one fact
    /// twice in two ways): it starts with a key; keys are non-empty and hold no `.`, `[`,
    /// `]` or control character; indices are decimal without leading zeros.
    public init?(_ text: String) {
        var steps: [Step] = []
        var rest = Substring(text)
        func takeKey() -> Bool {
            let key = rest.prefix { $0 != "." && $0 != "[" }
            guard Self.isKey(key) else { return false }
            steps.append(.key(String(key)))
            rest = rest[key.endIndex...]
            return true
        }
        guard takeKey() else { return nil }
        while let mark = rest.popFirst() {
            if mark == "." {
                guard takeKey() else { return nil }
                continue
            }
            guard mark == "[" else { return nil }
            let digits = rest.prefix { ("0"..."9").contains($0) }
            rest = rest[digits.endIndex...]
            guard rest.popFirst() == "]", !digits.isEmpty, digits == "0" || digits.first != "0",
                  let index = Int(digits) else { return nil }
            steps.append(.index(index))
        }
        self.steps = steps
    }

    /// Whether `key` can be a step of a written path: non-empty, and none of `.`, `[`,
    /// `]` or a control character, which would make its path read back as another.
    public static func isKey(_ key: some StringProtocol) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII ? scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "." && scalar != "[" && scalar != "]"
                           : scalar.properties.generalCategory != .control
        }
    }

    /// Whether the path's text reads back as this path: it starts with a key, and every
    /// key is one `isKey` admits.
    public var isWritable: Bool {
        guard case .key? = steps.first else { return false }
        return steps.allSatisfy { step in
            if case .key(let key) = step { return Self.isKey(key) }
            return true
        }
    }

    /// Component by component: keys in string order, indices numerically (`stages[2]`
    /// before `stages[10]`), an index before a key, and a path before the paths below it.
    public static func < (a: FactPath, b: FactPath) -> Bool {
        for (x, y) in zip(a.steps, b.steps) where x != y {
            switch (x, y) {
            case (.key(let p), .key(let q)): return p < q
            case (.index(let i), .index(let j)): return i < j
            case (.index, .key): return true
            case (.key, .index): return false
            }
        }
        return a.steps.count < b.steps.count
    }
}
