import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverHarness
import PopoverImage
import Synchronization
import Testing
import TestSupport

/// The goldens' facts tables on disk, through `GoldenStore`: where a golden's row lives,
/// writers of one folder that lose no row, a removed golden's row and empty table gone,
/// rewriting the same facts touching nothing, a table read once per store, an unreadable
/// table only making its folder's facts unreadable.
@Suite("Facts tables in the goldens folder")
struct FactsStoreTests {
    static func digest(_ n: Int) -> String { String(format: "%064x", n) }

    static func facts(_ n: Int) -> Facts {
        Facts(["apex": .group(Facts(["x": .number(Double(n) + 0.5)])), "image": .text("up"),
               "stages": .list((0..<(n % 3)).map { .group(Facts(["width": .number(Double(100 + $0))])) })])
    }

    /// Writes `id`'s row under the folder's lock, as a writer of goldens does.
    @discardableResult
    static func write(_ store: GoldenStore, _ id: String, _ n: Int) throws -> Bool {
        try store.locked { try store.writeFactsHoldingLock(GoldenFacts(caseID: id, golden: digest(n), facts: facts(n))) }
    }

    @Test("a golden's row is in the table of its folder; a golden at the top uses the top folder's")
    func placement() throws {
        let folder = TemporaryFolder("facts-placement")
        defer { folder.remove() }
        let store = GoldenStore(folder: folder.path)
        #expect(store.factsTablePath(for: "s/up/a@1x") == folder.path + "/s/up/facts.tsv")
        #expect(store.factsTablePath(for: "top@1x") == folder.path + "/facts.tsv")
        try Self.write(store, "s/up/a@1x", 1)
        try Self.write(store, "top@1x", 2)
        let fresh = GoldenStore(folder: folder.path)
        #expect(fresh.facts(for: "s/up/a@1x", goldenDigest: Self.digest(1)) == (Self.facts(1), .recorded))
        #expect(fresh.facts(for: "top@1x", goldenDigest: Self.digest(2)) == (Self.facts(2), .recorded))
        #expect(fresh.facts(for: "top@1x", goldenDigest: Self.digest(3)) == (nil, .stale))
        #expect(fresh.facts(for: "top@1x", goldenDigest: nil) == (nil, .stale))
        #expect(fresh.facts(for: "s/up/b@1x", goldenDigest: Self.digest(1)) == (nil, .missing))
        #expect(fresh.facts(for: "s/down/a@1x", goldenDigest: Self.digest(1)) == (nil, .missing))
        let text = try String(contentsOfFile: folder.file("facts.tsv"), encoding: .utf8)
        #expect(text == "case\tgolden\tapex.x\timage\tstages[0].width\tstages[1].width\ntop@1x\t\(Self.digest(2))\t2.5\t\"up\"\t100\t101\n")
    }

