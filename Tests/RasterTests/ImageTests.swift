import Foundation
import PopoverRaster
import Testing

@Suite("Drawing images")
struct ImageDrawingTests {
    /// A w x h opaque image whose pixel (x, y) has red = 10x + 1, green = 10y + 1.
    func gridImage(_ w: Int, _ h: Int, scale: Double = 1) -> Pixmap {
        var p = Pixmap(width: w, height: h, scale: scale)
        for y in 0..<h {
            for x in 0..<w { p[x, y] = PremultipliedPixel(r: UInt8(10 * x + 1), g: UInt8(10 * y + 1), b: 0, a: 255) }
        }
        return p
    }

    @Test("one-to-one draws copy pixels exactly, with either filter", arguments: SamplingFilter.allCases)
    func identity(filter: SamplingFilter) throws {
        let image = gridImage(3, 2)
        var c = canvas(5, 4)
        try c.draw(image, in: RasterRect(x: 1, y: 2, width: 3, height: 2), filter: filter)
        for y in 0..<2 {
            for x in 0..<3 { #expect(c.pixmap[x + 1, y + 2] == image[x, y]) }
        }
        #expect(c.pixmap[0, 0].a == 0 && c.pixmap[4, 3].a == 0)
    }

    @Test("nearest scaling repeats each pixel")
    func nearestScale() throws {
        let image = gridImage(2, 2)
        var c = canvas(4, 4)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: 4, height: 4), filter: .nearest)
        for y in 0..<4 {
            for x in 0..<4 { #expect(c.pixmap[x, y] == image[x / 2, y / 2]) }
        }
    }

    @Test("bilinear scaling interpolates between pixel centres and clamps at the edges")
    func bilinearScale() throws {
        // Two pixels, red 1 and 11, drawn 4 wide: device centres 0.5..3.5 map to source
        // 0.25, 0.75, 1.25, 1.75; minus the half-pixel: -0.25 (clamped: 1), 0.25 (1 + 10 / 4
        // = 3.5 -> weight 64/256: 3.5), 0.75 (8.5), 1.25 (clamped: 11).
        let image = gridImage(2, 1)
        var c = canvas(4, 1)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: 4, height: 1), filter: .bilinear)
        #expect(c.pixmap[0, 0].r == 1)
        #expect(c.pixmap[1, 0].r == 4 || c.pixmap[1, 0].r == 3)
        #expect(c.pixmap[2, 0].r == 9 || c.pixmap[2, 0].r == 8)
        #expect(c.pixmap[3, 0].r == 11)
    }

    @Test("orientations move pixel (x, y) where the rotation or mirror says",
          arguments: ImageOrientation.allCases)
    func orientations(orientation: ImageOrientation) throws {
        let image = gridImage(3, 2)
        let (w, h) = orientation.isQuarterTurn ? (2, 3) : (3, 2)
        var c = canvas(w, h)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: Double(w), height: Double(h)), orientation: orientation,
                   filter: .nearest)
        for y in 0..<h {
            for x in 0..<w {
                // Where the drawn pixel comes from, worked out per orientation.
                let (sx, sy): (Int, Int) = switch orientation {
                case .up: (x, y)
                case .upMirrored: (2 - x, y)
                case .down: (2 - x, 1 - y)
                case .downMirrored: (x, 1 - y)
                case .right: (y, 1 - x)       // top edge turned to the right
                case .rightMirrored: (y, x)
                case .left: (2 - y, x)        // top edge turned to the left
                case .leftMirrored: (2 - y, 1 - x)
                }
                #expect(c.pixmap[x, y] == image[sx, sy], "\(orientation) at \(x),\(y)")
            }
        }
    }

    @Test("a canvas turned a quarter draws an image turned a quarter")
    func rotatedCanvas() throws {
        let image = gridImage(3, 2)
        var c = canvas(2, 3)
        c.translate(2, 0)
        c.rotate(.pi / 2)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: 3, height: 2), filter: .nearest)
        // Rotating the canvas clockwise is the .right orientation.
        for y in 0..<3 {
            for x in 0..<2 { #expect(c.pixmap[x, y] == image[y, 1 - x]) }
        }
    }

    @Test("a rectangle edge inside a pixel covers it partly")
    func fractionalDestination() throws {
        var white = Pixmap(width: 1, height: 1)
        white.fill(PremultipliedPixel(r: 255, g: 255, b: 255, a: 255))
        var c = canvas(3, 1)
        try c.draw(white, in: RasterRect(x: 0.5, y: 0, width: 2, height: 1), filter: .nearest)
        #expect(abs(Int(c.pixmap[0, 0].a) - 128) <= 1)
        #expect(c.pixmap[1, 0].a == 255)
        #expect(abs(Int(c.pixmap[2, 0].a) - 128) <= 1)
    }

    @Test("images refuse transforms that leave the pixel grid")
    func skewRefused() {
        var c = canvas(4, 4)
        c.rotate(0.3)
        #expect(throws: RasterError.imageTransformNotAxisAligned) {
            try c.draw(gridImage(2, 2), in: RasterRect(x: 0, y: 0, width: 2, height: 2))
        }
    }
}

