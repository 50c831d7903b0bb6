import PopoverHarness
/// Every escaper the tool's outputs use, one per output, in one place. A run's record
/// holds text from the repository (skin folder names, file names, facts tables), from
/// a report or a shard (errors, notes, messages, explanations): all of it is data, and
/// it reaches an output only through that output's escaper here.
///
/// Each works on Unicode scalars (or bytes), never on `Character`s: a `|` followed by a
/// combining mark is one `Character` that is not `|`, yet every Markdown, HTML or shell
/// reader sees the `|` byte.
public enum Escape {
    // MARK: Terminal and CI logs

    /// One line for a terminal or a CI log: every control character (line feed, carriage
    /// return, escape, tab, C1 controls such as NEL) and the Unicode line and paragraph
    /// separators written as visible `\n`, `\r`, `\t` or `\u{1b}` instead. So nothing a
    /// line carries can start a new line: a CI runner obeys workflow commands
    /// (`::error ...`, `::add-mask::`, `::stop-commands::`) only at a line's start, and a
    /// terminal obeys escape sequences.
    public static func terminalLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isUnprintable(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        return scalar.value == 0x2028 || scalar.value == 0x2029
    }

    // MARK: GitHub workflow commands

    /// A workflow command's message (`::error ...::<data>`): `%`, carriage return and line
    /// feed percent-encoded, as the runner decodes them.
    public static func githubData(_ text: String) -> String {
        replacing(text, ["%": "%25", "\r": "%0D", "\n": "%0A"])
    }

    /// A workflow command's property value (`file=<value>,title=<value>`): as
    /// `githubData`, and also `:` and `,`, which would end it.
    public static func githubProperty(_ text: String) -> String {
        replacing(text, ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
    }

    /// `text` with each scalar `table` names written as its text there, and each other
    /// scalar as `unlisted` writes it (as it is when that gives nil).
    private static func replacing(_ text: String, _ table: [Unicode.Scalar: String],
                                  unlisted: (Unicode.Scalar) -> String? = { _ in nil }) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = table[scalar] ?? unlisted(scalar) { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    // MARK: Markdown (summary.md)

    /// Text for a Markdown paragraph, list item or table cell, never at a line's start:
    /// CommonMark's backslash escape before every character that could start markup there
    /// (emphasis, code, links, HTML, entities, strike-through, and the `|` that ends a
    /// cell), and every line break, or other control character, as a space (a table row
    /// is one line).
    public static func markdown(_ text: String) -> String {
        var out = ""
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCarriageReturn: continue  // \r\n is one break: one space
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&":
                out += "\\"
                out.unicodeScalars.append(scalar)
            case let s where isUnprintable(s): out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An inline code span for a table cell: fenced with one backtick more than the longest
    /// run inside, padded with spaces when the text starts or ends with a backtick; a `|`
    /// would still end the cell, so it gets the backslash GitHub and GitLab drop there.
    /// Control characters become spaces.
    public static func markdownCode(_ text: String) -> String {
        var inside = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": inside += "\\|"
            case let s where isUnprintable(s): inside += " "
            default: inside.unicodeScalars.append(scalar)
            }
        }
        let fence = String(repeating: "`", count: longestBacktickRun(text) + 1)
        let pad = text.unicodeScalars.first == "`" || text.unicodeScalars.last == "`" ? " " : ""
        return fence + pad + inside + pad + fence
    }

    /// A fenced code block's fence: three backticks, or one more than the longest run of
    /// backticks in `lines`, so no line can close it.
    public static func markdownFence(for lines: [String]) -> String {
        String(repeating: "`", count: max(3, (lines.map(longestBacktickRun).max() ?? 0) + 1))
    }

    static func longestBacktickRun(_ text: String) -> Int {
        var longest = 0, run = 0
        for byte in text.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    // MARK: HTML (the page)

    /// Text between tags: `&`, `<` and `>` become references; NUL, which HTML parsers drop
    /// or replace, becomes U+FFFD visibly.
    public static func html(_ text: String) -> String { html(text, quotes: false) }

    /// A double-quoted attribute value. Quotes of both kinds are escaped too, so the value
    /// stays one value whichever quote surrounds it.
    public static func htmlAttribute(_ text: String) -> String { html(text, quotes: true) }

    private static func html(_ text: String, quotes: Bool) -> String {
        // Most strings need nothing: skip the copy.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0 })
        else { return text }
        return replacing(text, quotes ? htmlAttributeReferences : htmlReferences)
    }

    private static let htmlReferences: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\u{0}": "\u{FFFD}"]
    private static let htmlAttributeReferences = htmlReferences.merging(["\"": "&quot;", "'": "&#39;"]) { $1 }

    /// JSON for a page's `<script type="application/json">` block: every `<` written
    /// `\u003c` (the same string to `JSON.parse`), so no string in it can end the element.
    public static func scriptJSON(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// A relative URL for a path inside the report folder: every byte outside the
    /// unreserved set, `/`, `@` and `+` is percent-encoded, so a name holding `#`, `?`,
    /// `%`, `:` or a space still names the file (and can never read as a scheme or a
    /// query); a leading `/` is dropped, so the link stays relative.
    public static func relativeURL(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "/"), UInt8(ascii: "@"), UInt8(ascii: "+"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0xF)]
            }
        }
        while out.hasPrefix("/") { out.removeFirst() }
        return out
    }

    private static let hexDigits = "0123456789ABCDEF".map(String.init)

    /// The `id` of a case's section on the page, and the fragment that links to it:
    /// percent-encoded as `relativeURL`, so it holds no space (not allowed in an id) and
    /// nothing a fragment would re-interpret.
    public static func caseAnchor(_ id: String) -> String { "c-" + relativeURL(id) }

    // MARK: XML (junit.xml)

    /// Element content: `&`, `<` and `>` as references, a carriage return as `&#13;` (a
    /// parser would turn it into a line feed), and characters XML 1.0 forbids (controls
    /// other than tab, line feed and carriage return; U+FFFE, U+FFFF) as U+FFFD.
    public static func xml(_ text: String) -> String { xml(text, attribute: false) }

    /// A double-quoted attribute value: as `xml`, and quotes, tabs and line breaks as
    /// references (a parser would turn them into spaces).
    public static func xmlAttribute(_ text: String) -> String { xml(text, attribute: true) }

    private static func xml(_ text: String, attribute: Bool) -> String {
        replacing(text, attribute ? xmlAttributeReferences : xmlReferences) { scalar in
            scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : nil
        }
    }

    private static let xmlReferences: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;",
                                                                  "\n": "\n", "\t": "\t"]
    private static let xmlAttributeReferences = xmlReferences.merging(["\"": "&quot;", "'": "&apos;", "\n": "&#10;",
                                                                       "\t": "&#9;"]) { $1 }

    // MARK: Shell (commands the page and summary.md show)

    /// A word a POSIX shell reads back as itself: as it is when it holds only letters,
    /// digits and `-_./@+`; else in single quotes, each `'` written `'\''`.
    public static func shellWord(_ text: String) -> String { RunRecord.shellWord(text) }
}
