/// What can go wrong reading or writing a report folder; messages name the file.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    case unreadableRun(file: String, reason: String)
    case notAReportFolder(folder: String, reason: String)
    case io(String)

    public var description: String {
        switch self {
        case .unreadableRun(let file, let reason): file.isEmpty ? reason : "\(file): \(reason)"
        case .notAReportFolder(let folder, let reason): "\(folder): \(reason)"
        case .io(let message): message
        }
    }

    var reason: String {
        switch self {
        case .unreadableRun(_, let reason), .notAReportFolder(_, let reason): reason
        case .io(let message): message
        }
    }
}
