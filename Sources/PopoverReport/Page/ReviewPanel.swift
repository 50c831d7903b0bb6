import Foundation
import PopoverHarness

/// Deciding from the page. Every case a reviewer may accept (failed, missing or new,
/// with its actual image kept) gets one Accept and one Keep control; a change gets them
/// for all its cases at once. The panel counts the decisions.
///
/// Opened from disk (a CI artifact, say), the page exports the accepted cases as
/// `approvals.json`, each naming the case and the digests of the golden and the actual
/// image the reviewer saw, and shows the command that applies them; nothing is written
/// until that command checks the digests still hold. Served by `popover-goldens
/// review`, Accept writes the golden at once through the server, which checks the same
/// digests, and Undo puts the old golden back; the export is not shown there.
enum ReviewPanel {
    static func html(_ run: RunRecord, acceptable: Int) -> HTMLNode {
        // The page adds the folder it was opened from as --reports (see report-review.js).
        let command = RunRecord.command(["accept", "--from", "approvals.json"], goldens: run.goldensFolder,
                                        reports: RunRecord.defaultReports, skins: run.skinsFolder)
        return .tag("div", .cls("review"), .attr("id", "review"),
                    .tag("div", .cls("review-head"),
                         .textElement("h3", "", "Review"),
                         .tag("span", .cls("review-progress"), .attr("id", "review-progress"), .attr("aria-live", "polite"),
                              .text("0 of \(acceptable) decided")),
                         .tag("span", .cls("review-live-note muted"), .flag("hidden"),
                              .text("Live: Accept writes the golden now; Undo puts the old one back."))),
                    .tag("div", .cls("review-actions static-only"),
                         .tag("button", .attr("type", "button"), .attr("id", "accept-shown"),
                              .attr("title", "accept every case the filters show"), .text("Accept all shown")),
                         .tag("button", .attr("type", "button"), .attr("id", "decide-none"),
                              .text("Clear decisions")),
                         .tag("button", .attr("type", "button"), .cls("primary"), .attr("id", "export-approvals"),
                              .flag("disabled"), .attr("title", "download approvals.json for the accepted cases"),
                              .text("Export approvals.json"))),
                    .tag("p", .cls("review-command static-only"),
                         .text("Then apply them from the project folder (name the file where your browser saved it): "),
                         .textElement("code", "", command)),
                    .tag("p", .cls("review-result muted"), .attr("id", "review-result"), .attr("aria-live", "polite")))
    }
}
