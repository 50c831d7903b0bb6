extension Anchor {
    /// What fourteen of the sample app's anchors present.
    public static let plainContentSize = Size(width: 200, height: 200)

    /// The navigation controller that popover2 and popover11 present: a 320 x 800
    /// view holding a text field, between a 44-point navigation bar and a
    /// 44-point toolbar.
    public static let navigationControllerContentSize = Size(
        width: 320, height: 800 + navigationBarHeight + toolbarHeight)
    public static let navigationBarHeight: Double = 44
    public static let toolbarHeight: Double = 44

    /// The sixteen buttons of the sample app, in the order of docs/specification.md §12.2's table
    /// (section 8).
    public static let all: [Anchor] = [
        sample(1, x: 0, y: 0, .only(.left), [.right, .bottom]),
        sample(13, x: 0, y: 102, .only(.left), [.right, .top, .bottom]),
        sample(14, x: 724, y: 102, .only(.right), [.left, .top, .bottom]),
        sample(2, x: 362, y: 0, .any, [.left, .right, .bottom], content: navigationControllerContentSize),
        sample(3, x: 724, y: 0, .only(.right), [.left, .right, .bottom]),
        sample(4, x: 0, y: 480, .only(.down), [.right, .top, .bottom]),
        sample(5, x: 362, y: 438, .only(.down), .all),
        sample(6, x: 319, y: 480, .only(.right), .all),
        sample(7, x: 405, y: 480, .only(.left), .all),
        sample(8, x: 362, y: 523, .only(.up), .all),
        sample(9, x: 724, y: 480, .only(.down), [.left, .top, .bottom]),
        sample(10, x: 0, y: 961, .only(.left), [.right, .top]),
        sample(15, x: 0, y: 858, .only(.left), [.right, .top]),
        sample(11, x: 362, y: 961, .any, [.left, .right, .top], content: navigationControllerContentSize),
        sample(12, x: 724, y: 961, .only(.right), [.left, .top]),
        sample(16, x: 724, y: 858, .only(.right), [.left, .top]),
    ]

    /// Looks an anchor up by name, e.g. "popover5".
    public static func named(_ name: String) throws(GeometryError) -> Anchor {
        guard let anchor = all.first(where: { $0.name == name }) else {
            throw .unknownAnchor(name)
        }
        return anchor
    }

    private static func sample(
        _ number: Int, x: Double, y: Double, _ permitted: PermittedDirections,
        _ margins: FlexibleMargins, content: Size = plainContentSize
    ) -> Anchor {
        Anchor(
            name: "popover\(number)", portraitFrame: Rect(x: x, y: y, width: 44, height: 44),
            permitted: permitted, flexibleMargins: margins, contentSize: content)
    }

    /// "popover1 ... popover16", for the unknown-anchor message.
    static var knownNamesSummary: String {
        let names = all.map(\.name).sorted { ($0.count, $0) < ($1.count, $1) }
        guard let first = names.first, let last = names.last else { return "none" }
        return "\(first) ... \(last)"
    }
}
