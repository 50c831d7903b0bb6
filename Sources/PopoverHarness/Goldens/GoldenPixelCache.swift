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

/// A local cache, outside the repository, of what decoding golden files established on
/// this machine. It lets a check confirm an unchanged case without decoding its golden:
/// when the golden file's SHA-256 names a fact and the drawn pixels' digest equals the
/// fact's, the images are identical.
///
/// Why it cannot pass a wrong image:
/// - a fact is keyed by the SHA-256 of the file's bytes, so it speaks only of those
///   exact bytes, whatever path, branch or merge they arrive by; nothing committed is
///   trusted (goldens carry no digests of their own);
/// - facts are only ever learned by decoding a golden here, with this decoder (its
///   identity is part of the file: another decoder's facts are not used);
/// - the pixel digest is taken on straight pixels, what a golden holds and what is
///   compared, with a seed chosen at random when the cache was made, so no golden can
///   be crafted to collide with a rendering;
/// - the file carries a checksum: a damaged or truncated cache is ignored, said once,
///   and rebuilt. A lost cache costs one decode of each golden, never a verdict.
///
/// Several runs may share the cache: saving merges under a lock, and a fact, being
/// about content, is the same whoever learned it.
public final class GoldenPixelCache: Sendable {
    /// The folder holding the cache, or nil for a cache that lives only in memory.
    public let folder: String?
    public let seed: UInt64
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

