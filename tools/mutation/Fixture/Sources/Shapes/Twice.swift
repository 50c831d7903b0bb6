// A second file, so a run of one file has another to leave as it is (see "a run of one
// file" in Tests/MutationKitTests/FixtureRunTests.swift).

/// Unreached: no case and no search input calls it, so its one mutant (`+` -> `-`) is
/// equivalent for the fixture's inputs.
public func twice(_ x: Int) -> Int {
    return x + x
}
