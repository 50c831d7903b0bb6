/// Why a PNG could not be read. Every case names the file (for bytes in memory, the name
/// the caller gave) and every description says what is wrong with it, because these
/// messages end up in reports read by someone who did not run the check.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Zero bytes.
    case empty(file: String)
    /// The first 8 bytes are not the PNG signature.
    case notPNG(file: String)
    /// A Git LFS pointer file where the image should be: a checkout whose LFS objects were
    /// not fetched.
    case gitLFSPointer(file: String)
    /// The data ends before the image (or its IEND chunk) is complete.
    case truncated(file: String)
    /// The data is damaged or invalid; `reason` says how, e.g. "IDAT: CRC error".
    case corrupt(file: String, reason: String)
    /// The header claims more pixels than `limits` allow; nothing was allocated.
    case tooLarge(file: String, width: Int, height: Int, limits: PNGLimits)
    /// The file could not be read at all; `reason` comes from the OS.
    case unreadable(file: String, reason: String)
    /// Decoding failed for a reason the data does not explain, such as running out of memory.
    case decoderFailure(file: String, reason: String)

    public var description: String {
        switch self {
        case .empty(let file):
            return "\(file): empty file (0 bytes), not a PNG"
        case .notPNG(let file):
            return "\(file): not a PNG file (the first 8 bytes are not the PNG signature)"
        case .gitLFSPointer(let file):
            return "\(file): a Git LFS pointer, not the image: this checkout has the goldens' pointers only; "
                + "run `git lfs pull` (or check out with LFS) and check again"
        case .truncated(let file):
            return "\(file): truncated PNG (the data ends before the image is complete)"
        case .corrupt(let file, let reason):
            return "\(file): corrupt PNG: \(reason)"
        case .tooLarge(let file, let width, let height, let limits):
            return "\(file): header claims \(width) x \(height) pixels, more than the limit of \(limits)"
        case .unreadable(let file, let reason):
            return "\(file): cannot read: \(reason)"
        case .decoderFailure(let file, let reason):
            return "\(file): could not decode PNG: \(reason)"
        }
    }
}
