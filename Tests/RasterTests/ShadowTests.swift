import Foundation
import PopoverRaster
import Testing

@Suite("Shadows")
struct ShadowTests {
    @Test("box widths match the Gaussian's variance", arguments: [1.0, 2.5, 20.0, 40.0, 60.0])
    func boxVariance(sigma: Double) {
        // A box of odd width w has variance (w^2 - 1) / 12; the passes add up.
        let sizes = BoxBlur.boxSizes(sigma: sigma)
        #expect(sizes.count == 3)
        #expect(sizes.allSatisfy { $0 % 2 == 1 })
        let variance = sizes.reduce(0.0) { $0 + (Double($1 * $1) - 1) / 12 }
        // The widths are whole odd numbers, so the match is within one step of width.
        #expect(abs(variance.squareRoot() - sigma) < 0.5)
    }

    @Test("blurring keeps the total alpha")
    func conservesMass() {
        var grid = [Float](repeating: 0, count: 101 * 101)
        grid[50 * 101 + 50] = 1
        BoxBlur.blur(&grid, width: 101, height: 101, sigma: 8)
        #expect(abs(grid.reduce(0, +) - 1) < 1e-4)
        #expect(abs(grid[50 * 101 + 50] - grid[50 * 101 + 51]) < grid[50 * 101 + 50] * 0.05)
    }

    /// Max and mean error, in 8-bit alpha, of the three-box blur of a step (a wide
    /// rectangle's edge, the shape of every popover shadow) against the true Gaussian.
    /// Both blurs are separable, so one dimension tells the whole story: a rectangle's
    /// 2-D error is the product of two such profiles' errors.
    static func boxError(sigma: Double) -> (max: Double, mean: Double) {
        let size = Int(sigma * 16) + 20
        let profile = (0..<size).map { i -> Float in i >= size / 4 && i < 3 * size / 4 ? 1 : 0 }
        let box = BoxBlur.blur(profile: profile, sigma: sigma)
        let gauss = GaussianBlur.blur(profile: profile, sigma: sigma)
        var maxError = 0.0, total = 0.0
        for i in 0..<size {
            let e = abs(Double(box[i] - gauss[i])) * 255
            maxError = max(maxError, e)
            total += e
        }
        return (maxError, total / Double(size))
    }

    /// The popover shadow's sigma is 20 points: 20, 40 and 60 pixels at scales 1-3.
    /// Measured: at most 2.4 levels in 255 (under 1%), about 0.8 on average across the
    /// blurred edge.
    @Test("three box passes stay close to a true Gaussian",
          arguments: [(4.0, 2.5), (20.0, 2.5), (40.0, 2.5), (60.0, 2.5)])
    func errorAgainstGaussian(sigma: Double, bound: Double) {
        let error = Self.boxError(sigma: sigma)
        print("box blur vs Gaussian, sigma \(sigma): max \(error.max) mean \(error.mean) (8-bit alpha)")
        #expect(error.max < bound)
        #expect(error.mean < 1)
    }

    @Test("a rectangle's shadow: the fast route equals blurring its mask")
    func rectangleRoute() {
        let shadow = Shadow(color: .black, opacity: 0.9, radius: 6, offsetX: 0, offsetY: 3)
        var fast = canvas(60, 60)
        fast.drawShadow(of: rectPath(15.5, 12.25, 25, 20), shadow)
        // The same rectangle, as a path the fast route does not recognise (an extra
        // collinear vertex).
        var general = Path()
        general.move(to: 15.5, 12.25); general.line(to: 28, 12.25); general.line(to: 40.5, 12.25)
        general.line(to: 40.5, 32.25); general.line(to: 15.5, 32.25); general.close()
        var slow = canvas(60, 60)
        slow.drawShadow(of: general, shadow)
        var worst = 0
        for i in 0..<fast.pixmap.data.count { worst = max(worst, abs(Int(fast.pixmap.data[i]) - Int(slow.pixmap.data[i]))) }
        #expect(worst <= 1)
        #expect(coveredArea(fast.pixmap) > 0.9 * 25 * 20 * 0.95)
    }

    @Test("shadow colour, opacity and offset")
    func offsetAndOpacity() {
        // A wide rectangle with a small blur: far inside it, alpha = opacity * 255, colour
        // = the shadow colour premultiplied; the shadow is moved down by the offset.
        let shadow = Shadow(color: Color(red: 1, green: 0, blue: 0), opacity: 0.5, radius: 1, offsetX: 0, offsetY: 10)
        var c = canvas(40, 60)
        c.drawShadow(of: rectPath(5, 5, 30, 20), shadow)
        #expect(c.pixmap[20, 25] == PremultipliedPixel(r: 128, g: 0, b: 0, a: 128))
        #expect(c.pixmap[20, 8].a == 0)
        #expect(c.pixmap[20, 33].a == 128)
    }

    @Test("a shadow's reach: no visible alpha beyond it")
    func reach() {
        let shadow = Shadow(color: .black, opacity: 1, radius: 5)
        var c = canvas(80, 80)
        c.drawShadow(of: rectPath(30, 30, 20, 20), shadow)
        let reach = Int(shadow.reach(scale: 1).rounded(.up))
        #expect(c.pixmap[30 - reach - 1, 40].a == 0)
        #expect(c.pixmap[30 - reach + 2, 40].a > 0)
    }
}

/// The true Gaussian blur, the reference the box approximation is measured against: each
/// pixel's weight is the Gaussian's integral over that pixel (a difference of error
/// functions), truncated beyond six standard deviations.
enum GaussianBlur {
    static func weights(sigma: Double) -> [Float] {
        let reach = Int((sigma * 6).rounded(.up)) + 1
        let k = 1 / (sigma * 2.0.squareRoot())
        return (-reach...reach).map { (i: Int) -> Float in
            Float(0.5 * (erf((Double(i) + 0.5) * k) - erf((Double(i) - 0.5) * k)))
        }
    }

    /// Blurs a one-dimensional profile (zero outside it).
    static func blur(profile: [Float], sigma: Double) -> [Float] {
        let w = weights(sigma: sigma)
        let reach = w.count / 2
        return profile.indices.map { x in
            var sum = 0.0
            for (j, weight) in w.enumerated() {
                let sx = x + j - reach
                if sx >= 0 && sx < profile.count { sum += Double(profile[sx]) * Double(weight) }
            }
            return Float(sum)
        }
    }
}
