import PopoverReport

// Everything the tool prints goes through `Console`, which escapes each line, so no text
// from the repository, a report or a shard can start a line of its own (a CI runner obeys
// workflow commands such as `::error` at a line's start). Inside this module these two
// stand in for the standard library's `print`: one line each, multi-line text printed
// line by line by its caller.

/// One line on standard output, escaped.
func print(_ line: String) {
    Console.standard.line(line)
}

/// One line on standard error, escaped.
func printError(_ line: String) {
    Console.standard.problem(line)
}

/// Text of the tool's own making that runs over several lines (a layout's table), one
/// line at a time.
func printLines(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) { print(String(line)) }
}
