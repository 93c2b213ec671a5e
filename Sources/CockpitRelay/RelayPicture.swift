public import CockpitCore
import Glibc

/// The relay's picture: the latest report of every aircraft heard in the last 30 s, indexed by a latitude/longitude
/// grid so that a nearest-aircraft query visits only the cells that can hold an answer (never the whole table).
/// Each cell keeps its members' positions in a contiguous array, so a query reads no dictionary per candidate.
/// Bounded against crowds: a cell holds at most `maximumPerCell` aircraft (a new one beyond is left out, counted in
/// `cellFull`), and one source address at most `maximumPerAddress` (its newest replaces its oldest, counted in
/// `addressEvictions`), so neither a query's work nor one sender's share of the picture grows with what is sent.
/// Pure: time comes in as monotonic seconds from the caller.
public struct RelayPicture: Sendable {
    public struct Entry: Sendable {
        public var report: TrafficPacket.Report
        public var heardAtSeconds: Double
        /// Came through the shared database from another relay, not a datagram to this one.
        public var fromDatabase: Bool
        /// The source address (no port) whose datagram put the aircraft here; nil for the database's rows.
        public fileprivate(set) var holder: RelaySource?
        fileprivate var cell: Cell
        fileprivate var slot: Int
    }

    struct Cell: Hashable, Sendable {
        var latitudeIndex: Int32
        var longitudeIndex: Int32
    }

    /// What a query needs of a member, stored in the cell.
    struct Member: Sendable {
        var identifier: UInt32
        var latitude: Double
        var longitude: Double
        var altitudeFeet: Double   // NaN: not available
    }

    /// 0.25° cells: 15 nm north–south, so a 30 nm query visits 5 rows.
    static let cellDegrees = 0.25
    static let longitudeCells = Int32(360 / cellDegrees)

    public private(set) var entries: [UInt32: Entry] = [:]
    /// A cell's members and, slot for slot, their reports: a query scans the small members and copies the reports
    /// of the nearest straight from the cell (no lookup per answer in the table of every aircraft).
    struct Bucket: Sendable {
        var members: [Member] = []
        var reports: [TrafficPacket.Report] = []
    }

    private var cells: [Cell: Bucket] = [:]
    /// The aircraft each source address holds, oldest first.
    private var holdings = OwnerQueues<RelaySource>()
    public var count: Int { entries.count }
    public var maximumPerCell = Int.max
    public var maximumPerAddress = Int.max
    /// Aircraft in all (a new one beyond is left out, counted in `pictureFull`).
    public var maximumAircraft = Int.max
    /// New aircraft left out because the picture held `maximumAircraft`.
    public private(set) var pictureFull = 0
    /// New aircraft left out because their cell was full.
    public private(set) var cellFull = 0
    /// Aircraft removed because their address's newer ones took their place.
    public private(set) var addressEvictions = 0
    /// No query reads more members than this: with full cells all around, the answer is the nearest among them.
    static let maximumMembersScanned = 8_192

    public init() {}

    static func cell(latitude: Double, longitude: Double) -> Cell {
        let row = min(latitudeCells - 1, max(0, Int32(((latitude + 90) / cellDegrees).rounded(.down))))
        var column = Int32(((longitude + 180) / cellDegrees).rounded(.down)) % longitudeCells
        if column < 0 { column += longitudeCells }
        return Cell(latitudeIndex: row, longitudeIndex: column)
    }