    /// Opens the cache in `folder` (nil: memory only). A missing file is written at once as
    /// an empty cache with a fresh seed (if it cannot be, the run goes on with a cache in
    /// memory); an unusable one is an empty cache with a `note` saying why, replaced when
    /// the run saves what it learned.
    public init(folder: String?) {
        self.folder = folder
        guard let folder else {
            seed = UInt64.random(in: .min ... .max)
            known = [:]
            note = nil
            return
        }
        let path = folder + "/" + Self.fileName
        var loaded = Self.load(path)
        if case .unusable(let reason) = loaded {
            note = "\(path): \(reason); ignoring it: goldens are decoded again and the cache rebuilt"
        } else {
            note = nil
        }
        if case .absent = loaded {
            // No cache yet: settle its seed now, under the lock, so runs that start
            // together agree on one seed and none of their facts is dropped when saving.
            // (An unusable file is left for saving to replace: a run that learns nothing,
            // or cannot read it, must not destroy it.)
            loaded = (try? Self.startCache(in: folder)) ?? loaded
        }
        if case .loaded(let seed, let facts) = loaded {
            self.seed = seed
            known = facts
        } else {
            seed = UInt64.random(in: .min ... .max)
            known = [:]
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
        XXH64.digest(image.pixels, seed: seed ^ (UInt64(image.width) << 32 | UInt64(image.height)))
    }

    /// Runs `body` holding the cache folder's lock (created with the folder if need be).
    /// Without `waiting`, gives up after about a second rather than wait on a run that
    /// holds the lock (suspended, say): opening a cache must never hang a run.
    static func locked<T>(_ folder: String, waiting: Bool = true,
                          _ body: () throws(HarnessError) -> T) throws(HarnessError) -> T {
        do {
            try FileIO.createDirectories(folder)
        } catch {
            throw .io("cannot keep the golden digest cache: \(error)")
        }
        let lockPath = folder + "/" + fileName + ".lock"
        let fd = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("\(lockPath): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var attempts = 0
        while flock(fd, LOCK_EX | (waiting ? 0 : LOCK_NB)) != 0 {
            guard !waiting, errno == EWOULDBLOCK, attempts < 100 else {
                throw .io("\(lockPath): cannot lock: \(String(cString: strerror(errno)))")
            }
            attempts += 1
            usleep(10_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Writes an empty cache with a fresh seed, unless another run wrote one first: then
    /// that one is the cache.
    static func startCache(in folder: String) throws(HarnessError) -> Loaded {
        try locked(folder, waiting: false) { () throws(HarnessError) -> Loaded in
            let path = folder + "/" + fileName
            let current = load(path)
            guard case .absent = current else { return current }
            let seed = UInt64.random(in: .min ... .max)
            do {
                try FileIO.writeAtomically(encode(seed: seed, facts: [:]), to: path)
            } catch {
                throw .io("cannot keep the golden digest cache: \(error)")
            }
            return .loaded(seed: seed, facts: [:])
        }
    }

    /// Writes what this run learned, merged with what other runs wrote meanwhile, under a
    /// lock. Nothing to do for a memory-only cache or when nothing was learned.
    public func save() throws(HarnessError) {
        guard let folder else { return }
        let fresh = learned.withLock { $0 }
        guard !fresh.isEmpty else { return }
        try Self.locked(folder) { () throws(HarnessError) in try merge(fresh, into: folder) }
    }

    /// Under the lock: the cache on disk, this run's facts added when the seeds agree.
    private func merge(_ fresh: [String: GoldenPixelFact], into folder: String) throws(HarnessError) {
        let path = folder + "/" + Self.fileName
        // Another run may have saved since this one started: keep its facts and seed
        // (facts from our seed are re-keyed only if the seeds agree; otherwise ours wait
        // for the next run to learn them again).
        var seed = self.seed
        var facts = known
        if case .loaded(let otherSeed, let other) = Self.load(path) {
            if otherSeed != self.seed {
                seed = otherSeed
                facts = other
            } else {
                facts.merge(other) { mine, _ in mine }
            }
        }
        if seed == self.seed { facts.merge(fresh) { _, new in new } }
        if facts.count > Self.capacity {
            let keep = used.withLock { $0 }.union(fresh.keys)
            facts = facts.filter { keep.contains($0.key) }
        }
        do {
            try FileIO.writeAtomically(Self.encode(seed: seed, facts: facts), to: path)
        } catch {
            throw .io("cannot keep the golden digest cache: \(error)")
        }
    }
}

// MARK: - The file

extension GoldenPixelCache {
    /// "popover-goldens pixel cache 1\n", the decoder's identity (length and UTF-8), the
    /// seed, the number of facts, the facts (SHA-256, width, height, pixel digest, little
    /// endian), and an XXH64 checksum of everything before it.
    static let magic = Array("popover-goldens pixel cache 1\n".utf8)
    static let checksumSeed: UInt64 = 0x7069_7863_6163_6865

    enum Loaded {
        case absent
        case loaded(seed: UInt64, facts: [String: GoldenPixelFact])
        case unusable(String)
    }

    static func load(_ path: String) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: path)
        } catch {
            return error.code == ENOENT || error.code == ENOTDIR ? .absent : .unusable("cannot read: \(error.reason)")
        }
        var reader = ByteReader(bytes)
        guard bytes.count >= magic.count + 8, Array(bytes.prefix(magic.count)) == magic else {
            return .unusable("not a golden digest cache (it does not start as one)")
        }
        let body = bytes.count - 8
        let stored = bytes[body...].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard XXH64.digest(Array(bytes[..<body]), seed: checksumSeed) == stored else {
            return .unusable("damaged (its checksum does not match its content)")
        }
        reader.skip(magic.count)
        guard let nameLength = reader.u32(), let name = reader.bytes(Int(nameLength)),
              let seed = reader.u64(), let count = reader.u32() else { return .unusable("truncated") }
        guard String(decoding: name, as: UTF8.self) == PNGFile.decoderIdentity else {
            return .unusable("made with another PNG decoder (\(String(decoding: name, as: UTF8.self)))")
        }
        var facts: [String: GoldenPixelFact] = [:]
        facts.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let digest = reader.bytes(32), let w = reader.u32(), let h = reader.u32(), let p = reader.u64() else {
                return .unusable("truncated")
            }
            facts[hex(digest)] = GoldenPixelFact(width: Int(w), height: Int(h), pixels: p)
        }
        guard reader.offset == body else { return .unusable("has bytes after its facts") }
        return .loaded(seed: seed, facts: facts)
    }

    static func encode(seed: UInt64, facts: [String: GoldenPixelFact]) -> [UInt8] {
        var out = magic
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        let name = Array(PNGFile.decoderIdentity.utf8)
        u32(UInt32(name.count))
        out += name
        u64(seed)
        u32(UInt32(facts.count))
        // Sorted, so the same facts give the same file.
        for (digest, fact) in facts.sorted(by: { $0.key < $1.key }) {
            out += bytes(fromHex: digest)
            u32(UInt32(fact.width))
            u32(UInt32(fact.height))
            u64(fact.pixels)
        }
        u64(XXH64.digest(out, seed: checksumSeed))
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    static func bytes(fromHex text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        func value(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
