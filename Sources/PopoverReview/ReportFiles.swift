import FlyingFox
import Foundation
import PopoverFiles

/// Serving the report folder's images and data files, and nothing else. Never its page:
/// a report that came from elsewhere could hold any script, so the server renders the
/// page itself from the run (see `ReviewGate`).
public struct ReportFiles: Sendable {
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    static let types = ["json": "application/json", "xml": "application/xml", "png": "image/png"]

    /// The file at URL path `path`, or a 404 for anything that is not a regular PNG, JSON
    /// or XML file inside the folder.
    func serve(_ path: String, headOnly: Bool) -> HTTPResponse {
        guard let file = resolve(path), let type = Self.types[FilePaths.fileExtension(of: file).lowercased()] else {
            return .text(.notFound, "not found")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: file)
        } catch {
            return .text(.notFound, "not found")
        }
        let headers = [("Content-Type", type),
                       ("X-Content-Type-Options", "nosniff"),
                       ("Referrer-Policy", "no-referrer"),
                       // Accepting rewrites the summary: never keep an old one.
                       ("Cache-Control", type == "image/png" ? "private, max-age=60" : "no-store")]
        return HTTPResponse(.ok, headers: headers, body: headOnly ? [] : bytes)
    }

    /// The page, rendered by this tool: only its own styles and scripts run.
    static func page(_ html: String, headOnly: Bool) -> HTTPResponse {
        let headers = [("Content-Type", "text/html; charset=utf-8"), ("X-Content-Type-Options", "nosniff"),
                       ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"),
                       ("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; "
                        + "script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")]
        return HTTPResponse(.ok, headers: headers, body: headOnly ? [] : Array(html.utf8))
    }

    /// The file a URL path names inside the folder, or nil. Each segment is decoded once
    /// and must be a plain name: no "..", ".", empty segment, hidden name, slash or NUL;
    /// and the real path (symbolic links followed) must still lie inside the folder.
    func resolve(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.last == "" { segments[segments.count - 1] = "index.html" }
        var decoded: [String] = []
        for segment in segments {
            // Decoded once; a slash it decodes to would be a segment the URL did not have.
            guard let name = segment.removingPercentEncoding, !name.contains("/") else { return nil }
            decoded.append(name)
        }
        guard case .found(let full) = FilePaths.file(decoded.joined(separator: "/"), inside: folder) else { return nil }
        var info = stat()
        guard stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return full
    }
}
