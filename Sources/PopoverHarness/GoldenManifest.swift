import Foundation
import PopoverImage

/// `Goldens/digests.json`: for each golden, a digest of its file's bytes and of its
/// decoded pixels.
///
/// It lets a check confirm an unchanged case without decoding the golden: the golden's
/// bytes are hashed (cheap) and, when they match the recorded file digest, the recorded
/// pixel digest stands for the golden's pixels. A golden edited by hand no longer
/// matches its file digest and is decoded and compared in full, so a stale manifest can
/// only cost time, never a wrong verdict.
public struct GoldenManifest: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var file: String
        public var pixels: String
        public var width: Int
        public var height: Int

        public init(file: String, pixels: String, width: Int, height: Int) {
            self.file = file
            self.pixels = pixels
            self.width = width
            self.height = height
        }
    }

    public var format = 1
    public var goldens: [String: Entry] = [:]

    public init() {}

    public static let fileName = "digests.json"

    /// Reads the manifest; a missing or unreadable one is empty (everything decodes).
    public static func load(from folder: String) -> GoldenManifest {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName),
              let manifest = try? JSONDecoder().decode(GoldenManifest.self, from: data), manifest.format == 1 else {
            return GoldenManifest()
        }
        return manifest
    }

    public func save(to folder: String) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = (try? encoder.encode(self)) ?? Data()
        try FileIO.writeAtomically([UInt8](data) + [10], to: folder + "/" + Self.fileName)
    }

    static func digest(_ bytes: [UInt8]) -> String { ContentDigest.hex(ContentDigest.xxh64(bytes)) }
}
