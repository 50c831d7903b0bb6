import PopoverImage
import PopoverRaster

/// A drawn case: a digest that identifies its pixels, and the pixels as a PNG file
/// holds them (straight RGBA), converted only when a comparison or a file needs them.
///
/// Most cases of a check match their goldens. For those the digest of the bitmap as
/// drawn (premultiplied) is compared with the one recorded beside the golden, and the
/// conversion to straight colour is skipped. Premultiplied and straight pixels stand in
/// one-to-one correspondence (the conversion is deterministic and loses nothing for
/// the 8-bit values drawing produces), so equal digests of either mean equal images.
public struct DrawnImage: Sendable {
    public let width: Int
    public let height: Int
    /// 16 hex digits.
    public let digest: String
    private let source: Source

    private enum Source: Sendable {
        case premultiplied(Pixmap)
        case straight(RGBAImage)
    }

    /// Digests of premultiplied and of straight pixels use different seeds, so they can
    /// never be mistaken for each other.
    static let premultipliedSeed: UInt64 = 1
    static let straightSeed: UInt64 = 2

    public init(_ pixmap: Pixmap) {
        width = pixmap.width
        height = pixmap.height
        digest = ContentDigest.hex(pixmap.data.withUnsafeBytes {
            ContentDigest.xxh64($0, seed: Self.premultipliedSeed)
        })
        source = .premultiplied(pixmap)
    }

    public init(_ image: RGBAImage) {
        width = image.width
        height = image.height
        digest = ContentDigest.hex(image.pixels.withUnsafeBytes { ContentDigest.xxh64($0, seed: Self.straightSeed) })
        source = .straight(image)
    }

    /// The pixels as a file holds them.
    public func straight() -> RGBAImage {
        switch source {
        case .premultiplied(let pixmap): pixmap.straightImage
        case .straight(let image): image
        }
    }
}
