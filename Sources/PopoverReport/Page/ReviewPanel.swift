import Foundation
import PopoverHarness

/// Accepting from the page. Every case a reviewer may accept (failed, missing or new,
/// with its actual image kept) gets a toggle; the panel gathers the choices.
///
/// Opened from disk (a CI artifact, say), the page exports the choices as
/// `approvals.json`, each naming the case and the digests of the golden and the actual
/// image the reviewer saw, and shows the command that applies them; nothing is written
/// until that command checks the digests still hold. Served by `popover-goldens
/// review`, the same page gets Accept and Undo buttons that act at once through the
/// server, which checks the same digests.
enum ReviewPanel {
    static func html(_ run: RunRecord, acceptable: Int) -> HTMLNode {
        let command = "popover-goldens accept --from approvals.json --goldens \(shellWord(run.goldensFolder))"
        return .tag("div", .cls("review"), .attr("id", "review"),
                    .attr("data-goldens", run.goldensFolder), .attr("data-started", jsonDate(run)),
                    .tag("div", .cls("review-head"),
                         .textElement("h3", "", "Review"),
                         .textElement("span", "muted review-state", "\(acceptable) case\(acceptable == 1 ? "" : "s") can be accepted as the new golden"),
                         .tag("span", .cls("review-live-note"), .flag("hidden"),
                              .text("Live: Accept writes the golden now; Undo restores the previous one."))),
                    .tag("div", .cls("review-actions"),
                         .tag("button", .attr("type", "button"), .attr("id", "accept-shown"),
                              .attr("title", "choose every case the filters show"), .text("Choose all shown")),
                         .tag("button", .attr("type", "button"), .attr("id", "accept-none"), .text("Choose none")),
                         .tag("span", .cls("muted"), .attr("id", "accept-count"), .text("0 chosen")),
                         .tag("button", .attr("type", "button"), .cls("primary"), .attr("id", "export-approvals"),
                              .flag("disabled"), .attr("title", "download approvals.json for the chosen cases"),
                              .text("Export approvals.json")),
                         .tag("button", .attr("type", "button"), .cls("primary live-only"), .attr("id", "accept-chosen"),
                              .flag("hidden"), .flag("disabled"), .text("Accept chosen now"))),
                    .tag("p", .cls("review-command"),
                         .text("Then apply them from the project folder (name the file where your browser saved it): "),
                         .textElement("code", "", command)),
                    .tag("p", .cls("review-result muted"), .attr("id", "review-result"), .attr("aria-live", "polite")))
    }

    /// The toggle in a case's one-line summary.
    static func toggle(_ r: CaseResult) -> HTMLNode {
        guard r.accepted == nil else {
            return .tag("span", .cls("accept-box done"), .attr("title", "accepted after the run"),
                        .text("accepted"),
                        .tag("button", .attr("type", "button"), .cls("live-only undo"), .flag("hidden"),
                             .attr("data-undo", r.id), .text("Undo")))
        }
        return .tag("span", .cls("accept-box"),
                    .tag("label", .attr("title", "choose this case's actual image as its new golden"),
                         .void("input", .attr("type", "checkbox"), .attr("data-accept", r.id)), .text(" accept")),
                    .tag("button", .attr("type", "button"), .cls("live-only"), .flag("hidden"),
                         .attr("data-accept-now", r.id), .text("Accept")))
    }

    /// A word a POSIX shell reads back as itself.
    static func shellWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "-_./@+".unicodeScalars.contains(s)
        }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func jsonDate(_ run: RunRecord) -> String {
        ReportPage.dateText(run.started)
    }
}
