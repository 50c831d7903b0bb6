import Foundation

/// The package's own folders, found from this file's path (Tests/TestSupport/...), so
/// tests need no resource declarations and run the same in debug and release builds.
public enum PackageFolders {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The committed goldens.
    public static let goldens = root + "/Goldens"

    /// The skin folders.
    public static let skins = root + "/Skins"

    /// Where the test suite writes what is worth looking at after a run (the golden
    /// suite's report, the fault injection's): outside the repository, which the suite
    /// leaves as it found it, in a folder of the system's temporary folder named after this
    /// checkout (`/tmp/popover-goldens-work-repo/` for `/work/repo`), so two checkouts never
    /// share one.
    public static let scratch = NSTemporaryDirectory() + "popover-goldens" + root.replacingOccurrences(of: "/", with: "-")

    /// Reports of tests worth looking at after a run.
    public static let testReports = scratch + "/test-reports"
}

/// Whether this run is CI's (`CI` set to anything but empty, 0 or false): there a test
/// that needs a tool (Chromium, ImageMagick) fails when the tool is missing rather than
/// being skipped.
public let runningOnCI: Bool = {
    guard let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty else { return false }
    return ci != "0" && ci.lowercased() != "false"
}()
