import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverRaster
import Testing
import TestSupport

/// Verdicts nobody can fool: nothing committed vouches for a golden, and what the local
/// digest cache knows can save time but never pass a golden whose pixels differ.
/// (The cache trusts its own folder, the user's; see `GoldenDigestCache`.)
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

    /// The cache file's lines: the format, the decoder, then one fact per line.
    func cacheLines(_ cache: String) throws -> [String] {
        String(decoding: try FileIO.readBytes(path: cache + "/" + GoldenDigestCache.fileName), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    func writeCache(_ cache: String, _ text: String) throws {
        try FileIO.writeAtomically(Array(text.utf8), to: cache + "/" + GoldenDigestCache.fileName)
    }

    @Test("a changed golden is never confirmed by the cache: its new bytes have no fact, and it is judged on its pixels")
    func changedGolden() throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        let recorded = try run(goldens, .missing, cache: cache)
        let id = recorded.results[2].id
        let old = try #require(recorded.results[2].goldenDigest)
        let tampered = SHA256.hex(try tamper(goldens, id))
        // The cache knows the golden as it was, and nothing of it as it is.
        let facts = try cacheLines(cache).dropFirst(2)
        #expect(facts.contains { $0.hasPrefix(old + " ") } && !facts.contains { $0.hasPrefix(tampered + " ") })

        let check = try run(goldens, .never, cache: cache)
        let result = try #require(check.results.first { $0.id == id })
        #expect(result.status == .failed && result.metrics?.differentPixels == 1 && !result.confirmedFromCache,
                "\(result.message)")
        #expect(check.results.filter { $0.id != id }.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
    }

    /// The cache learns only from drawings: a golden whose pixels differ from what was
    /// drawn gives no fact, so an XXH64 chosen by whoever made the golden never reaches it.
    @Test("a golden that does not match its drawing is never learned: each check decodes and compares it again")
    func unmatchedGoldenNotLearned() throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        let recorded = try run(goldens, .missing, cache: cache)
        let id = recorded.results[4].id
        let tampered = SHA256.hex(try tamper(goldens, id))
        for _ in 0..<2 {
            let check = try run(goldens, .never, cache: cache)
            let result = try #require(check.results.first { $0.id == id })
            #expect(result.status == .failed && !result.confirmedFromCache && result.metrics?.differentPixels == 1)
            #expect(!(try cacheLines(cache)).contains { $0.hasPrefix(tampered + " ") })
        }
    }

    @Test("a damaged cache is said once and rebuilt; verdicts are those of a run without it",
          arguments: ["cut short", "a line that is not a fact"])
    func damagedCache(_ damage: String) throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        let recorded = try run(goldens, .missing, cache: cache)
        let tampered = recorded.results[5].id
        _ = try tamper(goldens, tampered)
        var lines = try cacheLines(cache)
        if damage == "cut short" {
            let text = lines.joined(separator: "\n") + "\n"
            try writeCache(cache, String(text.prefix(text.count / 2)))
        } else {
            lines.insert("not a fact", at: 4)
            try writeCache(cache, lines.joined(separator: "\n") + "\n")
        }

        let first = try run(goldens, .never, cache: cache)
        let expected = damage == "cut short" ? "damaged (cut short)" : "damaged (line 5 is not a fact)"
        #expect(first.notes.filter { $0.contains(expected) && $0.contains("the cache rebuilt") }.count == 1, "\(first.notes)")
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

    /// A fact whose pixel digest no longer matches what the golden decodes to (a damaged
    /// digit): the drawing's digest does not match it either, so the golden is decoded and
    /// compared, and the fact learned again.
    @Test("a fact altered on disk costs a decode, never a verdict")
    func alteredFact() throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        let recorded = try run(goldens, .missing, cache: cache)
        let digest = try #require(recorded.results[3].goldenDigest)
        var lines = try cacheLines(cache)
        let n = try #require(lines.firstIndex { $0.hasPrefix(digest + " ") })
        // The fourth field: the straight pixels' XXH64.
        var fields = lines[n].split(separator: " ").map(String.init)
        let last = try #require(fields[3].last)
        fields[3] = String(fields[3].dropLast()) + (last == "0" ? "1" : "0")
        lines[n] = fields.joined(separator: " ")
        try writeCache(cache, lines.joined(separator: "\n") + "\n")

        let check = try run(goldens, .never, cache: cache)
        #expect(check.notes.isEmpty, "\(check.notes)")
        #expect(check.results.allSatisfy { $0.status == .passed })
        #expect(Set(check.results.filter { !$0.confirmedFromCache }.map(\.goldenDigest)) == [digest])
        let next = try run(goldens, .never, cache: cache)
        #expect(next.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
    }

    @Test("a cache of another libpng, or of another format, is not used nor mentioned, and is replaced",
          arguments: ["another libpng", "another format"])
    func otherDecoderOrFormat(_ kind: String) throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        _ = try run(goldens, .missing, cache: cache)
        var lines = try cacheLines(cache)
        #expect(lines[1] == "decoded by " + PNGFile.decoderVersion)
        if kind == "another libpng" {
            lines[1] = "decoded by libpng 1.0.0, conversion 1"
        } else {
            lines[0] = "popover-goldens golden pixel cache 2"
        }
        try writeCache(cache, lines.joined(separator: "\n") + "\n")
        let check = try run(goldens, .never, cache: cache)
        #expect(check.notes.isEmpty, "\(check.notes)")
        #expect(check.results.allSatisfy { $0.status == .passed } && everyFileDecoded(check))
        #expect(try cacheLines(cache)[1] == "decoded by " + PNGFile.decoderVersion)
        let next = try run(goldens, .never, cache: cache)
        #expect(next.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
    }

    @Test("a cache the run cannot use is left as it is by a run that learns nothing")
    func unusableCacheKeptByIdleRun() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let magic = "popover-goldens golden pixel cache 5"
        for text in ["not a cache\n", magic + "\ndecoded by x\nnot a fact\n"] {
            try writeCache(folder, text)
            let cache = GoldenDigestCache(folder: folder, decoder: "x")
            #expect((cache.note != nil) == text.hasPrefix(magic))
            try cache.save()
            #expect(try FileIO.readBytes(path: folder + "/" + GoldenDigestCache.fileName) == Array(text.utf8))
        }
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

    @Test("a drawing is confirmed unconverted only when its premultiplied pixels are those an earlier drawing converted from")
    func confirmedAsDrawn() {
        let cache = GoldenDigestCache(folder: nil)
        let file = String(repeating: "c", count: 64)
        let clear = RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 0])
        // Premultiplied colour under alpha 0: it converts to clear as well.
        let stray = RGBAImage(width: 1, height: 1, pixels: [5, 0, 0, 0])
        cache.learn(file: file, drawn: clear)
        #expect(cache.confirms(clear, asFile: file))
        // A decode says nothing of any drawing's premultiplied pixels.
        #expect(!cache.confirms(premultiplied: clear, asFile: file))
        cache.learn(file: file, drawn: clear, premultiplied: clear)
        #expect(cache.confirms(premultiplied: clear, asFile: file))
        // Another drawing that converts to the same pixels is converted and confirmed that way.
        #expect(!cache.confirms(premultiplied: stray, asFile: file))
        // Learning the same straight pixels again keeps the drawing; other pixels drop it.
        cache.learn(file: file, drawn: clear)
        #expect(cache.confirms(premultiplied: clear, asFile: file))
        cache.learn(file: file, drawn: RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]))
        #expect(!cache.confirms(premultiplied: clear, asFile: file))
    }

    @Test("a drawing digest learned under another conversion to straight colour confirms nothing")
    func otherConversion() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let file = String(repeating: "d", count: 64)
        let pixel = RGBAImage(width: 1, height: 1, pixels: [10, 20, 30, 255])
        let before = GoldenDigestCache(folder: folder, conversion: 1)
        before.learn(file: file, drawn: pixel, premultiplied: pixel)
        try before.save()
        #expect(GoldenDigestCache(folder: folder, conversion: 1).confirms(premultiplied: pixel, asFile: file))
        // The conversion changed (a build that converts some pixel otherwise): converted
        // again, and confirmed (or not) on the straight pixels.
        let after = GoldenDigestCache(folder: folder, conversion: 2)
        #expect(!after.confirms(premultiplied: pixel, asFile: file))
        #expect(after.confirms(pixel, asFile: file))
    }

    @Test("a check keeps each drawing's premultiplied XXH64; one altered on disk costs a conversion, never a verdict")
    func drawingDigests() throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        defer { removeFolders(goldens, cache) }
        _ = try run(goldens, .missing, cache: cache)
        // Recording learns the decoded pixels only: no drawing is known yet.
        #expect(try cacheLines(cache).dropFirst(2).allSatisfy { $0.hasSuffix(" -") })
        let first = try run(goldens, .never, cache: cache)
        #expect(first.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
        // Each fact now ends with the XXH64 of its case's premultiplied drawing, seeded with
        // the conversion's digest and the size.
        var expected: [String: String] = [:]
        for result in first.results {
            let c = try #require(catalog.cases.first { $0.id == result.id })
            let drawing = try catalog.drawing(c)
            let seed = GoldenDigestCache.conversion ^ (UInt64(drawing.width) << 32 | UInt64(drawing.height))
            expected[try #require(result.goldenDigest)] = XXH64.hex(XXH64.digest(drawing.data, seed: seed))
        }
        var lines = try cacheLines(cache)
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: " ").map(String.init)
            #expect(fields.count == 5 && expected[fields[0]] == fields[4], "\(line)")
        }
        // Altered: that case is converted and confirmed, and its true digest learned again.
        let n = 2
        var fields = lines[n].split(separator: " ").map(String.init)
        let truth = fields[4]
        fields[4] = String(repeating: "0", count: 16)
        lines[n] = fields.joined(separator: " ")
        try writeCache(cache, lines.joined(separator: "\n") + "\n")
        let second = try run(goldens, .never, cache: cache)
        #expect(second.notes.isEmpty, "\(second.notes)")
        #expect(second.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
        #expect(try cacheLines(cache)[n].hasSuffix(" " + truth))
    }

    @Test("runs that learn from one cache at once both keep what they learned")
    func concurrentLearners() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let first = GoldenDigestCache(folder: folder), second = GoldenDigestCache(folder: folder)
        let a = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]), b = RGBAImage(width: 2, height: 1, pixels: [4, 5, 6, 255, 7, 8, 9, 10])
        let fileA = String(repeating: "a", count: 64), fileB = String(repeating: "b", count: 64)
        first.learn(file: fileA, drawn: a)
        second.learn(file: fileB, drawn: b)
        try first.save()
        try second.save()
        let third = GoldenDigestCache(folder: folder)
        // XXH64 of the pixel bytes 01 02 03 ff seeded with the size (1 << 32 | 1), as
        // Python's xxhash package gives it: xxh64(bytes([1, 2, 3, 255]), seed=0x100000001).
        let factA = try #require(third.fact(forFile: fileA))
        #expect(factA == GoldenPixelFact(width: 1, height: 1, pixels: 0xbb03_7545_831c_bf5e))
        #expect(third.confirms(b, asFile: fileB) && !third.confirms(a, asFile: fileB))
    }

    @Test("runs that opened one cache and each learned a drawing keep both drawings, not the older copy's blanks")
    func concurrentDrawingLearners() throws {
        let folder = temporaryFolder()
        defer { removeFolders(folder) }
        let a = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]), b = RGBAImage(width: 1, height: 1, pixels: [4, 5, 6, 255])
        let fileA = String(repeating: "a", count: 64), fileB = String(repeating: "b", count: 64)
        let setup = GoldenDigestCache(folder: folder)
        setup.learn(file: fileA, drawn: a)
        setup.learn(file: fileB, drawn: b)
        try setup.save()
        // Both open the cache knowing no drawing, then each learns one.
        let first = GoldenDigestCache(folder: folder), second = GoldenDigestCache(folder: folder)
        first.learn(file: fileA, drawn: a, premultiplied: a)
        second.learn(file: fileB, drawn: b, premultiplied: b)
        try first.save()
        try second.save()
        let third = GoldenDigestCache(folder: folder)
        #expect(third.confirms(premultiplied: a, asFile: fileA))
        #expect(third.confirms(premultiplied: b, asFile: fileB))
    }
}