    /// Inserts or replaces an aircraft's report; an older report (by its own time) than the one held is ignored.
    /// `holder`: the source address of the datagram (nil for the database's rows, which count for no address).
    @discardableResult
    public mutating func update(_ report: TrafficPacket.Report, heardAtSeconds: Double, fromDatabase: Bool, holder: RelaySource? = nil) -> Bool {
        let cell = Self.cell(latitude: report.latitudeDegrees, longitude: report.longitudeDegrees)
        let member = Member(identifier: report.identifier, latitude: report.latitudeDegrees, longitude: report.longitudeDegrees,
                            altitudeFeet: report.altitudeFeet ?? .nan)
        var slot: Int
        var previousHolder: RelaySource?
        if let existing = entries[report.identifier] {
            guard existing.report.utc <= report.utc else { return false }
            previousHolder = existing.holder
            if existing.cell == cell {
                slot = existing.slot
                cells[cell]!.members[slot] = member
                cells[cell]!.reports[slot] = report
            } else {
                guard (cells[cell]?.members.count ?? 0) < maximumPerCell else {
                    remove(report.identifier)   // not shown where it no longer is
                    cellFull += 1
                    return false
                }
                remove(from: existing.cell, slot: existing.slot)
                slot = append(member, report, to: cell)
            }
        } else {
            guard (cells[cell]?.members.count ?? 0) < maximumPerCell else {
                cellFull += 1
                return false
            }
            guard entries.count < maximumAircraft else {
                pictureFull += 1
                return false
            }
            slot = append(member, report, to: cell)
        }
        entries[report.identifier] = Entry(report: report, heardAtSeconds: heardAtSeconds, fromDatabase: fromDatabase,
                                           holder: previousHolder, cell: cell, slot: slot)
        if let holder, holder != previousHolder { hold(report.identifier, by: holder, previous: previousHolder) }
        return true
    }

    /// Takes the aircraft into `holder`'s share; over the limit, the share's oldest aircraft leaves the picture.
    private mutating func hold(_ identifier: UInt32, by holder: RelaySource, previous: RelaySource?) {
        if let previous { release(previous) }
        entries[identifier]?.holder = holder
        holdings.append(identifier, to: holder)
        while holdings.count(of: holder) > maximumPerAddress, let oldest = popOldest(of: holder) {
            remove(oldest)
            addressEvictions += 1
        }
        if holdings.isSparse(holder) {   // identifiers that left (expired, moved to another address) go
            holdings.replace(holder, pending: holdings.pending(holder).filter { entries[$0]?.holder == holder })
        }
    }

    private mutating func popOldest(of holder: RelaySource) -> UInt32? {
        while let identifier = holdings.popHead(of: holder) {
            if entries[identifier]?.holder == holder { return identifier }
        }
        return nil
    }

    private mutating func release(_ holder: RelaySource) { holdings.release(holder) }

    /// Removes an aircraft from the picture.
    public mutating func remove(_ identifier: UInt32) {
        guard let entry = entries.removeValue(forKey: identifier) else { return }
        remove(from: entry.cell, slot: entry.slot)
        if let holder = entry.holder { release(holder) }
    }

    private mutating func append(_ member: Member, _ report: TrafficPacket.Report, to cell: Cell) -> Int {
        cells[cell, default: Bucket()].members.append(member)
        cells[cell]!.reports.append(report)
        return cells[cell]!.members.count - 1
    }

    /// Swap-remove: the last member takes the freed slot (and its entry learns the new slot).
    private mutating func remove(from cell: Cell, slot: Int) {
        guard let last = cells[cell].map({ $0.members.count - 1 }) else { return }
        if slot != last {
            cells[cell]!.members.swapAt(slot, last)
            cells[cell]!.reports.swapAt(slot, last)
            entries[cells[cell]!.members[slot].identifier]?.slot = slot
        }
        cells[cell]!.members.removeLast()
        cells[cell]!.reports.removeLast()
        if last == 0 { cells[cell] = nil }
    }

    /// Forgets aircraft not heard for `expirySeconds`; returns how many left.
    @discardableResult
    public mutating func expire(nowSeconds: Double, expirySeconds: Double) -> Int {
        var gone: [UInt32] = []
        for (identifier, entry) in entries where nowSeconds - entry.heardAtSeconds > expirySeconds { gone.append(identifier) }
        for identifier in gone { remove(identifier) }
        entries.shrinkIfSparse()
        cells.shrinkIfSparse()
        holdings.shrinkIfSparse()
        return gone.count
    }

    var footprint: [RelayFootprint.Table] {
        [.init(name: "aircraft", count: entries.count, capacity: entries.capacity),
         .init(name: "cells", count: cells.count, capacity: cells.capacity),
         .init(name: "addressShares", count: holdings.owners, capacity: holdings.reservedCapacity)]
    }

