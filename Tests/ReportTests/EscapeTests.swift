import PopoverReport
import Testing

/// Every output's escaper against a table worked out by hand: what each input must come
/// out as, hostile inputs (a line break before a workflow command, a combining mark after
/// a `|` or a `<`) among them.
@Suite("Escapers")
struct EscapeTests {
    @Test("terminal and CI log: no control character, line feed or separator reaches a line raw", arguments: [
        ("plain é 😀", "plain é 😀"),
        ("a\nb", #"a\nb"#),
        ("a\rb", #"a\rb"#),
        ("x\r\n::error file=a.png::forged", #"x\r\n::error file=a.png::forged"#),
        ("\n::add-mask::secret", #"\n::add-mask::secret"#),
        ("\r::stop-commands::token", #"\r::stop-commands::token"#),
        ("tab\there", #"tab\there"#),
        ("\u{1B}[31mred", #"\u{1b}[31mred"#),
        ("nel\u{85}x", #"nel\u{85}x"#),
        ("del\u{7F}", #"del\u{7f}"#),
        ("nul\u{0}", #"nul\u{0}"#),
        ("ls\u{2028}ps\u{2029}", #"ls\u{2028}ps\u{2029}"#),
        ("|\u{301} stays", "|\u{301} stays"),
    ])
    func terminal(_ input: String, _ expected: String) {
        #expect(Escape.terminalLine(input) == expected)
    }

    @Test("GitHub workflow commands: data and property values", arguments: [
        ("50% of\r\nthe arrow: moved, up", "50%25 of%0D%0Athe arrow: moved, up", "50%25 of%0D%0Athe arrow%3A moved%2C up"),
        ("a:b,c%d", "a:b,c%25d", "a%3Ab%2Cc%25d"),
        ("x\n::error::forged", "x%0A::error::forged", "x%0A%3A%3Aerror%3A%3Aforged"),
        ("plain", "plain", "plain"),
    ])
    func github(_ input: String, _ data: String, _ property: String) {
        #expect(Escape.githubData(input) == data)
        #expect(Escape.githubProperty(input) == property)
    }

    @Test("Markdown text: a backslash before markup, line breaks and controls as spaces, by scalar", arguments: [
        ("a|b", #"a\|b"#),
        ("|\u{301}x", "\\|\u{301}x"),
        ("`\u{301}x", "\\`\u{301}x"),
        ("*bold* _it_", #"\*bold\* \_it\_"#),
        ("[l](x)", #"\[l\](x)"#),
        ("<b>&amp;", #"\<b\>\&amp;"#),
        ("~~s~~", #"\~\~s\~\~"#),
        (#"back\slash"#, #"back\\slash"#),
        ("line\r\nbreak\nx\ry", "line break x y"),
        ("esc\u{1B}[0m", #"esc \[0m"#),
        ("plain é", "plain é"),
    ])
    func markdown(_ input: String, _ expected: String) {
        #expect(Escape.markdown(input) == expected)
    }

    @Test("Markdown code spans: a longer fence, padding by a backtick, `|` escaped, by scalar", arguments: [
        ("plain", "`plain`"),
        ("a``b", "```a``b```"),
        ("`x", "`` `x ``"),
        ("a|b", #"`a\|b`"#),
        ("|\u{301}", "`\\|\u{301}`"),
        ("`\u{301}", "`` `\u{301} ``"),
        ("x\ny", "`x y`"),
    ])
    func markdownCode(_ input: String, _ expected: String) {
        #expect(Escape.markdownCode(input) == expected)
    }

    @Test("Markdown fences: three backticks, or one more than any run in the lines")
    func markdownFence() {
        #expect(Escape.markdownFence(for: ["a", "b"]) == "```")
        #expect(Escape.markdownFence(for: ["a", "b```c"]) == "````")
        #expect(Escape.markdownFence(for: ["`````x", "``"]) == "``````")
        #expect(Escape.markdownFence(for: []) == "```")
    }

    @Test("HTML text and attributes", arguments: [
        ("<script>&\"'", "&lt;script&gt;&amp;\"'", "&lt;script&gt;&amp;&quot;&#39;"),
        ("<\u{301}b", "&lt;\u{301}b", "&lt;\u{301}b"),
        ("a\u{0}b", "a\u{FFFD}b", "a\u{FFFD}b"),
        ("&lt;", "&amp;lt;", "&amp;lt;"),
        ("plain é", "plain é", "plain é"),
    ])
    func html(_ input: String, _ text: String, _ attribute: String) {
        #expect(Escape.html(input) == text)
        #expect(Escape.htmlAttribute(input) == attribute)
    }

    @Test("relative URLs and case anchors", arguments: [
        ("cases/a b#c?d%e.png", "cases/a%20b%23c%3Fd%25e.png"),
        ("/abs/x@2x.png", "abs/x@2x.png"),
        ("é:\"<", "%C3%A9%3A%22%3C"),
        ("gik-default/up/a+b_c~d.png", "gik-default/up/a+b_c~d.png"),
    ])
    func relativeURL(_ input: String, _ expected: String) {
        #expect(Escape.relativeURL(input) == expected)
        #expect(Escape.caseAnchor(input) == "c-" + expected)
    }

    @Test("JSON in a script element: no `<` left")
    func scriptJSON() {
        #expect(Escape.scriptJSON(#"{"a":"</script><!--"}"#) == #"{"a":"\u003c/script>\u003c!--"}"#)
    }

    @Test("XML content and attributes", arguments: [
        ("a<b>&\"'", "a&lt;b&gt;&amp;\"'", "a&lt;b&gt;&amp;&quot;&apos;"),
        ("l\nt\tc\r", "l\nt\tc&#13;", "l&#10;t&#9;c&#13;"),
        ("x\u{1}y\u{FFFE}z\u{FFFF}", "x\u{FFFD}y\u{FFFD}z\u{FFFD}", "x\u{FFFD}y\u{FFFD}z\u{FFFD}"),
        ("<\u{301}", "&lt;\u{301}", "&lt;\u{301}"),
    ])
    func xml(_ input: String, _ text: String, _ attribute: String) {
        #expect(Escape.xml(input) == text)
        #expect(Escape.xmlAttribute(input) == attribute)
    }

    @Test("shell words", arguments: [
        ("gik-default/up/a@2x", "gik-default/up/a@2x"),
        ("a b", "'a b'"),
        ("it's", #"'it'\''s'"#),
        ("", "''"),
        ("$(rm -rf ~)", "'$(rm -rf ~)'"),
        ("é", "'é'"),
    ])
    func shellWord(_ input: String, _ expected: String) {
        #expect(Escape.shellWord(input) == expected)
    }
}
