import Foundation
import PopoverDiff
import PopoverHarness

/// What the golden suite says of a case that needs a person: a failure with its metrics,
/// what changed and the change it belongs to, its pictures and the command that accepts
/// it; or a golden it just recorded, which a re-run compares.
public enum GoldenMessages {
    /// Nil for a case that needs nothing (it passed).
    public static func text(_ result: CaseResult, reports: String) -> String? {
        switch result.status {
        case .passed: return nil
        case .new, .recorded:
            return "\(result.id): recorded \(result.goldenPath) (\(result.message)); re-run to compare"
        case .failed, .missing, .error: break
        }
        var metrics = ""
        if let m = result.metrics {
            metrics = " (\(m.line))"
        }
        let why = result.explanation.map { "; \($0)" } ?? ""
        let change = result.change.map { " [change \($0)]" } ?? ""
        let files = pictures(result, reports: reports).map { "\($0.kind) \($0.path)" }
        var accept = ""
        if result.status.isAcceptable {
            accept = "; if the change is intended: popover-goldens accept '\(result.id)'"
            if let id = result.change { accept += " (or the whole change: popover-goldens accept --change \(id))" }
        }
        return "\(result.id): \(result.status.rawValue): \(result.message)\(metrics)\(why)\(change); "
            + (files.isEmpty ? "no images" : files.joined(separator: ", "))
            + "; report \(reports)/index.html\(accept)"
    }

    /// The pictures a person looks at first, in that order, with their paths: the
    /// triptych (all three in one, what a CI job's viewer shows whole), then each alone.
    public static func pictures(_ result: CaseResult, reports: String) -> [(kind: String, path: String)] {
        let a = result.artifacts
        return [("triptych", a.triptych), ("expected", a.expected), ("actual", a.actual), ("heatmap", a.heatmap)]
            .compactMap { kind, image in image.map { (kind, reports + "/" + $0.path) } }
    }
}
