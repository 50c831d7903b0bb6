import PopoverGeometry
import PopoverSkins

/// What a fact is to a person: a skin's input (named by its field in skin.json or
/// metrics.json), part of what the case asks for (its bounds, offset, direction), or
/// derived from those by the model (the image chosen, the apex, the stretches).
public enum FactNames {
    /// The skin field an input fact records, or nil when the fact is not an input.
    /// `image` is the image the case was drawn with when both sides chose the same one:
    /// only then is a change of `metrics.imageHeight` an edit of that image's size (with
    /// another image chosen it is the new image's, derived).
    public static func inputField(_ fact: String, sameImage image: String?) -> String? {
        let parts = fact.split(separator: ".").map(String.init)
        guard parts.count >= 2 else { return nil }
        switch parts[0] {
        case "skin":
            if parts[1] == "images" && parts.count == 3 && parts[2] == "file" { return "images.files" }
            return parts.dropFirst().joined(separator: ".")
        case "metrics":
            let rest = Array(parts.dropFirst())
            switch rest[0] {
            case "imageWidth", "imageHeight", "imageCapInsets":
                guard let image, let key = ArrowImage(rawValue: image)?.metricsKey else { return nil }
                if rest[0] == "imageWidth" { return key + ".size.width" }
                if rest[0] == "imageHeight" { return key + ".size.height" }
                return ([key, "capInsets"] + rest.dropFirst()).joined(separator: ".")
            default:
                return rest.joined(separator: ".")
            }
        default:
            return nil
        }
    }

    /// Facts the case itself asks for: not derived, not the skin's.
    public static func isCaseFact(_ fact: String) -> Bool {
        let head = String(fact.prefix { $0 != "." && $0 != "[" })
        return ["bounds", "offset", "direction", "scale"].contains(head)
    }

    /// The fact as the table names it: the skin field for an input, `case: ...` for what
    /// the case asks, `derived: ...` for the rest.
    public static func name(_ fact: String, sameImage image: String?) -> String {
        if let field = inputField(fact, sameImage: image) { return field }
        if fact.hasPrefix("metrics.image") { return "derived: the chosen image's " + fact.dropFirst("metrics.".count) }
        return (isCaseFact(fact) ? "case: " : "derived: ") + fact
    }

    /// The image both sides of a cause drew with, when it did not change.
    public static func sameImage(_ cause: CaseCause, drawnImage: String?) -> String? {
        if cause.geometry.contains(where: { $0.fact == "image" }) { return nil }
        return drawnImage
    }
}