    /// The aircraft within `radiusMeters` (and, when both altitudes are known, within `altitudeWindowFeet`) of the
    /// point, nearest first, excluding `excluding`; at most `limit`. Distances are taken on the plane at the pair's
    /// mean latitude: within 30 nm they differ from great-circle distances by about 0.01 %. Where the circle comes
    /// within `polarLatitude` of a pole the plane fails (the columns converge, and an aircraft across the pole is
    /// near however far its longitude): there the query visits every longitude of its rows and takes haversine
    /// distances.
    /// `reportedSinceEpochSeconds`: leave out aircraft whose report time is older (a dense reply cannot code an age over
    /// 31.875 s).
    public func nearest(latitude: Double, longitude: Double, altitudeFeet: Double?, radiusMeters: Double,
                        altitudeWindowFeet: Double, excluding: UInt32?, limit: Int,
                        reportedSinceEpochSeconds: Double = -.infinity) -> [TrafficPacket.Report] {
        guard limit > 0 else { return [] }
        let metersPerRadian = GreatCircle.meanEarthRadiusMeters, radians = Double.pi / 180
        let radiusDegrees = radiusMeters / metersPerRadian / radians
        let center = Self.cell(latitude: latitude, longitude: longitude)
        let rows = Int32((radiusDegrees / Self.cellDegrees).rounded(.up))
        let polar = abs(latitude) + radiusDegrees > Self.polarLatitude
        let widest = max(abs(max(-90, latitude - radiusDegrees)), abs(min(90, latitude + radiusDegrees)))
        let widestCosine = cos(widest * radians)
        let columns: Int32 = polar || widestCosine < 1e-6 ? Self.longitudeCells / 2
            : min(Self.longitudeCells / 2, Int32((radiusDegrees / widestCosine / Self.cellDegrees).rounded(.up)))
        // East scale at the mean latitude of the pair, cos((φ+φ0)/2) ≈ cos φ0 − sin φ0·Δφ/2: cheap and second-order exact.
        let northScale = metersPerRadian * radians, cosine = cos(latitude * radians), sine = sin(latitude * radians)
        let radiusSquared = radiusMeters * radiusMeters
        let ownAltitude = altitudeFeet ?? .nan
        // The cells in range, nearest first by a lower bound on the distance of anything in them: once `limit`
        // aircraft are found, a cell whose bound is beyond the farthest of them cannot change the answer, and
        // neither can any later cell (in a dense area the nearest 31 lie in the central few cells).
        var visits: [(boundSquared: Double, cell: Cell)] = []
        visits.reserveCapacity(Int((2 * rows + 1) * (2 * columns + 1)))
        let centerWest = Double(center.longitudeIndex) * Self.cellDegrees - 180
        let span = min(columns, Self.longitudeCells / 2)
        for row in max(0, center.latitudeIndex - rows)...min(Self.latitudeCells - 1, center.latitudeIndex + rows) {
            let south = Double(row) * Self.cellDegrees - 90, north = south + Self.cellDegrees
            let northGap = max(0, south - latitude, latitude - north)
            // |east scale| over the row's latitudes (linear in latitude: its smallest magnitude is at an edge or 0).
            let scaleSouth = cosine - sine * (south - latitude) * radians / 2, scaleNorth = cosine - sine * (north - latitude) * radians / 2
            let eastScale = scaleSouth * scaleNorth <= 0 ? 0 : min(abs(scaleSouth), abs(scaleNorth))
            for offset in -span...span {
                if offset == span && span == Self.longitudeCells / 2 && offset != -span { continue }   // whole ring: once
                var column = (center.longitudeIndex + offset) % Self.longitudeCells
                if column < 0 { column += Self.longitudeCells }
                let west = centerWest + Double(offset) * Self.cellDegrees, east = west + Self.cellDegrees
                let near = offset == 0 ? 0 : offset > 0 ? west - longitude : longitude - east
                let far = offset > 0 ? east - longitude : longitude - west
                let eastGap = max(0, min(near, 360 - far))   // a member's Δλ is wrapped into ±180°
                // Near a pole only the latitude gap bounds a great-circle distance from below.
                let northMeters = northGap * northScale, eastMeters = polar ? 0 : eastGap * northScale * eastScale
                let boundSquared = northMeters * northMeters + eastMeters * eastMeters
                guard boundSquared <= radiusSquared else { continue }
                visits.append((boundSquared, Cell(latitudeIndex: row, longitudeIndex: column)))
            }
        }
        visits.sort { $0.boundSquared < $1.boundSquared }
        // The `limit` nearest so far, nearest first (a bounded insertion: no sort of every candidate in range).
        var found: [Candidate] = []
        found.reserveCapacity(limit)
        var scanned: [[TrafficPacket.Report]] = []   // the reports of the cells visited, for the answer
        var membersScanned = 0
        for visit in visits {
            if found.count == limit, visit.boundSquared > found[limit - 1].distanceSquared { break }
            if membersScanned >= Self.maximumMembersScanned { break }
            guard let bucket = cells[visit.cell] else { continue }
            let cellIndex = Int32(scanned.count)
            scanned.append(bucket.reports)
            membersScanned += bucket.members.count
            for (slot, member) in bucket.members.enumerated() where member.identifier != excluding {
                let deltaLatitude = member.latitude - latitude
                var deltaLongitude = member.longitude - longitude
                if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
                let squared: Double
                if polar {
                    let meters = Self.haversineMeters(deltaLatitude: deltaLatitude, deltaLongitude: deltaLongitude,
                                                      latitude: latitude, otherLatitude: member.latitude)
                    squared = meters * meters
                } else {
                    let north = deltaLatitude * northScale
                    let east = deltaLongitude * northScale * (cosine - sine * deltaLatitude * radians / 2)
                    squared = north * north + east * east
                }
                guard squared <= radiusSquared else { continue }
                if abs(member.altitudeFeet - ownAltitude) > altitudeWindowFeet { continue }   // NaN on either side: kept
                if reportedSinceEpochSeconds.isFinite, bucket.reports[slot].utc.secondsSinceEpoch < reportedSinceEpochSeconds { continue }
                Self.keepNearest(&found, Candidate(distanceSquared: squared, identifier: member.identifier, cell: cellIndex, slot: Int32(slot)),
                                 limit: limit)
            }
        }
        return found.map { scanned[Int($0.cell)][Int($0.slot)] }
    }

