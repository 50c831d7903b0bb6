import Foundation

/// What is analysed: a Swift package, the modules whose code is mutated, and the driver
/// that draws and judges its cases. Read from the driver folder's `subject.json`:
///
/// ```json
/// { "mutate": ["PopoverGeometry", "PopoverRaster", "PopoverSkins"],
///   "driverDependencies": ["PopoverHarness", "PopoverSkins"] }
/// ```
public struct Subject: Sendable, Codable {
    /// The package's root folder (holding Package.swift).
    public var root: String
    /// Modules under `Sources/` whose files are mutated.
    public var mutate: [String]
    /// Targets of the package the driver imports.
    public var driverDependencies: [String]
    /// The folder of the driver's own sources (its `main.swift` and `subject.json`).
    public var driverFolder: String
    /// The generic driver loop compiled beside it (tools/mutation/Driver/Kit).
    public var kitFolder: String
    /// Files of the mutated modules whose code no drawing runs, each with where it is held
    /// instead (its unit tests) and why: their unreached mutants are "not on the drawing path".
    public var notOnDrawingPath: [String: String]

    public init(root: String, mutate: [String], driverDependencies: [String], driverFolder: String, kitFolder: String,
                notOnDrawingPath: [String: String] = [:]) {
        self.root = root
        self.mutate = mutate
        self.driverDependencies = driverDependencies
        self.driverFolder = driverFolder
        self.kitFolder = kitFolder
        self.notOnDrawingPath = notOnDrawingPath
    }

    /// The subject a driver folder describes, on the package at `root`.
    public static func load(root: String, driverFolder: String, kitFolder: String) throws -> Subject {
        struct File: Codable { var mutate: [String]; var driverDependencies: [String]; var notOnDrawingPath: [String: String]? }
        let path = driverFolder + "/subject.json"
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw MutationError.io("\(path): cannot be read: \(error.localizedDescription)")
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw MutationError.io("\(path): not a subject description (\"mutate\" and \"driverDependencies\", lists of names; "
                + "\"notOnDrawingPath\", files to why): \(error)")
        }
        for file in (file.notOnDrawingPath ?? [:]).keys.sorted() where !FileManager.default.fileExists(atPath: root + "/" + file) {
            throw MutationError.io("\(path): notOnDrawingPath names \(file), which is not a file under \(root)")
        }
        return Subject(root: root, mutate: file.mutate, driverDependencies: file.driverDependencies,
                       driverFolder: driverFolder, kitFolder: kitFolder, notOnDrawingPath: file.notOnDrawingPath ?? [:])
    }

    /// Every Swift file of the mutated modules, read now, in path order.
    public func sources() throws -> [SourceText] {
        var out: [SourceText] = []
        for module in mutate {
            let folder = root + "/Sources/" + module
            guard let walker = FileManager.default.enumerator(atPath: folder) else {
                throw MutationError.io("\(folder): no such module folder")
            }
            var files: [String] = []
            while let item = walker.nextObject() as? String {
                if item.hasSuffix(".swift") { files.append(item) }
            }
            for file in files.sorted() {
                let path = folder + "/" + file
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw MutationError.io("\(path): cannot be read as UTF-8")
                }
                out.append(SourceText(path: "Sources/\(module)/\(file)", module: module, text: text))
            }
        }
        return out
    }
}

public enum MutationError: Error, CustomStringConvertible {
    case io(String)
    case build(String)
    case driver(String)

    public var description: String {
        switch self {
        case .io(let s), .build(let s), .driver(let s): s
        }
    }
}

/// The schemata copy of the subject's package in a scratch folder: its manifest with the
/// switch, the driver kit and the driver added, its mutated modules rewritten, the other
/// folders linked. Files are written only when their bytes change, so a rebuild after a
/// one-file edit recompiles only what the edit touches.
public struct SchemataPackage: Sendable {
    public let subject: Subject
    /// The copy's root (`<scratch>/package`).
    public let folder: String

    public static let driverProduct = "mutation-driver"
    public static let switchModule = "MutationSwitch"

    public init(subject: Subject, scratch: String) {
        self.subject = subject
        folder = scratch + "/package"
    }

