import Foundation
import PopoverFiles
import PopoverHarness
import Testing

/// The one rule every JSON file the tool reads goes by (`JSONFile`), on documents written
/// here: a key given twice in one object is an error naming the key and where it stands,
/// deep nesting is said to be deep, and what Foundation accepts otherwise is unchanged.
@Suite("Reading JSON: one rule for every file")
struct JSONRuleTests {
    struct Pair: Decodable, Equatable {
        var a: Int
        var b: [Int]?
    }

    @Test("a key given twice in one object: refused, naming the key, its line and column", arguments: [
        (#"{"a": 1, "a": 2}"#, "a", "line 1, column 10"),
        ("{\"a\": 1,\n  \"b\": [1],\n  \"a\": 2}", "a", "line 3, column 3"),
        // Spelt with an escape, it is the same key.
        (#"{"a": 1, "\u0061": 2}"#, "a", "line 1, column 10"),
        // In a nested object, and in an object inside a list.
        (#"{"a": 1, "b": [1], "c": {"x": 1, "x": 2}}"#, "x", "line 1, column 34"),
        (#"{"a": 1, "d": [{"k": 1, "k": {}}]}"#, "k", "line 1, column 25"),
    ])
    func duplicateKey(_ json: String, _ key: String, _ position: String) throws {
        #expect {
            _ = try JSONFile.object(from: Array(json.utf8))
        } throws: { error in
            "\(error)" == "the key \"\(key)\" appears twice in one object (the second at \(position)); say it once"
        }
    }

    @Test("decoding refuses a duplicate too, whichever value Foundation would have kept")
    func duplicateWhenDecoding() {
        #expect(throws: JSONProblem.self) { try JSONFile.decode(Pair.self, from: Array(#"{"a": 1, "a": 2}"#.utf8)) }
        #expect(throws: JSONProblem.self) { try JSONFile.decode(Pair.self, from: Array(#"{"a": 1, "b": [], "b": [2]}"#.utf8)) }
    }

    @Test("the same key in different objects, a key's name as a value, escaped quotes: all read")
    func notDuplicates() throws {
        let json = #"{"a": 1, "b": [2, 3], "c": {"a": "a", "b": "\"a\""}, "d": [{"a": 1}, {"a": 2}]}"#
        let object = try #require(try JSONFile.object(from: Array(json.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["a", "b", "c", "d"])
        #expect(try JSONFile.decode(Pair.self, from: Array(#"{"a": 1, "b": [2, 3], "c": {"a": 4}}"#.utf8)) == Pair(a: 1, b: [2, 3]))
    }

    @Test("nesting: 512 levels read, 513 and 200,000 said to be nested too deeply, not 'not valid JSON'")
    func nesting() throws {
        func nested(_ depth: Int) -> [UInt8] { Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        #expect(throws: Never.self) { try JSONFile.object(from: nested(512)) }
        for depth in [513, 200_000] {
            #expect {
                _ = try JSONFile.object(from: nested(depth))
            } throws: { error in
                "\(error)" == "nested too deeply: more than 512 levels of arrays and objects (line 1, column 513)"
            }
            #expect {
                _ = try JSONFile.decode([String].self, from: nested(depth))
            } throws: { error in
                "\(error)".hasPrefix("nested too deeply")
            }
        }
    }

    @Test("what is wrong otherwise is said in words, naming the key")
    func otherProblems() {
        func said(_ json: String) -> String {
            do {
                _ = try JSONFile.decode(Pair.self, from: Array(json.utf8))
                return "read"
            } catch {
                return "\(error)"
            }
        }
        #expect(said(#"{"b": [1]}"#) == "missing key 'a'")
        #expect(said(#"{"a": "1"}"#).hasPrefix("wrong type at a: "))
        #expect(said(#"{"a": 1, "b": [1, "x"]}"#).hasPrefix("wrong type at b[1]: "))
        #expect(said("{\"a\": 1,\n \"b\": [1,}").hasPrefix("not valid JSON"))
    }

    @Test("a run record with a key given twice is refused naming the file and the key")
    func runRecord() throws {
        let json = #"{"format": "popover-goldens run", "version": 3, "version": 2}"#
        #expect {
            _ = try RunRecord.decode(Array(json.utf8), name: "S/summary.json")
        } throws: { error in
            "\(error)".hasPrefix("S/summary.json: the key \"version\" appears twice in one object")
        }
    }

    @Test("tolerances.json: a key given twice is refused, not the first (or last) of the two taken")
    func tolerances() {
        #expect {
            _ = try TolerancePolicy(json: Data(#"{"default": {"maxChannelDelta": 0, "maxChannelDelta": 255}}"#.utf8))
        } throws: { error in
            "\(error)".hasPrefix("the key \"maxChannelDelta\" appears twice in one object")
        }
    }
}
