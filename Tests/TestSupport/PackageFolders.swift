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

    /// Where tests keep reports worth looking at after a run (ignored by git).
    public static let testReports = root + "/.build/test-reports"
}

/// Whether this run is CI's (`CI` set to anything but empty, 0 or false): there a test
/// that needs a tool (Chromium, ImageMagick) fails when the tool is missing rather than
/// being skipped.
public let runningOnCI: Bool = {
    guard let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty else { return false }
    return ci != "0" && ci.lowercased() != "false"
}()
