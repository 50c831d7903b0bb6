import Foundation
import PopoverGeometry
import PopoverFiles
import PopoverImage
import PopoverRaster
import PopoverSkins
import Testing
import TestSupport

let standardSkin = SevenImageSkin(id: "test-default", summary: "", artwork: .rendered(.standard))
let shadowless = SevenImageSkin(id: "test-plain", summary: "", artwork: .rendered(.standard), shadow: nil)

func request(_ w: Double, _ h: Double, _ direction: ArrowDirection, offset: Double = 0, scale: Double = 1) -> PopoverRequest {
    PopoverRequest(bounds: Size(width: w, height: h), direction: direction, arrowOffset: offset, scale: scale)
}

/// The pixmap flipped left to right.
func mirrored(_ p: Pixmap) -> Pixmap {
    var out = Pixmap(width: p.width, height: p.height, scale: p.scale)
    for y in 0..<p.height { for x in 0..<p.width { out[p.width - 1 - x, y] = p[x, y] } }
    return out
}

@Suite("The seven-image skin")
struct SevenImageSkinTests {
    @Test("the canvas is the bounds plus the shadow's reach; without a shadow, just the bounds", arguments: [1.0, 2.0, 3.0])
    func canvas(scale: Double) throws {
        let shadowed = try standardSkin.render(request(216, 235, .up, scale: scale))
        let reach = SevenImageSkin.standardShadow.reach(scale: scale)
        // Left and right: the reach rounded up to whole points; top less and bottom more
        // by the 10-point offset.
        let side = reach.rounded(.up)
        #expect(shadowed.backgroundOrigin == Point(x: side, y: (reach - 10).rounded(.up)))
        #expect(shadowed.pixmap.width == Int((216 + 2 * side) * scale))
        #expect(shadowed.pixmap.height == Int((235 + (reach - 10).rounded(.up) + (reach + 10).rounded(.up)) * scale))
        // The corners of the canvas lie beyond the shadow: transparent.
        #expect(shadowed.pixmap[0, 0].a == 0)
        #expect(shadowed.pixmap[shadowed.pixmap.width - 1, shadowed.pixmap.height - 1].a == 0)
        // Below the popover's middle the shadow shows.
        let belowX = shadowed.pixmap.width / 2
        let belowY = Int((shadowed.backgroundOrigin.y + 235 + 12) * scale)
        #expect(shadowed.pixmap[belowX, belowY].a > 20)
        #expect(shadowed.pixmap[belowX, belowY].r == 0)

        let plain = try shadowless.render(request(216, 235, .up, scale: scale))
        #expect(plain.backgroundOrigin == .zero)
        #expect(plain.pixmap.width == Int(216 * scale) && plain.pixmap.height == Int(235 * scale))
    }

    @Test("a left arrow is exactly the right arrow mirrored", arguments: [(-60.0, 1.0), (0, 2), (31.5, 1), (70, 2), (-86, 3)])
    func mirroring(offset: Double, scale: Double) throws {
        let left = try standardSkin.render(request(235, 216, .left, offset: offset, scale: scale)).pixmap
        let right = try standardSkin.render(request(235, 216, .right, offset: offset, scale: scale)).pixmap
        #expect(left == mirrored(right))
    }

    @Test("the two-stage stretch puts the arrow's apex where the rules say", arguments: [0.0, -20, 15.5, 40.25])
    func apex(offset: Double) throws {
        // Up, width 216: centre 108 + offset; stage length L = round(centre + 28); the up
        // image's apex (x = 28 of 57) sits in the right cap, which ends at L: apex at
        // L - (57 - 28) = L - 29. Its top row is the apex: the stroke's inner half below
        // y = 1 point: the topmost covered row straddles it, centred on the apex.
        let centre = 108 + offset
        let length = (centre + 28).rounded(.toNearestOrAwayFromZero)
        let expectedApex = length - 29
        let image = try shadowless.render(request(216, 235, .up, offset: offset, scale: 3)).pixmap
        // Columns covered in the topmost row that has any coverage.
        let row = (0..<image.height).first { y in (0..<image.width).contains { image[$0, y].a > 0 } }!
        let covered = (0..<image.width).filter { image[$0, row].a > 0 }
        let middle = Double(covered.first! + covered.last! + 1) / 2 / 3
        #expect(abs(middle - expectedApex) < 0.25, "apex at \(middle), expected \(expectedApex)")
    }

