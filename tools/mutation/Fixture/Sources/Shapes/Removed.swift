// Removed statements whose effect the coverage run can read (see "removed statements" in
// Tests/MutationKitTests/FixtureRunTests.swift).

/// `try requireNonNegative(n)` does nothing but return or throw (the fixture's subject
/// lists it under "throwOnly"): removing it changes a run only where it throws. `total = n`
/// stores what `total` already holds: removing it changes nothing. The bound 0 nudged to 1
/// changes the maximum only where twice the total is under 1.
public func settled(_ n: Int) throws -> Int {
    try requireNonNegative(n)
    var total = n
    total = n
    return max(total + total, 0)
}

struct Negative: Error {}

func requireNonNegative(_ n: Int) throws {
    if n < 0 { throw Negative() }
}
