import Foundation
import PopoverGeometry
import PopoverRaster

/// The outlines the seven images are drawn from (docs/specification.md §3.4), in the
/// image's points: up images carry the arrow on top pointing up, side images on the
/// right pointing right.
///
/// The coordinates live in `Resources/seven-image-outlines.json`, which
/// scripts/make-artwork and tools/cairo-fidelity read too, so the three drawings of
/// these outlines cannot drift apart. The file is compiled into the binary.
public enum SevenImagePaths {
    public static func path(for image: ArrowImage) -> Path {
        outlines[image]!
    }

    /// Every image's outline, built once from the data file. A malformed file is a
    /// programming error caught by the first test that draws anything.
    static let outlines: [ArrowImage: Path] = {
        do {
            return try OutlineFile.parse(PackageResources.seven_image_outlines_json)
        } catch {
            fatalError("Resources/seven-image-outlines.json: \(error)")
        }
    }()
}

/// The outline data file: named outlines as command lists, and for each image the
/// outline it uses, possibly flipped upside down within a height.
public enum OutlineFile {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The commands of each named outline, as written (command name and numbers).
    public static func commands(_ bytes: [UInt8]) throws -> [String: [(String, [Double])]] {
        guard let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let outlines = root["outlines"] as? [String: [[Any]]] else {
            throw Problem(description: "expected an object with \"outlines\" holding command lists")
        }
        var result: [String: [(String, [Double])]] = [:]
        for (name, list) in outlines {
            result[name] = try list.map { command in
                guard let verb = command.first as? String else { throw Problem(description: "\(name): a command without a name") }
                let numbers = try command.dropFirst().map { value -> Double in
                    guard let number = value as? NSNumber else { throw Problem(description: "\(name): \(verb): not a number") }
                    return number.doubleValue
                }
                return (verb, numbers)
            }
        }
        return result
    }

    /// For each image, the outline it uses and the height it is flipped within, if any.
    static func flipHeights(_ bytes: [UInt8]) throws -> [ArrowImage: (String, Double?)] {
        guard let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let images = root["images"] as? [String: [String: Any]] else {
            throw Problem(description: "expected \"images\" naming each image's outline")
        }
        var result: [ArrowImage: (String, Double?)] = [:]
        for image in ArrowImage.allCases {
            guard let entry = images[image.rawValue], let name = entry["outline"] as? String else {
                throw Problem(description: "images.\(image.rawValue): names no outline of the file")
            }
            result[image] = (name, (entry["flipHeight"] as? NSNumber)?.doubleValue)
        }
        return result
    }

    /// Every image's path.
    public static func parse(_ bytes: [UInt8]) throws -> [ArrowImage: Path] {
        let outlines = try commands(bytes)
        var paths: [ArrowImage: Path] = [:]
        for (image, (name, flipHeight)) in try flipHeights(bytes) {
            guard let commands = outlines[name] else {
                throw Problem(description: "images.\(image.rawValue): names no outline of the file")
            }
            var path = try build(commands, outline: name)
            if let height = flipHeight {
                path = path.applying(Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: height))
            }
            paths[image] = path
        }
        return paths
    }

    static func build(_ commands: [(String, [Double])], outline: String) throws -> Path {
        var p = Path()
        for (verb, n) in commands {
            let expected = ["move": 2, "line": 2, "arcTo": 5, "curve": 6, "close": 0][verb]
            guard let expected else { throw Problem(description: "\(outline): unknown command '\(verb)'") }
            guard n.count == expected else {
                throw Problem(description: "\(outline): \(verb) takes \(expected) numbers, got \(n.count)")
            }
            switch verb {
            case "move": p.move(to: n[0], n[1])
            case "line": p.line(to: n[0], n[1])
            case "arcTo": p.arc(tangentTo: n[0], n[1], n[2], n[3], radius: n[4])
            case "curve": p.curve(to: n[4], n[5], control1: n[0], n[1], control2: n[2], n[3])
            default: p.close()
            }
        }
        return p
    }
}
