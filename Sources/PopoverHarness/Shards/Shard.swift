import Foundation
import PopoverImage

/// One of `count` shares of a run's cases, for splitting a check over CI machines:
/// `check --shard 2/3` judges the second share.
///
/// How cases are shared out, so that every machine gets about the same work and a case
/// stays on its machine when the catalog grows elsewhere:
/// - cases are grouped by skin and scale; each group is split on its own, so adding a
///   skin, a scale or cases of one group never moves a case of another group;
/// - within a group, cases are ordered by a hash of their ID (not by position, so a new
///   case lands at a random place and moves only its neighbours at a boundary), and cut
///   into `count` runs of equal cost: a case belongs to the run holding the middle of
///   its cost;
/// - cost is what drawing and comparing takes: the canvas's pixels (a 3x case costs
///   nine times its 1x twin), or, when a previous run's durations are given, those;
/// - each group starts its cut at a different shard (by the hash of its name), so the
///   rounding at the cuts does not pile up on one machine.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(HarnessError) {
        guard count >= 1, count <= 1000 else { throw .invalidShard("\(index)/\(count)", reason: "needs 1 to 1000 shards") }
        guard (1...count).contains(index) else {
            throw .invalidShard("\(index)/\(count)", reason: "names shard \(index), but there are \(count) (1 to \(count))")
        }
        self.index = index
        self.count = count
    }

    /// "I/N", e.g. "2/3".
    public init(parsing text: String) throws(HarnessError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw .invalidShard(text, reason: "is not I/N (for example 2/3: the second of three shards)")
        }
        try self.init(index: i, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The cases of this shard, in the order given.
    public func select(_ cases: [GoldenCase], cost: (GoldenCase) -> Double) -> [GoldenCase] {
        let owners = Self.assign(cases, count: count, cost: cost)
        return cases.filter { owners[$0.id] == index }
    }

    /// Every case's shard (1-based), by ID.
    public static func assign(_ cases: [GoldenCase], count: Int, cost: (GoldenCase) -> Double) -> [String: Int] {
        var groups: [String: [GoldenCase]] = [:]
        for c in cases { groups[group(of: c), default: []].append(c) }
        var owners: [String: Int] = [:]
        for (name, members) in groups {
            let ordered = members.map { (c: $0, key: hash($0.id)) }.sorted { ($0.key, $0.c.id) < ($1.key, $1.c.id) }
            let costs = ordered.map { max(cost($0.c), 1e-9) }
            let total = costs.reduce(0, +)
            let start = Int(hash(name) % UInt64(count))
            var before = 0.0
            for (i, entry) in ordered.enumerated() {
                let middle = (before + costs[i] / 2) / total
                let share = min(count - 1, Int(middle * Double(count)))
                owners[entry.c.id] = (share + start) % count + 1
                before += costs[i]
            }
        }
        return owners
    }

    /// Costs from a previous run's durations (seconds by case ID). A case the run did not
    /// time (or timed at zero, or at more than a day, which no case takes) is estimated
    /// from `estimated` (its pixels) at the median seconds per pixel of the timed cases of
    /// its own skin and scale; a group with none timed keeps its estimates. Groups are
    /// split apart, so only costs within a group matter, and timings of one group never
    /// move a case of another. The same durations give the same split on every machine.
    public static func costs(timed seconds: [String: Double], estimated: (GoldenCase) -> Double,
                             for cases: [GoldenCase]) -> [String: Double] {
        func timed(_ c: GoldenCase) -> Double? {
            guard let s = seconds[c.id], s.isFinite, s > 0, s <= 86_400 else { return nil }
            return s
        }
        var groups: [String: [GoldenCase]] = [:]
        for c in cases { groups[group(of: c), default: []].append(c) }
        var out: [String: Double] = [:]
        for members in groups.values {
            let rates = members.compactMap { c in timed(c).map { $0 / max(estimated(c), 1e-9) } }.sorted()
            let rate = rates.isEmpty ? 1 : rates[rates.count / 2]
            for c in members { out[c.id] = timed(c) ?? estimated(c) * rate }
        }
        return out
    }

    /// The group a case is split within: its skin at its scale.
    static func group(of c: GoldenCase) -> String { "\(c.skinID)@\(c.scale)x" }

    /// Estimated cost of a case: the pixels of its canvas (bounds, plus room for a shadow
    /// when the skin casts one, times the scale squared).
    public static func estimatedCost(_ c: GoldenCase, castsShadow: Bool) -> Double {
        let room = castsShadow ? 60.0 : 0
        let b = c.request.bounds
        return (b.width + 2 * room) * (b.height + 2 * room) * Double(c.scale * c.scale)
    }

    /// A hash that is the same on every machine and run (Swift's `Hasher` is seeded per
    /// process, so it would not do).
    static func hash(_ text: String) -> UInt64 { XXH64.digest(Array(text.utf8), seed: 0x5348_4152_44) }
}