@Suite("Cap-inset images")
struct ResizableImageTests {
    /// A 5 x 5 image: a distinct colour per column band (left cap 0-1, centre 2, right 3-4)
    /// and per row band, so each of the nine parts can be recognised.
    func nineBandImage(centreWidth: Int = 1, scale: Double = 1) -> Pixmap {
        let w = 4 + centreWidth
        var p = Pixmap(width: w, height: 5, scale: scale)
        for y in 0..<5 {
            for x in 0..<w { p[x, y] = PremultipliedPixel(r: UInt8(x * 20 + 5), g: UInt8(y * 20 + 5), b: 0, a: 255) }
        }
        return p
    }

    @Test("corners keep their size and a 1-pixel centre stretches")
    func stretchOnePixel() throws {
        let image = ResizableImage(image: nineBandImage(), capInsets: RasterInsets(top: 2, left: 2, bottom: 2, right: 2))
        var c = canvas(9, 7)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: 9, height: 7))
        // Columns: 0,1 from source 0,1; 2...6 all from source 2; 7,8 from 3,4.
        let columnSource = [0, 1, 2, 2, 2, 2, 2, 3, 4]
        let rowSource = [0, 1, 2, 2, 2, 3, 4]
        for y in 0..<7 {
            for x in 0..<9 { #expect(c.pixmap[x, y] == image.image[columnSource[x], rowSource[y]], "at \(x),\(y)") }
        }
    }

    @Test("a centre wider than a pixel tiles in tile mode and stretches in stretch mode")
    func tileVersusStretch() throws {
        // Centre columns 2 and 3 (2 pixels); target 10 wide: centre 6 columns.
        let source = nineBandImage(centreWidth: 2)
        let insets = RasterInsets(top: 2, left: 2, bottom: 2, right: 2)
        var tiled = canvas(10, 5)
        try tiled.draw(ResizableImage(image: source, capInsets: insets, mode: .tile),
                       in: RasterRect(x: 0, y: 0, width: 10, height: 5))
        let tileColumns = [0, 1, 2, 3, 2, 3, 2, 3, 4, 5]
        for x in 0..<10 { #expect(tiled.pixmap[x, 0] == source[tileColumns[x], 0], "tile column \(x)") }
        var stretched = canvas(10, 5)
        try stretched.draw(ResizableImage(image: source, capInsets: insets, mode: .stretch),
                           in: RasterRect(x: 0, y: 0, width: 10, height: 5), filter: .nearest)
        let stretchColumns = [0, 1, 2, 2, 2, 3, 3, 3, 4, 5]
        for x in 0..<10 { #expect(stretched.pixmap[x, 0] == source[stretchColumns[x], 0], "stretch column \(x)") }
    }

    @Test("the 1-pixel rule is about pixels: a 1-point centre at scale 2 tiles")
    func onePointAtScaleTwo() throws {
        // At scale 2 the image is 10 x 10 pixels with 2-pixel caps... build it as 5 points.
        var source = Pixmap(width: 10, height: 10, scale: 2)
        for y in 0..<10 {
            for x in 0..<10 { source[x, y] = PremultipliedPixel(r: UInt8(x * 20 + 5), g: 0, b: 0, a: 255) }
        }
        // Caps 2 points (4 pixels); centre 1 point = 2 pixels (columns 4, 5).
        let image = ResizableImage(image: source, capInsets: RasterInsets(top: 2, left: 2, bottom: 2, right: 2))
        var c = canvas(16, 10, scale: 2)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: 8, height: 5))
        // Target centre: device columns 4...11, tiling source columns 4, 5, 4, 5, ...
        for x in 4..<12 { #expect(c.pixmap[x, 0] == source[4 + (x - 4) % 2, 0], "column \(x)") }
    }

    @Test("a target smaller than the caps shares it in proportion to the caps")
    func smallerThanCaps() throws {
        // Caps left 1, right 3 (a 5-wide image, centre 1); target 2 wide: left gets
        // 2 * 1/4 = 0.5, rounded to a whole pixel: 1 (round half away from zero gives 1... 0.5
        // rounds to 0 under banker's rules, but Swift rounds half away from zero: 1), right 1.
        var source = Pixmap(width: 5, height: 1)
        for x in 0..<5 { source[x, 0] = PremultipliedPixel(r: UInt8(x * 50 + 5), g: 0, b: 0, a: 255) }
        let image = ResizableImage(image: source, capInsets: RasterInsets(top: 0, left: 1, bottom: 0, right: 3))
        var c = canvas(2, 1)
        try c.draw(image, in: RasterRect(x: 0, y: 0, width: 2, height: 1), filter: .nearest)
        // Column 0: the left cap (source 0) squeezed into 1 pixel.
        #expect(c.pixmap[0, 0] == source[0, 0])
        // Column 1: the right cap (source 2...4) squeezed into 1 pixel: nearest picks the
        // middle source pixel, 3.
        #expect(c.pixmap[1, 0] == source[3, 0])
        #expect(c.pixmap[0, 0].a == 255 && c.pixmap[1, 0].a == 255)
    }

    @Test("insets that do not fit the image are an error")
    func badInsets() {
        let image = ResizableImage(image: nineBandImage(), capInsets: RasterInsets(top: 0, left: 3, bottom: 0, right: 3))
        var c = canvas(8, 8)
        #expect(throws: RasterError.self) { try c.draw(image, in: RasterRect(x: 0, y: 0, width: 8, height: 5)) }
    }
}
