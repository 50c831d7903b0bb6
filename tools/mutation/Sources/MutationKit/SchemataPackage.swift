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
    /// Result types whose functions' calls the coverage run checks: each call is evaluated
    /// again under every mutant it reached, and a mutant that gave the original's result at
    /// every call that reached it (and ran nowhere else) is not drawn on that case. Listing a
    /// type is the subject's word that a function returning it, with a signature that could
    /// change nothing else (`Finder`'s rule), writes nothing that outlives the call.
    public var checked: [String]
    /// Functions whose calls do nothing but return or throw (validations of their arguments):
    /// the subject's word that removing such a call changes a run only where it throws, so
    /// the coverage run marks the removal where the call throws instead of wherever it runs.
    public var throwOnly: [String]

    public init(root: String, mutate: [String], driverDependencies: [String], driverFolder: String, kitFolder: String,
                notOnDrawingPath: [String: String] = [:], checked: [String] = [], throwOnly: [String] = []) {
        self.root = root
        self.mutate = mutate
        self.driverDependencies = driverDependencies
        self.driverFolder = driverFolder
        self.kitFolder = kitFolder
        self.notOnDrawingPath = notOnDrawingPath
        self.checked = checked
        self.throwOnly = throwOnly
    }

    /// The subject a driver folder describes, on the package at `root`.
    public static func load(root: String, driverFolder: String, kitFolder: String) throws -> Subject {
        struct File: Codable {
            var mutate: [String]
            var driverDependencies: [String]
            var notOnDrawingPath: [String: String]?
            var checked: [String]?
            var throwOnly: [String]?
        }
        let path = driverFolder + "/subject.json"
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw MutationError.io("\(path): cannot be read: \(error.localizedDescription)")
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw MutationError.io("\(path): not a subject description (\"mutate\" and \"driverDependencies\", lists of names; "
                + "\"notOnDrawingPath\", files to why; \"checked\", type names; \"throwOnly\", function names): \(error)")
        }
        for file in (file.notOnDrawingPath ?? [:]).keys.sorted() where !FileManager.default.fileExists(atPath: root + "/" + file) {
            throw MutationError.io("\(path): notOnDrawingPath names \(file), which is not a file under \(root)")
        }
        return Subject(root: root, mutate: file.mutate, driverDependencies: file.driverDependencies,
                       driverFolder: driverFolder, kitFolder: kitFolder, notOnDrawingPath: file.notOnDrawingPath ?? [:],
                       checked: file.checked ?? [], throwOnly: file.throwOnly ?? [])
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

    /// The CPU seconds a check's evaluation of one mutant may take before it is stopped.
    static let checkCPUSeconds = 2
    /// The wall-clock seconds it may take, for one that waits without using CPU.
    static let checkWallSeconds = 5
    /// In how many cases a mutant may change a checked call's result before a driver stops checking it.
    static let checkStrikes = 3

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
        // While coverage is recorded for some mutants alone (the search space, for the survivors
        // it is searched for): per mutant ID, how many watched IDs lie below it; null, every one.
        extern const int32_t *mutation_watched_below;
        // Whether a body runs as the original: no mutant of it is active, and no coverage is
        // recorded or none for a mutant of it.
        static inline bool mutation_pristine(int32_t lo, int32_t hi) {
            if (mutation_active_id >= 0) return mutation_active_id < lo || mutation_active_id > hi;
            return mutation_watched_below != 0 && mutation_watched_below[hi + 1] == mutation_watched_below[lo];
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

        // Checks (coverage runs only): a checked function's call evaluated again under each
        // mutant that call reached, its result compared with the original's (`mutationChecked`).
        extern bool mutation_checks_on;
        extern int32_t mutation_check_depth;
        bool mutation_check_start(void);
        // Whether this call is checked: coverage is recorded, checks are on, and no checked call
        // holds it (the outermost call checks every mutant reached inside it).
        static inline bool mutation_check_begins(void) {
            return mutation_active_id < 0 && mutation_checks_on && mutation_check_depth == 0 && mutation_check_start();
        }
        // After the original's evaluation: how many mutants the call reached, to evaluate it under.
        int32_t mutation_check_candidates(void);
        // Forks a process that evaluates the candidates from `*at` on: true in that process; in
        // this one, false once it has ended, with `*at` past the candidates it finished (and past
        // one that crashed or hung, which is left unchecked from then on).
        bool mutation_check_spawn(int32_t *at);
        void mutation_check_enter(int32_t at);
        void mutation_check_leave(int32_t at, bool same);
        void mutation_check_exit(void);
        void mutation_check_end(void);
        // `kinds`, per mutant ID: -2 never cleared, -1 watched by a probe, else its construct.
        void mutation_check_prepare(const int32_t *kinds, int32_t mutants, int32_t constructs);
        void mutation_set_checks(bool on);
        void mutation_check_reset(void);
        void mutation_check_finish(uint8_t *cleared);
        int64_t mutation_check_evaluations(void);
        int64_t mutation_check_nanoseconds(void);
        void mutation_set_reached(uint8_t *items);
        void mutation_set_infected(uint8_t *items);
        void mutation_set_watched(const int32_t *below);
        // Ends the calling process (SIGKILL) when its parent ends, however that ends.
        void mutation_end_with_parent(void);
        #endif

        """

    static let switchSource = """
        #include "MutationSwitch.h"
        #include <signal.h>
        #include <unistd.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        #include <sys/time.h>
        #include <sys/mman.h>
        #include <sys/wait.h>
        #include <errno.h>
        #ifdef __linux__
        #include <sys/prctl.h>
        #endif

        int32_t mutation_active_id = 0;
        uint8_t *mutation_reached_items = 0;
        uint8_t *mutation_infected_items = 0;

        void mutation_set_active(int32_t id) { mutation_active_id = id; }
        void mutation_set_reached(uint8_t *items) { mutation_reached_items = items; }
        void mutation_set_infected(uint8_t *items) { mutation_infected_items = items; }
        const int32_t *mutation_watched_below = 0;
        void mutation_set_watched(const int32_t *below) { mutation_watched_below = below; }

        bool mutation_checks_on = false;
        int32_t mutation_check_depth = 0;
        static const int32_t *check_kinds = 0;
        static int32_t check_mutants = 0, check_constructs = 0;
        // Reached and infected as they were when the outermost checked call began; what calls
        // reached and infected (put back in at the case's end); per mutant, a check found its
        // result the original's, or not.
        static uint8_t *before_reached = 0, *before_infected = 0, *inside_reached = 0, *inside_infected = 0;
        static uint8_t *check_same = 0, *check_differs = 0;
        static int32_t *check_queue = 0;
        static int32_t check_queued = 0;
        static int64_t check_count = 0, check_nanoseconds = 0;
        static struct timespec check_clock;
        // Shared with the processes that evaluate the candidates (and, for `excluded` and
        // `differed`, with every later case's): each candidate's result (1 the same, 2 not), the
        // one being evaluated, the mutants never evaluated again, and in how many cases a check
        // found each one's result changed. A mutant that crashed or hung in a check, or changed a
        // result in three cases, is not evaluated again: the first judging will see it crash or
        // hang, and one that changes results is killed by its first few cases, if at all, and no
        // check clears a case it changes.
        static volatile uint8_t *shared_results = 0, *shared_excluded = 0, *shared_differed = 0;
        static volatile int32_t *shared_progress = 0;

        static void *shared(size_t size) {
            void *p = mmap(0, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
            return p == MAP_FAILED ? 0 : p;
        }

        void mutation_check_prepare(const int32_t *kinds, int32_t mutants, int32_t constructs) {
            check_kinds = kinds;
            check_mutants = mutants;
            check_constructs = constructs;
            before_reached = calloc(constructs, 1);
            inside_reached = calloc(constructs, 1);
            before_infected = calloc(mutants, 1);
            inside_infected = calloc(mutants, 1);
            check_same = calloc(mutants, 1);
            check_differs = calloc(mutants, 1);
            check_queue = calloc(mutants, sizeof(int32_t));
            shared_results = shared(mutants);
            shared_excluded = shared(mutants);
            shared_differed = shared(mutants);
            shared_progress = shared(sizeof(int32_t));
        }

        void mutation_set_checks(bool on) {
            mutation_checks_on = on && shared_results && shared_excluded && shared_differed && shared_progress;
        }

        void mutation_check_reset(void) {
            memset(inside_reached, 0, check_constructs);
            memset(inside_infected, 0, check_mutants);
            memset(check_same, 0, check_mutants);
            memset(check_differs, 0, check_mutants);
            mutation_check_depth = 0;
            check_count = 0;
            check_nanoseconds = 0;
        }

        bool mutation_check_start(void) {
            memcpy(before_reached, mutation_reached_items, check_constructs);
            memcpy(before_infected, mutation_infected_items, check_mutants);
            mutation_check_depth = 1;
            return true;
        }

        static int64_t since(const struct timespec *start) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            return (int64_t)(now.tv_sec - start->tv_sec) * 1000000000 + (now.tv_nsec - start->tv_nsec);
        }

        int32_t mutation_check_candidates(void) {
            // The original has run: the mutants this call reached (a probe's, where it saw the
            // value change; any other, where its construct ran) are evaluated; what the call
            // marked is set aside, so marks left at the case's end are those outside checks.
            clock_gettime(CLOCK_MONOTONIC, &check_clock);
            check_queued = 0;
            for (int32_t m = 1; m < check_mutants; m++) {
                int32_t kind = check_kinds[m];
                bool hit = kind == -1 ? mutation_infected_items[m] && !before_infected[m]
                    : kind >= 0 && mutation_reached_items[kind] && !before_reached[kind];
                if (!hit || check_differs[m]) continue;
                if (shared_excluded[m]) check_differs[m] = 1; else check_queue[check_queued++] = m;
            }
            for (int32_t k = 0; k < check_constructs; k++) {
                if (mutation_reached_items[k] && !before_reached[k]) inside_reached[k] = 1;
            }
            for (int32_t m = 0; m < check_mutants; m++) {
                if (mutation_infected_items[m] && !before_infected[m]) inside_infected[m] = 1;
            }
            memcpy(mutation_reached_items, before_reached, check_constructs);
            memcpy(mutation_infected_items, before_infected, check_mutants);
            memset((void *)shared_results, 0, check_queued);
            return check_queued;
        }

        bool mutation_check_spawn(int32_t *at) {
            *shared_progress = *at;
            pid_t child = fork();
            if (child == 0) {
                // The limits of `mutation_check_enter` end this process as they come: started by
                // one that blocks them (a test runner), it would otherwise hold them off for ever.
                sigset_t limits;
                sigemptyset(&limits);
                sigaddset(&limits, SIGPROF);
                sigaddset(&limits, SIGALRM);
                signal(SIGPROF, SIG_DFL);
                signal(SIGALRM, SIG_DFL);
                sigprocmask(SIG_UNBLOCK, &limits, 0);
                return true;
            }
            int status = 0;
            if (child > 0) {
                while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
            }
            if (child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                *at = check_queued;
                return false;
            }
            // The candidate being evaluated crashed or hung (or no process could be made: the
            // candidate it would have started with is left unchecked).
            int32_t stopped = *shared_progress;
            if (stopped >= 0 && stopped < check_queued) {
                shared_excluded[check_queue[stopped]] = 1;
                shared_results[stopped] = 2;
            }
            *at = stopped + 1;
            return false;
        }

        void mutation_check_enter(int32_t at) {
            *shared_progress = at;
            // A mutant that hangs here is stopped by the kernel (SIGPROF ends the process): two
            // seconds of CPU, far beyond any one call of the original. One that waits without
            // using any (the checking allocator, finding the heap spoilt inside malloc, asserts,
            // and the assertion's message waits forever on the lock malloc holds) is stopped by
            // the clock (SIGALRM).
            struct itimerval limit = {{0, 0}, {\(checkCPUSeconds), 0}};
            setitimer(ITIMER_PROF, &limit, 0);
            struct itimerval wall = {{0, 0}, {\(checkWallSeconds), 0}};
            setitimer(ITIMER_REAL, &wall, 0);
            mutation_active_id = check_queue[at];
        }

        void mutation_check_leave(int32_t at, bool same) {
            mutation_active_id = -1;
            shared_results[at] = same ? 1 : 2;
        }

        void mutation_check_exit(void) { _exit(0); }

        void mutation_check_end(void) {
            for (int32_t i = 0; i < check_queued; i++) {
                int32_t id = check_queue[i];
                if (shared_results[i] == 1) check_same[id] = 1; else check_differs[id] = 1;
            }
            check_count += check_queued;
            check_nanoseconds += since(&check_clock);
            mutation_check_depth = 0;
        }

        void mutation_check_finish(uint8_t *cleared) {
            for (int32_t m = 1; m < check_mutants; m++) {
                if (check_differs[m] && !shared_excluded[m] && ++shared_differed[m] >= \(checkStrikes)) shared_excluded[m] = 1;
            }
            for (int32_t m = 0; m < check_mutants; m++) {
                int32_t kind = m == 0 ? -2 : check_kinds[m];
                bool outside = kind == -1 ? mutation_infected_items[m] : kind >= 0 ? mutation_reached_items[kind] : true;
                cleared[m] = check_same[m] && !check_differs[m] && !outside;
            }
            for (int32_t k = 0; k < check_constructs; k++) mutation_reached_items[k] |= inside_reached[k];
            for (int32_t m = 0; m < check_mutants; m++) mutation_infected_items[m] |= inside_infected[m];
        }

        int64_t mutation_check_evaluations(void) { return check_count; }
        int64_t mutation_check_nanoseconds(void) { return check_nanoseconds; }

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
