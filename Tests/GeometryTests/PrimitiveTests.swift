import Foundation
import PopoverGeometry
import Testing

@Suite("Points, sizes, rectangles and insets")
struct PrimitiveTests {
    @Test("rect edges and middles")
    func rectEdgesAndMiddles() {
        let rect = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect([rect.minX, rect.midX, rect.maxX] == [10, 25, 40])
        #expect([rect.minY, rect.midY, rect.maxY] == [20, 40, 60])
    }

    @Test("inset moves the origin and shrinks the size")
    func insetMovesTheOriginAndShrinksTheSize() {
        // x 10 + left 2 = 12; y 20 + top 1 = 21; width 30 - 2 - 4 = 24; height 40 - 1 - 3 = 36.
        let rect = Rect(x: 10, y: 20, width: 30, height: 40).inset(by: insets(1, 2, 3, 4))
        #expect(rect == Rect(x: 12, y: 21, width: 24, height: 36))
    }

    @Test("mirrored swaps left and right only")
    func mirroredSwapsLeftAndRightOnly() {
        #expect(insets(41, 9, 9, 47).mirrored == insets(41, 47, 9, 9))
        #expect(insets(1, 2, 3, 4).mirrored.mirrored == insets(1, 2, 3, 4))
    }

    @Test("edge insets encode top left bottom right keys")
    func edgeInsetsEncodeTopLeftBottomRightKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(insets(41, 9, 9, 47)), as: UTF8.self)
        #expect(json == #"{"bottom":9,"left":9,"right":47,"top":41}"#)
    }

    @Test("rect encodes flat")
    func rectEncodesFlat() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(Rect(x: 1, y: 2.5, width: 3, height: 4)), as: UTF8.self)
        #expect(json == #"{"height":4,"width":3,"x":1,"y":2.5}"#)
        #expect(try JSONDecoder().decode(Rect.self, from: Data(json.utf8)) == Rect(x: 1, y: 2.5, width: 3, height: 4))
    }

    @Test("descriptions read like the reference")
    func descriptionsReadLikeTheReference() {
        #expect(Size(width: 51, height: 33).description == "51 x 33")
        #expect(Rect(x: 0, y: 74.8, width: 44, height: 44).description == "(0, 74.8, 44 x 44)")
        #expect(insets(43, 9, 9, 27).description == "43, 9, 9, 27")
    }

    @Test("arrow names are lowercase")
    func arrowNamesAreLowercase() {
        #expect(ArrowDirection.allCases.map(\.rawValue) == ["up", "down", "left", "right"])
        #expect(ArrowImage.allCases.map(\.rawValue)
            == ["up", "up-right", "down", "down-right", "side", "side-top", "side-bottom"])
    }

    @Test("permitted directions encode as one word")
    func permittedDirectionsEncodeAsOneWord() throws {
        let encoded = try JSONEncoder().encode([PermittedDirections.any, .only(.left)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["any","left"]"#)
        #expect(try JSONDecoder().decode([PermittedDirections].self, from: encoded) == [.any, .only(.left)])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([PermittedDirections].self, from: Data(#"["sideways"]"#.utf8))
        }
    }

    @Test("anchors round trip through JSON")
    func anchorsRoundTripThroughJSON() throws {
        let data = try JSONEncoder().encode(Anchor.all)
        #expect(try JSONDecoder().decode([Anchor].self, from: data) == Anchor.all)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let margins = String(decoding: try encoder.encode(FlexibleMargins.all), as: UTF8.self)
        #expect(margins == #"["left","right","top","bottom"]"#)
    }
}
