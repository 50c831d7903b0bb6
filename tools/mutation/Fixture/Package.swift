// swift-tools-version:6.0
import PackageDescription

// The mutation tool's test fixture: one tiny module to mutate (Shapes), its "goldens"
// (Goldens/*.txt, one number each) and its driver (Driver/). The tool's tests build its
// schemata copy in debug; nothing here is part of popover-goldens.
let package = Package(
    name: "MutationFixture",
    targets: [
        .target(name: "Shapes"),
    ],
    swiftLanguageModes: [.v6]
)