    @Test("near the threshold the first stage is narrower than the caps, and nothing tears")
    func smallerThanCaps() throws {
        // Offset -82.5 on 216: centre 25.5, the last two-stage position; L = round(53.5) = 54,
        // narrower than the caps (9 + 47): they shrink to share it. The body stays whole.
        let layout = try BackgroundLayout.make(bounds: Size(width: 216, height: 235), direction: .up, arrowOffset: -82.5)
        #expect(layout.stages.count == 2 && layout.stages[0].size.width == 54)
        // The sample colours are opaque (the default's gradient starts at alpha 0.8).
        let opaque = SevenImageSkin(id: "o", summary: "", artwork: .rendered(.sampleApp), shadow: nil)
        let image = try opaque.render(request(216, 235, .up, offset: -82.5, scale: 2)).pixmap
        // Inside the body (2 points in from its anti-aliased sides), every pixel opaque:
        // the shrunk caps meet on a whole pixel, no seam.
        for y in stride(from: 60, to: 440, by: 40) {
            for x in 6..<(image.width - 6) { #expect(image[x, y].a == 255, "hole at \(x),\(y)") }
        }
    }

    @Test("user colours: the body takes the gradient, the edge the border")
    func customColours() throws {
        let colours = ColorSet(border: Color(red: 1, green: 0, blue: 0), gradientFrom: Color(red: 0, green: 0, blue: 1),
                               gradientTo: Color(red: 0, green: 1, blue: 0))
        let skin = SevenImageSkin(id: "custom", summary: "", artwork: .rendered(colours), shadow: nil)
        let image = try skin.render(request(216, 235, .down, scale: 1)).pixmap
        // The left border runs along x = 1: column 0 is outside the clip; column 1 is half
        // the stroke's inner half (red) over half gradient; column 2 is gradient alone.
        #expect(image[0, 100].a == 0)
        #expect(abs(Int(image[1, 100].r) - 128) <= 1 && image[1, 100].a == 255)
        #expect(image[2, 100].r == 0)
        // Deep inside: a mix of blue and green, no red.
        let inside = image[100, 100]
        #expect(inside.r == 0 && inside.a == 255 && inside.b > 0 && inside.g > 0)
    }

    @Test("the tint recipe on each pixel: multiply, then the original's alpha")
    func tintArithmetic() throws {
        let tint = Tint(color: Color(red: 0.5, green: 1, blue: 0.25))
        var source = Pixmap(width: 3, height: 1)
        source[0, 0] = PremultipliedPixel(r: 200, g: 100, b: 40, a: 255)
        source[1, 0] = PremultipliedPixel(r: 0, g: 0, b: 0, a: 0)
        source[2, 0] = PremultipliedPixel(r: 64, g: 64, b: 64, a: 128)
        let tinted = try tint.apply(to: source)
        // Opaque: multiply by the tint (R = S*D for opaque pairs): 200 * 128/255 = 100.4,
        // 100 * 1, 40 * 64/255 = 10.04; alpha stays 255.
        #expect(tinted[0, 0] == PremultipliedPixel(r: 100, g: 100, b: 10, a: 255))
        // Transparent stays transparent: destination-in with alpha 0.
        #expect(tinted[1, 0].a == 0)
        // Half-transparent: multiply over (64,64,64,128): S*(1-Da) + D*(1-Sa) + S*D with S
        // the opaque tint (128,255,64,255): r = 128*127/255 + 0 + 128*64/255 = 95.9 -> 96,
        // g = 255*127/255 + 255*64/255 = 191, b = 64*127/255 + 64*64/255 = 47.9 -> 48,
        // a = 255; then destination-in by 128/255: (48, 96, 24, 128).
        #expect(tinted[2, 0] == PremultipliedPixel(r: 48, g: 96, b: 24, a: 128))
    }

    static let teal = Color(red: 0.25, green: 0.62, blue: 0.72)

    @Test("the fork's scale-1 blur is an option: sharp by default, blurred when asked, the same at 1x")
    func tintBlur() throws {
        let sharp = SevenImageSkin(id: "a", summary: "", artwork: .rendered(.standard), tint: Tint(color: Self.teal), shadow: nil)
        let blurry = SevenImageSkin(id: "b", summary: "", artwork: .rendered(.standard),
                                    tint: Tint(color: Self.teal, reproducesScaleOneBlur: true), shadow: nil)
        #expect(try sharp.render(request(216, 235, .up, scale: 1)).pixmap == blurry.render(request(216, 235, .up, scale: 1)).pixmap)
        let a = try sharp.render(request(216, 235, .up, scale: 2)).pixmap, b = try blurry.render(request(216, 235, .up, scale: 2)).pixmap
        #expect(a != b)
        // Blur shows as more partly-covered pixels along the outline.
        let partial = { (p: Pixmap) in stride(from: 3, to: p.data.count, by: 4).filter { p.data[$0] > 0 && p.data[$0] < 255 }.count }
        #expect(partial(b) > partial(a))
    }

    @Test("bad requests are errors naming the value")
    func errors() {
        #expect(throws: SkinError.invalidScale(4)) { try standardSkin.render(request(216, 235, .up, scale: 4)) }
        do {
            _ = try standardSkin.render(request(40, 235, .up))
            Issue.record("no error for 40-point bounds")
        } catch {
            #expect("\(error)".contains("40 x 235"))
        }
        #expect(throws: SkinError.self) { try standardSkin.render(request(216, 235, .up, offset: .nan)) }
    }
}

@Suite("Image files")
struct ArtworkFileTests {
    static let folder = PackageFolders.skins + "/gik-files"

