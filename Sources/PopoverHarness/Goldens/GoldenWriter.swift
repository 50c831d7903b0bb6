import PopoverFiles
import PopoverGeometry
import PopoverImage

/// Writes goldens: each encoded and checked by `prepare`, for recording and accepting
/// alike, then replaced with its facts by `GoldenStore.replaceHoldingLock`.
public enum GoldenWriter {
    /// A golden encoded and checked, not yet written.
    public struct Prepared: Sendable {
        public let png: [UInt8]
        /// The SHA-256 of `png`: what the golden's file will be.
        public let digest: String
        let decoded: RGBAImage
    }

    /// Encodes `image` as the golden of `id` (the goldens' compression) and decodes the
    /// bytes again to check they give back `image`'s pixels, so nothing is ever written
    /// that would not read back as what was drawn.
    public static func prepare(_ image: RGBAImage, as id: String, in store: GoldenStore) throws -> Prepared {
        let png = PNGFile.encode(image)
        let decoded = try PNGFile.decode(png, name: store.path(for: id))
        guard decoded == image else {
            throw HarnessError.io("\(store.path(for: id)): the encoded golden does not decode to the drawn pixels; nothing written")
        }
        return Prepared(png: png, digest: SHA256.hex(png), decoded: decoded)
    }

    /// What `write` found and did.
    public enum Outcome: Sendable, Equatable {
        /// This call wrote the golden and its facts.
        case written
        /// Another writer (a second `record` over the same cases) had written these very
        /// bytes since this one looked: nothing left to write but, if they differ, the facts.
        case alreadyThere
    }

    /// Encodes and checks `image` (`prepare`), then writes it and the facts it was drawn
    /// from (its row of the folder's facts table, tied to its SHA-256) as one unit under
    /// the folder's lock (`GoldenStore.replaceHoldingLock`), only if the golden on disk is
    /// still the one with SHA-256 `expected` (nil: still none), or is already these bytes;
    /// tells `cache` what the decode established. Returns the file's bytes and whether
    /// this call wrote them. Any other golden found in its place: `HarnessError.goldenChanged`.
    public static func write(_ image: RGBAImage, as id: String, in store: GoldenStore, cache: GoldenDigestCache?,
                             facts: Facts, replacing expected: String?) throws -> (png: [UInt8], outcome: Outcome) {
        let golden = try prepare(image, as: id, in: store)
        let row = FactsTable.Row(golden: golden.digest, facts: facts)
        let outcome = try store.locked { () throws -> Outcome in
            let current = try store.currentDigest(of: id)
            guard current != expected, current == golden.digest else {
                try store.replaceHoldingLock(id, png: golden.png, row: row, ifStill: expected)
                return .written
            }
            // The table is read afresh: the other writer may have changed it. The same row
            // again touches nothing.
            try store.writeFactsHoldingLock(GoldenFacts(caseID: id, golden: golden.digest, facts: facts))
            return .alreadyThere
        }
        cache?.learn(file: golden.digest, drawn: golden.decoded)
        return (golden.png, outcome)
    }
}
