import Foundation
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// `popover-goldens diff`, run as a process: what `--json` prints on each exit status,
/// and the files an error names.
@Suite("The diff command", .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct DiffCommandTests {
    /// A `width` x `height` image of one opaque colour, with some pixels replaced.
    static func picture(_ width: Int, _ height: Int, grey: UInt8,
                        changes: [(x: Int, y: Int, grey: UInt8)] = []) -> RGBAImage {
        var pixels = [UInt8]()
        for _ in 0..<(width * height) { pixels += [grey, grey, grey, 255] }
        for change in changes {
            let i = (change.y * width + change.x) * 4
            pixels[i] = change.grey; pixels[i + 1] = change.grey; pixels[i + 2] = change.grey
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    @Test("--json on exit 2 prints {error, pass: false} on standard output, and the message on standard error")
    func jsonOnError() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileIO.writeAtomically(Array("text\n".utf8), to: folder.file("text.png"))
        try PNGFile.write(Self.picture(2, 2, grey: 9), to: folder.file("ok.png"))
        for (arguments, says) in [
            (["ok.png", "text.png"], "text.png: not a PNG file"),
            (["absent.png", "ok.png"], "absent.png: cannot read"),
            (["--perceptual", "7", "ok.png", "ok.png"], "--perceptual: 7.0 is outside 0-1"),
        ] {
            let run = try await runTool(["diff", "--json"] + arguments, in: folder.path)
            #expect(run.status == 2, "\(arguments): \(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains(says), "\(arguments): \(run.stderr)")
            let object = try #require(Self.object(run.stdout), "\(arguments): standard output \(run.stdout)")
            #expect(Set(object.keys) == ["error", "pass"], "\(arguments): \(run.stdout)")
            #expect(object["pass"] as? Bool == false)
            #expect((object["error"] as? String)?.contains(says) == true, "\(arguments): \(run.stdout)")
        }
        // Without --json nothing goes to standard output on exit 2.
        let plain = try await runTool(["diff", "ok.png", "text.png"], in: folder.path)
        #expect(plain.status == 2 && plain.stdout.isEmpty, "\(plain.stdout)")
    }

    @Test("when both files are bad, the message names both, with and without --json")
    func bothBad() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileIO.writeAtomically(Array("text\n".utf8), to: folder.file("text.png"))
        let ok = folder.file("ok.png")
        try PNGFile.write(Self.picture(3, 3, grey: 40), to: ok)
        let bytes = try FileIO.readBytes(path: ok)
        try FileIO.writeAtomically(Array(bytes[..<(bytes.count - 16)]), to: folder.file("cut.png"))
        try FileIO.writeAtomically(Array(bytes[..<(bytes.count - 16)]), to: folder.file("cut-too.png"))
        let cases: [([String], [String])] = [
            (["text.png", "absent.png"], ["text.png: not a PNG file", "absent.png: cannot read"]),
            (["absent.png", "cut.png"], ["absent.png: cannot read", "cut.png: truncated PNG"]),
            // The same damaged bytes on both sides: both files are unreadable.
            (["cut.png", "cut-too.png"], ["cut.png: truncated PNG", "cut-too.png: truncated PNG"]),
        ]
        for (files, mentions) in cases {
            let plain = try await runTool(["diff"] + files, in: folder.path)
            let json = try await runTool(["diff", "--json"] + files, in: folder.path)
            #expect(plain.status == 2 && json.status == 2)
            let error = Self.object(json.stdout)?["error"] as? String ?? ""
            for text in mentions {
                #expect(plain.stderr.contains(text), "\(files): \(plain.stderr)")
                #expect(json.stderr.contains(text), "\(files): \(json.stderr)")
                #expect(error.contains(text), "\(files): \(json.stdout)")
            }
        }
    }

    @Test("--json gives the excused pixels by reason; --count-anti-aliasing counts anti-aliasing instead")
    func excusedReasons() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // A hard edge at column 4 of an 8 x 8 image, and the same edge with column 4 grey
        // (anti-aliasing, 8 pixels) and pixel (0, 2) black -> 2 (within threshold 0.1).
        var edge = [(x: Int, y: Int, grey: UInt8)]()
        for y in 0..<8 { for x in 0..<4 { edge.append((x, y, 0)) } }
        try PNGFile.write(Self.picture(8, 8, grey: 255, changes: edge), to: folder.file("edge.png"))
        let soft = edge + (0..<8).map { (x: 4, y: $0, grey: UInt8(128)) } + [(x: 0, y: 2, grey: 2)]
        try PNGFile.write(Self.picture(8, 8, grey: 255, changes: soft), to: folder.file("soft.png"))

        let excusing = try await runTool(["diff", "--json", "--perceptual", "0.1", "edge.png", "soft.png"], in: folder.path)
        #expect(excusing.status == 0, "\(excusing.stdout) \(excusing.stderr)")
        let e = try #require(Self.object(excusing.stdout), "\(excusing.stdout)")
        #expect(e["differentPixels"] as? Int == 0 && e["excusedPixels"] as? Int == 9)
        #expect(e["excusedWithinThreshold"] as? Int == 1 && e["excusedAntiAliasing"] as? Int == 8)
        #expect(e["excusedIgnored"] as? Int == 0)

        let counting = try await runTool(["diff", "--json", "--perceptual", "0.1", "--count-anti-aliasing", "--different-pixels", "8",
                                    "edge.png", "soft.png"], in: folder.path)
        #expect(counting.status == 1, "\(counting.stdout) \(counting.stderr)")
        let c = try #require(Self.object(counting.stdout), "\(counting.stdout)")
        #expect(c["differentPixels"] as? Int == 8 && c["excusedPixels"] as? Int == 1)
        #expect(c["excusedWithinThreshold"] as? Int == 1 && c["excusedAntiAliasing"] as? Int == 0)
        #expect(c["maxChannelDelta"] as? Int == 127 && c["pass"] as? Bool == false)
        #expect(c["tolerance"] as? String
                == "max channel delta 0-0, different pixels 0-8, perceptual 0.1, anti-aliasing counted")

        let plain = try await runTool(["diff", "--perceptual", "0.1", "edge.png", "soft.png"], in: folder.path)
        #expect(plain.stdout.contains("9 excused: 1 within the threshold, 8 anti-aliasing"), "\(plain.stdout)")
    }

    @Test("--json includes the changed region: the smallest rectangle around every differing pixel, null when none")
    func changedRegion() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // Changes at (1, 3) and (4, 1) of a 6 x 5 image: columns 1-4, rows 1-3.
        try PNGFile.write(Self.picture(6, 5, grey: 100), to: folder.file("a.png"))
        try PNGFile.write(Self.picture(6, 5, grey: 100, changes: [(1, 3, 101), (4, 1, 160)]), to: folder.file("b.png"))
        let run = try await runTool(["diff", "--json", "a.png", "b.png"], in: folder.path)
        #expect(run.status == 1)
        let object = try #require(Self.object(run.stdout), "\(run.stdout)")
        #expect(object["differentPixels"] as? Int == 2)
        let region = try #require(object["changedRegion"] as? [String: Int], "\(run.stdout)")
        #expect(region == ["x": 1, "y": 1, "width": 4, "height": 3])

        // Within tolerance, the region is still reported.
        let within = try await runTool(["diff", "--json", "--max-channel-delta", "60", "--different-pixels", "2",
                                  "a.png", "b.png"], in: folder.path)
        #expect(within.status == 0)
        #expect(Self.object(within.stdout)?["changedRegion"] as? [String: Int] == ["x": 1, "y": 1, "width": 4, "height": 3])

        // Identical images: the key is there, null.
        let same = try await runTool(["diff", "--json", "a.png", "a.png"], in: folder.path)
        #expect(same.status == 0)
        let sameObject = try #require(Self.object(same.stdout), "\(same.stdout)")
        #expect(sameObject.keys.contains("changedRegion") && sameObject["changedRegion"] is NSNull, "\(same.stdout)")
    }
}