    /// A copy of the project's artwork set in a temporary folder, to damage.
    static func copy() throws -> String {
        let target = testProcessFolder + "/artwork-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: folder, toPath: target)
        return target
    }

    @Test("the project's artwork loads at every scale with its metrics, and differs from the rendered look")
    func loads() throws {
        let set = try ArtworkSet(folder: Self.folder)
        #expect(set.metrics == .sampleAppFiles)
        for image in ArrowImage.allCases {
            for scale in [1.0, 2.0, 3.0] {
                let p = try set.image(image, scale: scale)
                #expect(p.width == Int(set.metrics[image].size.width * scale))
            }
        }
        let files = SevenImageSkin(id: "f", summary: "", artwork: .files(set), shadow: nil)
        let rendered = try shadowless.render(request(216, 235, .up)).pixmap
        let fromFiles = try files.render(request(216, 235, .up)).pixmap
        #expect(rendered.width == fromFiles.width)
        #expect(rendered != fromFiles)
    }

    @Test("an image with no file at any scale is an error naming it")
    func missingFile() throws {
        let damaged = try Self.copy()
        for name in ["side-top.png", "side-top@2x.png", "side-top@3x.png"] {
            try FileManager.default.removeItem(atPath: damaged + "/" + name)
        }
        #expect {
            try ArtworkSet(folder: damaged)
        } throws: {
            "\($0)" == "\(damaged)/side-top.png: missing: no side-top image at any scale (side-top.png, side-top@2x.png, side-top@3x.png)"
        }
    }

