import Foundation
import PopoverFiles
import PopoverImage
import PopoverRaster
import Synchronization

/// What one golden file decodes to, learned when a drawing matched it exactly: the file
/// with a given SHA-256 holds an image of this size whose straight pixels have this XXH64.
public struct GoldenPixelFact: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// XXH64 of the straight RGBA pixels, row by row (`RGBAImage.pixelDigest()`).
    public var pixels: UInt64
    /// XXH64 of the premultiplied pixels of a drawing that converted to exactly these
    /// straight pixels, once one did, seeded with what the conversion does
    /// (`GoldenDigestCache.conversion`). Converting to straight colour is a function of the
    /// pixels, so a later drawing with the same premultiplied pixels, converted the same
    /// way, gives the same straight ones: a check confirms it without converting (a sixth
    /// of a clean check's time). After a change to the conversion the seed differs and no
    /// drawing digest matches until drawings are converted again.
    public var drawing: UInt64?

    public init(width: Int, height: Int, pixels: UInt64, drawing: UInt64? = nil) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.drawing = drawing
    }

    /// Whether `other` speaks of the same straight pixels (whatever it knows of drawings).
    public func samePixels(as other: GoldenPixelFact) -> Bool {
        width == other.width && height == other.height && pixels == other.pixels
    }

    /// What `image`'s pixels are.
    public init(of image: RGBAImage) {
        self.init(width: image.width, height: image.height, pixels: image.pixelDigest())
    }
}

/// The digest cache: what decoding golden files established on this machine, kept outside
/// the repository and keyed by the SHA-256 of a golden file's bytes, so that a check
/// confirms an unchanged case without decoding its golden. Why it cannot pass a wrong
/// image, what it trusts, and what damage costs: docs/goldens.md, "The digest cache". The
/// rule that keeps a crafted golden from passing is `learn`'s. Several runs may share it:
/// saving merges under a lock, and a fact, being about content, is the same whoever learned it.
public final class GoldenDigestCache: Sendable {
    /// The folder holding the cache, or nil for a cache that lives only in memory.
    public let folder: String?
    /// The decoder whose facts this cache holds (`PNGFile.decoderVersion`).
    public let decoder: String
    /// What converting to straight colour does, the seed of drawing digests (`conversion`).
    public let conversionSeed: UInt64
    /// Why the cache on disk could not be used, if it could not: one sentence to show.
    public let note: String?
    private let known: [String: GoldenPixelFact]
    private let learned = Mutex<[String: GoldenPixelFact]>([:])
    private let used = Mutex<Set<String>>([])

    public static let fileName = "golden-pixels.cache"
    /// More facts than this and the ones this run did not use are dropped.
    static let capacity = 50_000

