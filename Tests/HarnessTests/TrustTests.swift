import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// Verdicts nobody can fool: nothing committed vouches for a golden, and what the local
/// digest cache knows can save time but never pass a golden whose pixels differ.
@Suite("Verdicts that cannot be fooled")
struct TrustTests {
    let catalog = CaseCatalog(skins: [FlatSkin()])

    func run(_ goldens: String, _ mode: RecordMode, cache: String?) throws -> RunRecord {
        try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: mode, filter: "flat/up", cache: cache)).run()
    }

    /// Every distinct golden file was decoded in this run: none was confirmed from facts
    /// older than the run (cases whose goldens hold the same bytes share one decode).
    func everyFileDecoded(_ run: RunRecord) -> Bool {
        Set(run.results.filter { !$0.confirmedFromCache }.map(\.goldenDigest)) == Set(run.results.map(\.goldenDigest))
    }

    /// Replaces the golden of `id` with an image one pixel different; returns its bytes.
    func tamper(_ goldens: String, _ id: String) throws -> [UInt8] {
        var image = try PNGFile.read(path: goldens + "/" + id + ".png")
        image.pixels[0] ^= 0x40
        image.pixels[3] = 255
        let bytes = PNGFile.encode(image)
        try FileIO.writeAtomically(bytes, to: goldens + "/" + id + ".png")
        return bytes
    }

    @Test("a damaged cache is said once and rebuilt; verdicts are those of a run without it")
    func damagedCache() throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        let recorded = try run(goldens, .missing, cache: cache)
        let tampered = recorded.results[5].id
        _ = try tamper(goldens, tampered)
        let file = cache + "/" + GoldenDigestCache.fileName
        var bytes = try FileIO.readBytes(path: file)
        bytes[bytes.count / 2] ^= 0x01
        try FileIO.writeAtomically(bytes, to: file)

        let first = try run(goldens, .never, cache: cache)
        #expect(first.notes.filter { $0.contains("its seal does not match its content") }.count == 1, "\(first.notes)")
        #expect(everyFileDecoded(first))
        #expect(first.results.map { $0.status == .passed ? "passed" : "\($0.id) \($0.status)" }
                == first.results.map { $0.id == tampered ? "\($0.id) failed" : "passed" })
        // Rebuilt: the next run says nothing and confirms the untouched goldens from it.
        let second = try run(goldens, .never, cache: cache)
        #expect(!second.notes.contains { $0.contains("cache") }, "\(second.notes)")
        // The tampered golden's facts belong to the golden it was: said, once.
        #expect(second.notes.filter { $0.contains("facts are stale") && $0.contains(tampered) }.count == 1, "\(second.notes)")
        #expect(second.results.filter { $0.id != tampered }.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
        #expect(second.results.first { $0.id == tampered }?.status == .failed)
    }

    @Test("a cache made by another PNG decoder, or not a cache at all, is said once and never trusted",
          arguments: ["foreign decoder", "not a cache"])
    func foreignCache(_ kind: String) throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        _ = try run(goldens, .missing, cache: cache)
        let file = cache + "/" + GoldenDigestCache.fileName
        var bytes = try FileIO.readBytes(path: file)
        if kind == "foreign decoder" {
            // The decoder's name follows the 30-byte magic and its 4-byte length: change one
            // letter and seal the file again with its key, so only the name is wrong.
            bytes[30 + 4] ^= 0x20
            let body = bytes.count - 32
            let key = try FileIO.readBytes(path: cache + "/popover-goldens.key")
            bytes[body...] = ArraySlice(HMACSHA256.code(Array(bytes[..<body]), key: key))
        } else {
            bytes = Array("{\"format\": 1}\n".utf8)
        }
        try FileIO.writeAtomically(bytes, to: file)
        let check = try run(goldens, .never, cache: cache)
        let expected = kind == "foreign decoder" ? "made by another PNG decoder" : "not a golden digest cache"
        #expect(check.notes.filter { $0.contains(expected) }.count == 1, "\(check.notes)")
        #expect(check.results.allSatisfy { $0.status == .passed } && everyFileDecoded(check))
        // Said once: the run replaced it with what it learned, so the next says nothing.
        let next = try run(goldens, .never, cache: cache)
        #expect(next.notes.isEmpty, "\(next.notes)")
        #expect(next.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
    }

    /// What someone who can write the cache file but cannot read its key would write: the
    /// changed golden's SHA-256 mapped to the pixels the case draws (the very digest the
    /// cache would compare, the strongest forgery there is), in the first format with its
    /// public checksum, and in the sealed format with a key of their own.
    @Test("a cache forged without the key is refused, said once, and the golden judged on its pixels",
          arguments: ["the old public checksum", "a seal under another key"])
    func forgedCache(_ forgery: String) throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        let recorded = try run(goldens, .missing, cache: cache)
        let id = recorded.results[2].id
        let tampered = try tamper(goldens, id)
        let drawn = try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .never))
            .draw(try #require(catalog.cases.first { $0.id == id }))
        let pixels = GoldenDigestCache(folder: cache).pixelDigest(of: drawn)
        var fact = [UInt8]()
        func u32(_ v: Int) { fact += (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        fact += SHA256.digest(tampered.withUnsafeBytes { $0 })
        u32(drawn.width)
        u32(drawn.height)
        fact += (0..<8).map { UInt8(truncatingIfNeeded: pixels >> (8 * UInt64($0))) }
        let identity = Array(PNGFile.decoderIdentity.utf8)
        var forged = [UInt8]()
        if forgery == "the old public checksum" {
            forged = Array("popover-goldens pixel cache 1\n".utf8)
            forged += (0..<4).map { UInt8(truncatingIfNeeded: identity.count >> (8 * $0)) } + identity
            forged += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(0x1234_5678) >> (8 * UInt64($0))) }  // a seed
            forged += [1, 0, 0, 0] + fact
            let sum = XXH64.digest(forged, seed: 0x7069_7863_6163_6865)
            forged += (0..<8).map { UInt8(truncatingIfNeeded: sum >> (8 * UInt64($0))) }
        } else {
            forged = Array("popover-goldens pixel cache 2\n".utf8)
            forged += (0..<4).map { UInt8(truncatingIfNeeded: identity.count >> (8 * $0)) } + identity
            forged += [1, 0, 0, 0] + fact
            forged += HMACSHA256.code(forged, key: [UInt8](repeating: 7, count: 32))
        }
        try FileIO.writeAtomically(forged, to: cache + "/" + GoldenDigestCache.fileName)

        let check = try run(goldens, .never, cache: cache)
        let expected = forgery == "the old public checksum" ? "an older, unsealed cache" : "its seal does not match its content"
        #expect(check.notes.filter { $0.contains(expected) }.count == 1, "\(check.notes)")
        let result = try #require(check.results.first { $0.id == id })
        #expect(result.status == .failed && result.metrics?.differentPixels == 1, "\(result.message)")
        #expect(!result.confirmedFromCache)
        #expect(check.results.filter { $0.id != id }.allSatisfy { $0.status == .passed })
        #expect(everyFileDecoded(check))
        // Replaced by a sealed cache: the next run says nothing of it, and still fails the
        // golden (whose facts, tied to the golden it was, are said to be stale).
        let next = try run(goldens, .never, cache: cache)
        #expect(!next.notes.contains { $0.contains("cache") }, "\(next.notes)")
        #expect(next.results.first { $0.id == id }?.status == .failed)
    }

    @Test("facts learned under one decoder identity are not used under another, said once")
    func decoderIdentities() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let file = String(repeating: "a", count: 64)
        let image = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255])
        let first = GoldenDigestCache(folder: folder, decoderIdentity: "decoder A")
        first.learn(file: file, decoded: image)
        try first.save()
        let again = GoldenDigestCache(folder: folder, decoderIdentity: "decoder A")
        #expect(again.note == nil)
        #expect(again.fact(forFile: file) == GoldenPixelFact(width: 1, height: 1, pixels: again.pixelDigest(of: image)))

        let other = GoldenDigestCache(folder: folder, decoderIdentity: "decoder B")
        #expect(other.note?.contains("made by another PNG decoder or another build of popover-goldens") == true,
                "\(String(describing: other.note))")
        #expect(other.fact(forFile: file) == nil)
        other.learn(file: String(repeating: "b", count: 64), decoded: image)
        try other.save()
        // Said once: B's cache replaced A's, so B hears nothing more, and A's facts are gone.
        #expect(GoldenDigestCache(folder: folder, decoderIdentity: "decoder B").note == nil)
        let back = GoldenDigestCache(folder: folder, decoderIdentity: "decoder A")
        #expect(back.note?.contains("made by another PNG decoder") == true)
        #expect(back.fact(forFile: file) == nil && back.fact(forFile: String(repeating: "b", count: 64)) == nil)
    }

    @Test("the key is made owner-only, 32 bytes; a key others can read, or a link, is not trusted and nothing is kept")
    func keyFile() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let keyPath = folder + "/popover-goldens.key"
        let cache = GoldenDigestCache(folder: folder)
        #expect(cache.note == nil)
        var info = stat()
        try #require(lstat(keyPath, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600 && info.st_size == 32)
        #expect(info.st_uid == getuid())
        // The seed comes from the key: another open agrees, and a new key changes it.
        #expect(GoldenDigestCache(folder: folder).seed == cache.seed)
        let file = String(repeating: "c", count: 64), image = RGBAImage(width: 1, height: 1, pixels: [9, 9, 9, 255])
        cache.learn(file: file, decoded: image)
        try cache.save()
        let sealed = try FileIO.readBytes(path: folder + "/" + GoldenDigestCache.fileName)

        chmod(keyPath, 0o644)
        let exposed = GoldenDigestCache(folder: folder)
        #expect(exposed.note?.contains("popover-goldens.key can be read or written by others (mode 644)") == true,
                "\(String(describing: exposed.note))")
        #expect(exposed.fact(forFile: file) == nil)
        exposed.learn(file: String(repeating: "d", count: 64), decoded: image)
        try exposed.save()
        #expect(try FileIO.readBytes(path: folder + "/" + GoldenDigestCache.fileName) == sealed)

        chmod(keyPath, 0o600)
        #expect(GoldenDigestCache(folder: folder).fact(forFile: file) != nil)
        try FileManager.default.moveItem(atPath: keyPath, toPath: folder + "/elsewhere.key")
        try FileManager.default.createSymbolicLink(atPath: keyPath, withDestinationPath: folder + "/elsewhere.key")
        let linked = GoldenDigestCache(folder: folder)
        #expect(linked.note?.contains("is a symbolic link") == true, "\(String(describing: linked.note))")
        #expect(linked.fact(forFile: file) == nil)
    }

    @Test("a damaged cache is left as it is by a run that learns nothing")
    func damagedCacheKeptByIdleRun() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let garbage = Array("not a cache\n".utf8)
        try FileIO.writeAtomically(garbage, to: folder + "/" + GoldenDigestCache.fileName)
        let cache = GoldenDigestCache(folder: folder)
        #expect(cache.note?.contains("not a golden digest cache") == true)
        try cache.save()
        #expect(try FileIO.readBytes(path: folder + "/" + GoldenDigestCache.fileName) == garbage)
    }

    @Test("a cache folder that cannot be made: the verdicts stand, and a note says the cache was not kept")
    func unwritableCache() throws {
        let goldens = temporaryFolder(), base = temporaryFolder()
        defer { removeFolders(goldens, base) }
        _ = try run(goldens, .missing, cache: nil)
        try FileIO.writeAtomically(Array("a file".utf8), to: base + "/file")
        let check = try run(goldens, .never, cache: base + "/file/cache")
        #expect(check.exitCode == 0)
        #expect(check.results.allSatisfy { $0.status == .passed })
        #expect(check.notes.count == 1 && check.notes[0].contains("the next check decodes the goldens again"), "\(check.notes)")
    }

    @Test("runs that open an absent cache one after another agree on its seed, so neither's facts are dropped")
    func sharedSeed() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let first = GoldenDigestCache(folder: folder), second = GoldenDigestCache(folder: folder)
        #expect(first.seed == second.seed)
        let a = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]), b = RGBAImage(width: 1, height: 1, pixels: [4, 5, 6, 255])
        first.learn(file: String(repeating: "a", count: 64), decoded: a)
        second.learn(file: String(repeating: "b", count: 64), decoded: b)
        try first.save()
        try second.save()
        let third = GoldenDigestCache(folder: folder)
        #expect(third.fact(forFile: String(repeating: "a", count: 64))?.pixels == third.pixelDigest(of: a))
        #expect(third.fact(forFile: String(repeating: "b", count: 64))?.pixels == third.pixelDigest(of: b))
    }
}
