import PopoverDiff
import PopoverImage

/// The pictures of one judged case, handed over while they are still in memory so that
/// nothing is decoded twice or read back from disk.
public struct CaseImages: Sendable {
    /// The golden, decoded, and its file's bytes as they are (a report can keep the file
    /// itself instead of encoding the pixels again).
    public var expected: RGBAImage?
    public var expectedFile: [UInt8]?
    /// What the case draws now, in straight colour.
    public var actual: RGBAImage?
    /// Where and how much the two differ, when they were compared.
    public var diff: DiffMap?

    public init(expected: RGBAImage? = nil, expectedFile: [UInt8]? = nil, actual: RGBAImage? = nil,
                diff: DiffMap? = nil) {
        self.expected = expected
        self.expectedFile = expectedFile
        self.actual = actual
        self.diff = diff
    }
}

/// Where a check keeps the pictures of the cases a person will want to see (failures,
/// new goldens, errors; every case when asked). The check calls it from its worker
/// threads, once per such case, and records what it returns in the case's result; it
/// knows nothing of folders, file formats or pages.
public protocol CaseArtifactSink: Sendable {
    func keep(_ images: CaseImages, of info: CaseInfo) -> CaseArtifacts
}

/// Keeps nothing: for runs without a report.
public struct DiscardingSink: CaseArtifactSink {
    public init() {}
    public func keep(_ images: CaseImages, of info: CaseInfo) -> CaseArtifacts { CaseArtifacts() }
}
