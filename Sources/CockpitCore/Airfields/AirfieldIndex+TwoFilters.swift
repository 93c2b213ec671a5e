extension AirfieldIndex {
    /// `nearest` for two filters at one place (the daemon's lookup every 5 s: the nearest usable airfields, and the best
    /// suitable one). When every airfield `second` accepts is one `filter` accepts (`Test.includes`), the answer for
    /// `second` is read off the answer for `filter` if enough of its airfields pass `second` within `second`'s radius:
    /// an airfield `second` would rank before one of them is nearer (or as near with a lower id), passes `filter` and
    /// lies within its radius, so it is in that answer before it. Otherwise `second` is asked for as usual. Both answers
    /// are the ones `nearest` gives for each filter alone.
    public func nearest(latitude: Double, longitude: Double, filter: AirfieldFilter,
                        andNearest second: AirfieldFilter) -> (first: [Hit], second: [Hit]) {
        let first = ranked(latitude: latitude, longitude: longitude, filter: filter)
        let secondTest = Test(second)
        if second.maximumCount > 0, Test(filter).includes(secondTest) {
            let limitMeters = second.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
            var read: [Hit] = []
            for (hit, position) in first where secondTest.accepts(entries[position]) && hit.inverse.distanceMeters <= limitMeters {
                read.append(hit)
                if read.count == second.maximumCount { return (first.map(\.hit), read) }
            }
        }
        return (first.map(\.hit), nearest(latitude: latitude, longitude: longitude, filter: second))
    }
}

extension AirfieldIndex.Test {
    /// Whether every entry `other` accepts is one this test accepts: its types are among this test's, and this test
    /// asks nothing of the runways.
    func includes(_ other: AirfieldIndex.Test) -> Bool {
        other.typeMask & ~typeMask == 0 && !hardOnly && minimumFeet == nil
    }
}
