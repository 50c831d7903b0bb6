import ArgumentParser
import Foundation

/// The command-line tool: each subcommand parses its options and hands over to a
/// library; nothing here draws or compares.
@main
struct PopoverGoldens: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popover-goldens",
        abstract: "Golden-image regression harness for iPad-style popover backgrounds.",
        discussion: """
        Exit status: 0 success, 1 a golden check failed, 2 bad usage, bad values or I/O errors.
        """,
        subcommands: [
            LayoutCommand.self, PlacementCommand.self, ArtworkCommand.self, RenderCommand.self,
            ContactSheetCommand.self, ListCommand.self, CheckCommand.self, RecordCommand.self, AcceptCommand.self,
            ReviewCommand.self, MergeReportsCommand.self, NewSkinCommand.self, DiffCommand.self, BenchCommand.self,
        ]
    )

    /// Parses and runs, mapping every failure to the documented exit status: usage
    /// and value errors print their message and exit 2 (the argument parser's own
    /// default would be 64).
    static func main() {
        keepImageBuffersInTheHeap()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as UserError {
            printError("popover-goldens: " + error.lines[0])
            for line in error.lines.dropFirst() { printError(line) }
            Foundation.exit(2)
        } catch {
            // Help and usage: the parser's own text, over several lines, naming only the
            // command line's own values.
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success {
                printLines(message)
                Foundation.exit(0)
            }
            for line in message.split(separator: "\n", omittingEmptySubsequences: false) { printError(String(line)) }
            Foundation.exit(2)
        }
    }
}

/// A failure the user can act on: one line, or a first line and the lines that list what
/// it found, each printed through the console's escaper.
struct UserError: Error, CustomStringConvertible {
    let lines: [String]
    init(_ description: String) { lines = [description] }
    init(lines: [String]) { self.lines = lines.isEmpty ? [""] : lines }
    var description: String { lines.joined(separator: "\n") }
}

/// Runs `body`, turning a library's error (which names the file or value at fault)
/// into a `UserError`: printed as is, exit status 2.
func userFacing<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw UserError("\(error)")
    }
}

/// Image buffers (a few hundred KB to 30 MB each, several per case) are allocated and
/// freed thousands of times a run. By default glibc maps each one from the kernel and
/// unmaps it when freed, so every new buffer's pages fault in and are zeroed again: a
/// tenth of an all-failing check's time went to the kernel. Keeping freed memory in the
/// heap for reuse ends that; the bench's run figures show the effect.
private func keepImageBuffersInTheHeap() {
    #if canImport(Glibc)
    // mallopt and its parameter numbers (malloc.h) are not in Swift's Glibc module.
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
    _ = mallopt(mmapThreshold, 256 << 20)
    _ = mallopt(trimThreshold, 512 << 20)
    #endif
}

