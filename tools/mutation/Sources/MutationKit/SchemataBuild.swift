import Foundation

/// Builds the schemata copy, and drops the mutants that do not compile: each compiler
/// error is led back through the file's markers to the mutant it lies in (or the
/// construct whose wrapper it lies in), those are left out, and the copy is built again.
/// Swift reports type errors first and errors found after type checking (a literal that
/// overflows its type, a value used before it is set) only once those are gone, so this
/// takes a few rounds.
public struct SchemataBuild {
    /// What an earlier run learned did not build.
    public struct Known: Sendable {
        public var notBuilt: [Int: String] = [:]
        public var droppedConstructs: [Int: String] = [:]
        public var droppedSites: [Int: String] = [:]

        public init(notBuilt: [Int: String] = [:], droppedConstructs: [Int: String] = [:], droppedSites: [Int: String] = [:]) {
            self.notBuilt = notBuilt
            self.droppedConstructs = droppedConstructs
            self.droppedSites = droppedSites
        }
    }

    public struct Outcome: Sendable {
        /// The built driver.
        public var driver: String
        /// Mutants left out, with the compiler's first word on why.
        public var notBuilt: [Int: String]
        /// Constructs the schemata could not hold (their mutants are in `notBuilt` too).
        public var droppedConstructs: [Int: String]
        /// Probes that did not type-check (their mutants count as infected wherever they run).
        public var droppedSites: [Int: String] = [:]
        /// Mutants a probe watches: judged only on the cases they infect.
        public var probed: Set<Int> = []
        public var rounds: Int
        /// Seconds spent building, per round.
        public var seconds: [Double]
        /// A digest of every file written: equal digests, equal programs.
        public var digest: String
        /// The files written as schemata (relative paths); every other file of the mutated
        /// modules is compiled as it is, but for the checks around its checked functions.
        public var files: [String] = []
        /// Whether any file written holds a checked function (`Subject.checked`) with its check.
        public var checks = false
    }

    public let package: SchemataPackage
    public let configuration: String
    public var log: (String) -> Void = { _ in }

    public init(package: SchemataPackage, configuration: String) {
        self.package = package
        self.configuration = configuration
    }

