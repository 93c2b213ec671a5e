import RealModule

/// One airfield as the in-memory position index holds it: where it is (the database's exact microdegrees) and the
/// columns the filters test. Everything else stays in the database and is read only for the airfields returned.
public struct AirfieldSite: Sendable, Equatable {
    public var id: Int32
    public var latitudeMicrodegrees: Int32
    public var longitudeMicrodegrees: Int32
    public var type: AirfieldType
    public var longestRunwayFeet: Int32?
    public var longestHardRunwayFeet: Int32?

    public init(id: Int32, latitudeMicrodegrees: Int32, longitudeMicrodegrees: Int32, type: AirfieldType,
                longestRunwayFeet: Int32?, longestHardRunwayFeet: Int32?) {
        self.id = id
        self.latitudeMicrodegrees = latitudeMicrodegrees
        self.longitudeMicrodegrees = longitudeMicrodegrees
        self.type = type
        self.longestRunwayFeet = longestRunwayFeet
        self.longestHardRunwayFeet = longestHardRunwayFeet
    }

    public var latitudeDegrees: Double { Double(latitudeMicrodegrees) / 1e6 }
    public var longitudeDegrees: Double { Double(longitudeMicrodegrees) / 1e6 }
}

/// A static k-d tree over the airfields' unit-sphere (ECEF on the unit sphere) positions: no special case at ±180° or at
/// the poles, since the chord between two unit vectors grows monotonically with the great-circle distance. The tree
/// only proposes candidates; the answer is ranked on the exact WGS-84 (Vincenty) distance, so it equals an exhaustive
/// scan (tested against one). Positions are kept as Float (≤ 0.4 m error, covered by a 5 m margin); the exact
/// microdegrees are kept for the distances.
public struct AirfieldIndex: Sendable {
    struct Entry {
        var id: Int32
        var latitudeMicrodegrees: Int32
        var longitudeMicrodegrees: Int32
        var longestRunwayFeet: Int32      // Int32.min: unknown
        var longestHardRunwayFeet: Int32  // Int32.min: none
        var typeBit: UInt16
    }

    /// One airfield found: its id and position, and the WGS-84 distance and bearing from the query point.
    public struct Hit: Sendable, Equatable {
        public var id: Int64
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public var inverse: Ellipsoid.Inverse
    }

    public static let leafSize = 8
    static let unknownFeet = Int32.min
    /// Sphere and ellipsoid distances differ by less than this fraction (0.5 %, with margin).
    public static let sphereTolerance = 0.006
    /// Covers the Float rounding of the stored unit vectors (≤ 0.4 m) many times over.
    static let marginMeters = 5.0

    /// Where the three arrays live: memory of this process, or a read-only mapping of a file (`AirfieldIndex+Image`).
    let storage: Storage
    /// x, y, z of each entry, in tree order.
    var coordinates: UnsafeBufferPointer<Float> { storage.coordinates }
    var entries: UnsafeBufferPointer<Entry> { storage.entries }
    /// The split axis of the node whose median sits at this position (unused at leaves).
    var axes: UnsafeBufferPointer<UInt8> { storage.axes }

    public var count: Int { entries.count }
    /// Bytes the index's arrays take (coordinates, entries, split axes), wherever they live.
    public var memoryBytes: Int {
        coordinates.count * MemoryLayout<Float>.stride + entries.count * MemoryLayout<Entry>.stride + axes.count
    }
    /// True when the arrays are a read-only mapping of a file (clean pages the kernel can drop), not heap.
    public var isMapped: Bool { storage.isMapped }

    /// The sites held (in tree order).
    public var sites: [AirfieldSite] {
        entries.map { entry in
            AirfieldSite(id: entry.id, latitudeMicrodegrees: entry.latitudeMicrodegrees, longitudeMicrodegrees: entry.longitudeMicrodegrees,
                         type: AirfieldType.allCases[entry.typeBit.trailingZeroBitCount],
                         longestRunwayFeet: entry.longestRunwayFeet == Self.unknownFeet ? nil : entry.longestRunwayFeet,
                         longestHardRunwayFeet: entry.longestHardRunwayFeet == Self.unknownFeet ? nil : entry.longestHardRunwayFeet)
        }
    }

    public init(sites: [AirfieldSite]) {
        let n = sites.count
        var xyz = [Float](repeating: 0, count: n * 3)
        for (index, site) in sites.enumerated() {
            let v = Self.unitVector(latitude: site.latitudeDegrees, longitude: site.longitudeDegrees)
            xyz[index * 3] = Float(v.0); xyz[index * 3 + 1] = Float(v.1); xyz[index * 3 + 2] = Float(v.2)
        }
        var order = (0..<n).map { Int32($0) }
        var axes = [UInt8](repeating: 0, count: n)
        Self.build(&order, xyz, &axes, 0, n)
        var coordinates = [Float](repeating: 0, count: n * 3)
        var entries: [Entry] = []
        entries.reserveCapacity(n)
        for (position, original) in order.enumerated() {
            let o = Int(original)
            for axis in 0..<3 { coordinates[position * 3 + axis] = xyz[o * 3 + axis] }
            let site = sites[o]
            entries.append(Entry(id: site.id, latitudeMicrodegrees: site.latitudeMicrodegrees,
                                 longitudeMicrodegrees: site.longitudeMicrodegrees,
                                 longestRunwayFeet: site.longestRunwayFeet ?? Self.unknownFeet,
                                 longestHardRunwayFeet: site.longestHardRunwayFeet ?? Self.unknownFeet,
                                 typeBit: Self.bit(site.type)))
        }
        storage = Storage(copying: coordinates, entries, axes)
    }

