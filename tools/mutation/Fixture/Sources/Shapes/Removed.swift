// Removed statements whose effect the coverage run can read (see "removed statements" in
// Tests/MutationKitTests/FixtureRunTests.swift).

/// `try requireNonNegative(n)` does nothing but return or throw (the fixture's subject
/// lists it under "throwOnly"): removing it changes a run only where it throws. `total = n`
/// stores what `total` already holds: removing it changes nothing.
public func settled(_ n: Int) throws -> Int {
    try requireNonNegative(n)
    var total = n
    total = n
    return total + total
}

struct Negative: Error {}

func requireNonNegative(_ n: Int) throws {
    if n < 0 { throw Negative() }
}