    @Test("an image whose files disagree on its size in points is an error naming both")
    func misSized() throws {
        let damaged = try Self.copy()
        try PNGFile.write(RGBAImage(width: 10, height: 10), to: damaged + "/up.png")
        do {
            _ = try ArtworkSet(folder: damaged)
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("up.png") && "\(error)".contains("10 x 10") && "\(error)".contains("57 x 51"))
        }
    }

    @Test("metrics.json: an unknown key, or a size the files do not have, is an error naming the file and the field")
    func badMetrics() throws {
        let damaged = try Self.copy()
        try FileIO.writeAtomically(Array(#"{"arrowbase": 37}"#.utf8), to: damaged + "/metrics.json")
        #expect { try ArtworkSet(folder: damaged) } throws: {
            "\($0)".hasPrefix("\(damaged)/metrics.json: arrowbase: unknown key (known keys: arrowBase,")
        }
        try FileIO.writeAtomically(Array(#"{"sideTop": {"size": {"width": 37, "height": 53}}}"#.utf8), to: damaged + "/metrics.json")
        #expect { try ArtworkSet(folder: damaged) } throws: {
            "\($0)" == "\(damaged)/metrics.json: sideTop.size says 37 x 53 points, but side-top.png is 37 x 67 points"
        }
        // Numbers it leaves out are the standard skin's; sizes, the files'.
        try FileIO.writeAtomically(Array(#"{"arrowBase": 37}"#.utf8), to: damaged + "/metrics.json")
        #expect(try ArtworkSet(folder: damaged).metrics == .standard)
    }
}

@Suite("The two-asset and path skins")
struct OtherSkinTests {
    let skins = SkinCatalog.lineup(skinsFolder: PackageFolders.skins).skins

    @Test("two-asset: the arrow points the way asked, the background's corners are rounded", arguments: ArrowDirection.allCases)
    func twoAsset(direction: ArrowDirection) throws {
        let skin = try #require(skins.first { $0.id == "two-asset-orange" })
        let (w, h) = direction.isVertical ? (200.0, 180.0) : (180.0, 200.0)
        let image = try skin.render(request(w, h, direction, scale: 1)).pixmap
        // The tip is the arrow image's narrow end, at the far edge of the arrow's strip,
        // in the middle of that edge.
        let tip: (Int, Int) = switch direction {
        case .up: (100, 1)
        case .down: (100, 178)
        case .left: (1, 100)
        case .right: (178, 100)
        }
        #expect(image[tip.0, tip.1].a > 0, "no arrow tip at \(tip)")
        // Beside the tip, along the edge, nothing (the arrow is 31 wide at its base only).
        let beside: (Int, Int) = direction.isVertical ? (tip.0 + 12, tip.1) : (tip.0, tip.1 + 12)
        #expect(image[beside.0, beside.1].a == 0)
        // The background's corner away from the arrow is cut by the 15-point mask.
        let corner: (Int, Int) = direction == .up ? (0, 179) : (direction == .left ? (179, 0) : (0, 0))
        #expect(image[corner.0, corner.1].a == 0)
        let inside: (Int, Int) = direction == .up ? (8, 171) : (direction == .left ? (171, 8) : (8, 8))
        #expect(image[inside.0, inside.1].a == 255)
    }

    @Test("path skin: a crisp one-pixel outline at every scale", arguments: [1.0, 2.0, 3.0])
    func crisp(scale: Double) throws {
        let skin = try #require(skins.first { $0.id == "path-slate" } as? PathSkin)
        let image = try skin.render(request(200, 150, .down, scale: scale)).pixmap
        let line = skin.outline.premultiplied, fill = skin.fill.premultiplied
        // The top edge: row 0 is all line between the corners, row 1 all fill.
        for x in Int(12 * scale)..<Int(188 * scale) {
            #expect(image[x, 0] == line, "row 0, column \(x)")
            #expect(image[x, 1] == fill, "row 1, column \(x)")
        }
        // The left edge likewise, column 0 and column 1.
        for y in Int(12 * scale)..<Int(120 * scale) {
            #expect(image[0, y] == line && image[1, y] == fill)
        }
    }

    @Test("path skin: the arrow stops where it meets a corner")
    func clamped() throws {
        let skin = try #require(skins.first { $0.id == "path-slate" } as? PathSkin)
        let far = try skin.render(request(200, 150, .up, offset: 500)).pixmap
        let limit = try skin.render(request(200, 150, .up, offset: 100 - 10 - 15)).pixmap
        #expect(far == limit)
    }
}