    init(coordinates: [Float], entries: [Entry], axes: [UInt8]) {
        storage = Storage(copying: coordinates, entries, axes)
    }

    init(storage: Storage) { self.storage = storage }

    /// The arrays, immutable once made: copied into memory this index owns, or a file mapping handed over with the
    /// function that unmaps it. Never written after `init`, so sharing it between threads is safe.
    final class Storage: @unchecked Sendable {
        let coordinates: UnsafeBufferPointer<Float>
        let entries: UnsafeBufferPointer<Entry>
        let axes: UnsafeBufferPointer<UInt8>
        /// Unmaps a mapping; nil for memory this storage allocated (freed in `deinit`).
        private let release: (@Sendable () -> Void)?
        var isMapped: Bool { release != nil }

        init(copying coordinates: [Float], _ entries: [Entry], _ axes: [UInt8]) {
            func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
                let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
                _ = buffer.initialize(from: array)
                return UnsafeBufferPointer(buffer)
            }
            self.coordinates = copy(coordinates)
            self.entries = copy(entries)
            self.axes = copy(axes)
            release = nil
        }

        init(mapped coordinates: UnsafeBufferPointer<Float>, _ entries: UnsafeBufferPointer<Entry>, _ axes: UnsafeBufferPointer<UInt8>,
             release: @escaping @Sendable () -> Void) {
            self.coordinates = coordinates
            self.entries = entries
            self.axes = axes
            self.release = release
        }

