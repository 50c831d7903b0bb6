import ArgumentParser
import PopoverGeometry
import PopoverFiles
import PopoverImage
import PopoverSkins

struct ArtworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artwork",
        abstract: "Render the seven images from three colours into a folder (DIR/up.png, ...).")

    enum Theme: String, ExpressibleByArgument, CaseIterable {
        case `default`, sample
    }

    @Option(help: "default or sample (the sample app's colours).")
    var theme: Theme = .default

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale: ScaleArgument

    @Option(help: "Folder to write into (created if missing).")
    var out: String

    func run() throws {
        let colors: ColorSet = theme == .default ? .standard : .sampleApp
        do {
            try FileIO.createDirectories(out)
            for image in ArrowImage.allCases {
                let pixmap = RenderedArtwork.render(image, size: SevenImageMetrics.standard[image].size,
                                                    colors: colors, scale: scale.value)
                try PNGFile.write(pixmap.straightImage, to: "\(out)/\(image.rawValue).png")
            }
        } catch {
            throw UserError("\(error)")
        }
        print("wrote the seven images at scale \(Int(scale.value)) to \(out)")
    }
}
