import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
import PopoverImage

/// The private folder a run's report is written into before it is published; it keeps
/// the cases' images as the check hands them over (see `CaseArtifactSink`).
///
/// For each case: the golden's file is kept as it is (no decoding, no encoding), the
/// actual image is encoded fast (nobody keeps report images), the heatmap as a palette
/// image, and a thumbnail is made from the pictures in memory (triptychs are drawn after
/// the run, for the worst cases: `ReportTriptychs`). Each saved image is recorded with its
/// size and, for the golden and the actual image, the SHA-256 of its file, which is what
/// an approval must name.
public final class ReportStaging: CaseArtifactSink, Sendable {
    public let folder: String
    /// The deletion of earlier runs' retired reports, going on while this run works.
    let cleanup: RetiredReports

    init(folder: String, cleanup: RetiredReports = RetiredReports.startDeleting([])) {
        self.folder = folder
        self.cleanup = cleanup
    }

    public func keep(_ images: CaseImages, of info: CaseInfo) -> CaseArtifacts {
        // Files named after the case, beside each other in the skin's direction folder
        // (cases/<skin>/<direction>/<name>.actual.png): no folder per case, so a report
        // where everything fails creates, and its successor deletes, 2080 fewer.
        let base = "cases/" + info.id
        do {
            try FileIO.createDirectories(folder + "/" + FilePaths.parent(of: base))
        } catch {
            return CaseArtifacts()  // the report says the images are missing; the verdict stands
        }
        var artifacts = CaseArtifacts()
        if let file = images.expectedFile, let expected = images.expected {
            artifacts.expected = save(file, as: base + ".expected.png", size: expected, digest: true)
        } else if let expected = images.expected {
            artifacts.expected = save(PNGFile.encode(expected, compression: .fast), as: base + ".expected.png",
                                      size: expected, digest: true)
        }
        if let actual = images.actual {
            artifacts.actual = save(PNGFile.encode(actual, compression: .fast), as: base + ".actual.png",
                                    size: actual, digest: true)
        }
        var preview: RGBAImage?
        if let diff = images.diff, !diff.isAllEqual, let expected = images.expected {
            // A palette heatmap: a quarter of the bytes to compress, the same picture.
            let heatmap = IndexedHeatmap.render(expected: expected, diff: diff)
            let palette = heatmap.palette.map { PNGPaletteEntry(red: $0.red, green: $0.green, blue: $0.blue) }
            let bytes = PNGFile.encodeIndexed(width: heatmap.width, height: heatmap.height, indices: heatmap.indices,
                                              palette: palette, compression: .fast)
            artifacts.heatmap = save(bytes, as: base + ".heatmap.png", size: expected, digest: false)
            preview = ReportThumbnail.make(heatmap)
        } else if let actual = images.actual {
            preview = ReportThumbnail.make(actual)
        }
        if let preview, preview.width > 0, preview.height > 0 {
            artifacts.thumbnail = save(PNGFile.encode(preview, compression: .fast), as: base + ".thumbnail.png",
                                       size: preview, digest: false)
        }
        return artifacts
    }

    private func save(_ bytes: [UInt8], as relative: String, size image: RGBAImage, digest: Bool) -> SavedImage? {
        do {
            try FileIO.writeNew(bytes, to: folder + "/" + relative)
        } catch {
            return nil
        }
        return SavedImage(path: relative, width: image.width, height: image.height,
                          digest: digest ? SHA256.hex(bytes) : nil)
    }

    /// Removes the folder and everything in it.
    public func discard() {
        cleanup.wait()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
