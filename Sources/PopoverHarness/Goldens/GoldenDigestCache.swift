import Foundation
import PopoverFiles
import PopoverImage
import Synchronization

/// What decoding one golden file established: the file with a given SHA-256 holds an
/// image of this size whose straight pixels have this digest.
public struct GoldenPixelFact: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// XXH64 of the straight RGBA pixels, seeded with the cache's seed.
    public var pixels: UInt64

    public init(width: Int, height: Int, pixels: UInt64) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// The digest cache: a local cache, outside the repository, of what decoding golden
/// files established on this machine. It lets a check confirm an unchanged case without decoding its golden:
/// when the golden file's SHA-256 names a fact and the drawn pixels' digest equals the
/// fact's, the images are identical.
///
/// Why it cannot pass a wrong image:
/// - a fact is keyed by the SHA-256 of the file's bytes, so it speaks only of those
///   exact bytes, whatever path, branch or merge they arrive by; nothing committed is
///   trusted (goldens carry no digests of their own);
/// - facts are only ever learned by decoding a golden here, with this decoder (its
///   identity, `PNGFile.decoderIdentity`, is part of the file: another decoder's or
///   another build's facts are not used);
/// - the file is sealed with an HMAC-SHA256 under a key kept beside it, readable by
///   this user only (`MachineKey`), so it cannot be forged or altered by anyone
///   who cannot read the key; a file whose seal does not match is ignored, said once,
///   and rebuilt. A lost cache costs one decode of each golden, never a verdict;
/// - the pixel digest is taken on straight pixels, what a golden holds and what is
///   compared, with a seed derived from the key, so no golden can be crafted to collide
///   with a rendering by anyone who cannot read the key.
///
/// Where that trust ends: whoever can write the cache folder (the key and the file) can
/// make facts that pass wrong goldens; `--no-cache` neither reads nor writes the cache.
///
/// Several runs may share the cache: saving merges under a lock, and a fact, being
/// about content, is the same whoever learned it.
public final class GoldenDigestCache: Sendable {
    /// The folder holding the cache, or nil for a cache that lives only in memory.
    public let folder: String?
    /// The decoder whose facts this cache holds (`PNGFile.decoderIdentity`).
    public let decoderIdentity: String
    /// The seed of the pixel digests: derived from the key, or random for a cache in
    /// memory.
    public let seed: UInt64
    /// Why the cache on disk could not be used, if it could not: one sentence to show.
    public let note: String?
    private let key: MachineKey?
    /// Why nothing learned can be kept, when there is no key to seal the file with.
    private let unkept: String?
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

    /// Opens the cache in `folder` (nil: memory only), for facts learned by
    /// `decoderIdentity`. The key is read, or made with the folder if there is none. An
    /// unusable cache file is an empty cache with a `note` saying why, replaced when the
    /// run saves what it learned; an untrusted key makes the cache one in memory only,
    /// with a note, and is left for the user to remove.
    public init(folder: String?, decoderIdentity: String = PNGFile.decoderIdentity) {
        self.folder = folder
        self.decoderIdentity = decoderIdentity
        guard let folder else {
            (seed, known, note, key, unkept) = (UInt64.random(in: .min ... .max), [:], nil, nil, nil)
            return
        }
        switch MachineKey.readOrMake(in: folder) {
        case .key(let key):
            self.key = key
            unkept = nil
            seed = key.pixelSeed
            let path = folder + "/" + Self.fileName
            switch Self.load(path, key: key, decoderIdentity: decoderIdentity) {
            case .loaded(let facts):
                known = facts
                note = nil
            case .absent:
                known = [:]
                note = nil
            case .unusable(let reason):
                known = [:]
                note = "\(path): \(reason); ignoring it: goldens are decoded again and the cache rebuilt"
            }
        case .untrusted(let reason):
            (seed, known, key, unkept) = (UInt64.random(in: .min ... .max), [:], nil, nil)
            note = "\(reason); the golden digest cache is not used: goldens are decoded, and nothing is kept"
        case .unavailable(let reason):
            // Said once, when saving: the run goes on with a cache in memory.
            (seed, known, note, key, unkept) = (UInt64.random(in: .min ... .max), [:], nil, nil, reason)
        }
    }

    /// The fact about the file with SHA-256 `fileDigest`, if one was established.
    public func fact(forFile fileDigest: String) -> GoldenPixelFact? {
        guard let fact = known[fileDigest] ?? learned.withLock({ $0[fileDigest] }) else { return nil }
        used.withLock { _ = $0.insert(fileDigest) }
        return fact
    }

    /// Records what decoding the file with SHA-256 `fileDigest` gave.
    public func learn(file fileDigest: String, decoded image: RGBAImage) {
        let fact = GoldenPixelFact(width: image.width, height: image.height, pixels: pixelDigest(of: image))
        learned.withLock { $0[fileDigest] = fact }
    }

    /// The digest facts hold: XXH64 of the straight pixels, seeded with this cache's seed
    /// and the image's size.
    public func pixelDigest(of image: RGBAImage) -> UInt64 {
        image.pixelDigest(seed: seed)
    }

