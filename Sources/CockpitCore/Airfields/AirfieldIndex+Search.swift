extension AirfieldIndex {
    /// The positions of every entry passing `test` that the exact ranking of the `count` nearest within `sphereLimit`
    /// can need, in one walk of the tree: all of them within `sphereLimit` when fewer than `count` are, else all within
    /// the reach of the `count`-th nearest (on the sphere, plus the margins: `reachChordSquared`). While walking, the
    /// reach of the `count`-th nearest found so far bounds the search, a little wider than that reach so that rounding
    /// never leaves out an entry the final reach keeps; what lies beyond the final reach is dropped at the end.
    func candidates(_ q: (Double, Double, Double), _ test: Test, sphereLimit: Double, count: Int) -> [Int] {
        var walk = Walk(index: self, q: q, test: test, sphereLimit: sphereLimit, count: count)
        // The nodes still to visit, on the stack rather than the heap: a node popped pushes at most its two halves, so
        // the stack never holds more than one node per level of the tree and one more.
        withUnsafeTemporaryAllocation(of: (Int32, Int32, Double).self, capacity: Self.stackCapacity(entries.count)) { walk.run($0) }
        guard walk.nearest.count == count else { return walk.within.map { Int($0.1) } }
        let reach = Self.reachChordSquared(kth: walk.nearest[count - 1].0, sphereLimit: sphereLimit)
        return walk.within.compactMap { $0.0 <= reach ? Int($0.1) : nil }
    }

    /// `candidates`' walk of the tree: its state in one value, so that the walk changes local memory only.
    private struct Walk {
        let coordinates: UnsafeBufferPointer<Float>, entries: UnsafeBufferPointer<Entry>, axes: UnsafeBufferPointer<UInt8>
        let q: (Double, Double, Double), test: Test, sphereLimit: Double, count: Int, limit: Double
        /// The `count` nearest found so far (squared chord, position), nearest first.
        var nearest: [(Double, Int32)] = []
        /// Every entry that passed, within the bound when it was found.
        var within: [(Double, Int32)] = []
        var bound: Double

        init(index: AirfieldIndex, q: (Double, Double, Double), test: Test, sphereLimit: Double, count: Int) {
            coordinates = index.coordinates
            entries = index.entries
            axes = index.axes
            self.q = q
            self.test = test
            self.sphereLimit = sphereLimit
            self.count = count
            limit = AirfieldIndex.chordSquared(sphereMeters: sphereLimit)
            bound = limit
            nearest.reserveCapacity(min(count, 64) + 1)
            within.reserveCapacity(256)
        }

        mutating func consider(_ i: Int) {
            let c = coordinates
            let dx = q.0 - Double(c[i * 3]), dy = q.1 - Double(c[i * 3 + 1]), dz = q.2 - Double(c[i * 3 + 2])
            let d2 = dx * dx + dy * dy + dz * dz
            guard d2 <= bound, test.accepts(entries[i]) else { return }
            within.append((d2, Int32(i)))
            if nearest.count == count && (nearest[count - 1].0 < d2 || (nearest[count - 1].0 == d2 && nearest[count - 1].1 < Int32(i))) {
                return
            }
            var at = nearest.count
            while at > 0 && (nearest[at - 1].0 > d2 || (nearest[at - 1].0 == d2 && nearest[at - 1].1 > Int32(i))) { at -= 1 }
            nearest.insert((d2, Int32(i)), at: at)
            if nearest.count > count { nearest.removeLast() }
            if nearest.count == count {
                bound = min(limit, AirfieldIndex.reachChordSquared(kth: nearest[count - 1].0, sphereLimit: sphereLimit) * (1 + 1e-9))
            }
        }

        mutating func run(_ stack: UnsafeMutableBufferPointer<(Int32, Int32, Double)>) {
            stack.initializeElement(at: 0, to: (0, Int32(entries.count), 0))
            var depth = 1
            while depth > 0 {
                depth -= 1
                let top = stack.moveElement(from: depth)
                let lower = top.2
                guard lower <= bound else { continue }
                let lo = Int(top.0), hi = Int(top.1)
                if hi - lo <= AirfieldIndex.leafSize {
                    for i in lo..<hi { consider(i) }
                    continue
                }
                let mid = (lo + hi) / 2
                let axis = Int(axes[mid])
                let qAxis = axis == 0 ? q.0 : (axis == 1 ? q.1 : q.2)
                let diff = qAxis - Double(coordinates[mid * 3 + axis])
                consider(mid)
                let plane = diff * diff
                let (near, far) = diff <= 0 ? ((lo, mid), (mid + 1, hi)) : ((mid + 1, hi), (lo, mid))
                if plane <= bound {
                    stack.initializeElement(at: depth, to: (Int32(far.0), Int32(far.1), max(lower, plane)))
                    depth += 1
                }
                stack.initializeElement(at: depth, to: (Int32(near.0), Int32(near.1), lower))
                depth += 1
            }
        }
    }

    /// Everything the exact ranking of the nearest can need, as a squared chord: within the cutoff of the k-th nearest
    /// (squared chord `kth`), on the sphere, plus margins; never beyond `sphereLimit`.
    static func reachChordSquared(kth: Double, sphereLimit: Double) -> Double {
        let kthMeters = sphereMeters(chordSquared: kth) + marginMeters
        return chordSquared(sphereMeters: min(sphereLimit, kthMeters * (1 + 2 * sphereTolerance) + 1 + marginMeters))
    }

    /// Room for `candidates`' stack over `count` entries: the tree's levels (each halves a range, down to `leafSize`),
    /// one more, and a margin.
    static func stackCapacity(_ count: Int) -> Int {
        let levels = Int.bitWidth - max(1, count).leadingZeroBitCount
        return 2 * (levels + 2)
    }
}
