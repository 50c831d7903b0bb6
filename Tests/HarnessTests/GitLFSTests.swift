import Foundation
import PopoverFiles
import PopoverHarness
import Testing
import TestSupport

/// Goldens kept in Git LFS, in a checkout that fetched only the pointers.
@Suite("Goldens that are Git LFS pointers")
struct GitLFSTests {
    @Test("a pointer golden is named as such with its fix, exit 2; the other cases are still judged")
    func pointer() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let filter = "path-slate/up/popover8"
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let ids = catalog.cases(matching: filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        // What a checkout without `git lfs pull` holds in place of the PNG.
        let pointer = "version https://git-lfs.github.com/spec/v1\n"
            + "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"
        try FileIO.writeAtomically(Array(pointer.utf8), to: folder.file("Goldens/\(ids[0]).png"))
        let run = try CheckRunner(catalog: catalog, options: checkOptions(goldens: folder.file("Goldens"), mode: .never,
                                                                          filter: filter, cache: folder.file("cache"))).run()
        let broken = try #require(run.results.first { $0.id == ids[0] })
        #expect(broken.status == .error)
        #expect(broken.message == "\(folder.file("Goldens"))/\(ids[0]).png: a Git LFS pointer, not the image: this checkout has "
            + "the goldens' pointers only; run `git lfs pull` (or check out with LFS) and check again")
        #expect(!broken.message.contains("not a PNG"))
        #expect(run.results.filter { $0.id != ids[0] }.allSatisfy { $0.status == .passed })
        #expect(run.exitCode == 2)
    }
}
