// swift-tools-version:6.0
import PackageDescription

// The mutation analysis of the drawing code (docs/sensitivity.md). A package of its own so
// that nothing of it (swift-syntax above all) enters the popover-goldens product's build.
//
//   MutationKit      finds mutation points (swift-syntax), writes the schemata copy, builds
//                    it, runs driver processes, judges, classifies and reports
//   popover-mutants  the command (tools/mutation/run)
//
// The driver that draws and judges cases is not a target here: its sources (Driver/) are
// compiled into the schemata copy of the package under analysis, against its mutated
// modules; see SchemataPackage.swift.
let package = Package(
    name: "PopoverMutation",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "popover-mutants", targets: ["popover-mutants"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "MutationKit",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "popover-mutants",
            dependencies: ["MutationKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "MutationKitTests", dependencies: ["MutationKit"]),
    ],
    swiftLanguageModes: [.v6]
)
