import Foundation
import PopoverFiles
import PopoverImage
import PopoverRaster

/// Writes a working skin folder to start from: `skin.json` for seven images rendered from
/// three colours, with or without a tint and the shadow (see `SkinFolder`).
public enum NewSkinFolder {
    public static func write(id: String, in skinsFolder: String, colours: ColorSet, tint: Color?,
                             shadow: Bool) throws(SkinError) -> String {
        let folder = skinsFolder + "/" + id
        let file = folder + "/" + SkinFolder.fileName
        guard SkinFolder.isValidID(id) else {
            throw .file(SkinFileProblem(file: folder, field: "", message: "'\(id)' cannot be a skin ID "
                + "(lower-case letters, digits and dashes, starting with a letter)"))
        }
        guard !FileManager.default.fileExists(atPath: folder) else {
            throw .file(SkinFileProblem(file: folder, field: "", message: "already exists; nothing written"))
        }
        var lines = [
            "{",
            "  \"kind\": \"seven-images\",",
            "  \"summary\": \"seven images rendered from \(hex(colours.border)), \(hex(colours.gradientFrom)) and \(hex(colours.gradientTo))\(tint.map { ", tinted \(hex($0))" } ?? "")\(shadow ? ", with shadow" : ", no shadow")\",",
            "  \"images\": {",
            "    \"colours\": {",
            "      \"border\": \"\(hex(colours.border))\",",
            "      \"gradientFrom\": \"\(hex(colours.gradientFrom))\",",
            "      \"gradientTo\": \"\(hex(colours.gradientTo))\"",
            "    }",
            "  },",
        ]
        if let tint { lines.append("  \"tint\": { \"colour\": \"\(hex(tint))\", \"atScaleOne\": false },") }
        lines.append("  \"shadow\": \(shadow)")
        lines.append("}")
        do {
            try FileIO.createDirectories(folder)
            try FileIO.writeAtomically(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
        } catch {
            throw .file(SkinFileProblem(file: file, field: "", message: "cannot write: \(error)"))
        }
        return file
    }

    /// "#rrggbb", or "#rrggbbaa" when not opaque.
    static func hex(_ c: Color) -> String {
        let channels = [c.red, c.green, c.blue] + (c.alpha < 1 ? [c.alpha] : [])
        return "#" + Hex.string(channels.map { UInt8((min(1, max(0, $0)) * 255).rounded()) })
    }
}
