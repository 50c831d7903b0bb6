import FlyingFox
import Foundation

/// The head of an HTTP/1.1 request (its request line and header fields) gathered from a
/// connection within stated bounds, then handed over as FlyingFox's `HTTPRequest`.
///
/// Why the review server does not let FlyingFox's `HTTPServer` read requests: in 0.27.1 its
/// parser reads a line with no bound and at a cost that grows with the square of the
/// line's length, sets no limit on how long a client may take, closes a connection whose
/// body it cannot frame without answering, and keeps one value of a repeated header (so
/// the gate could not refuse two Hosts), and none of that can be configured. So this reads
/// the head itself: it only finds where the head ends, enforces the bounds below as the
/// bytes arrive, and splits the lines; the target's path and query are FlyingFox's
/// (`HTTPRequest`), the fields go into its `HTTPHeaders` with every value kept, and what
/// any of it means is the gate's to decide (`ReviewGate.admit`).
///
/// Bounds: a request line of at most 8192 bytes (414 beyond), header fields of at most
/// 32768 bytes in all, counting each line's CRLF (431 beyond). Lines end with CRLF; a bare
/// LF, a folded line, a field name with a space before its colon and a control character
/// in a value are refused (400), as is a request line that is not `METHOD /target HTTP/1.x`.
struct RequestHead {
    static let requestLineLimit = 8192
    static let headerFieldsLimit = 32768

    enum Progress {
        /// The head is not complete yet, and can still be within the bounds.
        case incomplete
        /// The head, and the bytes that came after it (the start of the body).
        case complete(HTTPRequest, rest: [UInt8])
        case refused(HTTPResponse)
    }

    private var bytes: [UInt8] = []
    /// Bytes before this were looked at for line ends.
    private var scanned = 0
    private var lineStart = 0
    /// Where the header fields start: just after the request line's CRLF.
    private var fieldsStart: Int?

    /// Adds the next bytes from the connection. Each byte is looked at once, so a client
    /// sending a byte at a time costs no more than one sending all at once.
    mutating func add(_ chunk: [UInt8]) -> Progress {
        bytes += chunk
        while scanned < bytes.count {
            let index = scanned
            scanned += 1
            guard bytes[index] == Self.lf else { continue }
            guard index > lineStart, bytes[index - 1] == Self.cr else {
                return .refused(.text(.badRequest, "refused: a line of the head does not end with CRLF"))
            }
            let lineEnd = index - 1
            if let fieldsStart {
                if lineEnd == lineStart {
                    // The empty line: the head is complete.
                    guard lineStart - fieldsStart <= Self.headerFieldsLimit else { return Self.fieldsTooLarge }
                    switch Self.parse(bytes[..<lineStart], fieldsStart: fieldsStart) {
                    case .success(let request): return .complete(request, rest: Array(bytes[(index + 1)...]))
                    case .failure(let refusal): return .refused(.text(.badRequest, "refused: \(refusal.reason)"))
                    }
                }
            } else {
                guard lineEnd <= Self.requestLineLimit else { return Self.lineTooLong }
                fieldsStart = index + 1
            }
            lineStart = index + 1
        }
        // Could what has come so far still end within the bounds? (Its last byte may be
        // the CR of a line just at the limit.)
        if let fieldsStart {
            if bytes.count - fieldsStart > Self.headerFieldsLimit + 1 { return Self.fieldsTooLarge }
        } else if bytes.count > Self.requestLineLimit + 1 {
            return Self.lineTooLong
        }
        return .incomplete
    }

    static let lineTooLong = Progress.refused(.text(.uriTooLong, "refused: the request line is longer than \(requestLineLimit) bytes"))
    static let fieldsTooLarge = Progress.refused(
        .text(.requestHeaderFieldsTooLarge, "refused: the header fields are longer than \(headerFieldsLimit) bytes in all"))

    struct Malformed: Error {
        var reason: String
    }

    /// The request a complete head (up to the empty line) states.
    static func parse(_ head: ArraySlice<UInt8>, fieldsStart: Int) -> Result<HTTPRequest, Malformed> {
        let requestLine = head[..<(fieldsStart - 2)]
        let parts = requestLine.split(separator: sp, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = parts.first, !method.isEmpty, method.allSatisfy(isTokenCharacter),
              parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy({ $0 > sp && $0 < 0x7F }),
              ["HTTP/1.1", "HTTP/1.0"].contains(String(decoding: parts[2], as: UTF8.self)) else {
            return .failure(Malformed(reason: "the request line is not METHOD /target HTTP/1.1"))
        }
        var headers = HTTPHeaders()
        var lineStart = fieldsStart
        while lineStart < head.endIndex {
            // Every LF ends a line and follows a CR (`add` saw to that); a CR anywhere else
            // is a control character in the line.
            let end = head[lineStart...].firstIndex(of: lf) ?? head.endIndex
            let line = head[lineStart..<(end - 1)]
            lineStart = end + 1
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(isTokenCharacter) else {
                return .failure(Malformed(reason: "a header line is not Name: value (no space before the colon, no folded lines)"))
            }
            let value = line[(colon + 1)...].drop { $0 == sp || $0 == tab }.reversed().drop { $0 == sp || $0 == tab }.reversed()
            guard value.allSatisfy({ $0 == tab || ($0 >= sp && $0 != 0x7F) }) else {
                return .failure(Malformed(reason: "a header value holds a control character"))
            }
            headers.addValue(String(decoding: value, as: UTF8.self), for: HTTPHeader(String(decoding: line[..<colon], as: UTF8.self)))
        }
        let target = parts[1].split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)
        return .success(HTTPRequest(method: HTTPMethod(rawValue: String(decoding: method, as: UTF8.self)),
                                    version: HTTPVersion(String(decoding: parts[2], as: UTF8.self)),
                                    target: HTTPRequest.Target(path: String(decoding: target[0], as: UTF8.self),
                                                               query: target.count == 2 ? String(decoding: target[1], as: UTF8.self) : ""),
                                    headers: headers, body: HTTPBodySequence(data: Data())))
    }

    static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), sp = UInt8(ascii: " "), tab = UInt8(ascii: "\t")

    /// RFC 9110's tchar: the characters of a method or a field name.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
