import CockpitCore

/// The airfield index as the daemon reads it from disk: the stored index (a blob in the airfield database, written by
/// the importer) and the cache image (a file in CACHE_DIRECTORY that the daemon maps read-only). A damaged SD card can
/// hand either one any bytes; each must be refused with a reason or give an index that answers queries sanely.
enum AirfieldIndexFuzz {
    /// Mode byte: bit 0 — the payload is a cache image (else a stored index); bit 1 — make the header's size fields
    /// and magic agree with the payload, so that the fuzzer gets past them; bit 2 — write the right checksum, so that
    /// it reaches the entry checks and the queries; bits 3–7 pick the query position. Then the payload.
    static func index(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let mode = input.byte()
        var payload = input.rest
        let isImage = mode & 1 != 0
        if isImage {
            if mode & 2 != 0 { fixImageHeader(&payload) }
            if mode & 4 != 0 { fixImageChecksum(&payload) }
        } else {
            if mode & 2 != 0 { fixStoredHeader(&payload) }
            if mode & 4 != 0 { fixStoredChecksum(&payload) }
        }
        guard let index = isImage ? mapped(payload) : stored(payload) else { return }
        query(index, position: Int(mode >> 3))
        roundTrip(index)
    }

    static func stored(_ payload: [UInt8]) -> AirfieldIndex? {
        do {
            return try payload.withUnsafeBytes { raw throws(AirfieldIndex.StoredFormatError) in try AirfieldIndex(stored: raw) }
        } catch {
            _ = String(describing: error)
            return nil
        }
    }

    /// The image in its own page-aligned allocation, freed by `release` as the daemon's mapping is unmapped by it
    /// (so the leak checker sees a release that is missed or called twice).
    static func mapped(_ payload: [UInt8]) -> AirfieldIndex? {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(payload.count, 1), alignment: 4096)
        payload.withUnsafeBytes { source in
            if let base = source.baseAddress { raw.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        let address = Int(bitPattern: raw.baseAddress)
        let sourceChecksum = payload.count >= 24 ? payload.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self) } : 0
        do {
            return try AirfieldIndex(image: UnsafeRawBufferPointer(start: raw.baseAddress, count: payload.count),
                                     sourceChecksum: sourceChecksum,
                                     release: { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() })
        } catch {
            _ = error.description
            return nil
        }
    }

    /// Queries an accepted index with and without filters: whatever the entries, the answer is at most the count asked
    /// for, inside the radius and nearest first.
    static func query(_ index: AirfieldIndex, position: Int) {
        let places: [(Double, Double)] = [(47.4647, 8.5492), (-16.69, -179.88), (89.999, 0), (-90, 180), (0, -180), (51.47, -0.4543),
                                          (-33.9461, 151.1772), (64.13, -21.94)]
        let (latitude, longitude) = places[position % places.count]
        var filters = [AirfieldFilter()]
        var usable = AirfieldFilter()
        usable.excludeHeliports = true; usable.excludeSeaplaneBases = true; usable.minimumRunwayFeet = 2_000; usable.hardSurfaceOnly = true
        filters.append(usable)
        var wide = AirfieldFilter()
        wide.maximumCount = 50; wide.radiusNauticalMiles = 12_000; wide.types = [.smallAirport, .closed]
        filters.append(wide)
        for filter in filters {
            let hits = index.nearest(latitude: latitude, longitude: longitude, filter: filter)
            precondition(hits.count <= filter.maximumCount, "more airfields than asked for")
            let limit = filter.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
            for (at, hit) in hits.enumerated() {
                precondition(hit.inverse.distanceMeters <= limit, "an airfield beyond the radius")
                if at > 0 { precondition(hits[at - 1].inverse.distanceMeters <= hit.inverse.distanceMeters, "not nearest first") }
            }
        }
    }

    /// What the daemon writes from an accepted index must be accepted again and hold the same airfields.
    static func roundTrip(_ index: AirfieldIndex) {
        let sites = index.sites
        guard let again = stored(index.stored()) else { preconditionFailure("an accepted index's stored form is refused") }
        precondition(again.sites == sites, "the stored form changed the airfields")
        let image = index.image(sourceChecksum: 0x1234_5678_9abc_def0)
        guard let mappedAgain = mapped(image) else { preconditionFailure("an accepted index's image is refused") }
        precondition(mappedAgain.sites == sites, "the image changed the airfields")
    }

    // The header and checksum fix-ups, from the layouts' own constants (AirfieldIndex+Stored.swift, +Image.swift).

    static func fixStoredHeader(_ payload: inout [UInt8]) {
        let header = AirfieldIndex.storedHeaderBytes, entry = AirfieldIndex.storedEntryBytes
        guard payload.count >= header + 8 else { return }
        let count = (payload.count - header - 8) / entry
        payload.removeLast((payload.count - header - 8) % entry)
        put(AirfieldIndex.storedMagic, at: 0, in: &payload)
        put(littleEndian: AirfieldIndex.storedFormat, at: 4, in: &payload)
        put(littleEndian: UInt32(count), at: 8, in: &payload)
        put(littleEndian: UInt32(AirfieldIndex.leafSize), at: 12, in: &payload)
    }

    static func fixStoredChecksum(_ payload: inout [UInt8]) {
        guard payload.count >= AirfieldIndex.storedHeaderBytes + 8 else { return }
        put(littleEndian: AirfieldIndex.fnv1a(payload[0..<(payload.count - 8)]), at: payload.count - 8, in: &payload)
    }

    static func fixImageHeader(_ payload: inout [UInt8]) {
        let header = AirfieldIndex.imageHeaderBytes, stride = AirfieldIndex.imageEntryStride
        guard payload.count >= header else { return }
        let perEntry = AirfieldIndex.imageBytesPerEntry
        let count = (payload.count - header) / perEntry
        payload.removeLast((payload.count - header) % perEntry)
        put(AirfieldIndex.imageMagic, at: 0, in: &payload)
        put(littleEndian: AirfieldIndex.imageFormat, at: 4, in: &payload)
        put(littleEndian: UInt32(count), at: 8, in: &payload)
        put(littleEndian: UInt32(stride), at: 12, in: &payload)
    }

    static func fixImageChecksum(_ payload: inout [UInt8]) {
        guard payload.count >= AirfieldIndex.imageHeaderBytes else { return }
        put(littleEndian: AirfieldIndex.fnv1a(payload[AirfieldIndex.imageHeaderBytes...]), at: 24, in: &payload)
    }

    static func put(_ bytes: [UInt8], at offset: Int, in payload: inout [UInt8]) {
        for (i, byte) in bytes.enumerated() { payload[offset + i] = byte }
    }

    static func put<Value: FixedWidthInteger>(littleEndian value: Value, at offset: Int, in payload: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { put(Array($0), at: offset, in: &payload) }
    }
}