    @Test("writers of one folder at once, on several threads each with its own store: no row is lost")
    func concurrentWriters() throws {
        let folder = TemporaryFolder("facts-threads")
        defer { folder.remove() }
        let threads = 8, perThread = 12
        let failures = Mutex<[String]>([])
        let shared = GoldenStore(folder: folder.path)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            // A store per thread, as separate runs have; and every other write through a
            // store shared by all, as one run's workers have.
            let own = GoldenStore(folder: folder.path)
            for i in 0..<perThread {
                let n = t * perThread + i
                do {
                    try Self.write(i % 2 == 0 ? own : shared, "s/up/case-\(n)@1x", n)
                } catch {
                    failures.withLock { $0.append("\(n): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let table = try FactsTable.decode(try FileIO.readBytes(path: folder.file("s/up/facts.tsv")), file: "facts.tsv")
        #expect(table.rows.count == threads * perThread)
        for n in 0..<(threads * perThread) {
            #expect(table.rows["case-\(n)@1x"] == FactsTable.Row(golden: Self.digest(n), facts: Self.facts(n)), "\(n)")
        }
    }

    @Test("one store shared by threads, as a run's workers share it: every row written is in the table and in its answers")
    func sharedStore() throws {
        let folder = TemporaryFolder("facts-shared")
        defer { folder.remove() }
        let store = GoldenStore(folder: folder.path)
        DispatchQueue.concurrentPerform(iterations: 40) { n in
            _ = try? Self.write(store, "s/\(n % 2 == 0 ? "up" : "down")/case-\(n)@1x", n)
            _ = store.facts(for: "s/up/case-0@1x", goldenDigest: Self.digest(0))
        }
        let fresh = GoldenStore(folder: folder.path)
        for n in 0..<40 {
            let id = "s/\(n % 2 == 0 ? "up" : "down")/case-\(n)@1x"
            #expect(store.facts(for: id, goldenDigest: Self.digest(n)) == (Self.facts(n), .recorded), "\(id)")
            #expect(fresh.facts(for: id, goldenDigest: Self.digest(n)) == (Self.facts(n), .recorded), "\(id)")
        }
    }

    @Test("rewriting a row with the same facts touches nothing; other facts rewrite the table")
    func unchangedTouchesNothing() throws {
        let folder = TemporaryFolder("facts-unchanged")
        defer { folder.remove() }
        let store = GoldenStore(folder: folder.path)
        #expect(try Self.write(store, "s/up/a@1x", 1))
        #expect(try Self.write(store, "s/up/b@1x", 2))
        // A past modification date, so any rewrite of the table (in place or by rename) shows
        // as a new one, however coarse the file system's clock.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 946_684_800)],
                                              ofItemAtPath: folder.file("s/up/facts.tsv"))
        let before = try #require(fileIdentity(folder.file("s/up/facts.tsv")))
        #expect(try Self.write(store, "s/up/a@1x", 1) == false)
        #expect(try Self.write(GoldenStore(folder: folder.path), "s/up/b@1x", 2) == false)
        let after = try #require(fileIdentity(folder.file("s/up/facts.tsv")))
        #expect(after.modified == before.modified && after.inode == before.inode)
        #expect(try Self.write(store, "s/up/a@1x", 3))
        #expect(GoldenStore(folder: folder.path).facts(for: "s/up/a@1x", goldenDigest: Self.digest(3)) == (Self.facts(3), .recorded))
    }

    @Test("removing a golden removes its row; the last row's removal deletes the table and the folders left empty")
    func removal() throws {
        let folder = TemporaryFolder("facts-remove")
        defer { folder.remove() }
        let store = GoldenStore(folder: folder.path)
        for (n, id) in ["s/up/a@1x", "s/up/b@1x", "s/down/c@1x"].enumerated() {
            try FileIO.createDirectories(FilePaths.parent(of: store.path(for: id)))
            try FileIO.writeAtomically([UInt8(n)], to: store.path(for: id))
            try Self.write(store, id, n)
        }
        try store.locked { try store.removeHoldingLock("s/up/a@1x") }
        let table = try FactsTable.decode(try FileIO.readBytes(path: folder.file("s/up/facts.tsv")), file: "facts.tsv")
        #expect(Array(table.rows.keys) == ["b@1x"])
        #expect(store.facts(for: "s/up/a@1x", goldenDigest: Self.digest(0)).standing == .missing)
        try store.locked { try store.removeHoldingLock("s/up/b@1x") }
        #expect(!FileManager.default.fileExists(atPath: folder.file("s/up")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("s")) == ["down"])
        try store.locked { try store.removeHoldingLock("s/down/c@1x") }
        #expect(try folder.contents().isEmpty)
    }

    @Test("a store reads a folder's table once, and answers from it (and from its own writes) after")
    func readOnce() throws {
        let folder = TemporaryFolder("facts-once")
        defer { folder.remove() }
        try Self.write(GoldenStore(folder: folder.path), "s/up/a@1x", 1)
        let store = GoldenStore(folder: folder.path)
        #expect(store.facts(for: "s/up/a@1x", goldenDigest: Self.digest(1)).standing == .recorded)
        // Another writer's row, after this store read the table: not seen by it, seen anew.
        try Self.write(GoldenStore(folder: folder.path), "s/up/b@1x", 2)
        #expect(store.facts(for: "s/up/b@1x", goldenDigest: Self.digest(2)).standing == .missing)
        #expect(GoldenStore(folder: folder.path).facts(for: "s/up/b@1x", goldenDigest: Self.digest(2)).standing == .recorded)
        // Its own write reads the table from disk first: the other writer's row is kept.
        try Self.write(store, "s/up/c@1x", 3)
        #expect(store.facts(for: "s/up/b@1x", goldenDigest: Self.digest(2)).standing == .recorded)
        #expect(store.facts(for: "s/up/c@1x", goldenDigest: Self.digest(3)).standing == .recorded)
    }

    @Test("an unreadable table: its folder's facts are unreadable, with the file and line; a write starts it afresh")
    func unreadable() throws {
        let folder = TemporaryFolder("facts-unreadable")
        defer { folder.remove() }
        try Self.write(GoldenStore(folder: folder.path), "s/up/a@1x", 1)
        try Self.write(GoldenStore(folder: folder.path), "s/up/b@1x", 2)
        try Self.write(GoldenStore(folder: folder.path), "s/down/c@1x", 3)
        let path = folder.file("s/up/facts.tsv")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try (text + "<<<<<<< HEAD\n").write(toFile: path, atomically: true, encoding: .utf8)
        let store = GoldenStore(folder: folder.path)
        #expect(store.facts(for: "s/up/a@1x", goldenDigest: Self.digest(1)) == (nil, .unreadable))
        #expect(store.facts(for: "s/up/b@1x", goldenDigest: Self.digest(2)) == (nil, .unreadable))
        #expect(store.facts(for: "s/down/c@1x", goldenDigest: Self.digest(3)).standing == .recorded)
        #expect(store.factsProblem(for: "s/up/a@1x") == "\(path):4: 1 cell, but the header has 6")
        #expect(store.factsProblem(for: "s/down/c@1x") == nil)
        try Self.write(store, "s/up/b@1x", 2)
        #expect(store.facts(for: "s/up/b@1x", goldenDigest: Self.digest(2)).standing == .recorded)
        #expect(GoldenStore(folder: folder.path).facts(for: "s/up/a@1x", goldenDigest: Self.digest(1)).standing == .missing)
    }

    @Test("recording a golden another run wrote meanwhile: the same bytes are left as they are and get this run's facts; other bytes are refused and kept")
    func recordedMeanwhile() throws {
        let folder = TemporaryFolder("facts-meanwhile")
        defer { folder.remove() }
        let id = "s/up/a@1x"
        // A 2 x 1 image, opaque red then opaque blue; the other an opaque green pixel.
        let image = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255])
        let other = RGBAImage(width: 2, height: 1, pixels: [0, 255, 0, 255, 0, 0, 255, 255])
        let first = GoldenStore(folder: folder.path), second = GoldenStore(folder: folder.path)
        // A neighbour's row in the same table, and the second run's store having read the table
        // before the first wrote: what it writes must start from the table on disk.
        try Self.write(first, "s/up/b@1x", 7)
        #expect(second.facts(for: id, goldenDigest: nil).standing == .missing)
        // Both runs looked while there was no golden (replacing nil); the first writes.
        let written = try GoldenWriter.write(image, as: id, in: first, cache: nil, facts: Self.facts(1), replacing: nil)
        #expect(written.outcome == .written)
        var before = stat()
        #expect(stat(first.path(for: id), &before) == 0)

        let again = try GoldenWriter.write(image, as: id, in: second, cache: nil, facts: Self.facts(2), replacing: nil)
        #expect(again.outcome == .alreadyThere && again.png == written.png)
        var after = stat()
        #expect(stat(first.path(for: id), &after) == 0)
        #expect(after.st_ino == before.st_ino, "the golden was replaced, though it already held these bytes")
        let digest = SHA256.hex(written.png)
        #expect(GoldenStore(folder: folder.path).facts(for: id, goldenDigest: digest) == (Self.facts(2), .recorded))
        #expect(GoldenStore(folder: folder.path).facts(for: "s/up/b@1x", goldenDigest: Self.digest(7)) == (Self.facts(7), .recorded))

        #expect(throws: HarnessError.goldenChanged(first.path(for: id))) {
            try GoldenWriter.write(other, as: id, in: second, cache: nil, facts: Self.facts(3), replacing: nil)
        }
        #expect(try FileIO.readBytes(path: first.path(for: id)) == written.png)
        #expect(GoldenStore(folder: folder.path).facts(for: id, goldenDigest: digest) == (Self.facts(2), .recorded))
    }
}