    /// Runs `body` holding the cache folder's lock.
    static func locked<T>(_ folder: String, _ body: () throws(HarnessError) -> T) throws(HarnessError) -> T {
        let lock: FileLock
        do { lock = try FileLock.acquire(folder + "/" + fileName + ".lock") } catch { throw .io("\(error)") }
        defer { lock.release() }
        return try body()
    }

    /// Writes what this run learned, merged with what other runs wrote meanwhile, under a
    /// lock. Nothing to do for a memory-only cache or when nothing was learned.
    public func save() throws(HarnessError) {
        guard let folder else { return }
        let fresh = learned.withLock { $0 }
        guard !fresh.isEmpty else { return }
        if let unkept { throw .io(unkept) }
        guard let key else { return }
        try Self.locked(folder) { () throws(HarnessError) in try merge(fresh, into: folder, key: key) }
    }

    /// Under the lock: the cache on disk with this run's facts added, sealed.
    private func merge(_ fresh: [String: GoldenPixelFact], into folder: String,
                       key: MachineKey) throws(HarnessError) {
        // A key replaced since this run started (the folder removed, say) seeds digests
        // differently: this run's facts would be wrong under it, so they wait for the
        // next run to learn them again.
        guard case .key(let current)? = MachineKey.read(folder + "/" + MachineKey.fileName),
              current == key else { return }
        let path = folder + "/" + Self.fileName
        var facts = known
        if case .loaded(let other) = Self.load(path, key: key, decoderIdentity: decoderIdentity) {
            facts.merge(other) { mine, _ in mine }
        }
        facts.merge(fresh) { _, new in new }
        if facts.count > Self.capacity {
            let keep = used.withLock { $0 }.union(fresh.keys)
            facts = facts.filter { keep.contains($0.key) }
        }
        do {
            try FileIO.writeAtomically(Self.encode(facts: facts, key: key, decoderIdentity: decoderIdentity), to: path)
        } catch {
            throw .io("cannot keep the golden digest cache: \(error)")
        }
    }
}

// MARK: - The file

extension GoldenDigestCache {
    /// "popover-goldens pixel cache 2\n", the decoder's identity (length and UTF-8), the
    /// number of facts, the facts (SHA-256, width, height, pixel digest, little endian),
    /// and the seal: HMAC-SHA256 of everything before it under the folder's key. The
    /// first line and the file's name (`golden-pixels.cache`) keep the words they were
    /// first written with, so caches already on disk stay readable.
    static let magic = Array("popover-goldens pixel cache 2\n".utf8)
    /// How the first format began; its checksum needed no secret, so its facts are not read.
    static let unsealedMagic = Array("popover-goldens pixel cache 1\n".utf8)
    static let sealSize = 32

    enum Loaded {
        case absent
        case loaded([String: GoldenPixelFact])
        case unusable(String)
    }

    static func load(_ path: String, key: MachineKey, decoderIdentity: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: path)
        } catch {
            return error.code == ENOENT || error.code == ENOTDIR ? .absent : .unusable("cannot read: \(error.reason)")
        }
        if bytes.starts(with: unsealedMagic) {
            return .unusable("an older, unsealed cache (anyone could have written its checksum)")
        }
        guard bytes.count >= magic.count + sealSize, bytes.starts(with: magic) else {
            return .unusable("not a golden digest cache (it does not start as one)")
        }
        let body = bytes.count - sealSize
        guard key.verify(Array(bytes[body...]), of: bytes[..<body]) else {
            return .unusable("its seal does not match its content (damaged, or not written with this cache's key)")
        }
        var reader = ByteReader(bytes)
        reader.skip(magic.count)
        guard let nameLength = reader.u32(), let name = reader.bytes(Int(nameLength)), let count = reader.u32() else {
            return .unusable("truncated")
        }
        guard String(decoding: name, as: UTF8.self) == decoderIdentity else {
            return .unusable("made by another PNG decoder or another build of popover-goldens")
        }
        var facts: [String: GoldenPixelFact] = [:]
        facts.reserveCapacity(Int(min(count, 1 << 20)))
        for _ in 0..<count {
            guard let digest = reader.bytes(32), let w = reader.u32(), let h = reader.u32(), let p = reader.u64() else {
                return .unusable("truncated")
            }
            facts[Hex.string(digest)] = GoldenPixelFact(width: Int(w), height: Int(h), pixels: p)
        }
        guard reader.offset == body else { return .unusable("has bytes after its facts") }
        return .loaded(facts)
    }

    static func encode(facts: [String: GoldenPixelFact], key: MachineKey, decoderIdentity: String) -> [UInt8] {
        var out = magic
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        let name = Array(decoderIdentity.utf8)
        u32(UInt32(name.count))
        out += name
        u32(UInt32(facts.count))
        // Sorted, so the same facts give the same file.
        for (digest, fact) in facts.sorted(by: { $0.key < $1.key }) {
            out += Hex.bytes(digest) ?? []
            u32(UInt32(fact.width))
            u32(UInt32(fact.height))
            u64(fact.pixels)
        }
        out += key.seal(out)
        return out
    }
}
