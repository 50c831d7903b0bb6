import PopoverDiff
import PopoverSkins

/// A result as one flat JSON object: what the case draws (its `CaseInfo` fields) beside
/// how it came out, so a script reading `summary.json` finds `id`, `status` and
/// `metrics` at the same level.
extension CaseResult: Codable {
    enum Key: String, CodingKey {
        case status, message, tolerance, metrics, changedRegion, changedRegions, golden, goldenDigest, drawnDigest = "drawn", confirmedFromCache
        case width, height, seconds, images, accepted, cause, explanation, change, factsDigest, outline, ignoredParts
    }

    public init(from decoder: any Decoder) throws {
        let info = try CaseInfo(from: decoder)
        let c = try decoder.container(keyedBy: Key.self)
        self.init(info: info, status: try c.decode(CaseStatus.self, forKey: .status),
                  message: try c.decode(String.self, forKey: .message),
                  tolerance: try c.decode(String.self, forKey: .tolerance),
                  goldenPath: try c.decode(String.self, forKey: .golden),
                  metrics: try c.decodeIfPresent(ComparisonMetrics.self, forKey: .metrics))
        changedRegion = try c.decodeIfPresent(PixelRegion.self, forKey: .changedRegion)
        changedRegions = try c.decodeIfPresent([PixelRegion].self, forKey: .changedRegions) ?? []
        goldenDigest = try c.decodeIfPresent(String.self, forKey: .goldenDigest)
        drawnDigest = try c.decodeIfPresent(String.self, forKey: .drawnDigest)
        confirmedFromCache = try c.decodeIfPresent(Bool.self, forKey: .confirmedFromCache) ?? false
        width = try c.decodeIfPresent(Int.self, forKey: .width) ?? 0
        height = try c.decodeIfPresent(Int.self, forKey: .height) ?? 0
        seconds = try c.decodeIfPresent(Double.self, forKey: .seconds) ?? 0
        artifacts = try c.decodeIfPresent(CaseArtifacts.self, forKey: .images) ?? CaseArtifacts()
        accepted = try c.decodeIfPresent(Acceptance.self, forKey: .accepted)
        cause = try c.decodeIfPresent(CaseCause.self, forKey: .cause)
        explanation = try c.decodeIfPresent(String.self, forKey: .explanation)
        change = try c.decodeIfPresent(String.self, forKey: .change)
        factsDigest = try c.decodeIfPresent(String.self, forKey: .factsDigest)
        outline = try c.decodeIfPresent(PopoverOutline.self, forKey: .outline)
        ignoredParts = try c.decodeIfPresent([PopoverPart].self, forKey: .ignoredParts) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        try info.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(status, forKey: .status)
        try c.encode(message, forKey: .message)
        try c.encode(tolerance, forKey: .tolerance)
        try c.encodeIfPresent(metrics, forKey: .metrics)
        try c.encodeIfPresent(changedRegion, forKey: .changedRegion)
        if !changedRegions.isEmpty { try c.encode(changedRegions, forKey: .changedRegions) }
        try c.encode(goldenPath, forKey: .golden)
        try c.encodeIfPresent(goldenDigest, forKey: .goldenDigest)
        try c.encodeIfPresent(drawnDigest, forKey: .drawnDigest)
        try c.encode(confirmedFromCache, forKey: .confirmedFromCache)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(artifacts, forKey: .images)
        try c.encodeIfPresent(accepted, forKey: .accepted)
        try c.encodeIfPresent(cause, forKey: .cause)
        try c.encodeIfPresent(explanation, forKey: .explanation)
        try c.encodeIfPresent(change, forKey: .change)
        try c.encodeIfPresent(factsDigest, forKey: .factsDigest)
        try c.encodeIfPresent(outline, forKey: .outline)
        if !ignoredParts.isEmpty { try c.encode(ignoredParts, forKey: .ignoredParts) }
    }
}
