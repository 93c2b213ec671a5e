public import CockpitCore
import Glibc

/// The relay's picture: the latest report of every aircraft heard in the last 30 s, indexed by a latitude/longitude
/// grid so that a nearest-aircraft query visits only the cells that can hold an answer (never the whole table).
/// Each cell keeps its members' positions in a contiguous array, so a query reads no dictionary per candidate.
/// Pure: time comes in as monotonic seconds from the caller.
public struct RelayPicture: Sendable {
    public struct Entry: Sendable {
        public var report: TrafficPacket.Report
        public var heardAtSeconds: Double
        /// Came through the shared database from another relay, not a datagram to this one.
        public var fromDatabase: Bool
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
    private var cells: [Cell: [Member]] = [:]
    public var count: Int { entries.count }

    public init() {}

    static func cell(latitude: Double, longitude: Double) -> Cell {
        let row = Int32(((latitude + 90) / cellDegrees).rounded(.down))
        var column = Int32(((longitude + 180) / cellDegrees).rounded(.down)) % longitudeCells
        if column < 0 { column += longitudeCells }
        return Cell(latitudeIndex: row, longitudeIndex: column)
    }

    /// Inserts or replaces an aircraft's report; an older report (by its own time) than the one held is ignored.
    @discardableResult
    public mutating func update(_ report: TrafficPacket.Report, heardAtSeconds: Double, fromDatabase: Bool) -> Bool {
        let cell = Self.cell(latitude: report.latitudeDegrees, longitude: report.longitudeDegrees)
        let member = Member(identifier: report.identifier, latitude: report.latitudeDegrees, longitude: report.longitudeDegrees,
                            altitudeFeet: report.altitudeFeet ?? .nan)
        var slot: Int
        if let existing = entries[report.identifier] {
            guard existing.report.utc <= report.utc else { return false }
            if existing.cell == cell {
                slot = existing.slot
                cells[cell]![slot] = member
            } else {
                remove(from: existing.cell, slot: existing.slot)
                slot = append(member, to: cell)
            }
        } else {
            slot = append(member, to: cell)
        }
        entries[report.identifier] = Entry(report: report, heardAtSeconds: heardAtSeconds, fromDatabase: fromDatabase, cell: cell, slot: slot)
        return true
    }

    private mutating func append(_ member: Member, to cell: Cell) -> Int {
        var slot = 0
        cells[cell, default: []].append(member)
        slot = cells[cell]!.count - 1
        return slot
    }

    /// Swap-remove: the last member takes the freed slot (and its entry learns the new slot).
    private mutating func remove(from cell: Cell, slot: Int) {
        guard var members = cells[cell] else { return }
        let last = members.count - 1
        if slot != last {
            members[slot] = members[last]
            entries[members[slot].identifier]?.slot = slot
        }
        members.removeLast()
        cells[cell] = members.isEmpty ? nil : members
    }

    /// Forgets aircraft not heard for `expirySeconds`; returns how many left.
    @discardableResult
    public mutating func expire(nowSeconds: Double, expirySeconds: Double) -> Int {
        var gone: [UInt32] = []
        for (identifier, entry) in entries where nowSeconds - entry.heardAtSeconds > expirySeconds { gone.append(identifier) }
        for identifier in gone {
            guard let entry = entries[identifier] else { continue }
            remove(from: entry.cell, slot: entry.slot)
            entries[identifier] = nil
        }
        return gone.count
    }

    /// The aircraft within `radiusMeters` (and, when both altitudes are known, within `altitudeWindowFeet`) of the
    /// point, nearest first, excluding `excluding`; at most `limit`. Distances are taken on the plane at the pair's
    /// mean latitude: within 30 nm they differ from great-circle distances by about 0.01 %.
    public func nearest(latitude: Double, longitude: Double, altitudeFeet: Double?, radiusMeters: Double,
                        altitudeWindowFeet: Double, excluding: UInt32?, limit: Int) -> [TrafficPacket.Report] {
        guard limit > 0 else { return [] }
        let metersPerRadian = GreatCircle.meanEarthRadiusMeters, radians = Double.pi / 180
        let radiusDegrees = radiusMeters / metersPerRadian / radians
        let center = Self.cell(latitude: latitude, longitude: longitude)
        let rows = Int32((radiusDegrees / Self.cellDegrees).rounded(.up))
        let widest = max(abs(max(-90, latitude - radiusDegrees)), abs(min(90, latitude + radiusDegrees)))
        let widestCosine = cos(widest * radians)
        let columns: Int32 = widestCosine < 1e-6 ? Self.longitudeCells / 2
            : min(Self.longitudeCells / 2, Int32((radiusDegrees / widestCosine / Self.cellDegrees).rounded(.up)))
        // East scale at the mean latitude of the pair, cos((φ+φ0)/2) ≈ cos φ0 − sin φ0·Δφ/2: cheap and second-order exact.
        let northScale = metersPerRadian * radians, cosine = cos(latitude * radians), sine = sin(latitude * radians)
        let radiusSquared = radiusMeters * radiusMeters
        let ownAltitude = altitudeFeet ?? .nan
        var found: [(distanceSquared: Double, identifier: UInt32)] = []
        for row in (center.latitudeIndex - rows)...(center.latitudeIndex + rows) {
            let span = min(columns, Self.longitudeCells / 2)
            for offset in -span...span {
                if offset == span && span == Self.longitudeCells / 2 && offset != -span { continue }   // whole ring: once
                var column = (center.longitudeIndex + offset) % Self.longitudeCells
                if column < 0 { column += Self.longitudeCells }
                guard let members = cells[Cell(latitudeIndex: row, longitudeIndex: column)] else { continue }
                for member in members where member.identifier != excluding {
                    let deltaLatitude = member.latitude - latitude
                    let north = deltaLatitude * northScale
                    var deltaLongitude = member.longitude - longitude
                    if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
                    let east = deltaLongitude * northScale * (cosine - sine * deltaLatitude * radians / 2)
                    let squared = north * north + east * east
                    guard squared <= radiusSquared else { continue }
                    if abs(member.altitudeFeet - ownAltitude) > altitudeWindowFeet { continue }   // NaN on either side: kept
                    found.append((squared, member.identifier))
                }
            }
        }
        found.sort { $0.distanceSquared < $1.distanceSquared || ($0.distanceSquared == $1.distanceSquared && $0.identifier < $1.identifier) }
        return found.prefix(limit).compactMap { entries[$0.identifier]?.report }
    }
}
