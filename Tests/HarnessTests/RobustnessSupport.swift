import Foundation
import PopoverImage
import Testing

// Helpers for the robustness tests: PNG files written by hand (every colour type, 16-bit,
// interlaced, and hostile headers), the command-line tool run as a process, and a
// seeded random generator.

// MARK: PNG by hand

/// PNG files built byte by byte: chunks with their CRCs, zlib "stored" blocks (no
/// compression needed to make a valid file), Adam7 passes. Used to make goldens in forms
/// the harness itself never writes, and headers no encoder would write.
enum HandPNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// How pixels are stored.
    enum Form: String, CaseIterable, CustomStringConvertible {
        case rgba8, rgba16, rgb8, grey8, greyAlpha8, grey16, palette8
        var description: String { rawValue }

        var colourType: PNGColourType {
            switch self {
            case .rgba8, .rgba16: .rgba
            case .rgb8: .rgb
            case .grey8, .grey16: .grey
            case .greyAlpha8: .greyAlpha
            case .palette8: .palette
            }
        }

        var bitDepth: Int { self == .rgba16 || self == .grey16 ? 16 : 8 }
    }

    /// `image` stored as `form`, or nil when that form cannot hold it without loss (a
    /// colour pixel in a grey form, a translucent pixel in an opaque form, more than 256
    /// colours in a palette).
    static func encode(_ image: RGBAImage, as form: Form, interlaced: Bool = false) -> [UInt8]? {
        let pixels = (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } }
        let opaque = pixels.allSatisfy { $0.a == 255 }
        let grey = pixels.allSatisfy { $0.r == $0.g && $0.g == $0.b }
        var palette: [UInt32: UInt8] = [:]
        var paletteOrder: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)] = []
        switch form {
        case .rgb8 where !opaque, .grey8 where !opaque || !grey, .grey16 where !opaque || !grey,
             .greyAlpha8 where !grey:
            return nil
        case .palette8:
            for p in pixels {
                let key = UInt32(p.r) << 24 | UInt32(p.g) << 16 | UInt32(p.b) << 8 | UInt32(p.a)
                if palette[key] == nil {
                    guard paletteOrder.count < 256 else { return nil }
                    palette[key] = UInt8(paletteOrder.count)
                    paletteOrder.append(p)
                }
            }
        default:
            break
        }

        func sample(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> [UInt8] {
            switch form {
            case .rgba8: [p.r, p.g, p.b, p.a]
            case .rgba16: [p.r, p.r, p.g, p.g, p.b, p.b, p.a, p.a]  // v * 257 = v in both bytes
            case .rgb8: [p.r, p.g, p.b]
            case .grey8: [p.r]
            case .grey16: [p.r, p.r]
            case .greyAlpha8: [p.r, p.a]
            case .palette8:
                [palette[UInt32(p.r) << 24 | UInt32(p.g) << 16 | UInt32(p.b) << 8 | UInt32(p.a)]!]
            }
        }

        // Scanlines with filter 0, pass by pass when interlaced (empty passes are left out).
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: image.width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: image.height, by: pass.dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                raw.append(0)
                for x in xs { raw += sample(image[x, y]) }
            }
        }

        var chunks = [chunk("IHDR", ihdr(width: image.width, height: image.height, bitDepth: form.bitDepth,
                                         colourType: form.colourType.rawValue, interlaced: interlaced))]
        if form == .palette8 {
            chunks.append(chunk("PLTE", paletteOrder.flatMap { [$0.r, $0.g, $0.b] }))
            var alphas = paletteOrder.map(\.a)
            while alphas.last == 255 { alphas.removeLast() }
            if !alphas.isEmpty { chunks.append(chunk("tRNS", alphas)) }
        }
        chunks.append(chunk("IDAT", zlibStored(raw)))
        chunks.append(chunk("IEND", []))
        return signature + chunks.flatMap { $0 }
    }

    /// A file whose IHDR claims `width` x `height` (RGBA, 8-bit) over a little image data.
    static func claiming(width: Int, height: Int) -> [UInt8] {
        signature + chunk("IHDR", ihdr(width: width, height: height, bitDepth: 8, colourType: 6, interlaced: false))
            + chunk("IDAT", zlibStored([0, 0, 0, 0, 0])) + chunk("IEND", [])
    }

    static func ihdr(width: Int, height: Int, bitDepth: Int, colourType: Int, interlaced: Bool) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height))
            + [UInt8(bitDepth), UInt8(colourType), 0, 0, interlaced ? 1 : 0]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The offset of the data of the first chunk of `type`.
    static func chunkData(_ bytes: [UInt8], type: String) -> Range<Int>? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
                return offset + 8..<offset + 8 + length
            }
            offset += 12 + length
        }
        return nil
    }
}

// MARK: The command-line tool

/// The popover-goldens executable built with the tests: it sits in the same products
/// folder as the test bundle (`swift build --build-tests` and `swift test` build every
/// product). Nil when it is not there.
let popoverGoldensExecutable: String? = {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append((exe as NSString).deletingLastPathComponent)
    }
    candidates.append(Bundle.main.bundleURL.path)
    candidates.append((CommandLine.arguments[0] as NSString).deletingLastPathComponent)
    for folder in candidates {
        // The bundle may be a folder (macOS .xctest) inside the products folder.
        for dir in [folder, (folder as NSString).deletingLastPathComponent] {
            let path = dir + "/popover-goldens"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
    }
    return nil
}()

/// What a run of the tool did.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the tool with `arguments` in `directory` and waits for it. GOLDEN_RECORD and CI
/// are cleared so the caller's environment cannot change a default.
func runTool(_ arguments: [String], in directory: String? = nil) throws -> ToolRun {
    let executable = try #require(popoverGoldensExecutable,
                                  "popover-goldens was not built beside the tests (swift build --build-tests)")
    let process = try toolProcess(executable, arguments, in: directory)
    let out = temporaryFolder("tool-output")
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = FileManager.default.createFile(atPath: out + "/stdout", contents: nil)
    _ = FileManager.default.createFile(atPath: out + "/stderr", contents: nil)
    let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: out + "/stdout"))
    let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: out + "/stderr"))
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    process.waitUntilExit()
    try stdout.close()
    try stderr.close()
    return ToolRun(status: process.terminationStatus,
                   stdout: (try? String(contentsOfFile: out + "/stdout", encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: out + "/stderr", encoding: .utf8)) ?? "")
}

func toolProcess(_ executable: String, _ arguments: [String], in directory: String?) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var environment = ProcessInfo.processInfo.environment
    environment["GOLDEN_RECORD"] = nil
    environment["CI"] = nil
    process.environment = environment
    return process
}

/// Runs a shell command line; returns its exit status (output discarded).
@discardableResult
func shell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Copies the committed goldens of `ids` (and nothing else) into a fresh folder.
func copyCommittedGoldens(_ ids: [String], to folder: String) throws {
    let source = GoldenStoreFolder.committed
    for id in ids {
        let bytes = try FileIO.readBytes(path: "\(source)/\(id).png")
        let target = "\(folder)/\(id).png"
        try FileIO.createDirectories((target as NSString).deletingLastPathComponent)
        try FileIO.writeAtomically(bytes, to: target)
    }
}

enum GoldenStoreFolder {
    static let committed = packageRoot + "/Goldens"
}

extension Duration {
    var inSeconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

/// Removes temporary folders a test made.
func removeFolders(_ paths: String...) {
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
}

// MARK: Random numbers

/// SplitMix64: a tiny seeded generator, so every run draws the same samples.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