    /// Writes the copy; `files` are the mutated modules' rewritten files by relative path
    /// (any file of a mutated module not in it is copied as it is).
    public func write(files: [String: String], constructCount: Int) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/Sources", withIntermediateDirectories: true)
        let manifest = try String(contentsOfFile: subject.root + "/Package.swift", encoding: .utf8)
        try writeIfChanged(folder + "/Package.swift", manifest + manifestAddition())
        if fm.fileExists(atPath: subject.root + "/Package.resolved") {
            try writeIfChanged(folder + "/Package.resolved", try String(contentsOfFile: subject.root + "/Package.resolved", encoding: .utf8))
        }
        // Folders the manifest may name, linked as they are.
        for entry in try fm.contentsOfDirectory(atPath: subject.root) where entry == "Tests" {
            try link(subject.root + "/" + entry, at: folder + "/" + entry)
        }
        for module in try fm.contentsOfDirectory(atPath: subject.root + "/Sources") {
            let source = subject.root + "/Sources/" + module
            let target = folder + "/Sources/" + module
            if subject.mutate.contains(module) {
                try copyModule(source, to: target, relative: "Sources/" + module, files: files)
                try writeIfChanged(target + "/MutationReach.swift", SchemataWriter.reachFile)
            } else {
                try link(source, at: target)
            }
        }
        try fm.createDirectory(atPath: folder + "/MutationSwitch/include", withIntermediateDirectories: true)
        try writeIfChanged(folder + "/MutationSwitch/include/MutationSwitch.h", Self.switchHeader)
        try writeIfChanged(folder + "/MutationSwitch/MutationSwitch.c", Self.switchSource)
        try copySwiftFiles(subject.kitFolder, to: folder + "/MutationDriver/Kit")
        try copySwiftFiles(subject.driverFolder, to: folder + "/MutationDriver/Subject")
        _ = constructCount
    }

    /// The generated file a relative source path is written to.
    public func path(of relative: String) -> String { folder + "/" + relative }

    func manifestAddition() -> String {
        let mutated = subject.mutate.map { "\"\($0)\"" }.joined(separator: ", ")
        let deps = (["MutationDriverKit", Self.switchModule] + subject.driverDependencies).map { "\"\($0)\"" }.joined(separator: ", ")
        return """

            // Added by tools/mutation: the schemata copy's switch, driver kit and driver.
            package.targets.append(.target(name: "\(Self.switchModule)", path: "MutationSwitch"))
            for target in package.targets where [\(mutated)].contains(target.name) {
                target.dependencies.append("\(Self.switchModule)")
            }
            package.targets.append(.target(name: "MutationDriverKit", dependencies: ["\(Self.switchModule)"], path: "MutationDriver/Kit"))
            package.targets.append(.executableTarget(name: "\(Self.driverProduct)", dependencies: [\(deps)], path: "MutationDriver/Subject"))
            package.products.append(.executable(name: "\(Self.driverProduct)", targets: ["\(Self.driverProduct)"]))

            """
    }

    private func copyModule(_ source: String, to target: String, relative: String, files: [String: String]) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: target, withIntermediateDirectories: true)
        for entry in try fm.contentsOfDirectory(atPath: source) {
            let from = source + "/" + entry, to = target + "/" + entry
            var isFolder: ObjCBool = false
            fm.fileExists(atPath: from, isDirectory: &isFolder)
            if isFolder.boolValue {
                if entry.hasSuffix(".swift") { continue }
                // Swift files in subfolders are mutated too; other folders (resources) are linked.
                let hasSwift = (fm.enumerator(atPath: from)?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".swift") }
                if hasSwift {
                    try copyModule(from, to: to, relative: relative + "/" + entry, files: files)
                } else {
                    try link(from, at: to)
                }
            } else if entry.hasSuffix(".swift") {
                let text = try files[relative + "/" + entry] ?? String(contentsOfFile: from, encoding: .utf8)
                try writeIfChanged(to, text)
            } else {
                try link(from, at: to)
            }
        }
        // Files gone from the source (a rename since the last run).
        for entry in try fm.contentsOfDirectory(atPath: target) where entry.hasSuffix(".swift") && entry != "MutationReach.swift" {
            if !fm.fileExists(atPath: source + "/" + entry) { try fm.removeItem(atPath: target + "/" + entry) }
        }
    }

    private func copySwiftFiles(_ source: String, to target: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: target, withIntermediateDirectories: true)
        for entry in try fm.contentsOfDirectory(atPath: source) where entry.hasSuffix(".swift") {
            try writeIfChanged(target + "/" + entry, try String(contentsOfFile: source + "/" + entry, encoding: .utf8))
        }
    }

    private func link(_ source: String, at target: String) throws {
        let fm = FileManager.default
        if let existing = try? fm.destinationOfSymbolicLink(atPath: target), existing == source { return }
        if fm.fileExists(atPath: target) || (try? fm.destinationOfSymbolicLink(atPath: target)) != nil {
            try fm.removeItem(atPath: target)
        }
        try fm.createSymbolicLink(atPath: target, withDestinationPath: source)
    }

    static let switchHeader = """
        #ifndef MUTATION_SWITCH_H
        #define MUTATION_SWITCH_H
        #include <stdint.h>
        #include <stdbool.h>

        // The active mutant: 0 runs the original code, a positive ID that mutant, a negative
        // value the original while recording which constructs run (coverage).
        extern int32_t mutation_active_id;
        // One byte per construct, set when the construct runs while coverage is recorded.
        extern uint8_t *mutation_reached_items;
        // One byte per mutant, set when a probe sees the mutant change a value while coverage
        // is recorded (infection analysis).
        extern uint8_t *mutation_infected_items;

        static inline int32_t mutation_active(void) { return mutation_active_id; }
        static inline bool mutation_outside(int32_t lo, int32_t hi) {
            return mutation_active_id < lo || mutation_active_id > hi;
        }
        // Whether a body runs as the original: no mutant of it is active and no coverage is recorded.
        static inline bool mutation_pristine(int32_t lo, int32_t hi) {
            return mutation_active_id >= 0 && (mutation_active_id < lo || mutation_active_id > hi);
        }
        static inline void mutation_reach(int32_t k) {
            if (mutation_active_id < 0) mutation_reached_items[k] = 1;
        }
        // Whether a probe should still compute mutant `id`'s value: coverage is being recorded,
        // the mutant is in (not 0), and not already seen infected in this run.
        static inline bool mutation_unseen(int32_t id) {
            return mutation_active_id < 0 && id > 0 && !mutation_infected_items[id];
        }
        static inline void mutation_infect(int32_t id) { mutation_infected_items[id] = 1; }
        void mutation_set_active(int32_t id);
        void mutation_set_reached(uint8_t *items);
        void mutation_set_infected(uint8_t *items);
        // Ends the calling process (SIGKILL) when its parent ends, however that ends.
        void mutation_end_with_parent(void);
        #endif

        """

    static let switchSource = """
        #include "MutationSwitch.h"
        #include <signal.h>
        #include <unistd.h>
        #ifdef __linux__
        #include <sys/prctl.h>
        #endif

        int32_t mutation_active_id = 0;
        uint8_t *mutation_reached_items = 0;
        uint8_t *mutation_infected_items = 0;

        void mutation_set_active(int32_t id) { mutation_active_id = id; }
        void mutation_set_reached(uint8_t *items) { mutation_reached_items = items; }
        void mutation_set_infected(uint8_t *items) { mutation_infected_items = items; }

        void mutation_end_with_parent(void) {
        #ifdef __linux__
            pid_t parent = getppid();
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            // The parent ended before the request took hold: nothing will ever kill this process.
            if (getppid() != parent) raise(SIGKILL);
        #endif
        }

        """
}

/// Writes `text` unless the file already holds exactly it (keeps its time, so the build
/// does not recompile it).
func writeIfChanged(_ path: String, _ text: String) throws {
    let data = Data(text.utf8)
    if let old = FileManager.default.contents(atPath: path), old == data { return }
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw MutationError.io("\(path): cannot be written: \(error.localizedDescription)")
    }
}
