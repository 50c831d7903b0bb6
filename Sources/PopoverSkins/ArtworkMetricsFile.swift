import Foundation
import PopoverGeometry

/// `metrics.json` beside seven-image artwork: the skin's numbers and each image's size
/// and cap insets in points, keyed as `SevenImageMetrics` encodes them:
///
/// ```json
/// {"arrowBase": 37, "arrowHeight": 19, "cornerRadius": 7, "sideArrowCenterOffset": 7,
///  "contentInsets": {"top": 8, "left": 8, "bottom": 8, "right": 8},
///  "secondStageBottomInset": 9, "secondStageRightInset": 9,
///  "sideTop": {"size": {"width": 37, "height": 53},
///              "capInsets": {"top": 43, "left": 9, "bottom": 9, "right": 27}}, ...}
/// ```
///
/// Every key is optional: a number left out is the standard skin's (docs/specification.md
/// §2), an image's size left out is read from its files, its cap insets left out are the
/// standard ones. An unknown key is an error naming it.
enum ArtworkMetricsFile {
    /// What the file says; sizes it does not give are nil.
    struct Contents {
        var metrics: SevenImageMetrics
        var givenSizes: [ArrowImage: Size]
    }

    static let scalarKeys = ["arrowBase", "arrowHeight", "cornerRadius", "sideArrowCenterOffset",
                             "secondStageBottomInset", "secondStageRightInset"]
    static let imageKeys: [ArrowImage: String] = [.up: "up", .upRight: "upRight", .down: "down", .downRight: "downRight",
                                                  .side: "side", .sideTop: "sideTop", .sideBottom: "sideBottom"]

    static func read(_ path: String) throws(SkinFileProblem) -> Contents {
        try parse(try FileObject.read(path))
    }

    static func parse(_ root: FileObject) throws(SkinFileProblem) -> Contents {
        try root.allowOnly(scalarKeys + ["contentInsets"] + imageKeys.values.sorted())
        var m = SevenImageMetrics.standard
        if let v = try root.number("arrowBase") { m.arrowBase = v }
        if let v = try root.number("arrowHeight") { m.arrowHeight = v }
        if let v = try root.number("cornerRadius") { m.cornerRadius = v }
        if let v = try root.number("sideArrowCenterOffset") { m.sideArrowCenterOffset = v }
        if let v = try root.number("secondStageBottomInset") { m.secondStageBottomInset = v }
        if let v = try root.number("secondStageRightInset") { m.secondStageRightInset = v }
        if let insets = try root.object("contentInsets") { m.contentInsets = try Self.insets(insets, base: m.contentInsets) }
        var sizes: [ArrowImage: Size] = [:]
        for image in ArrowImage.allCases {
            guard let entry = try root.object(imageKeys[image]!) else { continue }
            try entry.allowOnly(["size", "capInsets"])
            if let size = try entry.object("size") {
                try size.allowOnly(["width", "height"])
                guard let w = try size.number("width"), let h = try size.number("height") else {
                    throw entry.problem("size", "needs both width and height")
                }
                sizes[image] = Size(width: w, height: h)
                m[image].size = Size(width: w, height: h)
            }
            if let caps = try entry.object("capInsets") { m[image].capInsets = try Self.insets(caps, base: m[image].capInsets) }
        }
        return Contents(metrics: m, givenSizes: sizes)
    }

    static func insets(_ object: FileObject, base: EdgeInsets) throws(SkinFileProblem) -> EdgeInsets {
        try object.allowOnly(["top", "left", "bottom", "right"])
        var insets = base
        if let v = try object.number("top") { insets.top = v }
        if let v = try object.number("left") { insets.left = v }
        if let v = try object.number("bottom") { insets.bottom = v }
        if let v = try object.number("right") { insets.right = v }
        return insets
    }
}

extension ArrowImage {
    /// The image's key in metrics.json (`sideTop`): what an edit of its size or cap insets
    /// is called.
    public var metricsKey: String { ArtworkMetricsFile.imageKeys[self]! }
}
