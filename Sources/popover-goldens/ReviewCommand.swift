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

    @Option(help: "The report folder of the run.")
    var reports = "Reports"

    @Option(help: "The goldens folder (default: Goldens, when the run was checked against it; any other must be named).")
    var goldens: String?

    @Option(help: "The folder of skin folders: an acceptance draws each case's facts from them.")
    var skins = "Skins"

    @Option(help: "The port to listen on, 0 for any free port.")
    var port: UInt16 = 0

    func run() throws {
        let desk = ReviewDesk(reportsFolder: reports, goldensFolder: goldens, skinsFolder: skins)
        _ = try userFacing { () throws(ReviewError) in try desk.prepare() }
        let server = ReviewServer(desk: desk, port: port)
        let finished = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        let task = Task {
            do {
                try await server.run { address in
                    // The address is the first line out (the console writes each line
                    // straight to the file descriptor, whatever buffering a pipe has).
                    print(address)
                    print("serving \(reports) on 127.0.0.1 only; Ctrl-C stops")
                }
            } catch {
                // Stopping closes the listening socket, which ends run() with an error.
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
                Task {
                    await server.stop()
                    task.cancel()
                }
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
