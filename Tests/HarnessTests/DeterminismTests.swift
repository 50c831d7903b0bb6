import Foundation
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

@Suite("Determinism")
struct DeterminismTests {
    @Test("the same cases draw the same bytes on every run and thread count")
    func sameBytes() throws {
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        // A spread of skins, families and scales.
        let cases = stride(from: 0, to: catalog.cases.count, by: 17).map { catalog.cases[$0] }
        let sequential = try cases.map { XXH64.hexDigest(try catalog.draw($0).pixels) }
        let again = try cases.map { XXH64.hexDigest(try catalog.draw($0).pixels) }
        #expect(sequential == again)
        // Four threads at once, each drawing a quarter of the cases, in reverse order.
        let digests = DigestSlots(count: cases.count)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in stride(from: cases.count - 1 - worker, through: 0, by: -4) {
                digests.set(i, (try? catalog.draw(cases[i])).map { XXH64.hexDigest($0.pixels) } ?? "failed")
            }
        }
        #expect(digests.values == sequential)
    }
}

final class DigestSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String]
    init(count: Int) { storage = Array(repeating: "", count: count) }
    func set(_ i: Int, _ value: String) { lock.withLock { storage[i] = value } }
    var values: [String] { lock.withLock { storage } }
}
