/// A piece of an HTML page: elements, attributes and text, rendered with every text and
/// attribute value escaped. Nothing that came from a run (an ID, a message, a path) can
/// reach the page except through `text` or an attribute value, so none of it can ever
/// open a tag, end an attribute or start a script.
///
/// Children of an element may mix attributes and content, in the manner of Plot's
/// nodes, so pages read top to bottom: `.tag("p", .cls("note"), .text(message))`.
/// The only unescaped content is the page's own stylesheet and scripts (`style`,
/// `script`), which come from the package's files, never from a run.
public indirect enum HTMLNode: Sendable {
    case element(String, [HTMLNode])
    /// An element without content or end tag (`img`, `input`, `meta`).
    case voidElement(String, [HTMLNode])
    /// `name="value"`; a nil value writes the name alone (`hidden`, `open`).
    case attribute(String, String?)
    case text(String)
    case group([HTMLNode])
    /// The package's own CSS or JavaScript, inside `<style>` or `<script>`.
    case trustedCode(element: String, code: String)
    /// JSON for the page's script to read with `JSON.parse`, in
    /// `<script type="application/json" id="...">`: inert data, never run. It must hold
    /// no `<` (write it `\u003c`), so nothing in it can end the element.
    case jsonData(id: String, json: String)

    public static let empty = HTMLNode.group([])

    public static func tag(_ name: String, _ nodes: HTMLNode...) -> HTMLNode { .element(name, nodes) }
    public static func tag(_ name: String, _ nodes: [HTMLNode]) -> HTMLNode { .element(name, nodes) }
    public static func void(_ name: String, _ nodes: HTMLNode...) -> HTMLNode { .voidElement(name, nodes) }
    public static func attr(_ name: String, _ value: String) -> HTMLNode { .attribute(name, value) }
    /// A boolean attribute: present or not.
    public static func flag(_ name: String, _ on: Bool = true) -> HTMLNode { on ? .attribute(name, nil) : .empty }
    public static func cls(_ names: String) -> HTMLNode { .attribute("class", names) }
    /// An element holding only text, with a class (none when `classes` is empty).
    public static func textElement(_ name: String, _ classes: String, _ text: String) -> HTMLNode {
        classes.isEmpty ? .element(name, [.text(text)]) : .element(name, [.cls(classes), .text(text)])
    }
    public static func group(_ nodes: HTMLNode...) -> HTMLNode { .group(nodes) }

    /// The markup. Attributes of an element are written in the order given.
    public func render() -> String {
        var out = ""
        out.reserveCapacity(1 << 16)
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .element(let name, let nodes):
            out += "<" + name
            Self.writeAttributes(nodes, to: &out)
            out += ">"
            for node in nodes { node.writeContent(to: &out) }
            out += "</" + name + ">"
        case .voidElement(let name, let nodes):
            out += "<" + name
            Self.writeAttributes(nodes, to: &out)
            out += ">"
        case .attribute:
            break  // only meaningful inside an element
        case .text(let text):
            out += Escape.html(text)
        case .group(let nodes):
            for node in nodes { node.write(to: &out) }
        case .trustedCode(let element, let code):
            // A closing tag inside would end the element early; the package's files never
            // hold one, and this keeps it that way.
            precondition(!code.lowercased().contains("</" + element), "\(element) code must not close its element")
            out += "<" + element + ">" + code + "</" + element + ">"
        case .jsonData(let id, let json):
            precondition(!json.contains("<"), "JSON data must escape every <")
            out += "<script type=\"application/json\" id=\"" + Escape.htmlAttribute(id) + "\">" + json + "</script>"
        }
    }

    /// Everything but attributes, which the element's start tag has written.
    private func writeContent(to out: inout String) {
        switch self {
        case .attribute: break
        case .group(let nodes): for node in nodes { node.writeContent(to: &out) }
        default: write(to: &out)
        }
    }

    private static func writeAttributes(_ nodes: [HTMLNode], to out: inout String) {
        for node in nodes {
            switch node {
            case .attribute(let name, let value):
                precondition(isAttributeName(name), "'\(name)' is not an attribute name")
                out += " " + name
                if let value { out += "=\"" + Escape.htmlAttribute(value) + "\"" }
            case .group(let inner):
                writeAttributes(inner, to: &out)
            default:
                break
            }
        }
    }

    /// Names are the page's own, never a run's; this only guards against a typo turning
    /// into broken markup.
    private static func isAttributeName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "-"
        }
    }
}
