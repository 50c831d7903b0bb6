import Foundation
import PopoverGeometry
import PopoverHarness
import PopoverImage
import PopoverRaster
import PopoverSkins

/// The package's own folders, found from this file's path (Tests/HarnessTests/...).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A fresh empty folder under the system's temporary folder.
func temporaryFolder(_ name: String = "harness") -> String {
    let path = NSTemporaryDirectory() + "popover-goldens-\(name)-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A skin that costs next to nothing to draw: the bounds filled with one colour, a
/// darker square where the arrow's centre is. Enough to exercise the harness.
struct FlatSkin: Skin {
    var id = "flat"
    var summary = "flat colour, for harness tests"
    var metrics = PopoverMetrics.path
    var castsShadow: Bool { false }
    var color = Color(red: 0.2, green: 0.5, blue: 0.8)

    func render(_ request: PopoverRequest) throws -> RenderedPopover {
        var canvas = Canvas(pointWidth: request.bounds.width, pointHeight: request.bounds.height, scale: request.scale)
        canvas.fill(x: 0, y: 0, width: request.bounds.width, height: request.bounds.height, with: .solid(color))
        let along = (request.direction.isVertical ? request.bounds.width : request.bounds.height) / 2 + request.arrowOffset
        let (x, y) = request.direction.isVertical ? (along, 4.0) : (4.0, along)
        canvas.fill(x: x - 2, y: y - 2, width: 4, height: 4, with: .solid(.black))
        return RenderedPopover(pixmap: canvas.pixmap, backgroundOrigin: .zero)
    }
}

/// Options for a run over temporary folders.
func options(goldens: String, reports: String, mode: RecordMode, filter: String? = nil) -> CheckOptions {
    var o = CheckOptions()
    o.goldensFolder = goldens
    o.reportsFolder = reports
    o.recordMode = mode
    o.filter = filter
    return o
}

/// The modification time and inode of a file: unchanged means the file was not rewritten.
func fileIdentity(_ path: String) -> (modified: Date, inode: UInt64)? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          let modified = attributes[.modificationDate] as? Date,
          let inode = attributes[.systemFileNumber] as? UInt64 else { return nil }
    return (modified, inode)
}
