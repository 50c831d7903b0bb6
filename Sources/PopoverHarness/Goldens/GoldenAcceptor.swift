import Foundation
import PopoverFiles
import PopoverGeometry
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
}

/// Why a case was not accepted (or not restored); nothing was written for it.
public enum AcceptRefusal: Error, Equatable, CustomStringConvertible {
    case notAcceptable(id: String, status: CaseStatus)
    case noActualImage(id: String)
    case actualChanged(id: String, path: String, recorded: String, found: String)
    case goldenChanged(id: String, path: String)
    case approvalDiffers(id: String, what: String)
    case unreadableActual(id: String, reason: String)
    case notAccepted(id: String)
    case previousLost(id: String, path: String)
    case cannotWrite(id: String, reason: String)
    case drawnDifferently(id: String)
    case notInCatalog(id: String)
    case causeDiffers(id: String)
    case notSealed(id: String)

    public var id: String {
        switch self {
        case .notAcceptable(let id, _), .noActualImage(let id), .actualChanged(let id, _, _, _), .goldenChanged(let id, _),
             .approvalDiffers(let id, _), .unreadableActual(let id, _), .notAccepted(let id), .previousLost(let id, _),
             .cannotWrite(let id, _), .drawnDifferently(let id), .notInCatalog(let id),
             .causeDiffers(let id), .notSealed(let id):
            id
        }
    }

    public var description: String {
        switch self {
        case .notAcceptable(let id, let status):
            "\(id): \(status.rawValue) cases cannot be accepted (only failed, missing and new ones)"
        case .noActualImage(let id):
            "\(id): the run kept no actual image to accept"
        case .actualChanged(let id, let path, let recorded, let found):
            "\(id): \(path) is not the image the run saved (its SHA-256 is \(found.prefix(12))…, the run recorded "
                + "\(recorded.prefix(12))…); run the check again"
        case .goldenChanged(let id, let path):
            "\(id): \(path) is no longer the golden the run compared against (accepted or edited since); run the check again"
        case .approvalDiffers(let id, let what):
            "\(id): the approval names a different \(what) than the run's (stale or edited approvals); export them again"
        case .unreadableActual(let id, let reason):
            "\(id): the saved actual image cannot be read: \(reason)"
        case .notAccepted(let id):
            "\(id): was not accepted in this run's review, so there is nothing to undo"
        case .previousLost(let id, let path):
            "\(id): the previous golden kept at \(path) is missing or changed; restore it from version control"
        case .cannotWrite(let id, let reason):
            "\(id): cannot write the golden: \(reason)"
        case .drawnDifferently(let id):
            "\(id): this build draws the case from other geometry than the run did (its facts differ); run the check again"
        case .notSealed(let id):
            "\(id): this acceptance was not recorded by this tool on this machine (its seal does not verify), so undo "
                + "leaves the golden alone; restore it from version control"
        case .causeDiffers(let id):
            "\(id): the report's cause for this case is not what its golden's facts and this build give (an edited "
                + "or stale report); run the check again"
        case .notInCatalog(let id):
            "\(id): is not a case this build's skins draw; run the check again"
        }
    }
}

/// Takes a run's actual images as goldens, and puts the previous ones back, only when
/// every file is still what the run and the reviewer saw.
public struct GoldenAcceptor: Sendable {
    public let store: GoldenStore
    public let cache: GoldenPixelCache?

    public init(store: GoldenStore, cache: GoldenPixelCache?) {
        self.store = store
        self.cache = cache
    }

    /// What accepting a case will write, worked out and checked before anything is.
    public struct Plan: Sendable {
        public let id: String
        public let pixels: RGBAImage
        /// The golden being replaced (nil: there was none), kept for undo.
        public let previous: [UInt8]?
        public let previousDigest: String?
        /// The facts to write beside the golden: this build's, never a report's.
        public let facts: Facts
    }

