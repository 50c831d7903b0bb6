import PopoverGeometry
import Testing

/// Fact paths as text, their order, and facts rebuilt from their flattened paths. The
/// paths and trees are written out by hand.
@Suite("Fact paths and facts rebuilt from them")
struct FactPathTests {
    @Test("a path's text reads back as its steps; every other spelling is refused")
    func text() {
        let table: [(String, [FactPath.Step])] = [
            ("image", [.key("image")]),
            ("apex.x", [.key("apex"), .key("x")]),
            ("stages[0].insets.left", [.key("stages"), .index(0), .key("insets"), .key("left")]),
            ("m[10][2]", [.key("m"), .index(10), .index(2)]),
            ("écart-type", [.key("écart-type")]),
        ]
        for (text, steps) in table {
            #expect(FactPath(text) == FactPath(steps), "\(text)")
            #expect(FactPath(steps).description == text)
        }
        for bad in ["", ".a", "a.", "a..b", "[0]", "a[]", "a[01]", "a[x]", "a[-1]", "a[0", "a]", "a[0]b", "a b\t", "a\nb", "a.[0]"] {
            #expect(FactPath(bad) == nil, "\(bad.debugDescription)")
        }
        #expect(FactPath("a b") == FactPath([.key("a b")]))
    }

    @Test("paths order component by component: keys by string order, list items by number, a path before those below it")
    func order() {
        let sorted = ["apex", "apex.x", "apex.y", "stages[0]", "stages[0].width", "stages[2].width", "stages[10].width", "x[0]", "x.a"]
        let paths = sorted.map { FactPath($0)! }
        #expect(paths.reversed().sorted() == paths)
        #expect(paths.shuffled().sorted() == paths)
    }

    static let facts = Facts([
        "image": .text("up"),
        "mirrored": .flag(false),
        "apex": .group(Facts(["x": .number(120.5), "y": .number(1)])),
        "stages": .list([.group(Facts(["width": .number(196)])), .group(Facts(["width": .number(336), "insets": .group(Facts())]))]),
        "notes": .list([]),
        "extra": .group(Facts()),
    ])

    @Test("leaves, with and without the empty groups and lists, in path order")
    func leaves() {
        let all = Self.facts.leaves(keepingEmpty: true).map { "\($0.path)=\($0.value)" }
        #expect(all == ["apex.x=120.5", "apex.y=1", "extra={}", "image=up", "mirrored=no", "notes=[]",
                        "stages[0].width=196", "stages[1].insets={}", "stages[1].width=336"])
        #expect(Self.facts.flattened().map(\.path) == ["apex.x", "apex.y", "image", "mirrored", "stages[0].width", "stages[1].width"])
    }

    @Test("facts rebuilt from their leaves in any order are the same facts, empty groups and lists included")
    func rebuilt() throws {
        let leaves: [(path: FactPath, value: FactValue)] = [
            (FactPath("stages[1].width")!, .number(336)), (FactPath("image")!, .text("up")), (FactPath("apex.y")!, .number(1)),
            (FactPath("notes")!, .list([])), (FactPath("stages[0].width")!, .number(196)), (FactPath("mirrored")!, .flag(false)),
            (FactPath("extra")!, .group(Facts())), (FactPath("apex.x")!, .number(120.5)), (FactPath("stages[1].insets")!, .group(Facts())),
        ]
        #expect(try Facts(leaves: leaves) == Self.facts)
        #expect(try Facts(leaves: []) == Facts())
    }

    @Test("paths that cannot hold at once are refused, naming the path and why")
    func conflicts() {
        func refusal(_ paths: [String]) -> FactPathError? {
            do {
                _ = try Facts(leaves: paths.map { (FactPath($0)!, FactValue.number(1)) })
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(["a", "a"]) == FactPathError(path: FactPath("a")!, problem: "is given twice"))
        #expect(refusal(["a", "a.b"]) == FactPathError(path: FactPath("a.b")!, problem: "lies below `a`, which holds a value"))
        #expect(refusal(["a.b", "a"]) == FactPathError(path: FactPath("a")!, problem: "holds a value and also has facts below it"))
        #expect(refusal(["a.b", "a[0]"]) == FactPathError(path: FactPath("a[0]")!, problem: "makes `a` both a group and a list"))
        #expect(refusal(["a[0]", "a.b"]) == FactPathError(path: FactPath("a.b")!, problem: "makes `a` both a list and a group"))
        #expect(refusal(["a[0]", "a[2]"]) == FactPathError(path: FactPath("a[2]")!, problem: "is in a list without `a[1]`"))
        #expect(refusal(["a[3]", "a[1]"]) == FactPathError(path: FactPath("a[1]")!, problem: "is in a list without `a[0]`"))
        #expect(refusal(["a.b.c", "a.b.d"]) == nil)
        // An empty group is a value: nothing lies below it.
        #expect(throws: FactPathError(path: FactPath("a.b")!, problem: "lies below `a`, which holds a value")) {
            try Facts(leaves: [(FactPath("a")!, .group(Facts())), (FactPath("a.b")!, .number(1))])
        }
        #expect(FactPathError(path: FactPath("a[1]")!, problem: "is given twice").description == "`a[1]` is given twice")
    }
}