    /// Above this latitude (the query's plus its radius) a query takes the polar path.
    static let polarLatitude = 88.0
    static let latitudeCells = Int32(180 / cellDegrees)

    static func haversineMeters(deltaLatitude: Double, deltaLongitude: Double, latitude: Double, otherLatitude: Double) -> Double {
        let radians = Double.pi / 180
        let a = sin(deltaLatitude * radians / 2), b = sin(deltaLongitude * radians / 2)
        let h = a * a + cos(latitude * radians) * cos(otherLatitude * radians) * b * b
        return 2 * GreatCircle.meanEarthRadiusMeters * asin(min(1, h.squareRoot()))
    }

    struct Candidate {
        var distanceSquared: Double
        var identifier: UInt32
        var cell: Int32   // index into the visited cells' reports
        var slot: Int32
    }

    /// Inserts a candidate into `found` (sorted by distance, then identifier; at most `limit` long) if it is among
    /// the nearest `limit`. Same order as sorting all candidates and taking the first `limit`.
    static func keepNearest(_ found: inout [Candidate], _ candidate: Candidate, limit: Int) {
        func before(_ a: Candidate, _ b: Candidate) -> Bool {
            a.distanceSquared < b.distanceSquared || (a.distanceSquared == b.distanceSquared && a.identifier < b.identifier)
        }
        if found.count == limit {
            guard before(candidate, found[limit - 1]) else { return }
            found.removeLast()
        }
        var index = found.count
        found.append(candidate)
        while index > 0, before(candidate, found[index - 1]) {
            found[index] = found[index - 1]
            index -= 1
        }
        found[index] = candidate
    }
}
