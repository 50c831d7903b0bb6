import PopoverGeometry
import PopoverSkins

/// The spelling of a case ID, exactly as the catalog makes it:
/// `<skin>/<direction>/<name>@<scale>x`, e.g. `gik-default/up/popover8-portrait@2x`.
///
/// An ID is also a path (its golden's, its report images'), and IDs arrive from files that
/// may come from anywhere (a report's summary.json, an approvals file, a shard), so an ID
/// is accepted only in this exact form: no `.` or empty segment, no trailing slash, no
/// character outside lowercase letters, digits and `-+._`.
public enum CaseID {
    public static func isValid(_ id: String) -> Bool {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, SkinFolder.isValidID(String(parts[0])),
              ArrowDirection(rawValue: String(parts[1])) != nil else { return false }
        let last = parts[2]
        guard let at = last.lastIndex(of: "@") else { return false }
        let name = last[..<at], scale = last[last.index(after: at)...]
        guard ["1x", "2x", "3x"].contains(scale), let first = name.unicodeScalars.first,
              ("a"..."z").contains(first) || ("0"..."9").contains(first), !name.contains("..") else { return false }
        return name.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("0"..."9").contains(s) || "-+.".unicodeScalars.contains(s)
        }
    }
}
