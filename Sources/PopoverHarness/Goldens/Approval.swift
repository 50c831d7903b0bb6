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
}
