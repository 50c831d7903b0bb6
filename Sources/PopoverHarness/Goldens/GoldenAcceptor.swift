import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverImage

/// Takes what this build draws for a run's cases as their goldens, and puts the previous
/// ones back, only when every file is still what the run and the reviewer saw. A report
/// may come from anywhere (a CI artifact of another branch), so nothing it says of a case
/// that can be computed is taken from it: the pixels are drawn again, the facts computed
/// again, and the report's images and digests serve only to check that they are what the
/// reviewer looked at.
public struct GoldenAcceptor: Sendable {
    public let store: GoldenStore

    public init(store: GoldenStore) {
        self.store = store
    }

    /// What this build draws for a case: the pixels and the facts it draws them from.
    public struct Drawing: Sendable {
        public let image: RGBAImage
        public let facts: Facts

        public init(image: RGBAImage, facts: Facts) {
            self.image = image
            self.facts = facts
        }
    }

    /// A golden to replace (accepting) or put back (undoing), worked out and checked
    /// before anything is written.
    public struct Write: Sendable {
        public let id: String
        /// The golden after the write (nil: none) and its row of the facts table (nil: none).
        public let png: [UInt8]?
        public let row: FactsTable.Row?
        /// The SHA-256 the golden on disk must still have (nil: still none).
        public let replacing: String?
        /// What the run's record says of the case once written (nil: not accepted).
        public let accepted: Acceptance?
        /// The golden is so already: an operation stopped after writing it and before its
        /// report recorded it. The write records it (and writes the facts' row, which such
        /// a stop can leave behind).
        public let finishing: Bool
        /// Accepting: the golden being replaced (nil: there was none), to keep for undo.
        public let previous: [UInt8]?
    }

    /// Checks that `result` may be accepted, in this order: it failed, had no golden or
    /// was recorded new; the approval, if any, names the images the run recorded;
    /// `actualFile` (the saved actual image, read from `actualPath`) is the one the run
    /// saved; it holds exactly the pixels this build draws (`drawing`, which the caller
    /// computes from the skins); those are drawn from the facts the run recorded; the
    /// golden on disk is still the one the run compared against; and the report's cause
    /// of the case is what the golden's facts and this build's give.
    ///
    /// A golden on disk that is already this build's drawing, while `kept` (what the
    /// report keeps of the golden the run compared against) is that golden, is an accept
    /// that stopped before recording: the write finishes it.
    public func plan(_ result: CaseResult, actualFile: [UInt8], actualPath: String, approval: Approval?,
                     drawing: Drawing, kept: [UInt8]?) throws(AcceptRefusal) -> Write {
        let id = result.id
        guard result.status.isAcceptable else { throw .notAcceptable(id: id, status: result.status) }
        guard let recorded = result.artifacts.actual?.digest else { throw .noActualImage(id: id) }
        if let approval {
            guard approval.expected == (result.goldenDigest ?? Approval.noGolden) else {
                throw .approvalDiffers(id: id, what: "golden")
            }
            guard approval.actual == recorded else { throw .approvalDiffers(id: id, what: "actual image") }
        }
        let found = SHA256.hex(actualFile)
        guard found == recorded else { throw .actualChanged(id: id, path: actualPath, recorded: recorded, found: found) }
        let shown: RGBAImage
        do {
            shown = try PNGFile.decode(actualFile, name: actualPath)
        } catch {
            throw .unreadableActual(id: id, reason: "\(error)")
        }
        guard shown == drawing.image else { throw .notDrawnByThisBuild(id: id) }
        guard GoldenFacts.digest(drawing.facts) == result.factsDigest else { throw .drawnDifferently(id: id) }
        let golden: GoldenWriter.Prepared
        do {
            golden = try GoldenWriter.prepare(drawing.image, as: id, in: store)
        } catch {
            throw .cannotWrite(id: id, reason: "\(error)")
        }
        let current = try currentGolden(id)
        func write(previous: [UInt8]?, digest: String?, finishing: Bool) -> Write {
            Write(id: id, png: golden.png, row: .init(golden: golden.digest, facts: drawing.facts),
                  replacing: finishing ? golden.digest : digest,
                  accepted: Acceptance(at: ISO8601DateFormatter().string(from: Date()), previousGoldenDigest: digest,
                                       goldenDigest: golden.digest),
                  finishing: finishing, previous: previous)
        }
        // A new case whose golden the run itself recorded (record mode `missing`): the
        // golden on disk is this drawing already, and there was none before the run, so
        // accepting keeps it and undoing (rejecting it) removes it and its facts.
        if result.status == .new, current.digest == result.goldenDigest, current.digest == golden.digest {
            return write(previous: nil, digest: nil, finishing: true)
        }
        if current.digest != result.goldenDigest {
            let keptIsRunsGolden = kept.map(SHA256.hex) == result.goldenDigest
            guard current.digest == golden.digest, keptIsRunsGolden else {
                throw .goldenChanged(id: id, path: store.path(for: id))
            }
            return write(previous: kept, digest: result.goldenDigest, finishing: true)
        }
        try checkCause(result, drawn: drawing.facts)
        return write(previous: current.bytes, digest: current.digest, finishing: false)
    }

