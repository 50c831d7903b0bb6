import Plot

/// The report's HTML vocabulary, on top of Plot's nodes.
///
/// Plot 0.14.0 writes attribute values exactly as given (`title="` + value + `"`), and
/// its text escaping leaves anything shaped like an entity alone (`&lt;` stays `&lt;`,
/// so it shows as `<`). An ID holding a quote would end an attribute early, and text
/// holding `&lt;` would not read back as written. So the report escapes every string
/// itself, completely, and gives Plot only escaped text: build the page with these
/// helpers, never with Plot's `.text`, `.title`, `.href`, `.src`...
typealias HTMLNode = Node<HTML.BodyContext>

enum HTMLEscape {
    /// Text between tags.
    static func text(_ text: String) -> String {
        escape(text, quotes: false)
    }

    /// A double-quoted attribute value. Quotes of both kinds are escaped, so the value
    /// stays one value whichever quote a later edit wraps it in.
    static func attribute(_ text: String) -> String {
        escape(text, quotes: true)
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        // Most strings need nothing: skip the copy.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0 })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&#39;"
            // HTML parsers drop or replace NUL; say so visibly instead.
            case "\u{0}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A relative URL for a path inside the report folder: every byte outside the
    /// unreserved set, `/`, `@` and `+` is percent-encoded, so a name holding `#`, `?`, `%`,
    /// `:` or a space still names the file (and can never read as a scheme or a query).
    static func relativeURL(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "/"), UInt8(ascii: "@"), UInt8(ascii: "+"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + hex(byte)
            }
        }
        // A leading "/" would make the link absolute: the report must work from any folder.
        while out.hasPrefix("/") { out.removeFirst() }
        return out
    }

    /// The `id` of a case's section (and the fragment that links to it). Percent-encoding
    /// keeps it free of spaces (not allowed in an id) and of anything a fragment would
    /// re-interpret; the link matches the id as written, before any decoding.
    static func anchor(forCase id: String) -> String {
        "c-" + relativeURL(id)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

extension Node where Context == HTML.BodyContext {
    /// An element with children (attributes and nodes).
    static func tag(_ name: String, _ nodes: [HTMLNode]) -> HTMLNode {
        .element(named: name, nodes: nodes)
    }

    static func tag(_ name: String, _ nodes: HTMLNode...) -> HTMLNode {
        .element(named: name, nodes: nodes)
    }

    /// A void element (`img`, `input`, `br`), attributes as name-value pairs.
    static func void(_ name: String, _ attributes: [(String, String)]) -> HTMLNode {
        .selfClosedElement(named: name, attributes: attributes.map { name, value in
            Attribute<HTML.BodyContext>(name: name, value: HTMLEscape.attribute(value), ignoreIfValueIsEmpty: false)
        })
    }

    /// An attribute; the value is escaped.
    static func attr(_ name: String, _ value: String) -> HTMLNode {
        .attribute(named: name, value: HTMLEscape.attribute(value), ignoreIfValueIsEmpty: false)
    }

    /// A `class` attribute.
    static func cls(_ names: String) -> HTMLNode { attr("class", names) }

    /// Text; escaped.
    static func txt(_ text: String) -> HTMLNode { .raw(HTMLEscape.text(text)) }

    /// An element holding only text, with a class.
    static func textElement(_ name: String, _ classes: String, _ text: String) -> HTMLNode {
        classes.isEmpty ? tag(name, txt(text)) : tag(name, cls(classes), txt(text))
    }
}
