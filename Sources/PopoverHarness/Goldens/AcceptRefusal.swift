/// Why a case was not accepted (or not restored); nothing was written for it.
public enum AcceptRefusal: Error, Equatable, CustomStringConvertible {
    case notAcceptable(id: String, status: CaseStatus)
    case noActualImage(id: String)
    case actualChanged(id: String, path: String, recorded: String, found: String)
    case goldenChanged(id: String, path: String)
    case approvalDiffers(id: String, what: String)
    case approvedTwice(id: String)
    case unreadableActual(id: String, reason: String)
    case notDrawnByThisBuild(id: String)
    case notAccepted(id: String)
    case previousLost(id: String, path: String)
    case cannotWrite(id: String, reason: String)
    case drawnDifferently(id: String)
    case notInCatalog(id: String)
    case causeDiffers(id: String)

    public var id: String {
        switch self {
        case .notAcceptable(let id, _), .noActualImage(let id), .actualChanged(let id, _, _, _), .goldenChanged(let id, _),
             .approvalDiffers(let id, _), .approvedTwice(let id), .unreadableActual(let id, _), .notDrawnByThisBuild(let id),
             .notAccepted(let id), .previousLost(let id, _), .cannotWrite(let id, _), .drawnDifferently(let id),
             .notInCatalog(let id), .causeDiffers(let id):
            id
        }
    }

    public var description: String {
        switch self {
        case .notAcceptable(let id, let status):
            "\(id): \(status.rawValue) cases cannot be accepted (only failed, missing and new ones)"
        case .noActualImage(let id):
            "\(id): the run kept no actual image to accept"
        case .actualChanged(let id, let path, let recorded, let found):
            "\(id): \(path) is not the image the run saved (its SHA-256 is \(found.prefix(12))…, the run recorded "
                + "\(recorded.prefix(12))…); run the check again"
        case .goldenChanged(let id, let path):
            "\(id): \(path) is no longer the golden the run compared against (accepted or edited since); run the check again"
        case .approvalDiffers(let id, let what):
            "\(id): the approval names a different \(what) than the run's (stale or edited approvals); export them again"
        case .approvedTwice(let id):
            "\(id): listed twice in the approvals, naming different images; export them again"
        case .unreadableActual(let id, let reason):
            "\(id): the saved actual image cannot be read: \(reason)"
        case .notDrawnByThisBuild(let id):
            "\(id): this build does not draw what the report shows (the report's actual image is not this build's "
                + "drawing of the case); run the check again"
        case .notAccepted(let id):
            "\(id): was not accepted in this run's review, so there is nothing to undo"
        case .previousLost(let id, let path):
            "\(id): the previous golden kept at \(path) is missing or changed; restore it from version control"
        case .cannotWrite(let id, let reason):
            "\(id): cannot write the golden: \(reason)"
        case .drawnDifferently(let id):
            "\(id): this build draws the case from other geometry than the run did (its facts differ); run the check again"
        case .causeDiffers(let id):
            "\(id): the report's cause for this case is not what its golden's facts and this build give (an edited "
                + "or stale report); run the check again"
        case .notInCatalog(let id):
            "\(id): is not a case this build's skins draw; run the check again"
        }
    }
}
