import Foundation
import PopoverGeometry
import Testing

@Suite("Layouts as text and JSON")
struct LayoutFormatTests {
    /// Sorted keys: Foundation on Linux does not keep a keyed container's order.
    static func json(_ layout: BackgroundLayout) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(layout), as: UTF8.self)
    }

    @Test("single stretch JSON")
    func singleStretchJSON() throws {
        // 216 x 235 up, offset -83: up-right mirrored, caps (41, 42, 9, 9).
        let layout = try BackgroundLayout.make(bounds: Size(width: 216, height: 235), direction: .up, arrowOffset: -83)
        #expect(try Self.json(layout)
            == #"{"direction":"up","image":"up-right","mirrored":true,"stages":[{"height":235,"insets":{"bottom":9,"left":42,"right":9,"top":41},"width":216}]}"#)
    }

    @Test("two stage JSON round trips")
    func twoStageJSONRoundTrips() throws {
        // 235 x 216 left, offset 0: side mirrored; L = 136.
        let layout = try BackgroundLayout.make(bounds: Size(width: 235, height: 216), direction: .left, arrowOffset: 0)
        let json = try Self.json(layout)
        #expect(json == #"{"direction":"left","image":"side","mirrored":true,"stages":["#
            + #"{"height":136,"insets":{"bottom":47,"left":27,"right":9,"top":24},"width":37},"#
            + #"{"height":216,"insets":{"bottom":9,"left":27,"right":9,"top":126},"width":235}]}"#)
        #expect(try JSONDecoder().decode(BackgroundLayout.self, from: Data(json.utf8)) == layout)
    }

    @Test("fractional stages survive JSON")
    func fractionalStagesSurviveJSON() throws {
        let layout = BackgroundLayout(
            direction: .down, image: .down, mirrored: false,
            stages: [stage(53.25, 51, insets(23, 9, 27, 47)), stage(100.5, 40.75, insets(23, 43.25, 27, 9))])
        let data = try JSONEncoder().encode(layout)
        #expect(try JSONDecoder().decode(BackgroundLayout.self, from: data) == layout)
    }

    @Test("two stage table")
    func twoStageTable() throws {
        let layout = try BackgroundLayout.make(bounds: Size(width: 216, height: 235), direction: .up, arrowOffset: 0)
        #expect(layout.table == """
            direction  up
            image      up (two-stage)
            stage  width  height  top  left  bottom  right
                1    136      51   41     9       9     47
                2    216     235   41   126       9      9
            """)
    }

    @Test("single stretch table")
    func singleStretchTable() throws {
        let layout = try BackgroundLayout.make(bounds: Size(width: 235, height: 216), direction: .left, arrowOffset: 83)
        #expect(layout.description == """
            direction  left
            image      side-bottom, mirrored (single stretch)
            stage  width  height  top  left  bottom  right
                1    235     216   23    27      43      9
            """)
        #expect(layout.bounds == Size(width: 235, height: 216))
    }
}
