import Foundation

/// Path arithmetic on plain strings. Foundation's `NSString` path methods on Linux crash
/// on a path of one character (`R`, `.`, `R/`), and such names arrive from the command
/// line (`--reports R`), so this module does the little it needs itself. (swift-system's
/// `FilePath` would serve for `parent` and `lastComponent`, behind the same wrappers for
/// `.` and `/`: not worth a package every clone fetches and builds.)
public enum FilePaths {
    /// The folder holding `path`: `.` for a bare name, `/` for a name at the root.
    /// Trailing slashes are not a component (`a/b/` is `b` in `a`).
    public static func parent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// The last component of `path` (`b` of `a/b` and of `a/b/`; `/` of `/`; `.` of
    /// nothing).
    public static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed.isEmpty ? "." : trimmed }
        let last = trimmed[trimmed.index(after: slash)...]
        return last.isEmpty ? "/" : String(last)
    }

    /// The first folder on the way from `root` to `root/relative` (the last component
    /// excluded) that is a symbolic link, or nil; stops at the first that does not exist
    /// (nothing below it can be a link yet). `root` itself may be a link.
    public static func linkedFolder(under root: String, along relative: String) -> String? {
        var folder = root
        for part in relative.split(separator: "/").dropLast() {
            folder += "/" + part
            var info = stat()
            guard lstat(folder, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK { return folder }
        }
        return nil
    }

    /// Where `relative`, a path read from a file that may have travelled (a summary.json, a
    /// shard, a request), leads inside `folder`: the real path of the file, when
    /// `relative` is plain (not absolute; no `.`, `..`, empty or hidden component, no NUL)
    /// and the file exists inside `folder`'s real path, symbolic links included. The one
    /// way this project reads a file a document names.
    public static func file(_ relative: String, inside folder: String) -> Inside {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !relative.contains("\0"),
              !parts.contains(where: { $0.isEmpty || $0.hasPrefix(".") }) else { return .notPlain }
        // Both real paths, links followed: a link out of the folder leads nowhere.
        guard let root = realPath(folder), let real = realPath(folder + "/" + relative),
              real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return .missingOrOutside }
        return .found(real)
    }

    public enum Inside: Equatable, Sendable {
        case found(String)
        /// Absolute, or with a `.`, `..`, empty or hidden component.
        case notPlain
        /// No such file, or its real path lies outside the folder.
        case missingOrOutside
    }

    /// `path` with every symbolic link and `.`/`..` resolved (POSIX `realpath`), or nil
    /// when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
