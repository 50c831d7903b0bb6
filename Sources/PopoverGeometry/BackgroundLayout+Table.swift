extension BackgroundLayout: CustomStringConvertible {
    /// A fixed-width table for a terminal, e.g.
    ///
    ///     direction  up
    ///     image      up (two-stage)
    ///     stage  width  height  top  left  bottom  right
    ///         1    136      51   41     9       9     47
    ///         2    216     235   41   126       9      9
    public var table: String {
        let stretch = stages.count == 2 ? "two-stage" : "single stretch"
        let imageLine = mirrored ? "\(image), mirrored (\(stretch))" : "\(image) (\(stretch))"
        let header = ["stage", "width", "height", "top", "left", "bottom", "right"]
        let rows = stages.enumerated().map { index, stage in
            [String(index + 1), plainNumber(stage.size.width), plainNumber(stage.size.height)]
                + stage.capInsets.all.map(plainNumber)
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        // Right-aligned so the digits of each column line up under its heading.
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { cell, width in
                String(repeating: " ", count: width - cell.count) + cell
            }.joined(separator: "  ")
        }
        return (["direction  \(direction)", "image      \(imageLine)", line(header)]
            + rows.map(line)).joined(separator: "\n")
    }

    public var description: String { table }
}