    /// Builds, starting from the mutants and constructs an earlier run left out (`known`).
    /// With `only`, just those files (relative paths) are written as schemata: a run of one
    /// file compiles the rest as it is, so its build, its coverage and every drawing outside
    /// that file run the code as the product builds it.
    public func build(_ findings: [FileFindings], known: Known = Known(), only: Set<String>? = nil,
                      maxRounds: Int = 24) throws -> Outcome {
        var writers = Dictionary(uniqueKeysWithValues: findings.map { ($0.source.path, SchemataWriter(findings: $0)) })
        let constructOwner = Dictionary(uniqueKeysWithValues: findings.flatMap { f in f.constructs.map { ($0.id, $0) } })
        var notBuilt = known.notBuilt
        var droppedConstructs = known.droppedConstructs
        var droppedSites = known.droppedSites
        for f in findings {
            writers[f.source.path]!.droppedMutants = Set(f.mutants.map(\.id).filter { notBuilt[$0] != nil })
            writers[f.source.path]!.droppedConstructs = Set(f.constructs.map(\.id).filter { droppedConstructs[$0] != nil })
            writers[f.source.path]!.droppedSites = Set(f.sites.map(\.id).filter { droppedSites[$0] != nil })
        }
        /// Leaves out the probes `ids` of `relative` not left out yet: whether there were any.
        func drop(_ ids: [Int], of relative: String, _ message: String) -> Bool {
            let fresh = ids.filter { droppedSites[$0] == nil }
            for id in fresh {
                droppedSites[id] = message
                writers[relative]!.droppedSites.insert(id)
            }
            return !fresh.isEmpty
        }
        /// Every live probe of `relative` (an error none of its markers places).
        func liveSites(of relative: String) -> [Int] {
            writers[relative].map { w in w.findings.constructs.flatMap(w.liveSites).map(\.id) } ?? []
        }
        var seconds: [Double] = []
        let constructCount = findings.reduce(0) { $0 + $1.constructs.count }
        for round in 1...maxRounds {
            var texts: [String: String] = [:]
            var maps: [String: MarkerMap] = [:]
            var checkedOnly: Set<String> = []
            for (path, writer) in writers {
                if only?.contains(path) ?? true {
                    guard writer.switchesAnything || !writer.droppedConstructs.isEmpty || !writer.droppedMutants.isEmpty
                        || !writer.droppedSites.isEmpty || !writer.findings.checkedBodies.isEmpty else { continue }
                    texts[path] = writer.text()
                } else if !writer.findings.checkedBodies.isEmpty {
                    // A file outside a run of part of the code that holds a checked function: as it
                    // is, but for the checks, so the mutants of the run's files reached inside its
                    // calls are checked there as in a full run.
                    var plain = writer
                    plain.droppedMutants = Set(writer.findings.mutants.map(\.id))
                    texts[path] = plain.text()
                    checkedOnly.insert(path)
                }
                maps[path] = texts[path].map { MarkerMap(text: $0) }
            }
            try package.write(files: texts, constructCount: constructCount)
            let clock = ContinuousClock.now
            let (status, output) = try Self.run(["swift", "build", "-c", configuration, "--package-path", package.folder,
                                                 "--product", SchemataPackage.driverProduct])
            seconds.append((ContinuousClock.now - clock).seconds)
            try? writeIfChanged(package.folder + "/../build-round-\(round).log", output)
            if status == 0 {
                let (_, binPath) = try Self.run(["swift", "build", "-c", configuration, "--package-path", package.folder,
                                                 "--show-bin-path"])
                let driver = binPath.split(separator: "\n").last.map(String.init) ?? ""
                // The program: the mutated files and the driver (its search space is part of it).
                var digest = Digest()
                for path in texts.keys.sorted() { digest.add(path); digest.add(texts[path]!) }
                // The files compiled as they are (all but one in a run of one file) are the program too.
                for f in findings where texts[f.source.path] == nil { digest.add(f.source.path); digest.add(f.source.text) }
                // And the switch and helpers every mutated module compiles with.
                digest.add(SchemataPackage.switchHeader + SchemataPackage.switchSource + SchemataWriter.reachFile)
                for folder in [package.subject.kitFolder, package.subject.driverFolder] {
                    for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
                        digest.add(name)
                        digest.add((try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "")
                    }
                }
                var probed = Set<Int>()
                for writer in writers.values where texts[writer.findings.source.path] != nil {
                    for c in writer.findings.constructs {
                        for site in writer.liveSites(of: c) { probed.formUnion(site.mutants.filter { notBuilt[$0] == nil }) }
                    }
                }
                return Outcome(driver: driver + "/" + SchemataPackage.driverProduct, notBuilt: notBuilt,
                               droppedConstructs: droppedConstructs, droppedSites: droppedSites, probed: probed, rounds: round,
                               seconds: seconds, digest: digest.hex, files: texts.keys.filter { !checkedOnly.contains($0) }.sorted(),
                               checks: texts.keys.contains { path in
                                   writers[path].map { $0.findings.checkedBodies.count > $0.unwrappedCheckedBodies } ?? false
                               })
            }
            let errors = CompilerError.parse(output)
            var progress = false
            var unplaced: [CompilerError] = []
            for error in errors {
                guard let relative = relativePath(error.file), let map = maps[relative] else {
                    unplaced.append(error)
                    continue
                }
                let owner = map.owner(line: error.line, column: error.column)
                if case .probe? = owner {
                    // A probe's error (an operand of a type no probe function takes): every probe
                    // around the place goes, so one round settles it.
                    if drop(map.probes(line: error.line, column: error.column), of: relative, error.message) { progress = true }
                    continue
                }
                switch owner {
                case .mutant(let id):
                    if notBuilt[id] == nil {
                        notBuilt[id] = error.message
                        writers[relative]!.droppedMutants.insert(id)
                        progress = true
                    }
                case .construct(let id):
                    // An error in a construct's original branch that holds probes is the probes'
                    // first (a marker's comment after `..<` makes it a postfix operator): they go,
                    // and the construct stays.
                    if drop(writers[relative]!.liveSites(of: constructOwner[id]!).map(\.id), of: relative, error.message) {
                        progress = true
                    } else if droppedConstructs[id] == nil {
                        droppedConstructs[id] = error.message
                        writers[relative]!.droppedConstructs.insert(id)
                        for m in constructOwner[id]!.mutants where notBuilt[m] == nil {
                            notBuilt[m] = "the schemata could not hold this construct: \(error.message)"
                        }
                        progress = true
                    }
                case .body(let index):
                    if !writers[relative]!.unwrappedBodies.contains(index) {
                        writers[relative]!.unwrappedBodies.insert(index)
                        progress = true
                    }
                case .probe?:
                    break
                case nil:
                    unplaced.append(error)
                }
            }
            // Errors found after type checking (definite initialisation) are said where the
            // value is used, not where the mutant removed its assignment: leave out the removals
            // of that file that assign the name the error gives.
            for error in unplaced {
                // A file compiled as it is (outside a run of part of the code) holds no mutant to leave out.
                guard let relative = relativePath(error.file), texts[relative] != nil, let writer = writers[relative] else { continue }
                // A probe can change how an expression around it type-checks, and the error then lies
                // outside it: the probes of the body that holds the error go, or, when none is left
                // there, the file's (errors of definite initialisation are mutants').
                let initialisation = ["before being initialized", "without initializing", "before all stored properties"]
                if !initialisation.contains(where: error.message.contains),
                   drop(maps[relative]?.probesInBody(line: error.line, column: error.column) ?? [], of: relative, error.message)
                    || drop(liveSites(of: relative), of: relative, error.message) {
                    progress = true
                    continue
                }
                let quoted = error.message.split(separator: "'").dropFirst().first.map(String.init)
                for m in writer.findings.mutants where m.mutationOperator == .removedStatement && notBuilt[m.id] == nil {
                    let assigns = quoted.map { name in
                        m.original.hasPrefix(name + " ") || m.original.hasPrefix(name + "=") || m.original.hasPrefix("self." + name)
                            || m.original.contains(name)
                    } ?? m.original.contains("=")
                    if assigns {
                        notBuilt[m.id] = error.message
                        writers[relative]!.droppedMutants.insert(m.id)
                        progress = true
                    }
                }
            }
            log("build round \(round): \(errors.count) errors, \(notBuilt.count) mutants and \(droppedSites.count) probes left out so far, "
                + "\(Int(seconds.last!.rounded())) s")
            if !progress {
                let first = (unplaced.isEmpty ? errors : unplaced).prefix(5).map { "\($0.file):\($0.line):\($0.column): \($0.message)" }
                throw MutationError.build("the schemata copy does not build, and the errors lie in no mutant"
                    + (first.isEmpty ? " (see \(package.folder)/../build-round-\(round).log)" : ":\n" + first.joined(separator: "\n")))
            }
        }
        throw MutationError.build("the schemata copy still does not build after \(maxRounds) rounds")
    }

