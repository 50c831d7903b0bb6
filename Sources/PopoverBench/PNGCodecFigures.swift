import Dispatch
import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverImage

/// PNG coding measured on the committed goldens: the throughput of encoding (at each
/// `PNGCompression`, and for report images at the alternatives `.fast` was chosen among)
/// and of decoding through libspng over a spread of them, and what every golden weighs
/// when re-encoded at `.smallest` against what is committed. Rerun it after touching
/// PopoverFiles' codec; the settings behind `PNGCompression` were chosen from these
/// figures.
public struct PNGCodecFigures: Sendable, Codable {
    /// Each figure is the best of `repetitions` runs over the spread, single-threaded.
    public var throughputs: [Benchmarks.Throughput]
    /// Files in the spread and in the whole folder.
    public var spreadFiles: Int
    public var goldenFiles: Int
    /// Sum of the committed files' sizes.
    public var committedBytes: Int
    /// Sum of the sizes of every golden re-encoded at `.smallest`, and at `.fast`.
    public var smallestBytes: Int
    public var fastBytes: Int
    /// Of the re-encoded goldens, how many each colour type holds ("rgba": 412, ...).
    public var colourTypes: [String: Int]
    /// Sum of the sizes of the spread's goldens encoded by each report-image encoder:
    /// `.fast` and the alternatives it is measured against.
    public var spreadBytes: [String: Int]

    /// `smallestBytes / committedBytes`: at most 1 or goldens grow.
    public var smallestRatio: Double { committedBytes > 0 ? Double(smallestBytes) / Double(committedBytes) : 0 }

