#if os(Linux)
import Foundation
import Glibc
import Testing
import TestSupport

/// Goldens recorded on one platform pass on another: the committed goldens are checked
/// by a tool whose libm answers differently from glibc's, as another platform's would.
/// The stand-in libm (.fixtures/perturbed-libm.c) is compiled here and loaded into the
/// tool with LD_PRELOAD; every transcendental function it answers comes back 1 to 4 ulps
/// away from glibc's answer.
@Suite("Renders do not depend on libm's last bits",
       .enabled(if: PerturbedLibm.compilerAvailable || runningOnCI,
                "no C compiler (cc) to build the stand-in libm with; CI must have one"))
struct PortableRenderTests {
    @Test("every committed golden passes, pixel for pixel, with a libm that answers 1-4 ulps from glibc's")
    func goldensPassUnderPerturbedLibm() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let shim = try await PerturbedLibm.build(in: folder)
        let changedFile = folder.file("changed-answers.txt")
        let run = try await runTool(["check", "--goldens", PackageFolders.goldens, "--skins", PackageFolders.skins,
                               "--reports", folder.file("reports"), "--no-cache", "--record", "never",
                               "--max-channel-delta", "0", "--different-pixels", "0"],
                              in: folder.path,
                              environment: ["LD_PRELOAD": shim, "PERTURBED_LIBM_REPORT": changedFile])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")

        // Every committed golden is a case, and every case matched its golden exactly.
        let committed = files(under: PackageFolders.goldens, endingWith: ".png").count
        #expect(committed >= 2498, "the goldens folder holds only \(committed) goldens")
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("reports/summary.json")))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let counts = try #require(summary["counts"] as? [String: Int])
        #expect(counts["total"] == committed && counts["passed"] == committed, "\(counts)")
        let notPassing = counts.filter { $0.key != "total" && $0.key != "passed" && $0.value != 0 }
        #expect(notPassing.isEmpty, "\(counts)")
        let cases = try #require(summary["cases"] as? [[String: Any]])
        let differing = cases.filter { ($0["metrics"] as? [String: Any])?["differentPixels"] as? Int != 0 }
            .compactMap { $0["id"] as? String }
        #expect(cases.count == committed && differing.isEmpty, "cases with pixels unlike their golden: \(differing.prefix(5))")

        // The stand-in was loaded into the tool and changed answers the renderer used:
        // the arcs of the seven-image outlines (atan2, tan, sin) and the rounded corners
        // of the path-drawn skin, every one of whose cases draws arcs (tan).
        let changed = try PerturbedLibm.changedAnswers(changedFile)
        for function in ["atan2", "tan", "sin"] {
            #expect(changed[function, default: 0] > 0, "no \(function) answer was changed: \(changed)")
        }
        let pathDrawn = files(under: PackageFolders.goldens + "/path-slate", endingWith: ".png").count
        #expect(pathDrawn > 0 && changed["tan", default: 0] >= pathDrawn, "\(changed); \(pathDrawn) path-drawn cases")
    }

    @Test("the stand-in libm answers 1 to 4 ulps from glibc's, the same each time, inside the function's range")
    func standInAnswersDiffer() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let shim = try await PerturbedLibm.build(in: folder)
        // Loaded locally: the test's own calls still reach glibc; the handle's reach the stand-in.
        guard let handle = dlopen(shim, RTLD_NOW | RTLD_LOCAL) else {
            Issue.record("cannot load \(shim): \(dlerror().map { String(cString: $0) } ?? "no reason given")")
            return
        }
        defer { dlclose(handle) }
        typealias One = @convention(c) (Double) -> Double
        func standIn(_ name: String) throws -> One {
            unsafeBitCast(try #require(dlsym(handle, name), "the stand-in has no \(name)"), to: One.self)
        }
        // The functions the tool takes from libm that are not exact in IEEE 754, each at
        // arguments in its domain (including the quarter and eighth turns arcs use).
        let angles = [0.5, 1e-3, Double.pi / 8, Double.pi / 4, Double.pi / 2, 2.5, -0.3, 7]
        let positive = [0.5, 1e-3, 2.5, 7, 255, 1e300]
        let any = -Double.infinity...Double.infinity
        let table: [(name: String, glibc: (Double) -> Double, arguments: [Double], range: ClosedRange<Double>)] = [
            ("sin", { Glibc.sin($0) }, angles, -1...1), ("cos", { Glibc.cos($0) }, angles, -1...1),
            ("tan", { Glibc.tan($0) }, angles, any), ("erf", { Glibc.erf($0) }, angles, -1...1),
            ("acos", { Glibc.acos($0) }, [0.5, 1e-3, -0.3, 0.999, 1], 0...Double.pi),
            ("log2", { Glibc.log2($0) }, positive, any), ("log10", { Glibc.log10($0) }, positive, any),
        ]
        for (name, glibc, arguments, range) in table {
            let moving = try standIn(name)
            for x in arguments {
                let moved = moving(x), real = glibc(x)
                let distance = ulpDistance(moved, real)
                #expect((1...4).contains(distance), "\(name)(\(x)): \(moved) is \(distance) ulps from glibc's \(real)")
                #expect(range.contains(moved), "\(name)(\(x)) = \(moved), outside \(range)")
                #expect(moving(x).bitPattern == moved.bitPattern, "\(name)(\(x)) answered twice differently")
            }
        }
        typealias Two = @convention(c) (Double, Double) -> Double
        let atan2 = unsafeBitCast(try #require(dlsym(handle, "atan2"), "the stand-in has no atan2"), to: Two.self)
        for (y, x) in [(1.0, 0.0), (0.3, 0.7), (-2.0, -5.0), (1e-9, 1.0), (7, -7)] {
            let distance = ulpDistance(atan2(y, x), Glibc.atan2(y, x))
            #expect((1...4).contains(distance), "atan2(\(y), \(x)) is \(distance) ulps from glibc's")
        }
        // Answers at the edge of a range move inwards: cos(0) = 1 becomes a little less.
        let cosine = try standIn("cos")(0)
        #expect(cosine < 1 && cosine >= 1 - 4 * Double.ulpOfOne / 2, "cos(0) = \(cosine)")
    }

    @Test("every libm function the tool imports is either exact in IEEE 754 or answered by the stand-in",
          .enabled(if: isInstalled("nm") || runningOnCI, "nm (binutils) is not installed"))
    func standInCoversTheToolsLibm() async throws {
        try #require(isInstalled("nm"), "nm (binutils) is not installed: CI must have it")
        let tool = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests")
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let shim = try await PerturbedLibm.build(in: folder)
        let libm = try await PerturbedLibm.systemLibm()
        let imported = try await dynamicSymbols(tool, defined: false)
        let fromLibm = await imported.intersection(try dynamicSymbols(libm, defined: true))
        let answered = try await dynamicSymbols(shim, defined: true)
        let uncovered = fromLibm.subtracting(answered).subtracting(PerturbedLibm.exactInIEEE754).sorted()
        #expect(uncovered.isEmpty, "the tool takes these from libm, and the stand-in does not move them: \(uncovered)")
        // The tool does use libm, in both kinds (else the check proves little).
        #expect(!fromLibm.intersection(answered).isEmpty && !fromLibm.intersection(PerturbedLibm.exactInIEEE754).isEmpty,
                "\(fromLibm.sorted())")
    }
}

