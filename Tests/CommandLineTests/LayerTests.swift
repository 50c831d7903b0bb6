import Foundation
import Testing
import TestSupport

/// The module picture at the top of Package.swift, held against the sources: each
/// module imports only the project modules the picture puts below it, and the core (the
/// modules that compute) does no file I/O. SwiftPM lets a module import anything its
/// dependencies import, so without this test a layer could quietly reach past the one
/// beneath it.
@Suite("Module boundaries")
struct LayerTests {
    /// The picture, written out: which project modules each may import.
    static let allowed: [String: Set<String>] = [
        "PopoverGeometry": [],
        "PopoverImage": [],
        "PopoverRaster": ["PopoverImage"],
        "PopoverFiles": ["PopoverImage"],
        "PopoverDiff": ["PopoverImage"],
        "PopoverSkins": ["PopoverGeometry", "PopoverImage", "PopoverRaster", "PopoverFiles"],
        "PopoverHarness": ["PopoverGeometry", "PopoverImage", "PopoverRaster", "PopoverFiles", "PopoverDiff", "PopoverSkins"],
        "PopoverReport": ["PopoverGeometry", "PopoverImage", "PopoverRaster", "PopoverFiles", "PopoverDiff", "PopoverSkins",
                          "PopoverHarness"],
        "PopoverReview": ["PopoverGeometry", "PopoverImage", "PopoverRaster", "PopoverFiles", "PopoverDiff", "PopoverSkins",
                          "PopoverHarness", "PopoverReport"],
    ]

    /// Modules that compute and never touch files: geometry, pixels, drawing, comparing.
    static let core = ["PopoverGeometry", "PopoverImage", "PopoverRaster", "PopoverDiff"]

    static func swiftFiles(of module: String) -> [String] {
        let folder = PackageFolders.root + "/Sources/" + module
        return (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
    }

    static func imports(in file: String) throws -> [String] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") }), i + 1 < words.count else {
                return nil
            }
            return String(words[i + 1])
        }
    }

    @Test("each module imports only the project modules below it in the picture", arguments: allowed.keys.sorted())
    func importsFollowThePicture(_ module: String) throws {
        let files = Self.swiftFiles(of: module)
        #expect(!files.isEmpty, "\(module) has no sources")
        let project = Set(Self.allowed.keys)
        for file in files {
            for imported in try Self.imports(in: file) where project.contains(imported) || imported.hasPrefix("Popover") {
                #expect(Self.allowed[module]!.contains(imported),
                        "\(file.dropFirst(PackageFolders.root.count + 1)) imports \(imported), which the picture puts beside or above \(module)")
            }
        }
    }

    @Test("the core does no file I/O", arguments: core)
    func coreHasNoIO(_ module: String) throws {
        let fileAPIs = ["FileManager", "FileIO", "FileHandle", "fopen(", "contentsOfFile", "Data(contentsOf", "import PopoverFiles"]
        for file in Self.swiftFiles(of: module) {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for api in fileAPIs {
                #expect(!text.contains(api), "\(file.dropFirst(PackageFolders.root.count + 1)) uses \(api)")
            }
        }
    }

    @Test("Package.swift's picture names every library module, and every module in Sources is in it")
    func pictureIsComplete() throws {
        let manifest = try String(contentsOfFile: PackageFolders.root + "/Package.swift", encoding: .utf8)
        // The picture is the comment above `let package`.
        let picture = manifest.split(separator: "\n").prefix { !$0.hasPrefix("let package") }.joined(separator: "\n")
        let modules = try FileManager.default.contentsOfDirectory(atPath: PackageFolders.root + "/Sources")
            .filter { $0.hasPrefix("Popover") }
        #expect(Set(modules) == Set(Self.allowed.keys).union(["PopoverBench"]), "modules beyond this test's table: \(modules)")
        for module in modules {
            #expect(picture.contains(module), "Package.swift's picture does not name \(module)")
        }
    }
}
