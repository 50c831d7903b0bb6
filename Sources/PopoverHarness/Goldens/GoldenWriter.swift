import PopoverFiles
import PopoverGeometry
import PopoverImage

/// Writes goldens: one way for recording and for accepting alike.
public enum GoldenWriter {
    /// Encodes `image` as the golden of `id` (the goldens' compression), writes it
    /// atomically, decodes what was written and checks it gives back `image`'s pixels,
    /// and tells `cache` what that decode established; then writes the facts the image was
    /// drawn from, tied to the new file's SHA-256. Returns the file's bytes.
    ///
    /// The two files cannot be replaced in one rename; a run stopped between them leaves
    /// facts tied to the old golden, which every later run sees as stale (and `record`
    /// rewrites), never as the new golden's.
    ///
    /// `replacing` is the SHA-256 of the golden the writer judged or planned against (nil:
    /// there was none): the golden and its facts are written under the goldens folder's
    /// lock, and only if the golden is still that one (`HarnessError.goldenChanged`
    /// otherwise), so concurrent writers never lose each other's work.
    @discardableResult
    public static func write(_ image: RGBAImage, as id: String, in store: GoldenStore,
                             cache: GoldenDigestCache?, facts: Facts, replacing expected: String?) throws -> [UInt8] {
        let png = PNGFile.encode(image)
        let decoded = try PNGFile.decode(png, name: store.path(for: id))
        guard decoded == image else {
            throw HarnessError.io("\(store.path(for: id)): the encoded golden does not decode to the drawn pixels; nothing written")
        }
        let digest = SHA256.hex(png)
        try store.locked {
            try store.replaceHoldingLock(id, png: png, ifStill: expected)
            try store.writeFacts(GoldenFacts(caseID: id, golden: digest, facts: facts))
        }
        cache?.learn(file: digest, decoded: decoded)
        return png
    }
}