    private func relativePath(_ file: String) -> String? {
        let prefix = package.folder + "/"
        if file.hasPrefix(prefix) { return String(file.dropFirst(prefix.count)) }
        // The build may name the file by its resolved path.
        let resolved = URL(fileURLWithPath: package.folder).resolvingSymlinksInPath().path + "/"
        return file.hasPrefix(resolved) ? String(file.dropFirst(resolved.count)) : nil
    }

    /// Runs a command, returning its status and its output and errors together.
    static func run(_ command: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { throw MutationError.build("cannot run \(command.joined(separator: " ")): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

struct CompilerError: Sendable {
    var file: String
    var line: Int
    var column: Int
    var message: String

    /// `path:line:column: error: message` lines.
    static func parse(_ output: String) -> [CompilerError] {
        var out: [CompilerError] = []
        var seen = Set<String>()
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: ": error: ") else { continue }
            let place = line[..<range.lowerBound].split(separator: ":")
            guard place.count >= 3, let l = Int(place[place.count - 2]), let c = Int(place[place.count - 1]) else { continue }
            let file = place.dropLast(2).joined(separator: ":")
            let key = "\(file):\(l):\(c)"
            guard seen.insert(key).inserted else { continue }
            out.append(CompilerError(file: file, line: l, column: c, message: String(line[range.upperBound...])))
        }
        return out
    }
}

extension Duration {
    var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) * 1e-18
    }
}

/// FNV-1a, 64 bits: names cache files after their inputs (not a security measure).
public struct Digest: Sendable {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        value ^= 0xff
        value = value &* 0x100_0000_01b3
    }

    public var hex: String { String(value, radix: 16) }
}
