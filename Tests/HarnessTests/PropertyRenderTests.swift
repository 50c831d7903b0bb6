import Foundation
import PopoverGeometry
import PopoverRaster
import PopoverSkins
import Testing
import TestSupport

/// Rendering random small popovers with every skin: no trap, a bitmap of the size the
/// bounds call for, the background inside it. Run under the address sanitizer by
/// scripts/test-asan, this is also the check that drawing stays inside its buffers.
@Suite("Rendering properties over random inputs")
struct PropertyRenderTests {
    @Test("every skin renders random bounds, offsets and directions inside its bitmap")
    func randomRenders() throws {
        let skins = SkinCatalog.lineup(skinsFolder: PackageFolders.skins).skins
        var random = SplitMix64(seed: 0x7265_6E64)
        var failures: [String] = []
        for sample in 0..<150 {
            let skin = skins[Int.random(in: 0..<skins.count, using: &random)]
            let direction = ArrowDirection.allCases[Int.random(in: 0..<4, using: &random)]
            let minimum = skin.metrics.minimumBounds(for: direction)
            let bounds = Size(width: minimum.width + Double(Int.random(in: 0...160, using: &random)) / 2,
                              height: minimum.height + Double(Int.random(in: 0...160, using: &random)) / 2)
            let edge = direction.isVertical ? bounds.width : bounds.height
            let extreme = edge / 2 - skin.metrics.arrowBase / 2
            let offset = Int.random(in: 0..<4, using: &random) == 0
                ? [-extreme, extreme, 0][Int.random(in: 0...2, using: &random)]
                : Double.random(in: -extreme...extreme, using: &random)
            let scale = Double([1, 1, 2, 3][Int.random(in: 0...3, using: &random)])
            let request = PopoverRequest(bounds: bounds, direction: direction, arrowOffset: offset, scale: scale)
            let label = "sample \(sample): \(skin.id) \(direction) \(bounds) offset \(offset) @\(Int(scale))x"
            let rendered: RenderedPopover
            do {
                rendered = try skin.render(request)
            } catch {
                failures.append("\(label): \(error)")
                continue
            }
            let pixmap = rendered.pixmap
            let origin = rendered.backgroundOrigin
            // The bitmap holds the background: origin plus bounds, in whole pixels.
            let needWidth = Int(((origin.x + bounds.width) * scale - 1e-9).rounded(.up))
            let needHeight = Int(((origin.y + bounds.height) * scale - 1e-9).rounded(.up))
            if pixmap.width < needWidth || pixmap.height < needHeight || origin.x < 0 || origin.y < 0 {
                failures.append("\(label): \(pixmap.width) x \(pixmap.height) pixels cannot hold the background at \(origin)")
            }
            if pixmap.data.count != pixmap.width * pixmap.height * 4 {
                failures.append("\(label): \(pixmap.data.count) bytes for \(pixmap.width) x \(pixmap.height)")
            }
            // The background is drawn: the middle of its body (the bounds less the arrow's
            // strip) is not transparent.
            let h = skin.metrics.arrowHeight
            let (bx, by): (Double, Double) = switch direction {
            case .up: (bounds.width / 2, h + (bounds.height - h) / 2)
            case .down: (bounds.width / 2, (bounds.height - h) / 2)
            case .left: (h + (bounds.width - h) / 2, bounds.height / 2)
            case .right: ((bounds.width - h) / 2, bounds.height / 2)
            }
            let cx = Int((origin.x + bx) * scale), cy = Int((origin.y + by) * scale)
            if cx < pixmap.width, cy < pixmap.height, pixmap.data[(cy * pixmap.width + cx) * 4 + 3] == 0 {
                failures.append("\(label): nothing drawn in the middle of the body")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    }
}
