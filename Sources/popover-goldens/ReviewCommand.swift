import ArgumentParser
import Dispatch
import Foundation
import PopoverReview

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Serve the last run's report on 127.0.0.1 with Accept and Undo buttons that act at once.",
        discussion: """
        The first line printed is the address to open; it holds a fresh token, without
        which the server refuses every request. Only this machine can connect. Ctrl-C stops.
        """)

    @OptionGroup var review: ReviewOptions

    @Option(help: "The port to listen on, 0 for any free port.")
    var port: UInt16 = 0

    func run() throws {
        let desk = review.desk
        try userFacing { () throws(ReviewError) in try desk.prepare() }
        let server = ReviewServer(desk: desk, port: port)
        let finished = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        let task = Task {
            do {
                try await server.run { address in
                    // The address is the first line out (the console writes each line
                    // straight to the file descriptor, whatever buffering a pipe has).
                    print(address)
                    print("serving \(review.reports) on 127.0.0.1 only; Ctrl-C stops")
                }
            } catch {
                // Stopping cancels run(), which ends it with an error.
                if !failure.stopping { failure.set("\(error)") }
            }
            finished.signal()
        }
        // Ctrl-C (and a polite kill) stop the server and end the command normally.
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                failure.stopping = true
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
        finished.wait()
        if let message = failure.message { throw UserError("review: \(message)") }
    }
}

/// A failure reported from the server's task, and whether a stop was asked for.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    private var stopAsked = false
    func set(_ message: String) { lock.withLock { value = message } }
    var message: String? { lock.withLock { value } }
    var stopping: Bool {
        get { lock.withLock { stopAsked } }
        set { lock.withLock { stopAsked = newValue } }
    }
}
