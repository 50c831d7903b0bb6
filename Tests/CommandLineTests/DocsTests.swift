import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverHarness
import PopoverSkins
import Testing
import TestSupport

/// The documentation held to the code: the README stays a front door, every page is
/// reachable, and the facts the pages state are the code's. Each expectation is read
/// from the docs' text and compared with the value the code uses, so a change to either
/// side alone fails here.
@Suite("The docs say what the code does")
struct DocsTests {
    static let root = PackageFolders.root

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// Every Markdown page under docs/, as paths relative to the package root.
    static func docsPages() throws -> [String] {
        let folder = root + "/docs"
        let names = try #require(FileManager.default.enumerator(atPath: folder)?.allObjects as? [String])
        return names.filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }.sorted()
    }

    /// The relative links of a Markdown file, resolved against its folder, without
    /// anchors; links to the web and to anchors in the same page are left out.
    static func localLinks(in path: String) throws -> [String] {
        // Quoted lines (`> `) show a report's own Markdown, whose links lead inside that report.
        let text = try read(path).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(">") }.joined(separator: "\n")
        let folder = (path as NSString).deletingLastPathComponent
        return text.matches(of: /\]\(([^)\s]+)\)/).compactMap { match -> String? in
            let target = String(match.1)
            guard !target.hasPrefix("http:"), !target.hasPrefix("https:"), !target.hasPrefix("#"),
                  !target.hasPrefix("mailto:") else { return nil }
            let file = String(target.prefix { $0 != "#" })
            return normalized(folder.isEmpty ? file : folder + "/" + file)
        }
    }

    /// A relative path with its `.` and `..` components resolved (`docs/../tools/x` is
    /// `tools/x`); NSString resolves `..` in absolute paths only.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    /// The section of `text` from the heading `heading` to the next heading of its level.
    static func section(_ heading: String, of text: String) throws -> String {
        let start = try #require(text.range(of: "\n" + heading + "\n"), "no section '\(heading)'")
        let level = heading.prefix { $0 == "#" }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n" + level + " ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Cell `column` (from 0) of each row of the Markdown tables in `text`, below their
    /// header rows, backticks removed.
    static func tableColumn(_ column: Int, of text: String) -> [String] {
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }
        return rows.dropFirst().compactMap { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > column + 1 else { return nil }
            return cells[column + 1].replacingOccurrences(of: "`", with: "")
        }
    }

    @Test("the README is a front door: at most 200 lines, both commands in its first 40")
    func readmeIsShort() throws {
        let lines = try Self.read("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 200, "README.md has \(lines.count) lines")
        let firstScreen = lines.prefix(40).joined(separator: "\n")
        #expect(firstScreen.contains("scripts/check"), "the first 40 lines do not name scripts/check")
        #expect(firstScreen.contains("scripts/test"), "the first 40 lines do not name scripts/test")
    }

    @Test("every file the README and the docs link to exists")
    func linksResolve() throws {
        for page in try ["README.md"] + Self.docsPages() {
            for target in try Self.localLinks(in: page) {
                #expect(FileManager.default.fileExists(atPath: Self.root + "/" + target),
                        "\(page) links to \(target), which does not exist")
            }
        }
    }

    @Test("every page under docs/ is linked from the README or from another page")
    func everyPageLinked() throws {
        let pages = try Self.docsPages()
        #expect(pages.count >= 10, "docs/ holds only \(pages)")
        var linked: Set<String> = []
        for page in try ["README.md"] + pages {
            for target in try Self.localLinks(in: page) where target != page { linked.insert(target) }
        }
        let orphans = pages.filter { !linked.contains($0) }
        #expect(orphans.isEmpty, "pages nothing links to: \(orphans)")
    }

    @Test("every subcommand the tool lists is in docs/cli.md",
          .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
    func everySubcommandDocumented() async throws {
        let help = try await runTool(["--help"]).stdout
        let listed = try #require(help.range(of: "SUBCOMMANDS:\n"))
        // The list runs to the first empty line; each subcommand starts a line, indented
        // by two spaces, its summary beside it.
        let list = help[listed.upperBound...].components(separatedBy: "\n\n")[0]
        let names = list.split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count >= 10, "read only \(names) from --help")
        let cli = try Self.read("docs/cli.md")
        let missing = names.filter { !cli.contains("`\($0) ") && !cli.contains("`\($0)`") }
        #expect(missing.isEmpty, "docs/cli.md does not describe: \(missing)")
    }

    /// The options (`--name`) an OPTIONS section of `help` lists, one a line.
    static func helpOptions(_ help: String) throws -> Set<String> {
        let listed = try #require(help.range(of: "OPTIONS:\n"), "no OPTIONS in \(help)")
        let section = help[listed.upperBound...].components(separatedBy: "\n\n")[0]
        return Set(section.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^ {2}(?:-[a-zA-Z], )?(--[a-z0-9][a-z0-9-]*)/).map { String($0.1) }
        })
    }

    @Test("docs/cli.md names every option the tool's help lists, and no option the tool does not have",
          .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
    func everyOptionDocumented() async throws {
        let help = try await runTool(["--help"]).stdout
        let listed = try #require(help.range(of: "SUBCOMMANDS:\n"))
        let names = help[listed.upperBound...].components(separatedBy: "\n\n")[0].split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count >= 10, "read only \(names) from --help")
        // The commands' sections: from the first command table to the environment's.
        let cli = try Self.read("docs/cli.md")
        let start = try #require(cli.range(of: "\n## Checking and recording\n")), end = try #require(cli.range(of: "\n## Environment\n"))
        let documented = Set(cli[start.lowerBound..<end.lowerBound].matches(of: /--[a-z][a-z0-9-]*/).map { String($0.0) })
        var known: Set<String> = []
        for name in names {
            let options = try Self.helpOptions(try await runTool([name, "--help"]).stdout).subtracting(["--help"])
            known.formUnion(options)
            let missing = options.subtracting(documented)
            #expect(missing.isEmpty, "docs/cli.md does not describe \(name)'s \(missing.sorted())")
        }
        #expect(known.count >= 30, "read only \(known.sorted()) from the commands' help")
        let unknown = documented.subtracting(known)
        #expect(unknown.isEmpty, "docs/cli.md names options no command has: \(unknown.sorted())")
    }

    @Test("the goldens' compression the docs state is PNGCompression.smallest's")
    func compressionStated() throws {
        let settings = PNGCompression.smallest.settings
        let level = settings.level
        guard case .minimumSum(let candidates) = settings.filters else {
            Issue.record("goldens' rows are not filtered by the smallest sum: update docs/goldens.md and this test")
            return
        }
        // Every level the README or a docs page states for libdeflate.
        var stated: [(page: String, level: Int32)] = []
        for page in try ["README.md"] + Self.docsPages() {
            for match in try Self.read(page).matches(of: /libdeflate\s+(?:at\s+)?level\s+(\d+)/) {
                stated.append((page, Int32(match.1)!))
            }
        }
        #expect(stated.contains { $0.page == "docs/goldens.md" }, "docs/goldens.md states no libdeflate level")
        #expect(stated.contains { $0.page == "docs/specification.md" }, "the specification states no libdeflate level")
        for (page, stated) in stated {
            #expect(stated == level, "\(page) says libdeflate level \(stated); the goldens are written at \(level)")
        }
        // "each row's filter chosen among None, Sub and Up".
        let goldens = try Self.read("docs/goldens.md").replacingOccurrences(of: "\n", with: " ")
        let among = try #require(goldens.firstMatch(of: /filter chosen among ([A-Za-z, ]+?) by/), "no filter list")
        let names = among.1.replacingOccurrences(of: " and ", with: ", ").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let byName: [String: PNGFilter] = ["none": .none, "sub": .sub, "up": .up]
        #expect(names.map { byName[$0] } == candidates.map { Optional($0) },
                "docs/goldens.md names the filters \(names); the encoder chooses among \(candidates)")
    }

    @Test("the facts tables docs/goldens.md describes are where the store keeps them")
    func factsTablesStated() throws {
        let section = try Self.section("## The facts tables", of: try Self.read("docs/goldens.md"))
        let stated = try #require(section.firstMatch(of: /`Goldens\/<skin>\/<direction>\/([^`]+)`/), "no table path")
        #expect(GoldenStore(folder: "Goldens").factsTablePath(for: "s/up/a@1x") == "Goldens/s/up/" + stated.1)
        let top = try #require(section.firstMatch(of: /`Goldens\/([^`\/]+)`\)/), "no table at the top")
        #expect(GoldenStore(folder: "Goldens").factsTablePath(for: "a@1x") == "Goldens/" + top.1)
    }

    @Test("the facts tables' format is specified in one place, docs/goldens.md; the specification and the code point there")
    func factsFormatInOnePlace() throws {
        let rule = "A cell's text says its type"
        var stating: [String] = []
        for page in try ["README.md"] + Self.docsPages() where try Self.read(page).contains(rule) { stating.append(page) }
        #expect(stating == ["docs/goldens.md"], "the cells' rule is stated in \(stating)")
        let spec = try Self.section("### 17.2 Facts tables", of: try Self.read("docs/specification.md"))
        #expect(spec.contains("(goldens.md#the-facts-tables)"), "§17.2 does not point to docs/goldens.md")
        for source in ["Sources/PopoverHarness/Goldens/FactsTable.swift", "Sources/PopoverHarness/Goldens/GoldenFacts.swift"] {
            let text = try Self.read(source)
            #expect(text.contains("docs/goldens.md"), "\(source) does not point to docs/goldens.md")
            #expect(!text.contains("in `FactPath` order (keys in string order"), "\(source) restates the format")
        }
    }

    /// The keys the decoder expects at `path` of a tolerances.json, from the error it
    /// gives for a key nobody would use.
    static func decoderKeys(_ json: String) throws -> Set<String> {
        do {
            _ = try TolerancePolicy(json: Data(json.utf8))
        } catch {
            let text = "\(error)"
            let listed = try #require(text.firstMatch(of: /expected one of ([^)]+)\)/), "\(text)")
            return Set(listed.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        Issue.record("an unknown key was accepted: \(json)")
        return []
    }

    @Test("the tolerances.json keys docs/tolerances.md documents are the decoder's, and its example decodes")
    func toleranceKeys() throws {
        let page = try Self.read("docs/tolerances.md")
        let documented = Set(Self.tableColumn(1, of: try Self.section("## Options", of: page)))
        let layerKeys = try Self.decoderKeys(#"{"default": {"noSuchOption": 1}}"#)
        #expect(documented == layerKeys, "documented \(documented.sorted()); the decoder reads \(layerKeys.sorted())")
        // The example file: its sections are the decoder's, and the decoder takes it whole.
        let fileSection = try Self.section("## The tolerance file", of: page)
        let example = try #require(fileSection.firstMatch(of: /```json\n([\s\S]*?)```/), "no JSON example")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(example.1.utf8)) as? [String: Any])
        let sections = try Self.decoderKeys(#"{"noSuchSection": {}}"#)
        #expect(Set(object.keys) == sections, "the example's sections \(object.keys.sorted()); the decoder's \(sections.sorted())")
        #expect(throws: Never.self) { try TolerancePolicy(json: Data(example.1.utf8)) }
    }

    @Test("the part names docs/tolerances.md lists are PopoverPart's, in its order")
    func partNames() throws {
        let page = try Self.read("docs/tolerances.md")
        let documented = Self.tableColumn(0, of: try Self.section("## Ignoring parts of the popover", of: page))
        #expect(documented == PopoverPart.allCases.map(\.rawValue),
                "documented \(documented); the code's parts \(PopoverPart.allCases.map(\.rawValue))")
    }

    @Test("the summary.json version docs/run-record.md states is RunRecord's")
    func recordVersion() throws {
        let page = try Self.read("docs/run-record.md")
        let stated = try #require(page.firstMatch(of: /format version\s+is \*\*(\d+)\*\*/), "no version stated")
        #expect(Int(stated.1) == RunRecord.version, "docs say version \(stated.1); RunRecord writes \(RunRecord.version)")
        let envelope = try Self.section("## The envelope", of: page)
        #expect(envelope.contains("`\"\(RunRecord.format)\"`"), "the envelope's format is not \(RunRecord.format)")
    }
}
