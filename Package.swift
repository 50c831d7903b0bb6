// swift-tools-version:6.0
import PackageDescription

// Layers, each knowing only what it needs:
//   PopoverGeometry  placement, image choice and stretch plans; no pixels
//   PopoverImage     straight RGBA images and PNG files (libpng through a C shim)
//   PopoverRaster    paths, coverage, paints, blend modes, images, shadows; no popovers
//   PopoverSkins     geometry + raster: whole popover backgrounds
//   PopoverDiff      pixel comparison, tolerances, heatmaps
//   PopoverHarness   golden cases, golden files, record modes, check runs, reports
//   popover-goldens  the command-line tool, a thin layer over the harness
let package = Package(
    name: "PopoverGoldens",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "popover-goldens", targets: ["popover-goldens"]),
        .library(name: "PopoverGeometry", targets: ["PopoverGeometry"]),
        .library(name: "PopoverImage", targets: ["PopoverImage"]),
        .library(name: "PopoverRaster", targets: ["PopoverRaster"]),
        .library(name: "PopoverSkins", targets: ["PopoverSkins"]),
        .library(name: "PopoverDiff", targets: ["PopoverDiff"]),
        .library(name: "PopoverHarness", targets: ["PopoverHarness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // HTML built as typed nodes, so every string that enters the report is escaped.
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(name: "CPNGShim", dependencies: ["CLibPNG"]),
        .target(name: "PopoverImage", dependencies: ["CPNGShim"]),
        .target(name: "PopoverGeometry"),
        .target(name: "PopoverRaster", dependencies: ["PopoverImage"]),
        .target(
            name: "PopoverSkins",
            dependencies: ["PopoverGeometry", "PopoverRaster", "PopoverImage"],
            resources: [.copy("Artwork")]
        ),
        .target(name: "PopoverDiff", dependencies: ["PopoverImage"]),
        .target(
            name: "PopoverHarness",
            dependencies: [
                "PopoverGeometry", "PopoverImage", "PopoverRaster", "PopoverSkins", "PopoverDiff",
                .product(name: "Plot", package: "Plot"),
            ]
        ),
        .executableTarget(
            name: "popover-goldens",
            dependencies: [
                "PopoverHarness", "PopoverSkins", "PopoverGeometry", "PopoverImage", "PopoverDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets: scripts/fuzz builds them with libFuzzer; a plain build makes replayers.
        .executableTarget(name: "FuzzPNG", dependencies: ["PopoverImage"]),
        .executableTarget(name: "FuzzLayout", dependencies: ["PopoverGeometry", "PopoverImage", "PopoverSkins"]),
        .testTarget(name: "GeometryTests", dependencies: ["PopoverGeometry"]),
        .testTarget(name: "ImageTests", dependencies: ["PopoverImage"]),
        .testTarget(name: "RasterTests", dependencies: ["PopoverRaster", "PopoverImage"]),
        .testTarget(name: "SkinTests", dependencies: ["PopoverSkins", "PopoverGeometry", "PopoverRaster", "PopoverImage"]),
        .testTarget(name: "DiffTests", dependencies: ["PopoverDiff", "PopoverImage"]),
        .testTarget(
            name: "HarnessTests",
            dependencies: ["PopoverHarness", "PopoverSkins", "PopoverGeometry", "PopoverDiff", "PopoverImage", "PopoverRaster"]
        ),
        .testTarget(name: "ReportTests", dependencies: ["PopoverHarness", "PopoverDiff", "PopoverImage", "PopoverGeometry"]),
        .testTarget(name: "GoldenTests", dependencies: ["PopoverHarness"]),
    ],
    swiftLanguageModes: [.v6]
)
