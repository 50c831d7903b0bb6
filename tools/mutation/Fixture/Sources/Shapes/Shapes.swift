// Each function is here for one kind of mutant the tool's tests expect (see
// Tests/MutationKitTests/FixtureRunTests.swift for the outcomes worked out by hand).

/// Killed: the `area` cases' goldens hold w * h.
public func area(_ w: Int, _ h: Int) -> Int {
    return w * h
}

/// Equivalent: `w < 10` and `w <= 10` both give 10 at w == 10.
public func clampedWidth(_ w: Int) -> Int {
    if w < 10 { return 10 }
    return w
}

/// Timed out: `i += 1` turned into `i -= 1` (or removed) never ends.
public func spin(_ n: Int) -> Int {
    var i = 0
    while i < n {
        i += 1
    }
    return i
}

/// Crashed: `values[i - 1]` with 1 nudged to 2 reads before the array.
public func pick(_ values: [Int], _ i: Int) -> Int {
    return values[i - 1]
}

/// Not built: 255 nudged to 256 does not fit a UInt8.
public func brightest() -> Int {
    let top: UInt8 = 255
    return Int(top)
}

/// Other artwork only: no case runs it; the shipped search input (n = 0) never enters the
/// loop, other artwork's (n = 2) does, where `k += 1` turned `k -= 1` (or removed, or
/// `k += 0`) never ends.
public func steps(_ n: Int, from start: Int) -> Int {
    var k = start
    while k != n {
        k += 1
    }
    return k
}

/// Setup: the fixture lists `listed(7)` of its seven cases, so a mutant here that changes a
/// value is judged on a subject set up again under it. `>=` against `>` or `<`, the compared
/// 7 nudged to 8 and the returned 7 nudged to 8 all still list seven (set up alike: nothing
/// to draw); the returned 7 nudged to 6 drops `brightest`.
public func listed(_ available: Int) -> Int {
    return available >= 7 ? 7 : available
}
