import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverImage

/// Takes a run's actual images as goldens, and puts the previous ones back, only when
/// every file is still what the run and the reviewer saw.
public struct GoldenAcceptor: Sendable {
    public let store: GoldenStore
    public let cache: GoldenDigestCache?

    public init(store: GoldenStore, cache: GoldenDigestCache?) {
        self.store = store
        self.cache = cache
    }

    /// What accepting a case will write, worked out and checked before anything is.
    public struct Plan: Sendable {
        public let id: String
        /// The new golden, encoded and checked.
        public let golden: GoldenWriter.Prepared
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
        let golden: GoldenWriter.Prepared
        do {
            golden = try GoldenWriter.prepare(try PNGFile.decode(actualFile, name: actualPath), as: id, in: store)
        } catch {
            throw .unreadableActual(id: id, reason: "\(error)")
        }
        let current = try currentGolden(id)
        guard current.digest == result.goldenDigest else { throw .goldenChanged(id: id, path: store.path(for: id)) }
        guard GoldenFacts.digest(facts) == result.factsDigest else { throw .drawnDifferently(id: id) }
        return Plan(id: id, golden: golden, previous: current.bytes, previousDigest: current.digest, facts: facts)
    }

    /// The acceptance `plan` will be once carried out, known before anything is written
    /// (so it can be journaled first). It is sealed with this machine's key, when there is
    /// one, so that an undo can tell it from one a travelled summary.json claims.
    public func acceptance(of plan: Plan, at date: Date = Date(), key: MachineKey?) -> Acceptance {
        var acceptance = Acceptance(at: ISO8601DateFormatter().string(from: date), previousGoldenDigest: plan.previousDigest,
                                    goldenDigest: plan.golden.digest)
        acceptance.seal = key.map { Acceptance.seal(acceptance, of: plan.id, key: $0) }
        return acceptance
    }

    /// Writes the planned golden and its facts, atomically, only if the golden is still
    /// the one the plan was made against. The caller holds the goldens folder's lock.
    public func carryOutHoldingLock(_ plan: Plan) throws(AcceptRefusal) {
        do {
            try GoldenWriter.commitHoldingLock(plan.golden, in: store, cache: cache, facts: plan.facts,
                                               replacing: plan.previousDigest)
        } catch HarnessError.goldenChanged {
            throw .goldenChanged(id: plan.id, path: store.path(for: plan.id))
        } catch {
            throw .cannotWrite(id: plan.id, reason: "\(error)")
        }
    }

    /// An undo worked out and checked before anything is written.
    public struct UndoPlan: Sendable {
        public let id: String
        public let acceptance: Acceptance
        /// The golden to put back; nil: the acceptance wrote a new golden, to be removed.
        public let restored: [UInt8]?
    }

    /// Checks that `result`'s acceptance may be undone, writing nothing: it is one this
    /// tool recorded here (its seal verifies under `key`), and `previous` (the golden it
    /// replaced, kept at `previousPath`) is still that golden and a PNG. So an undo never
    /// touches a golden this tool did not write, whatever a summary.json claims.
    public func planUndo(_ result: CaseResult, previous: [UInt8]?, previousPath: String,
                         key: MachineKey?) throws(AcceptRefusal) -> UndoPlan {
        let id = result.id
        guard let acceptance = result.accepted else { throw .notAccepted(id: id) }
        guard let key, let seal = acceptance.seal, Acceptance.seal(acceptance, of: id, key: key) == seal else {
            throw .notSealed(id: id)
        }
        guard let expected = acceptance.previousGoldenDigest else { return UndoPlan(id: id, acceptance: acceptance, restored: nil) }
        guard let previous, SHA256.hex(previous) == expected else { throw .previousLost(id: id, path: previousPath) }
        // Only ever a PNG back where a golden was: the kept file came from the report
        // folder, which may have travelled.
        guard (try? PNGFile.decode(previous, name: previousPath)) != nil else { throw .previousLost(id: id, path: previousPath) }
        return UndoPlan(id: id, acceptance: acceptance, restored: previous)
    }

    /// Puts back the golden the planned undo restores (or removes the accepted one) and
    /// the facts it had, only if the golden is still the one the acceptance wrote. The
    /// caller holds the goldens folder's lock.
    public func undoHoldingLock(_ plan: UndoPlan, previousFacts: GoldenFacts?) throws(AcceptRefusal) {
        let acceptance = plan.acceptance
        do {
            try store.replaceHoldingLock(plan.id, png: plan.restored, ifStill: acceptance.goldenDigest)
            if let previousFacts, previousFacts.caseID == plan.id, previousFacts.golden == acceptance.previousGoldenDigest {
                try store.writeFactsHoldingLock(previousFacts)
            }
        } catch HarnessError.goldenChanged {
            throw .goldenChanged(id: plan.id, path: store.path(for: plan.id))
        } catch {
            throw .cannotWrite(id: plan.id, reason: "\(error)")
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