        deinit {
            if let release {
                release()
            } else {
                coordinates.deallocate()
                entries.deallocate()
                axes.deallocate()
            }
        }
    }

    static func bit(_ type: AirfieldType) -> UInt16 { 1 << UInt16(AirfieldType.allCases.firstIndex(of: type)!) }

    @inline(__always)
    static func unitVector(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let c = Double.cos(phi)
        return (c * Double.cos(lambda), c * Double.sin(lambda), Double.sin(phi))
    }

    /// Squared chord on the unit sphere for a great-circle distance in metres on the mean sphere.
    static func chordSquared(sphereMeters: Double) -> Double {
        let angle = min(.pi, max(0, sphereMeters) / GreatCircle.meanEarthRadiusMeters)
        let chord = 2 * Double.sin(angle / 2)
        return chord * chord
    }

    static func sphereMeters(chordSquared: Double) -> Double {
        2 * GreatCircle.meanEarthRadiusMeters * Double.asin(min(1, chordSquared.squareRoot() / 2))
    }

    /// Puts the median (by `axis`, ties by position) of `order[lo..<hi]` in the middle, recursively: an implicit tree.
    static func build(_ order: inout [Int32], _ xyz: [Float], _ axes: inout [UInt8], _ lo: Int, _ hi: Int) {
        guard hi - lo > leafSize else { return }
        var low: (Float, Float, Float) = (.infinity, .infinity, .infinity)
        var high: (Float, Float, Float) = (-.infinity, -.infinity, -.infinity)
        for i in lo..<hi {
            let p = Int(order[i]) * 3
            low = (min(low.0, xyz[p]), min(low.1, xyz[p + 1]), min(low.2, xyz[p + 2]))
            high = (max(high.0, xyz[p]), max(high.1, xyz[p + 1]), max(high.2, xyz[p + 2]))
        }
        let spreads = [high.0 - low.0, high.1 - low.1, high.2 - low.2]
        let axis = spreads[0] >= spreads[1] && spreads[0] >= spreads[2] ? 0 : (spreads[1] >= spreads[2] ? 1 : 2)
        let mid = (lo + hi) / 2
        select(&order, xyz, axis, lo, hi, mid)
        axes[mid] = UInt8(axis)
        build(&order, xyz, &axes, lo, mid)
        build(&order, xyz, &axes, mid + 1, hi)
    }

    /// Quickselect: afterwards order[k] is the k-th of order[lo..<hi] by (coordinate, index), smaller ones before it.
    static func select(_ order: inout [Int32], _ xyz: [Float], _ axis: Int, _ lo: Int, _ hi: Int, _ k: Int) {
        func less(_ a: Int32, _ b: Int32) -> Bool {
            let va = xyz[Int(a) * 3 + axis], vb = xyz[Int(b) * 3 + axis]
            return va < vb || (va == vb && a < b)
        }
        var left = lo, right = hi - 1
        while left < right {
            order.swapAt((left + right) / 2, right)
            let pivot = order[right]
            var store = left
            for i in left..<right where less(order[i], pivot) {
                order.swapAt(i, store)
                store += 1
            }
            order.swapAt(store, right)
            if store == k { return }
            if store < k { left = store + 1 } else { right = store - 1 }
        }
    }

    /// The filter as bit and integer tests on the packed columns (same rules as `AirfieldFilter.accepts`).
    struct Test {
        var typeMask: UInt16 = 0
        var minimumFeet: Double?
        var hardOnly: Bool

        init(_ filter: AirfieldFilter) {
            hardOnly = filter.hardSurfaceOnly
            minimumFeet = filter.minimumRunwayFeet
            // The set's members are visited, not looked up: a lookup hashes the type's raw value (a string), seven
            // times per query.
            if let types = filter.types {
                for type in types { typeMask |= AirfieldIndex.bit(type) }
            } else {
                typeMask = UInt16.max
            }
            if filter.excludeHeliports { typeMask &= ~AirfieldIndex.bit(.heliport) }
            if filter.excludeSeaplaneBases { typeMask &= ~AirfieldIndex.bit(.seaplaneBase) }
        }

        @inline(__always)
        func accepts(_ entry: Entry) -> Bool {
            guard entry.typeBit & typeMask != 0 else { return false }
            let feet = hardOnly ? entry.longestHardRunwayFeet : entry.longestRunwayFeet
            if hardOnly || minimumFeet != nil {
                guard feet != AirfieldIndex.unknownFeet else { return false }
                if let minimumFeet, Double(feet) < minimumFeet { return false }
            }
            return true
        }
    }

    /// The nearest airfields passing `filter` (up to its count, within its radius), nearest first by WGS-84 distance
    /// (ties by id). Candidates are ranked on the sphere; only those that could be among the nearest on the ellipsoid
    /// get the exact (Vincenty) distance.
    public func nearest(latitude: Double, longitude: Double, filter: AirfieldFilter) -> [Hit] {
        ranked(latitude: latitude, longitude: longitude, filter: filter).map(\.hit)
    }

    /// `nearest`, each hit with its entry's position.
    func ranked(latitude: Double, longitude: Double, filter: AirfieldFilter) -> [(hit: Hit, position: Int)] {
        let count = filter.maximumCount
        guard count > 0, !entries.isEmpty else { return [] }
        let limitMeters = filter.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        let q = Self.unitVector(latitude: latitude, longitude: longitude)
        let test = Test(filter)
        let sphereLimit = limitMeters * (1 + Self.sphereTolerance) + Self.marginMeters
        return rank(candidates(q, test, sphereLimit: sphereLimit, count: count), latitude: latitude, longitude: longitude, count: count,
                    limitMeters: limitMeters)
    }

    /// The same answer by scanning every entry (the reference the tree is tested and benchmarked against).
    public func linearScanNearest(latitude: Double, longitude: Double, filter: AirfieldFilter) -> [Hit] {
        let test = Test(filter)
        let limitMeters = filter.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        var hits: [Hit] = []
        for entry in entries where test.accepts(entry) {
            let hit = Self.hit(entry, latitude: latitude, longitude: longitude)
            if hit.inverse.distanceMeters <= limitMeters { hits.append(hit) }
        }
        hits.sort { ($0.inverse.distanceMeters, $0.id) < ($1.inverse.distanceMeters, $1.id) }
        return Array(hits.prefix(filter.maximumCount))
    }

    static func hit(_ entry: Entry, latitude: Double, longitude: Double) -> Hit {
        let lat = Double(entry.latitudeMicrodegrees) / 1e6, lon = Double(entry.longitudeMicrodegrees) / 1e6
        return Hit(id: Int64(entry.id), latitudeDegrees: lat, longitudeDegrees: lon,
                   inverse: Ellipsoid.inverse(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lon))
    }

    func rank(_ positions: [Int], latitude: Double, longitude: Double, count: Int, limitMeters: Double) -> [(hit: Hit, position: Int)] {
        var sphere: [(meters: Double, id: Int32, position: Int)] = positions.map { position in
            let entry = entries[position]
            let meters = GreatCircle.distanceMeters(latitude1: latitude, longitude1: longitude,
                                                    latitude2: Double(entry.latitudeMicrodegrees) / 1e6,
                                                    longitude2: Double(entry.longitudeMicrodegrees) / 1e6)
            return (meters, entry.id, position)
        }
        guard !sphere.isEmpty else { return [] }
        sphere.sort { ($0.meters, $0.id) < ($1.meters, $1.id) }
        let nth = sphere[min(count, sphere.count) - 1].meters
        let cutoff = nth * (1 + 2 * Self.sphereTolerance) + 1
        var hits: [(hit: Hit, position: Int)] = []
        for candidate in sphere where candidate.meters <= cutoff {
            let hit = Self.hit(entries[candidate.position], latitude: latitude, longitude: longitude)
            if hit.inverse.distanceMeters <= limitMeters { hits.append((hit, candidate.position)) }
        }
        hits.sort { ($0.hit.inverse.distanceMeters, $0.hit.id) < ($1.hit.inverse.distanceMeters, $1.hit.id) }
        return Array(hits.prefix(count))
    }
}
