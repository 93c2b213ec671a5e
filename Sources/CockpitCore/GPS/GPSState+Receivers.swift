/// One receiver at a time, and its fixes in time order. gpsd serves every receiver it has (a USB GPS and a traffic
/// box's GPS, hot-plugged) on one stream, each report naming its `device`; mixed, they made the position jump between
/// two places every report, and a frozen receiver repeating one fix looked fresh for as long as it repeated it.
extension GPSState {
    /// Whether a report from `reporting` may be used: always when it names no receiver or the one in use; another
    /// receiver's only while the one in use has no fresh position (then it takes over, said in the log).
    mutating func accepts(device reporting: String?, at now: MonotonicInstant, staleAfterSeconds: Double,
                          effects: inout [Effect]) -> Bool {
        guard let reporting, let current = device, reporting != current else { return true }
        if validity(at: now, staleAfterSeconds: staleAfterSeconds) == .valid {
            otherDeviceReports += 1
            // Logged once per receiver (a bounded set: a hostile stream could name a new device in every line).
            if ignoredDevices.count < 8, ignoredDevices.insert(reporting).inserted {
                effects.append(.log(LogLine(.warning,
                    "another GPS receiver (\(reporting)) reports through gpsd: ignored while \(current) has a position")))
            }
            return false
        }
        if lastFix?.device != reporting {
            effects.append(.log(LogLine(.notice, "GPS reports from \(reporting) used: \(current) has no fresh position")))
        }
        return true
    }

    /// Whether a position fix's time may be used: not when it is older than the last fix's (a replayed or confused
    /// stream). Three older fixes in a row that go forward among themselves are a receiver whose clock stepped back
    /// (a reset, a week-number fix): followed from then on, said in the log, so the position is not lost for good.
    mutating func usesTime(of fix: GPSFix, effects: inout [Effect]) -> Bool {
        guard let utc = fix.utc, let last = lastPositionFix, last.device == fix.device, let lastUTC = last.utc,
              utc < lastUTC else {
            backwardsRun = 0
            lastRefusedUTC = nil
            return true
        }
        if let refused = lastRefusedUTC, utc > refused { backwardsRun += 1 } else { backwardsRun = 1 }
        lastRefusedUTC = utc
        let back = lastUTC.seconds(since: utc)
        guard backwardsRun >= 3 else {
            fixTimeStepsBack += 1
            effects.append(.log(LogLine(.warning, "GPS fix time went back \(Durations.hoursMinutesSeconds(back)) (\(utc) after \(lastUTC)): fix not used")))
            return false
        }
        effects.append(.log(LogLine(.notice, "GPS time stepped back \(Durations.hoursMinutesSeconds(back)) and goes on from there: following the receiver")))
        backwardsRun = 0
        lastRefusedUTC = nil
        return true
    }
}
