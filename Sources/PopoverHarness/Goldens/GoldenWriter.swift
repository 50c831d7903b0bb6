import PopoverFiles
import PopoverImage

/// Writes goldens: one way for recording and for accepting alike.
public enum GoldenWriter {
    /// Encodes `image` as the golden of `id` (the goldens' compression), writes it
    /// atomically, decodes what was written and checks it gives back `image`'s pixels,
    /// and tells `cache` what that decode established. Returns the file's bytes.
    @discardableResult
    public static func write(_ image: RGBAImage, as id: String, in store: GoldenStore,
                             cache: GoldenPixelCache?) throws -> [UInt8] {
        let png = PNGFile.encode(image)
        let decoded = try PNGFile.decode(png, name: store.path(for: id))
        guard decoded == image else {
            throw HarnessError.io("\(store.path(for: id)): the encoded golden does not decode to the drawn pixels; nothing written")
        }
        try store.write(id, png: png)
        cache?.learn(file: SHA256.hex(png), decoded: decoded)
        return png
    }
}
