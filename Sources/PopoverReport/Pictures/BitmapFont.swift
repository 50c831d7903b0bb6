import PopoverRaster

/// A 5 x 7 pixel font for short labels on generated pictures, defined here rather than
/// read from the system's fonts, so a label comes out pixel for pixel the same on every
/// machine. It has the lowercase letters and the space; anything else draws as a hollow
/// box, so a label never loses a character silently.
public enum BitmapFont {
    /// Pixels of a glyph's cell, before `scale`.
    public static let glyphWidth = 5
    public static let glyphHeight = 7
    /// Blank columns after each glyph, before `scale`.
    public static let spacing = 1

    /// The width in pixels of `text` drawn at `scale`: each glyph and its spacing, less the
    /// spacing after the last one.
    public static func width(of text: String, scale: Int) -> Int {
        let count = text.count
        return count == 0 ? 0 : (count * (glyphWidth + spacing) - spacing) * scale
    }

    /// The lit pixels of `character`, as (column, row) in its 5 x 7 cell.
    public static func pixels(of character: Character) -> [(x: Int, y: Int)] {
        let rows = glyphs[character] ?? box
        var lit: [(x: Int, y: Int)] = []
        for (y, row) in rows.enumerated() {
            for (x, mark) in row.enumerated() where mark == "#" { lit.append((x, y)) }
        }
        return lit
    }

    /// Adds `text` to `path` with its top-left corner at (x, y), each font pixel a `scale`
    /// x `scale` square on whole pixels: filled opaque, it covers whole device pixels only.
    public static func add(_ text: String, to path: inout Path, x: Int, y: Int, scale: Int) {
        for (i, character) in text.enumerated() {
            let left = x + i * (glyphWidth + spacing) * scale
            for p in pixels(of: character) {
                path.addRect(x: Double(left + p.x * scale), y: Double(y + p.y * scale),
                             width: Double(scale), height: Double(scale))
            }
        }
    }

    private static let box = ["#####", "#...#", "#...#", "#...#", "#...#", "#...#", "#####"]

    private static let glyphs: [Character: [String]] = [
        " ": [".....", ".....", ".....", ".....", ".....", ".....", "....."],
        "a": [".....", ".....", ".###.", "....#", ".####", "#...#", ".####"],
        "b": ["#....", "#....", "####.", "#...#", "#...#", "#...#", "####."],
        "c": [".....", ".....", ".###.", "#....", "#....", "#....", ".###."],
        "d": ["....#", "....#", ".####", "#...#", "#...#", "#...#", ".####"],
        "e": [".....", ".....", ".###.", "#...#", "#####", "#....", ".###."],
        "f": ["..##.", ".#...", "####.", ".#...", ".#...", ".#...", ".#..."],
        "g": [".....", ".....", ".####", "#...#", ".####", "....#", ".###."],
        "h": ["#....", "#....", "####.", "#...#", "#...#", "#...#", "#...#"],
        "i": ["..#..", ".....", ".##..", "..#..", "..#..", "..#..", ".###."],
        "j": ["...#.", ".....", "..##.", "...#.", "...#.", "#..#.", ".##.."],
        "k": ["#....", "#....", "#..#.", "#.#..", "##...", "#.#..", "#..#."],
        "l": [".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."],
        "m": [".....", ".....", "##.#.", "#.#.#", "#.#.#", "#.#.#", "#.#.#"],
        "n": [".....", ".....", "####.", "#...#", "#...#", "#...#", "#...#"],
        "o": [".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."],
        "p": [".....", ".....", "####.", "#...#", "####.", "#....", "#...."],
        "q": [".....", ".....", ".####", "#...#", ".####", "....#", "....#"],
        "r": [".....", ".....", "#.##.", "##..#", "#....", "#....", "#...."],
        "s": [".....", ".....", ".####", "#....", ".###.", "....#", "####."],
        "t": [".#...", ".#...", "####.", ".#...", ".#...", ".#..#", "..##."],
        "u": [".....", ".....", "#...#", "#...#", "#...#", "#..##", ".##.#"],
        "v": [".....", ".....", "#...#", "#...#", "#...#", ".#.#.", "..#.."],
        "w": [".....", ".....", "#...#", "#...#", "#.#.#", "#.#.#", ".#.#."],
        "x": [".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#"],
        "y": [".....", ".....", "#...#", "#...#", ".####", "....#", ".###."],
        "z": [".....", ".....", "#####", "...#.", "..#..", ".#...", "#####"],
    ]
}
