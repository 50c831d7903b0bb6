import PopoverFiles
import PopoverHarness
import PopoverImage

/// `approvals.json`, as the report's page exports it (report-review.js):
/// `{"format": "popover-goldens approvals", "version": 1, "approvals": [{"id": "<case>",
/// "expected": "<SHA-256 of the golden, or none>", "actual": "<SHA-256 of the actual image>"}]}`.
public enum ApprovalsFile {
    struct Document: Decodable {
        var format: String
        var version: Int
        var approvals: [Approval]
    }

    /// The approvals in `bytes`; `name` (the path) names the file in errors.
    public static func decode(_ bytes: [UInt8], name: String) throws(ReviewError) -> [Approval] {
        let document: Document
        do { document = try JSONFile.decode(Document.self, from: bytes) } catch {
            throw .approvals(file: name, reason: "not an approvals file (\(error))")
        }
        guard document.format == "popover-goldens approvals", document.version == 1 else {
            throw .approvals(file: name, reason: "not an approvals file of version 1 (format '\(document.format)', "
                + "version \(document.version))")
        }
        guard !document.approvals.isEmpty else { throw .approvals(file: name, reason: "approves no case") }
        let digest = { (text: String) in text.utf8.count == 64 && Hex.bytes(text) != nil }
        if let bad = document.approvals.first(where: { !digest($0.actual) || !(digest($0.expected) || $0.expected == Approval.noGolden) }) {
            throw .approvals(file: name, reason: "the approval of '\(bad.id)' does not hold two SHA-256 digests")
        }
        return document.approvals
    }
}
