import Foundation
import PopoverDiff
import PopoverGeometry
import PopoverHarness
import PopoverFiles
import PopoverImage
import PopoverBench
import PopoverSkins
import Testing
import TestSupport

/// Our count of differing pixels must equal ImageMagick's `compare -metric AE` (fuzz
/// 0) on real pairs: committed goldens against renders with a deliberate change.
///
/// `-channel RGBA`: ImageMagick 6 compares colour weighted by alpha on its default
/// channels, so a pixel whose alpha alone changed (a shadow moving) counts as equal
/// there; with alpha among the channels it counts every pixel any channel changed, as
/// we do.
@Suite("Agreement with ImageMagick")
struct ImageMagickAgreementTests {
    /// Pairs of (golden, changed render) written to a temporary folder.
    static func pairs() throws -> [(expected: String, actual: String)] {
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let folder = temporaryFolder("ae")
        var out: [(String, String)] = []
        // Case, and how far its arrow moves (0: the shadow moves 6 points up instead).
        let picks: [(id: String, move: Double)] = [
            ("gik-default/up/sweep-120x104-offset0@1x", 1),
            ("gik-sample/left/popover7-portrait@2x", 0.5),
            ("gik-files/down/sweep-200x104-offset+74@1x", 2),
            ("path-slate/right/sweep-104x200-offset0@1x", -3),
            ("two-asset-orange/up/sweep-120x104-offset+0.25@2x", 1),
            ("gik-default/left/keyboard-popover2-landscape-t125ms@1x", 0),
        ]
        for (id, move) in picks {
            let c = try #require(catalog.cases.first { $0.id == id }, "\(id)")
            var request = c.request
            request.arrowOffset += move
            if move == 0, let shadow = request.shadowRect {
                request.shadowRect = Rect(x: shadow.minX, y: shadow.minY - 6, width: shadow.width, height: shadow.height)
            }
            let skin = try #require(catalog.skin(c.skinID))
            let actual = try skin.render(request).pixmap.straightImage
            let path = folder + "/" + id.replacingOccurrences(of: "/", with: "_") + ".png"
            try PNGFile.write(actual, to: path)
            out.append((PackageFolders.goldens + "/" + id + ".png", path))
        }
        return out
    }

    @Test("differentPixels equals compare -metric AE", .enabled(if: ImageMagick.isInstalled || runningOnCI,
                                                                "ImageMagick's compare is not installed (scripts/install-dependencies)"))
    func agreement() throws {
        try #require(ImageMagick.isInstalled, "ImageMagick's compare is not installed: CI must have it (scripts/install-dependencies)")
        for (expected, actual) in try Self.pairs() {
            let ours = ImageComparison.compare(expected: try PNGFile.read(path: expected),
                                               actual: try PNGFile.read(path: actual), tolerance: .exact)
            let theirs = try ImageMagick.absoluteErrorCount(expected, actual)
            let metrics = try #require(ours.metrics)
            #expect(metrics.differentPixels > 0, "\(expected): the change should show")
            #expect(metrics.differentPixels == theirs, "\(expected): ours \(metrics.differentPixels), ImageMagick \(theirs)")
        }
    }
}
