import Foundation
import Synchronization

/// "checked 812 / 2100" on standard error, redrawn at most every 100 ms, only on a terminal.
final class ProgressMeter: Sendable {
    private let last = Mutex<Double>(0)
    private let isTerminal = isatty(2) == 1

    func update(_ finished: Int, of total: Int) {
        guard isTerminal else { return }
        let now = Date().timeIntervalSinceReferenceDate
        let due = last.withLock { previous -> Bool in
            guard now - previous >= 0.1 || finished == total else { return false }
            previous = now
            return true
        }
        if due { FileHandle.standardError.write(Data("\r  checked \(finished) / \(total)".utf8)) }
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
