// A checked function (the fixture's subject names `Mask` under "checked"): the coverage run
// evaluates each call of `floored` again under every mutant the call reached and compares
// the masks (see "checks" in Tests/MutationKitTests/FixtureRunTests.swift).

/// What a checked function returns.
public struct Mask: Equatable, Sendable {
    public var values: [Int]

    public init(values: [Int]) {
        self.values = values
    }
}

/// `values` from `start` on, each negative one raised to 0.
public func floored(_ values: [Int], from start: Int) -> Mask {
    var out: [Int] = []
    var i = start
    while i < values.count {
        var x = values[i]
        if x < 0 { x = 0 }
        out.append(x)
        i += 1
    }
    return Mask(values: out)
}
