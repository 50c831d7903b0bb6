import PopoverFiles
import PopoverImage

/// A reviewer's approval of one case, as the report exports it: the case, and the
/// digests of the golden and of the actual image the reviewer looked at.
public struct Approval: Sendable, Hashable, Codable {
    public var id: String
    /// The SHA-256 of the golden file the run compared against, or "none" when the run
    /// found no golden.
    public var expected: String
    /// The SHA-256 of the actual image's file the run saved.
    public var actual: String

    public init(id: String, expected: String, actual: String) {
        self.id = id
        self.expected = expected
        self.actual = actual
    }

    /// What the page shows for a case that had no golden.
    public static let noGolden = "none"

    /// The approvals of an `approvals.json` (`bytes`, read from `name`), as the report's
    /// page exports it (report-review.js): `{"format": "popover-goldens approvals",
    /// "version": 1, "approvals": [{"id": "<case>", "expected": "<SHA-256 of the golden,
    /// or none>", "actual": "<SHA-256 of the actual image>"}]}`.
    public static func decodeFile(_ bytes: [UInt8], name: String) throws(HarnessError) -> [Approval] {
        struct Document: Decodable {
            var format: String
            var version: Int
            var approvals: [Approval]
        }
        let document: Document
        do { document = try JSONFile.decode(Document.self, from: bytes) } catch {
            throw .io("\(name): not an approvals file (\(error))")
        }
        guard document.format == "popover-goldens approvals", document.version == 1 else {
            throw .io("\(name): not an approvals file of version 1 (format '\(document.format)', version \(document.version))")
        }
        guard !document.approvals.isEmpty else { throw .io("\(name): approves no case") }
        let digest = { (text: String) in text.utf8.count == 64 && Hex.bytes(text) != nil }
        if let bad = document.approvals.first(where: { !digest($0.actual) || !(digest($0.expected) || $0.expected == noGolden) }) {
            throw .io("\(name): the approval of '\(bad.id)' does not hold two SHA-256 digests")
        }
        return document.approvals
    }
}
