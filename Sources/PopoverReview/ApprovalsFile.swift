import Foundation
import PopoverFiles
import PopoverHarness

/// `approvals.json`, the file the report's page exports from a reviewer's choices:
///
/// ```json
/// {"format": "popover-goldens approvals", "version": 1,
///  "approvals": [{"id": "gik-default/up/popover8-portrait@2x",
///                 "expected": "<SHA-256 of the golden, or none>", "actual": "<SHA-256 of the actual image>"}]}
/// ```
public enum ApprovalsFile {
    public static let format = "popover-goldens approvals"

    struct Document: Codable {
        var format: String
        var version: Int
        var approvals: [Approval]
    }

    /// The approvals in `bytes`; `name` (the path) names the file in errors.
    public static func decode(_ bytes: [UInt8], name: String) throws(ReviewError) -> [Approval] {
        let document: Document
        do {
            document = try JSONFile.decode(Document.self, from: bytes)
        } catch {
            throw .approvals(file: name, reason: "not an approvals file (\(error))")
        }
        guard document.format == format, document.version == 1 else {
            throw .approvals(file: name, reason: "not an approvals file of version 1 (format '\(document.format)', "
                + "version \(document.version))")
        }
        guard !document.approvals.isEmpty else { throw .approvals(file: name, reason: "approves no case") }
        let digest = try? Regex("^[0-9a-f]{64}$")
        for approval in document.approvals {
            let valid = { (text: String) in digest.map { text.wholeMatch(of: $0) != nil } ?? false }
            guard valid(approval.actual), approval.expected == Approval.noGolden || valid(approval.expected) else {
                throw .approvals(file: name, reason: "the approval of '\(approval.id)' does not hold two SHA-256 digests")
            }
        }
        return document.approvals
    }

    public static func encode(_ approvals: [Approval]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(Document(format: format, version: 1, approvals: approvals))) ?? Data()
        return [UInt8](data) + [10]
    }
}
