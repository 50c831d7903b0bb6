import PopoverGeometry
import PopoverRaster
import Synchronization

/// What identifies one source image of the seven-image skin, ready to stretch.
struct SourceImageKey: Hashable, Sendable {
    var artwork: SevenImageArtwork
    var image: ArrowImage
    /// Rendered images take their size from the skin's metrics, which two skins with the
    /// same colours may set differently.
    var size: Size
    var scale: Double
    var tint: Tint?
    var mirrored: Bool
}

/// Source images are the same for every case of a skin and scale, so each is made once
/// per process and shared between threads. Two threads may both make a missing image;
/// both get identical pixels, so it does not matter which is kept.
final class PixmapCache: Sendable {
    static let shared = PixmapCache()
    private let storage = Mutex<[SourceImageKey: Pixmap]>([:])

    func pixmap(for key: SourceImageKey, make: () throws -> Pixmap) rethrows -> Pixmap {
        if let hit = storage.withLock({ $0[key] }) { return hit }
        let made = try make()
        storage.withLock { $0[key] = made }
        return made
    }
}