    /// A change groups cases by what the run recorded of their causes, and the record may
    /// have travelled: so a case's cause must be what the golden's own facts (found in
    /// the goldens folder, whatever the report says of them) and this build's give.
    private func checkCause(_ result: CaseResult, drawn: Facts) throws(AcceptRefusal) {
        guard let cause = result.cause else { return }
        let recorded = store.facts(for: result.id, goldenDigest: result.goldenDigest)
        let geometry = recorded.facts.map { CaseCause.deltas(expected: $0, actual: drawn) } ?? []
        guard cause.facts == recorded.standing, cause.geometry == geometry else { throw .causeDiffers(id: result.id) }
    }

    /// Checks that `result`'s acceptance may be undone, writing nothing: `kept` (the
    /// golden it replaced, kept at `keptPath`) is still that golden and a PNG, and the
    /// golden on disk is still the one the acceptance wrote (or already the one to put
    /// back). `keptRow` is the case's row of the facts table as the acceptance found it.
    public func planUndo(_ result: CaseResult, kept: [UInt8]?, keptPath: String,
                         keptRow: FactsTable.Row?) throws(AcceptRefusal) -> Write {
        let id = result.id
        guard let acceptance = result.accepted else { throw .notAccepted(id: id) }
        let previous = acceptance.previousGoldenDigest
        if previous != nil {
            guard let kept, SHA256.hex(kept) == previous else { throw .previousLost(id: id, path: keptPath) }
            // Only ever a PNG back where a golden was: the kept file came from the report
            // folder, which may have travelled.
            guard (try? PNGFile.decode(kept, name: keptPath)) != nil else { throw .previousLost(id: id, path: keptPath) }
        }
        let current = try currentGolden(id).digest
        guard current == acceptance.goldenDigest || current == previous else {
            throw .goldenChanged(id: id, path: store.path(for: id))
        }
        return Write(id: id, png: previous == nil ? nil : kept, row: keptRow, replacing: current, accepted: nil,
                     finishing: current == previous, previous: nil)
    }

    /// Carries out a write, the golden and its facts' row as one unit, only if the golden
    /// is still the one it was checked against. The caller holds the goldens folder's lock.
    public func carryOutHoldingLock(_ write: Write) throws(AcceptRefusal) {
        do {
            try store.replaceHoldingLock(write.id, png: write.png, row: write.row, ifStill: write.replacing)
        } catch HarnessError.goldenChanged {
            throw .goldenChanged(id: write.id, path: store.path(for: write.id))
        } catch {
            throw .cannotWrite(id: write.id, reason: "\(error)")
        }
    }

    private func currentGolden(_ id: String) throws(AcceptRefusal) -> (bytes: [UInt8]?, digest: String?) {
        switch store.read(id) {
        case .found(let bytes): return (bytes, SHA256.hex(bytes))
        case .missing: return (nil, nil)
        case .unreadable(let error): throw .cannotWrite(id: id, reason: "\(error)")
        }
    }
}
