import PopoverGeometry
import PopoverSkins

/// Which of the four families a case belongs to.
public enum CaseFamily: String, Sendable, Hashable, Codable, CaseIterable {
    /// A sample-app anchor presenting its popover, placed by the placement model.
    case scene
    /// The arrow offset walked along an edge of a fixed-size popover.
    case sweep
    /// A keyframe of the popover shrinking above the keyboard.
    case keyboard
    /// A popover exactly on one of the model's decision boundaries (`BoundaryCases`).
    case boundary
}

/// One golden case: a skin drawing one popover at one scale.
///
/// Its ID is also its golden's path under `Goldens/` (plus ".png"), e.g.
/// `gik-default/up/popover8-portrait@2x`: skin, arrow direction, what is drawn, scale.
/// IDs use only lower-case letters, digits and `-+._@/`.
public struct GoldenCase: Sendable, Hashable, Identifiable {
    public let id: String
    public let skinID: String
    public let direction: ArrowDirection
    public let scale: Int
    public let family: CaseFamily
    /// The part of the ID after the direction and before the scale.
    public let label: String
    public let request: PopoverRequest
    /// Scene and keyboard cases: the anchor and orientation.
    public let anchor: String?
    public let orientation: Orientation?
    /// Sweep cases: the popover size ("150x130") and the arrow offset walked to.
    public let sweepSize: String?
    /// Keyboard cases: seconds into the 0.25 s animation.
    public let keyboardTime: Double?
    /// Boundary cases: the boundary the case sits on ("stage-float").
    public let boundary: String?
    /// Where the request came from, as facts: a scene's placement (anchor, frame, the
    /// direction chosen), a keyframe's frame. Empty for sweeps, whose request is all.
    public let origin: Facts

    init(skinID: String, direction: ArrowDirection, scale: Int, family: CaseFamily, label: String,
         request: PopoverRequest, anchor: String? = nil, orientation: Orientation? = nil,
         sweepSize: String? = nil, keyboardTime: Double? = nil, boundary: String? = nil, origin: Facts = Facts()) {
        self.skinID = skinID
        self.direction = direction
        self.scale = scale
        self.family = family
        self.label = label
        self.request = request
        self.anchor = anchor
        self.orientation = orientation
        self.sweepSize = sweepSize
        self.keyboardTime = keyboardTime
        self.boundary = boundary
        self.origin = origin
        id = "\(skinID)/\(direction.rawValue)/\(label)@\(scale)x"
    }

    /// The arrow offset the case draws.
    public var offset: Double { request.arrowOffset }

    /// What the case draws, as a run's results and report keep it.
    public var info: CaseInfo {
        CaseInfo(id: id, skin: skinID, direction: direction, scale: scale, family: family, label: label,
                 anchor: anchor, orientation: orientation, sweepSize: sweepSize, offset: offset,
                 keyboardTime: keyboardTime, boundary: boundary)
    }

    /// The golden's path relative to the goldens folder.
    public var goldenFile: String { id + ".png" }

    /// A copy drawing a different request under the same ID: how tests inject faults.
    public func drawing(_ request: PopoverRequest) -> GoldenCase {
        GoldenCase(skinID: skinID, direction: direction, scale: scale, family: family, label: label,
                   request: request, anchor: anchor, orientation: orientation, sweepSize: sweepSize,
                   keyboardTime: keyboardTime, boundary: boundary, origin: origin)
    }
}

/// What a case draws, in words and numbers: everything a run's results, its report and
/// a merge of shards need to know about a case, without the skin that draws it.
public struct CaseInfo: Sendable, Hashable, Codable {
    public var id: String
    public var skin: String
    public var direction: ArrowDirection
    public var scale: Int
    public var family: CaseFamily
    /// The part of the ID after the direction and before the scale.
    public var label: String
    public var anchor: String?
    public var orientation: Orientation?
    public var sweepSize: String?
    public var offset: Double
    public var keyboardTime: Double?
    public var boundary: String?

    public init(id: String, skin: String, direction: ArrowDirection, scale: Int, family: CaseFamily, label: String,
                anchor: String? = nil, orientation: Orientation? = nil, sweepSize: String? = nil, offset: Double = 0,
                keyboardTime: Double? = nil, boundary: String? = nil) {
        self.id = id
        self.skin = skin
        self.direction = direction
        self.scale = scale
        self.family = family
        self.label = label
        self.anchor = anchor
        self.orientation = orientation
        self.sweepSize = sweepSize
        self.offset = offset
        self.keyboardTime = keyboardTime
        self.boundary = boundary
    }

    /// The golden's path relative to the goldens folder.
    public var goldenFile: String { id + ".png" }
}

/// Numbers in IDs: shortest exact form, no trailing zeros, an explicit sign for
/// offsets ("-49.5", "+0.25", "0").
public enum IDNumber {
    public static func plain(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
        var s = String(v)
        if s.contains("e") { s = String(format: "%.6f", v) }
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    public static func signed(_ v: Double) -> String {
        v > 0 ? "+" + plain(v) : plain(v)
    }
}