/// The stand-in libm: its source, how it is built and what it reports.
enum PerturbedLibm {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/.fixtures/perturbed-libm.c"

    static var compilerAvailable: Bool { isInstalled("cc") }

    /// Compiles the stand-in into `folder`; returns the shared library's path.
    static func build(in folder: TemporaryFolder) async throws -> String {
        try #require(compilerAvailable, "no C compiler (cc) on the PATH to build \(source) with")
        let library = folder.file("perturbed-libm.so")
        let built = try await runProgram("/usr/bin/env", ["cc", "-shared", "-fPIC", "-O2", source, "-o", library, "-ldl", "-lm"])
        try #require(built.status == 0, "cc could not build \(source): \(built.stderr)")
        return library
    }

    /// The counts the stand-in writes at exit: answers changed, by function.
    static func changedAnswers(_ path: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            try #require(fields.count == 2, "\(path): not 'name count': \(line)")
            counts[String(fields[0])] = try #require(Int(String(fields[1])) as Int?, "\(path): not a count: \(line)")
        }
        return counts
    }

    /// The functions IEEE 754 defines exactly (correctly rounded, or exact), so every
    /// conforming libm gives the same bits: moving them would model no platform.
    static let exactInIEEE754: Set<String> = {
        let names = ["sqrt", "fma", "floor", "ceil", "round", "trunc", "rint", "nearbyint", "lrint", "llrint",
                     "lround", "llround", "roundeven", "fmod", "remainder", "remquo", "fabs", "copysign", "fmin", "fmax",
                     "fdim", "ldexp", "scalbn", "scalbln", "frexp", "modf", "logb", "ilogb", "nextafter", "nexttoward"]
        return Set(names + names.map { $0 + "f" })
    }()

    /// The file of the system's libm, glibc's, as the compiler finds it.
    static func systemLibm() async throws -> String {
        let found = try await runProgram("/usr/bin/env", ["cc", "-print-file-name=libm.so.6"])
        let path = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(found.status == 0 && path.hasPrefix("/"), "cc -print-file-name=libm.so.6 found no libm: \(found.stdout) \(found.stderr)")
        return path
    }
}

/// The dynamic symbols a binary defines, or those it takes from elsewhere, without
/// their version suffixes (`sin@GLIBC_2.2.5` is `sin`).
private func dynamicSymbols(_ binary: String, defined: Bool) async throws -> Set<String> {
    let listed = try await runProgram("/usr/bin/env", ["nm", "-D", defined ? "--defined-only" : "--undefined-only", binary])
    try #require(listed.status == 0, "nm -D \(binary): \(listed.stderr)")
    return Set(listed.stdout.split(separator: "\n").compactMap { line in
        line.split(separator: " ").last.map { String($0.prefix { $0 != "@" }) }
    })
}

/// How many representable doubles lie between `a` and `b` (same sign, both finite).
private func ulpDistance(_ a: Double, _ b: Double) -> Int {
    let x = Int64(bitPattern: a.bitPattern), y = Int64(bitPattern: b.bitPattern)
    return Int((x - y).magnitude)
}
#endif
