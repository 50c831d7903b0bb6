import PopoverGeometry
import PopoverHarness
import PopoverSkins
import Testing
import TestSupport

@Suite("Shards: splitting a run over machines")
struct ShardTests {
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)

    @Test("I/N parses; anything else is refused naming the value", arguments: [
        ("0/3", "names shard 0, but there are 3 (1 to 3)"), ("4/3", "names shard 4, but there are 3 (1 to 3)"),
        ("2", "is not I/N"), ("a/b", "is not I/N"), ("1/0", "needs 1 to 1000 shards"), ("1/2/3", "is not I/N"),
    ])
    func parsing(_ text: String, _ message: String) throws {
        #expect(try Shard(parsing: "2/3") == Shard(index: 2, count: 3))
        #expect { try Shard(parsing: text) } throws: { "\($0)".hasPrefix("--shard: '\(text)' \(message)") }
    }

    @Test("every case lands in exactly one shard, for any number of shards", arguments: [1, 2, 3, 5, 8])
    func partition(_ count: Int) throws {
        var seen: [String: Int] = [:]
        for index in 1...count {
            for c in try Shard(index: index, count: count).select(catalog.cases, cost: catalog.estimatedCost) {
                #expect(seen[c.id] == nil, "\(c.id) in shards \(seen[c.id] ?? 0) and \(index)")
                seen[c.id] = index
            }
        }
        #expect(seen.count == catalog.cases.count)
    }

    @Test("a case stays in its shard when a skin is added, or cases of another skin and scale")
    func stable() throws {
        let grown = CaseCatalog(entries: SkinCatalog.lineup(skinsFolder: PackageFolders.skins).entries + [SkinEntry(skin: FlatSkin(id: "zz-flat"))])
        for count in [2, 3, 4] {
            let before = Shard.assign(catalog.cases, count: count, cost: catalog.estimatedCost)
            let after = Shard.assign(grown.cases, count: count, cost: grown.estimatedCost)
            #expect(catalog.cases.allSatisfy { before[$0.id] == after[$0.id] }, "\(count) shards")
            // Fewer cases of one skin at one scale move no case of any other.
            let trimmed = catalog.cases.filter { !($0.skinID == "gik-sample" && $0.scale == 2 && $0.family == .sweep) }
            let again = Shard.assign(trimmed, count: count, cost: catalog.estimatedCost)
            #expect(trimmed.filter { $0.skinID != "gik-sample" }.allSatisfy { before[$0.id] == again[$0.id] })
        }
    }

    @Test("timings from an earlier run: timed cases cost their seconds, untimed ones their pixels at the median rate")
    func timedCosts() throws {
        let cases = Array(catalog.cases.prefix(4))
        // By hand: A 2 s over 100 px (0.02 s/px), B 6 s over 200 px (0.03), C untimed
        // (50 px), D timed 0 s (not a timing: estimated, 400 px). The median of the two
        // rates, taking the upper of an even count, is 0.03: C costs 1.5, D 12.
        let pixels = [cases[0].id: 100.0, cases[1].id: 200, cases[2].id: 50, cases[3].id: 400]
        let costs = Shard.costs(timed: [cases[0].id: 2, cases[1].id: 6, cases[3].id: 0],
                                estimated: { pixels[$0.id]! }, for: cases)
        #expect(costs == [cases[0].id: 2, cases[1].id: 6, cases[2].id: 1.5, cases[3].id: 12])
        // Nothing timed: the estimate itself.
        #expect(Shard.costs(timed: [:], estimated: { pixels[$0.id]! }, for: cases) == pixels)
        // A case of another skin or scale is not priced by this group's rate, and an absurd
        // timing (1e307 s) is no timing: F, 400 px in A's group, costs 12 like D.
        let other = try #require(catalog.cases.first { $0.skinID != cases[0].skinID || $0.scale != cases[0].scale })
        let f = try #require(catalog.cases.dropFirst(4).first { $0.skinID == cases[0].skinID && $0.scale == cases[0].scale })
        let more = pixels.merging([other.id: 300, f.id: 400]) { a, _ in a }
        let mixed = Shard.costs(timed: [cases[0].id: 2, cases[1].id: 6, f.id: 1e307], estimated: { more[$0.id]! },
                                for: cases + [other, f])
        #expect(mixed[other.id] == 300 && mixed[f.id] == 12 && mixed[cases[2].id] == 1.5)
    }

    @Test("shared out by skewed timings, each shard's timed total is within one case of an even share", arguments: [2, 3, 5])
    func timedBalance(_ count: Int) throws {
        // One skin at one scale (one group, split on its own), with timings far from its
        // pixels: every seventh case 40 times slower. Cutting the cases into equal runs
        // of cost, each owning the case whose middle it holds, puts every shard within
        // one case's cost of total / count.
        let group = catalog.cases.filter { $0.skinID == "gik-default" && $0.scale == 1 }
        try #require(group.count > 100)
        var timings: [String: Double] = [:]
        for (i, c) in group.enumerated() { timings[c.id] = i % 7 == 0 ? 0.04 : 0.001 * Double(1 + i % 3) }
        let cost = catalog.shardCost(for: group, timings: timings)
        let total = timings.values.reduce(0, +), largest = timings.values.max()!
        var covered = 0
        for index in 1...count {
            let share = try Shard(index: index, count: count).select(group, cost: cost)
            covered += share.count
            let seconds = share.reduce(0) { $0 + timings[$1.id]! }
            #expect(abs(seconds - total / Double(count)) <= largest, "shard \(index): \(seconds) s of \(total)")
        }
        #expect(covered == group.count)
    }

    @Test("cost, not count: a 3x case costs nine times its 1x twin; shards get equal cost within 3 %")
    func balanced() throws {
        // path-slate draws no shadow: the canvas is the bounds, so cost is w x h x scale^2.
        let one = try #require(catalog.cases.first { $0.id == "path-slate/up/popover8-portrait@1x" })
        let three = try #require(catalog.cases.first { $0.id == "path-slate/up/popover8-portrait@3x" })
        #expect(catalog.estimatedCost(three) == 9 * catalog.estimatedCost(one))
        #expect(catalog.estimatedCost(one) == one.request.bounds.width * one.request.bounds.height)
        for count in [2, 3, 4] {
            let totals = try (1...count).map { index in
                try Shard(index: index, count: count).select(catalog.cases, cost: catalog.estimatedCost)
                    .reduce(0.0) { $0 + catalog.estimatedCost($1) }
            }
            let mean = totals.reduce(0, +) / Double(count)
            #expect(totals.allSatisfy { abs($0 - mean) / mean < 0.03 }, "\(count) shards: \(totals.map { Int($0 / 1e6) }) Mpx")
        }
    }
}