    /// Measures over the PNGs under `goldensFolder` (every `spreadEvery`-th, in a fixed
    /// pseudo-random order, for throughput; all of them for sizes, on `threads` threads).
    public static func measure(goldensFolder: String, spreadEvery: Int = 9, repetitions: Int = 3,
                               threads: Int = 2) throws -> PNGCodecFigures {
        let relative = try FileManager.default.subpathsOfDirectory(atPath: goldensFolder)
            .filter { $0.hasSuffix(".png") }.sorted()
        let paths = relative.map { goldensFolder + "/" + $0 }
        guard !paths.isEmpty else { throw CodecFigureError(description: "\(goldensFolder): no PNG files") }
        var committed: [[UInt8]] = []
        for path in paths { committed.append(try FileIO.readBytes(path: path)) }
        let images = try committed.enumerated().map { try PNGFile.decode($1, name: paths[$0]) }

        // Sizes: every golden, both compressions, in parallel.
        let slots = SizeSlots(count: images.count)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { worker in
            for i in stride(from: worker, to: images.count, by: max(1, threads)) {
                let smallest = PNGFile.encode(images[i], compression: .smallest)
                slots.set(i, smallest: smallest.count, fast: PNGFile.encode(images[i], compression: .fast).count,
                          colourType: smallest[25])
            }
        }
        let names: [UInt8: String] = [0: "grey", 2: "rgb", 3: "palette", 4: "grey-alpha", 6: "rgba"]
        let colourTypes = Dictionary(slots.colourTypes.map { (names[$0] ?? "type \($0)", 1) }, uniquingKeysWith: +)

        // Throughput over the spread: every n-th golden in an order shuffled by a hash of
        // its path, since in path order a stride lines up with the folders' pattern
        // (every 10th is mostly @1x canvases, a third of the average size).
        let shuffled = relative.indices.sorted { (fnv1a(relative[$0]), $0) < (fnv1a(relative[$1]), $1) }
        let spread = stride(from: 0, to: shuffled.count, by: max(1, spreadEvery)).map { shuffled[$0] }
        let spreadImages = spread.map { images[$0] }
        let spreadCommitted = spread.map { committed[$0] }
        let megapixels = Double(spreadImages.reduce(0) { $0 + $1.pixelCount }) / 1e6
        // Heatmap-like indexed images: each golden's grey level (the heatmap of an equal
        // pair is a grey copy of the golden) as the index into a 256-entry grey palette.
        let greys = spreadImages.map { image in
            (0..<image.pixelCount).map { i in
                let p = image.pixels[i * 4..<i * 4 + 4].map(Int.init)
                return UInt8((p[0] * 77 + p[1] * 150 + p[2] * 29) / 256 * p[3] / 255)
            }
        }
        let greyPalette = (0...255).map { PNGPaletteEntry(red: UInt8($0), green: UInt8($0), blue: UInt8($0)) }

        func time(_ name: String, _ body: () throws -> Void) rethrows -> Benchmarks.Throughput {
            Benchmarks.Throughput(name: name, megapixels: megapixels, seconds: try Benchmarks.best(repetitions, body))
        }
        var figures: [Benchmarks.Throughput] = []
        figures.append(time("PNG encode .smallest (goldens)") {
            for image in spreadImages { _ = PNGFile.encode(image, compression: .smallest) }
        })
        // `.fast` (libdeflate's level 1, rows filtered Up) and what it was chosen among:
        // the same with rows unfiltered, and at level 2. (zlib's level 1 took 60 % more
        // instructions than libdeflate's on these images, under callgrind.)
        func libdeflate(_ level: Int32, _ filter: PNGFilter) -> PNGEncoder.Settings {
            PNGEncoder.Settings(level: level, filters: .fixed(filter))
        }
        let reportEncoders: [(String, PNGEncoder.Settings)] = [
            (".fast", PNGCompression.fast.settings),
            ("libdeflate level 1, rows unfiltered", libdeflate(1, .none)),
            ("libdeflate level 2, rows filtered Up", libdeflate(2, .up)),
        ]
        var spreadBytes: [String: Int] = [:]
        for (name, settings) in reportEncoders {
            figures.append(time("PNG encode report images as \(name)") {
                for image in spreadImages { _ = PNGEncoder.encode(image, settings: settings) }
            })
            figures.append(time("PNG encode heatmap-like indexed images as \(name)") {
                for (image, indices) in zip(spreadImages, greys) {
                    _ = indices.withUnsafeBufferPointer {
                        PNGEncoder.encodeIndexed(width: image.width, height: image.height, indices: $0,
                                                 palette: greyPalette, settings: settings)
                    }
                }
            })
            spreadBytes[name] = spreadImages.reduce(0) { $0 + PNGEncoder.encode($1, settings: settings).count }
        }
        figures.append(try time("PNG decode (libspng, goldens as committed)") {
            for bytes in spreadCommitted { _ = try PNGFile.decode(bytes, name: "golden.png") }
        })
        return PNGCodecFigures(throughputs: figures, spreadFiles: spread.count, goldenFiles: paths.count,
                               committedBytes: committed.reduce(0) { $0 + $1.count },
                               smallestBytes: slots.smallest.reduce(0, +), fastBytes: slots.fast.reduce(0, +),
                               colourTypes: colourTypes, spreadBytes: spreadBytes)
    }

    /// FNV-1a, 64 bits: a fixed, well-spread order for the spread.
    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}

struct CodecFigureError: Error, CustomStringConvertible {
    var description: String
}

/// Per-golden results written by several threads, each to its own indices.
private final class SizeSlots: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var smallest: [Int]
    private(set) var fast: [Int]
    private(set) var colourTypes: [UInt8]

    init(count: Int) {
        smallest = [Int](repeating: 0, count: count)
        fast = [Int](repeating: 0, count: count)
        colourTypes = [UInt8](repeating: 0, count: count)
    }

    func set(_ i: Int, smallest: Int, fast: Int, colourType: UInt8) {
        lock.lock()
        defer { lock.unlock() }
        self.smallest[i] = smallest
        self.fast[i] = fast
        colourTypes[i] = colourType
    }
}