    /// `$POPOVER_GOLDENS_CACHE`, else `$XDG_CACHE_HOME/popover-goldens`, else
    /// `~/.cache/popover-goldens`.
    public static func defaultFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let chosen = environment["POPOVER_GOLDENS_CACHE"], !chosen.isEmpty { return chosen }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/popover-goldens" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/popover-goldens"
    }

    /// Opens the cache in `folder` (nil: memory only) for facts learned by `decoder`. A
    /// cache of another format or decoder is an empty cache, replaced when the run saves
    /// what it learned; a damaged one too, with a `note` saying why.
    public init(folder: String?, decoder: String = PNGFile.decoderVersion, conversion: UInt64 = GoldenDigestCache.conversion) {
        self.folder = folder
        self.decoder = decoder
        conversionSeed = conversion
        guard let folder else {
            (known, note) = ([:], nil)
            return
        }
        let path = folder + "/" + Self.fileName
        switch Self.load(path, decoder: decoder) {
        case .loaded(let facts):
            (known, note) = (facts, nil)
        case .stale:
            (known, note) = ([:], nil)
        case .unusable(let reason):
            (known, note) = ([:], "\(path): \(reason); ignoring it: goldens are decoded again and the cache rebuilt")
        }
    }

    /// The fact about the file with SHA-256 `fileDigest`, if one was established.
    public func fact(forFile fileDigest: String) -> GoldenPixelFact? {
        guard let fact = known[fileDigest] ?? learned.withLock({ $0[fileDigest] }) else { return nil }
        used.withLock { _ = $0.insert(fileDigest) }
        return fact
    }

    /// Whether decoding the file with SHA-256 `fileDigest` is known to give exactly
    /// `drawn`'s pixels: the same size and XXH64.
    public func confirms(_ drawn: RGBAImage, asFile fileDigest: String) -> Bool {
        guard let fact = fact(forFile: fileDigest) else { return false }
        return fact.samePixels(as: GoldenPixelFact(of: drawn))
    }

    /// Whether a drawing whose premultiplied pixels are `premultiplied` is known to convert
    /// to exactly what decoding the file with SHA-256 `fileDigest` gives: an earlier drawing
    /// with these premultiplied pixels did.
    public func confirms(premultiplied: RGBAImage, asFile fileDigest: String) -> Bool {
        guard let fact = fact(forFile: fileDigest), let drawing = fact.drawing else { return false }
        return fact.width == premultiplied.width && fact.height == premultiplied.height
            && drawing == premultiplied.pixelDigest(seed: conversionSeed)
    }

    /// A digest of what converting to straight colour (`Pixmap.straightImage`) gives for
    /// every premultiplied value of each channel under every alpha (valid or not, the three
    /// channels of a pixel different), each pair of pixels followed by a clear one (all four
    /// bytes zero), in rows of one alpha each: every path of the conversion (clear, opaque
    /// and partly covered pixels, in runs and alone) runs on every value. Equal digests, the
    /// same conversion of these pixels. The mutation analysis measures what it misses: a
    /// mutant of the conversion that changes a case but not this digest survives.
    public static func conversionDigest() -> UInt64 {
        var pixmap = Pixmap(width: 768, height: 256)
        for alpha in 0..<256 {
            for value in 0..<256 {
                let i = (alpha * 768 + value * 3) * 4
                for (k, channels) in [(value, value >> 1, 255 - value), (value >> 2, value, value >> 1)].enumerated() {
                    pixmap.data[i + 4 * k] = UInt8(channels.0)
                    pixmap.data[i + 4 * k + 1] = UInt8(channels.1)
                    pixmap.data[i + 4 * k + 2] = UInt8(channels.2)
                    pixmap.data[i + 4 * k + 3] = UInt8(alpha)
                }
            }
        }
        return pixmap.straightImage.pixelDigest()
    }

    /// This build's conversion, worked out once.
    public static let conversion = conversionDigest()

    /// Records that the file with SHA-256 `fileDigest` decodes to `drawn`, a drawing of
    /// this tool: one that the decoded golden matched byte for byte, or one recorded into
    /// that file; and, when given, that `premultiplied` is what that drawing was before its
    /// conversion to straight colour. Never call it with pixels only a file vouches for (see
    /// the type's comment: that is what keeps a crafted golden from passing).
    public func learn(file fileDigest: String, drawn: RGBAImage, premultiplied: RGBAImage? = nil) {
        var fact = GoldenPixelFact(of: drawn)
        let earlier = known[fileDigest] ?? learned.withLock { $0[fileDigest] }
        if let premultiplied {
            fact.drawing = premultiplied.pixelDigest(seed: conversionSeed)
        } else if let earlier, earlier.samePixels(as: fact) {
            fact.drawing = earlier.drawing
        }
        if known[fileDigest] == fact { return }
        learned.withLock { $0[fileDigest] = fact }
    }

    /// Writes what this run learned, merged with what other runs wrote meanwhile, under a
    /// lock. Nothing to do for a memory-only cache or when nothing was learned.
    public func save() throws(HarnessError) {
        guard let folder else { return }
        let fresh = learned.withLock { $0 }
        guard !fresh.isEmpty else { return }
        let path = folder + "/" + Self.fileName
        do {
            try FileIO.createDirectories(folder)
            let lock = try FileLock.acquire(path + ".lock")
            defer { lock.release() }
            var facts = known
            // What another run saved meanwhile may know a drawing this run's copy does not.
            if case .loaded(let other) = Self.load(path, decoder: decoder) {
                facts.merge(other) { mine, theirs in mine.drawing == nil && theirs.samePixels(as: mine) ? theirs : mine }
            }
            facts.merge(fresh) { _, new in new }
            if facts.count > Self.capacity {
                let keep = used.withLock { $0 }.union(fresh.keys)
                facts = facts.filter { keep.contains($0.key) }
            }
            try FileIO.writeAtomically(Self.encode(facts, decoder: decoder), to: path)
        } catch {
            throw .io("cannot keep the golden digest cache: \(error)")
        }
    }
}

// MARK: - The file

extension GoldenDigestCache {
    /// The file is text: this first line, then `decoded by <decoder>`, then one line per
    /// fact: the file's SHA-256, width, height, the pixels' XXH64 and the premultiplied
    /// drawing's (16 hex digits each; `-` for none yet), separated by spaces, in order of
    /// the file's SHA-256. Another first line is another format.
    static let magic = "popover-goldens golden pixel cache 5"

    enum Loaded {
        case loaded([String: GoldenPixelFact])
        /// Absent, or of another format or decoder: nothing to read, nothing wrong.
        case stale
        case unusable(String)
    }

    static func load(_ path: String, decoder: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: path)
        } catch {
            return error.code == ENOENT || error.code == ENOTDIR ? .stale : .unusable("cannot read: \(error.reason)")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == magic, lines.last == "" else {
            return lines.first == Substring(magic) ? .unusable("damaged (cut short)") : .stale
        }
        guard lines[1] == "decoded by " + decoder else { return .stale }
        var facts: [String: GoldenPixelFact] = [:]
        facts.reserveCapacity(lines.count - 3)
        for (number, line) in lines.dropFirst(2).dropLast().enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            // A key that is not a SHA-256 is harmless: no lookup ever names it.
            guard fields.count == 5, let width = Int(fields[1]), let height = Int(fields[2]), width > 0, height > 0,
                  let pixels = UInt64(fields[3], radix: 16), fields[4] == "-" || UInt64(fields[4], radix: 16) != nil else {
                return .unusable("damaged (line \(number + 3) is not a fact)")
            }
            facts[String(fields[0])] = GoldenPixelFact(width: width, height: height, pixels: pixels,
                                                       drawing: UInt64(fields[4], radix: 16))
        }
        return .loaded(facts)
    }

    static func encode(_ facts: [String: GoldenPixelFact], decoder: String) -> [UInt8] {
        var text = magic + "\ndecoded by " + decoder + "\n"
        for (file, fact) in facts.sorted(by: { $0.key < $1.key }) {
            text += "\(file) \(fact.width) \(fact.height) \(Hex.string(fact.pixels)) \(fact.drawing.map(Hex.string) ?? "-")\n"
        }
        return Array(text.utf8)
    }
}
