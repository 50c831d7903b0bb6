// swift-tools-version:6.0
import PackageDescription

// Layers, each knowing only what it needs. An arrow reads "is used by":
//
//   PopoverGeometry ────────────────────┐
//   PopoverImage ──┬──> PopoverRaster ──┼──> PopoverSkins ──┐
//                  ├──> PopoverFiles ───┘                   ├──> PopoverHarness ──> PopoverReport ──> PopoverReview
//                  └──> PopoverDiff ────────────────────────┘
//
//   PopoverGeometry  placement, image choice, stretch plans, shadow rectangles; no pixels
//   PopoverImage     straight RGBA buffers and digests (libcrypto's SHA-256, libxxhash's XXH64); no I/O
//   PopoverRaster    paths, coverage, paints, strokes, shadows; no popovers, no PNG
//   PopoverFiles     PNG files (libspng to decode, libdeflate to encode), atomic writes, publishing a folder
//   PopoverDiff      two images and a tolerance in, metrics and a diff map out
//   PopoverSkins     geometry + raster: the skins and skin folders
//   PopoverHarness   cases, goldens, the digest cache, tolerance policy, check runs, shards; no report
//   PopoverReport    a finished run -> index.html, summary.json, junit.xml, summary.md, triptychs; staging and publishing
//   PopoverReview    accepting goldens: from the command line, approvals, a loopback server
// A layer may also use any layer below the ones it sits on (the harness reads PNG files
// and geometry directly); LayerTests holds the sources to this picture. Beside them:
// PopoverBench, the measurements behind docs/performance.md, and popover-goldens, the
// command-line tool, a thin layer over all of them.
let package = Package(
    name: "PopoverGoldens",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "popover-goldens", targets: ["popover-goldens"]),
        .library(name: "PopoverGeometry", targets: ["PopoverGeometry"]),
        .library(name: "PopoverImage", targets: ["PopoverImage"]),
        .library(name: "PopoverFiles", targets: ["PopoverFiles"]),
        .library(name: "PopoverRaster", targets: ["PopoverRaster"]),
        .library(name: "PopoverSkins", targets: ["PopoverSkins"]),
        .library(name: "PopoverDiff", targets: ["PopoverDiff"]),
        .library(name: "PopoverHarness", targets: ["PopoverHarness"]),
        .library(name: "PopoverReport", targets: ["PopoverReport"]),
        .library(name: "PopoverReview", targets: ["PopoverReview"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The review server's HTTP: small, on BSD sockets, no SwiftNIO to build.
        .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
    ],
    targets: [
        .systemLibrary(name: "CLibSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        .target(name: "PopoverGeometry"),
        .target(name: "PopoverImage", dependencies: ["CLibCrypto", "CLibXXHash"]),
        .target(name: "PopoverFiles", dependencies: ["PopoverImage", "CLibSPNG", "CLibDeflate"]),
        .target(name: "PopoverRaster", dependencies: ["PopoverImage"]),
        .target(
            name: "PopoverSkins",
            dependencies: ["PopoverGeometry", "PopoverRaster", "PopoverImage", "PopoverFiles"],
            resources: [.copy("Artwork"), .embedInCode("Resources/seven-image-outlines.json")]
        ),
        .target(name: "PopoverDiff", dependencies: ["PopoverImage"]),
        .target(
            name: "PopoverHarness",
            dependencies: ["PopoverGeometry", "PopoverImage", "PopoverFiles", "PopoverRaster", "PopoverSkins", "PopoverDiff"]
        ),
        .target(
            name: "PopoverReport",
            dependencies: ["PopoverHarness", "PopoverDiff", "PopoverImage", "PopoverFiles", "PopoverGeometry", "PopoverRaster"],
            resources: [
                .embedInCode("Assets/report.css"), .embedInCode("Assets/report-core.js"),
                .embedInCode("Assets/report-viewer.js"), .embedInCode("Assets/report-lists.js"),
                .embedInCode("Assets/report-review.js"), .embedInCode("Assets/report-focus.js"),
                .embedInCode("Assets/report-navigation.js"),
            ]
        ),
        .target(
            name: "PopoverReview",
            dependencies: ["PopoverHarness", "PopoverReport", "PopoverFiles", "PopoverSkins", "PopoverGeometry",
                           .product(name: "FlyingFox", package: "FlyingFox"),
                           .product(name: "FlyingSocks", package: "FlyingFox")]
        ),
        .target(
            name: "PopoverBench",
            dependencies: ["PopoverHarness", "PopoverSkins", "PopoverRaster", "PopoverDiff", "PopoverImage", "PopoverFiles"]
        ),
        .executableTarget(
            name: "popover-goldens",
            dependencies: [
                "PopoverHarness", "PopoverReport", "PopoverReview", "PopoverBench", "PopoverSkins", "PopoverGeometry", "PopoverImage",
                "PopoverFiles", "PopoverDiff", "PopoverRaster",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets: scripts/fuzz builds them with libFuzzer; a plain build makes replayers.
        .target(name: "FuzzDriver", dependencies: ["PopoverFiles"]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzDriver", "PopoverImage", "PopoverFiles"]),
        .executableTarget(name: "FuzzLayout", dependencies: ["FuzzDriver", "PopoverGeometry", "PopoverImage", "PopoverSkins"]),
        // Tests: one target per layer, plus the command line as a process and the golden
        // suite itself. TestSupport holds what several of them share.
        .target(
            name: "TestSupport",
            dependencies: ["PopoverGeometry", "PopoverImage", "PopoverFiles", "PopoverRaster", "PopoverSkins", "PopoverDiff",
                           "PopoverHarness"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "GeometryTests", dependencies: ["PopoverGeometry", "TestSupport"]),
        .testTarget(name: "ImageTests", dependencies: ["PopoverImage"]),
        .testTarget(name: "FileTests", dependencies: ["PopoverImage", "PopoverFiles", "CLibDeflate", "TestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["PopoverRaster", "PopoverImage", "TestSupport"]),
        .testTarget(name: "SkinTests", dependencies: ["PopoverSkins", "PopoverGeometry", "PopoverRaster", "PopoverImage", "PopoverFiles", "TestSupport"]),
        .testTarget(name: "DiffTests", dependencies: ["PopoverDiff", "PopoverImage", "TestSupport"]),
        .testTarget(
            name: "HarnessTests",
            dependencies: ["PopoverHarness", "PopoverSkins", "PopoverGeometry", "PopoverDiff", "PopoverImage", "PopoverFiles",
                           "PopoverRaster", "PopoverBench", "TestSupport"]
        ),
        .testTarget(
            name: "ReportTests",
            dependencies: ["PopoverHarness", "PopoverReport", "PopoverDiff", "PopoverImage", "PopoverFiles", "PopoverGeometry",
                           "TestSupport"]
        ),
        .testTarget(
            name: "ReviewTests",
            dependencies: ["PopoverReview", "PopoverHarness", "PopoverReport", "PopoverFiles", "PopoverImage", "TestSupport",
                           .product(name: "FlyingFox", package: "FlyingFox")]
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["PopoverHarness", "PopoverImage", "PopoverFiles", "PopoverSkins", "TestSupport"]
        ),
        .testTarget(
            name: "GoldenTests",
            dependencies: ["PopoverHarness", "PopoverReport", "PopoverSkins", "PopoverRaster", "PopoverGeometry", "PopoverImage",
                           "PopoverFiles", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Test targets whose own code does little work at run time are compiled unoptimised: it
// saves a sixth of .ci/run's build and costs their run nothing measurable (the drawing
// and decoding they call are the optimised library's). The golden suite, the raster,
// harness and report tests and TestSupport stay optimised: their own loops are slow
// without (docs/performance.md, "The test suite").
let lightTests: Set = ["CommandLineTests", "GeometryTests", "FileTests", "DiffTests", "ReviewTests", "SkinTests", "ImageTests"]
for target in package.targets where lightTests.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}
