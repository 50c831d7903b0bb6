import PopoverImage

extension RunRecord {
    /// Groups the failing cases into changes: cases whose causes have the same signature
    /// (the kinds and amounts of their geometry deltas; with unchanged geometry, the parts
    /// and strength of the pixel change) are one change, decided once. Sets `changes`,
    /// biggest first, and each failing case's `change`; recomputed the same way from the
    /// cases alone, so merged shards group across machines.
    public mutating func groupChanges() {
        var members: [Explanation.Signature: [Int]] = [:]
        var order: [Explanation.Signature] = []
        for (i, result) in results.enumerated() {
            guard result.status.isFailure else {
                results[i].change = nil
                continue
            }
            let signature = Explanation.signature(status: result.status, cause: result.cause,
                                                  maxChannelDelta: result.metrics?.maxChannelDelta, message: result.message,
                                                  goldenPath: result.goldenPath, id: result.id)
            if members[signature] == nil { order.append(signature) }
            members[signature, default: []].append(i)
        }
        let kinds = ["geometry", "drawing", "unexplained", "new", "error"]
        let sorted = order.sorted { a, b in
            let (na, nb) = (members[a]!.count, members[b]!.count)
            if na != nb { return na > nb }
            let (ka, kb) = (kinds.firstIndex(of: a.kind) ?? kinds.count, kinds.firstIndex(of: b.kind) ?? kinds.count)
            return (ka, a.key) < (kb, b.key)
        }
        changes = sorted.map { signature in
            let id = "c" + String(SHA256.hex(Array((signature.kind + "\n" + signature.key).utf8)).prefix(8))
            let indices = members[signature]!
            for i in indices { results[i].change = id }
            return Change(id: id, explanation: signature.explanation, kind: signature.kind,
                          cases: indices.map { results[$0].id })
        }
    }

    /// The change with this ID.
    public func change(_ id: String) -> Change? { changes.first { $0.id == id } }
}
