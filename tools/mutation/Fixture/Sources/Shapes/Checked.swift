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

/// `values` (three of them) through a buffer of its own: `capacity: 3` nudged to 2 writes the
/// third past the block, into the slack malloc leaves after a 16-byte block, and the mask
/// comes out the same; only a checking allocator's guard byte shows the write.
public func copied(_ values: [Int]) -> Mask {
    let buffer = UnsafeMutablePointer<Int>.allocate(capacity: 3)
    defer { buffer.deallocate() }
    for (i, v) in values.enumerated() { buffer[i] = v }
    return Mask(values: (0..<values.count).map { buffer[$0] })
}

#if canImport(Glibc)
import Glibc
#endif

/// `values`, after a wait when there are more than five. No case has that many, so only `>`
/// negated (`<=`) waits: an hour, using no CPU, as a check's process does when the checking
/// allocator finds the heap spoilt inside malloc and its message waits on malloc's own lock.
/// The clock stops its check, and judging times it out.
public func waited(_ values: [Int]) -> Mask {
    if values.count > 5 { sleep(3600) }
    return Mask(values: values)
}
