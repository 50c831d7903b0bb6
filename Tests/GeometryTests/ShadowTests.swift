import PopoverGeometry
import Testing

@Suite("Shadow rectangles")
struct ShadowTests {
    struct Row: Sendable {
        let direction: ArrowDirection
        let bounds: Size
        let expected: Rect
    }

    /// The bounds less the 19-point arrow strip on the arrow's side.
    @Test(arguments: [
        // up: y from 19, height 235 - 19 = 216.
        Row(direction: .up, bounds: Size(width: 216, height: 235), expected: Rect(x: 0, y: 19, width: 216, height: 216)),
        // down: height 235 - 19 = 216 from the top.
        Row(direction: .down, bounds: Size(width: 216, height: 235), expected: Rect(x: 0, y: 0, width: 216, height: 216)),
        // left: x from 19, width 235 - 19 = 216.
        Row(direction: .left, bounds: Size(width: 235, height: 216), expected: Rect(x: 19, y: 0, width: 216, height: 216)),
        // right: width 235 - 19 = 216 from the left.
        Row(direction: .right, bounds: Size(width: 235, height: 216), expected: Rect(x: 0, y: 0, width: 216, height: 216)),
        // popover2 portrait: 336 x 923 up -> y 19, height 904.
        Row(direction: .up, bounds: Size(width: 336, height: 923), expected: Rect(x: 0, y: 19, width: 336, height: 904)),
    ])
    func shadowRect(_ row: Row) throws {
        #expect(try ShadowGeometry.shadowRect(bounds: row.bounds, direction: row.direction, arrowHeight: 19) == row.expected)
    }

    @Test("arrow as deep as the bounds leaves an empty rect")
    func arrowAsDeepAsTheBoundsLeavesAnEmptyRect() throws {
        #expect(try ShadowGeometry.shadowRect(bounds: Size(width: 19, height: 50), direction: .right, arrowHeight: 19)
            == Rect(x: 0, y: 0, width: 0, height: 50))
    }

    @Test("standard shadow")
    func standardShadow() {
        let shadow = ShadowSpec.standard
        #expect(shadow.color == ShadowSpec.RGBA(red: 0, green: 0, blue: 0, alpha: 1))
        #expect(shadow.opacity == 0.9)
        #expect(shadow.radius == 20)
        #expect(shadow.offset == Size(width: 0, height: 10))
    }
}
