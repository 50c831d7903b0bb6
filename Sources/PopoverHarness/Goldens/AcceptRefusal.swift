/// Why a case was not accepted (or not restored); nothing was written for it. Each reason
/// is said once, where it is made, starting with the case's ID.
public struct AcceptRefusal: Error, Equatable, CustomStringConvertible {
    public let id: String
    public let description: String

    init(_ id: String, _ reason: String) {
        (self.id, description) = (id, "\(id): \(reason)")
    }

    public static func notAcceptable(id: String, status: CaseStatus) -> Self {
        .init(id, "\(status.rawValue) cases cannot be accepted (only failed, missing and new ones)")
    }
    public static func noActualImage(id: String) -> Self { .init(id, "the run kept no actual image to accept") }
    static func actualChanged(id: String, path: String, recorded: String, found: String) -> Self {
        .init(id, "\(path) is not the image the run saved (its SHA-256 is \(found.prefix(12))…, the run recorded "
            + "\(recorded.prefix(12))…); run the check again")
    }
    static func goldenChanged(id: String, path: String) -> Self {
        .init(id, "\(path) is no longer the golden the run compared against (accepted or edited since); run the check again")
    }
    static func approvalDiffers(id: String, what: String) -> Self {
        .init(id, "the approval names a different \(what) than the run's (stale or edited approvals); export them again")
    }
    public static func approvedTwice(id: String) -> Self {
        .init(id, "listed twice in the approvals, naming different images; export them again")
    }
    public static func unreadableActual(id: String, reason: String) -> Self {
        .init(id, "the saved actual image cannot be read: \(reason)")
    }
    static func notDrawnByThisBuild(id: String) -> Self {
        .init(id, "this build does not draw what the report shows (the report's actual image is not this build's "
            + "drawing of the case); run the check again")
    }
    static func notAccepted(id: String) -> Self { .init(id, "was not accepted in this run's review, so there is nothing to undo") }
    static func previousLost(id: String, path: String) -> Self {
        .init(id, "the previous golden kept at \(path) is missing or changed; restore it from version control")
    }
    public static func cannotWrite(id: String, reason: String) -> Self { .init(id, "cannot write the golden: \(reason)") }
    static func drawnDifferently(id: String) -> Self {
        .init(id, "this build draws the case from other geometry than the run did (its facts differ); run the check again")
    }
    static func causeDiffers(id: String) -> Self {
        .init(id, "the report's cause for this case is not what its golden's facts and this build give (an edited "
            + "or stale report); run the check again")
    }
    public static func notInCatalog(id: String) -> Self { .init(id, "is not a case this build's skins draw; run the check again") }
}