    /// Checks that `result` may be accepted: it failed, had no golden or was recorded new;
    /// `actualFile` (the saved actual image's bytes, read from `actualPath`) still has the
    /// digest the run recorded; the approval, if any, names the same two images; the
    /// golden on disk is still the one the run compared against; and `facts`, which the
    /// caller computes from the case with this build, are the ones the run drew it from
    /// (a report cannot supply facts: it may come from another branch).
    public func plan(_ result: CaseResult, actualFile: [UInt8], actualPath: String,
                     approval: Approval?, facts: Facts) throws(AcceptRefusal) -> Plan {
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
        let pixels: RGBAImage
        do {
            pixels = try PNGFile.decode(actualFile, name: actualPath)
        } catch {
            throw .unreadableActual(id: id, reason: "\(error)")
        }
        let current = try currentGolden(id)
        guard current.digest == result.goldenDigest else { throw .goldenChanged(id: id, path: store.path(for: id)) }
        guard GoldenFacts.digest(facts) == result.factsDigest else { throw .drawnDifferently(id: id) }
        return Plan(id: id, pixels: pixels, previous: current.bytes, previousDigest: current.digest, facts: facts)
    }

    /// Writes the planned golden and its facts, atomically, under the goldens folder's
    /// lock and only if the golden is still the one the plan was made against. The
    /// acceptance is sealed with this machine's key (when there is one), so that an undo
    /// can tell it from one a travelled summary.json claims.
    public func carryOut(_ plan: Plan, at date: Date = Date(), key: MachineKey?) throws(AcceptRefusal) -> Acceptance {
        do {
            let written = try GoldenWriter.write(plan.pixels, as: plan.id, in: store, cache: cache, facts: plan.facts,
                                                 replacing: plan.previousDigest)
            var acceptance = Acceptance(at: ISO8601DateFormatter().string(from: date), previousGoldenDigest: plan.previousDigest,
                                        goldenDigest: SHA256.hex(written))
            acceptance.seal = key.map { Acceptance.seal(acceptance, of: plan.id, key: $0) }
            return acceptance
        } catch HarnessError.goldenChanged {
            throw .goldenChanged(id: plan.id, path: store.path(for: plan.id))
        } catch {
            throw .cannotWrite(id: plan.id, reason: "\(error)")
        }
    }

    /// Puts back the golden an acceptance replaced (`previous`, nil when there was none:
    /// the accepted golden is removed) and its facts, if the acceptance is one this tool
    /// recorded here (its seal verifies under `key`) and the golden is still the one it
    /// wrote. So an undo never touches a golden this tool did not write, whatever a
    /// summary.json claims.
    public func undo(_ result: CaseResult, previous: [UInt8]?, previousPath: String, previousFacts: GoldenFacts?,
                     key: MachineKey?) throws(AcceptRefusal) {
        let id = result.id
        guard let acceptance = result.accepted else { throw .notAccepted(id: id) }
        guard let key, let seal = acceptance.seal, Acceptance.seal(acceptance, of: id, key: key) == seal else {
            throw .notSealed(id: id)
        }
        var restored: [UInt8]?
        if let expected = acceptance.previousGoldenDigest {
            guard let previous, SHA256.hex(previous) == expected else { throw .previousLost(id: id, path: previousPath) }
            // Only ever a PNG back where a golden was: the kept file came from the report
            // folder, which may have travelled.
            guard (try? PNGFile.decode(previous, name: previousPath)) != nil else { throw .previousLost(id: id, path: previousPath) }
            restored = previous
        }
        do {
            try store.locked {
                try store.replaceHoldingLock(id, png: restored, ifStill: acceptance.goldenDigest)
                if let previousFacts, previousFacts.caseID == id, previousFacts.golden == acceptance.previousGoldenDigest {
                    try store.writeFacts(previousFacts)
                }
            }
        } catch HarnessError.goldenChanged {
            throw .goldenChanged(id: id, path: store.path(for: id))
        } catch {
            throw .cannotWrite(id: id, reason: "\(error)")
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
