import PopoverImage
import PopoverDiff
import PopoverSkins

/// How one case came out.
public enum CaseStatus: String, Sendable, Codable, CaseIterable {
    /// Matches its golden within tolerance.
    case passed
    /// Differs beyond tolerance.
    case failed
    /// Has no golden, and this run does not record one.
    case missing
    /// Had no golden; this run recorded one.
    case new
    /// Differed; this run rewrote its golden (record modes failed and all).
    case recorded
    /// Could not be judged: drawing failed or the golden could not be read.
    case error

    /// Whether the case makes a check fail.
    public var isFailure: Bool { self == .failed || self == .missing || self == .error }

    /// Whether a reviewer may accept the run's actual image as the new golden: the case
    /// failed or had no golden, and an actual image was drawn.
    public var isAcceptable: Bool { self == .failed || self == .missing || self == .new }
}

/// An image a run kept for its report, relative to the report folder.
public struct SavedImage: Sendable, Hashable, Codable {
    public var path: String
    public var width: Int
    public var height: Int
    /// The SHA-256 of the file's bytes (64 hex digits), where the run took it: what an
    /// approval names, so a file changed since cannot be accepted in its place.
    public var digest: String?

    public init(path: String, width: Int, height: Int, digest: String? = nil) {
        self.path = path
        self.width = width
        self.height = height
        self.digest = digest
    }
}

/// The images a run kept of one case.
public struct CaseArtifacts: Sendable, Hashable, Codable {
    public var expected: SavedImage?
    public var actual: SavedImage?
    public var heatmap: SavedImage?
    /// A small preview for the report's lists.
    public var thumbnail: SavedImage?
    /// Expected, heatmap and actual side by side in one picture, for a CI job's viewer
    /// (absent from summary.json files written before it was made).
    public var triptych: SavedImage?

    public init(expected: SavedImage? = nil, actual: SavedImage? = nil, heatmap: SavedImage? = nil,
                thumbnail: SavedImage? = nil, triptych: SavedImage? = nil) {
        self.expected = expected
        self.actual = actual
        self.heatmap = heatmap
        self.thumbnail = thumbnail
        self.triptych = triptych
    }

    public var isEmpty: Bool { expected == nil && actual == nil && heatmap == nil && thumbnail == nil && triptych == nil }

    /// Every image kept, in a fixed order.
    public var all: [SavedImage] { [expected, actual, heatmap, thumbnail, triptych].compactMap { $0 } }
}

/// A reviewer's acceptance of a case's actual image as its golden, after the run.
public struct Acceptance: Sendable, Hashable, Codable {
    /// When it was accepted (ISO 8601).
    public var at: String
    /// The SHA-256 of the golden it replaced; nil when there was none.
    public var previousGoldenDigest: String?
    /// The SHA-256 of the golden written.
    public var goldenDigest: String

    public init(at: String, previousGoldenDigest: String?, goldenDigest: String) {
        self.at = at
        self.previousGoldenDigest = previousGoldenDigest
        self.goldenDigest = goldenDigest
    }
}

/// The verdict on one case, with what the report shows of it.
public struct CaseResult: Sendable {
    public var info: CaseInfo
    public var status: CaseStatus
    /// One line: why it failed, or "identical", or what was recorded.
    public var message: String
    /// The tolerance the case was judged with, described.
    public var tolerance: String
    /// Nil when nothing was compared (missing, new, error, size mismatch).
    public var metrics: ComparisonMetrics?
    /// The smallest rectangle holding every pixel that differs, in the case's pixels.
    public var changedRegion: PixelRegion?
    /// Where the changed pixels of a case that failed lie, as the few regions the page's
    /// viewer steps through (`DiffMap.changedRegions`); empty otherwise.
    public var changedRegions: [PixelRegion] = []
    /// The golden's path as given to the run.
    public var goldenPath: String
    /// The SHA-256 of the golden file the run compared against (64 hex digits); nil when
    /// there was no golden. An acceptance refuses when the file has changed since.
    public var goldenDigest: String?
    /// The public digest of the drawn pixels (`RGBAImage.pixelDigest()`, 16 hex digits),
    /// kept by shards: with `goldenDigest`, what lets a merge re-derive the verdict a
    /// shard claims.
    public var drawnDigest: String?
    /// Confirmed identical to its golden through the local digest cache, without decoding
    /// the golden.
    public var confirmedFromCache = false
    /// Pixel size of the drawn image (0 when drawing failed).
    public var width = 0
    public var height = 0
    /// Time spent drawing and judging the case.
    public var seconds = 0.0
    public var artifacts = CaseArtifacts()
    /// Set when a reviewer accepted the actual image after the run.
    public var accepted: Acceptance?
    /// Why a failing case's pixels moved: the golden's recorded facts that differ from
    /// this run's, and the parts its changed pixels lie in (failed cases).
    public var cause: CaseCause?
    /// One line in words: what changed (failing cases).
    public var explanation: String?
    /// The ID of the change this failing case belongs to (see `RunRecord.changes`).
    public var change: String?
    /// The SHA-256 of the facts this run drew the case from (cases that can be accepted):
    /// an acceptance computes the facts again and refuses when this build draws the case
    /// differently than the run did.
    public var factsDigest: String?
    /// Where the popover's parts lie on the canvas (failing cases): what `cause.parts` and
    /// a tolerance's `ignore` judge pixels by, and what a viewer can outline.
    public var outline: PopoverOutline?
    /// The parts this case's tolerance ignores (`ignore` in tolerances.json).
    public var ignoredParts: [PopoverPart] = []
    /// How the golden's recorded facts stood in this run; not written to summary.json
    /// (a failing case's cause says it), only counted for the run's notes.
    public var factsStanding: FactsStanding?
    /// Whether this run wrote the golden's facts without touching the golden (`record`
    /// filling in or correcting facts); not written to summary.json.
    public var factsWritten = false

    public init(info: CaseInfo, status: CaseStatus, message: String, tolerance: String, goldenPath: String,
                metrics: ComparisonMetrics? = nil) {
        self.info = info
        self.status = status
        self.message = message
        self.tolerance = tolerance
        self.goldenPath = goldenPath
        self.metrics = metrics
    }

    public var id: String { info.id }

    /// Sets `explanation` from the status, cause and metrics: one line in words.
    public mutating func explain() {
        explanation = Explanation.line(status: status, cause: cause, maxChannelDelta: metrics?.maxChannelDelta,
                                       message: message)
    }

    /// Whether the case still needs a reviewer: it fails (or has no golden) and has not
    /// been accepted since.
    public var needsAttention: Bool { status != .passed && accepted == nil }
}
