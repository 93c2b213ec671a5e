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

/// Which receivers gpsd has active. gpsd stays up when the receiver is unplugged, and runs with none when it was never
/// given one (its DEVICES setting, a USB receiver not plugged in): the connection alone said "connected", and the pilot
/// or installer saw only "no fix", as under a roof. gpsd lists its receivers to each client and reports each one it
/// activates or deactivates; the log and the status say when there is none.
extension GPSState {
    /// At most this many receivers are tracked (a hostile stream could name a new one in every line).
    static let maximumReceivers = 16

    static let noReceiverAdvice = "gpsd has no active GPS receiver: check the receiver's cable and gpsd's DEVICES setting"

    mutating func applyReceiverList(_ list: [GPSReceiver], at now: MonotonicInstant, effects: inout [Effect]) {
        let active = Set(list.filter(\.active).map(\.path).prefix(Self.maximumReceivers))
        if active.isEmpty, activeReceivers?.isEmpty != true {
            effects.append(.log(LogLine(.warning, Self.noReceiverAdvice)))
        }
        // A receiver where there was none: its silence counts from now, not from when gpsd last had one.
        if activeReceivers?.isEmpty != false, !active.isEmpty { receiverLastHeardAt = now }
        activeReceivers = active
    }

    mutating func applyReceiverChange(_ receiver: GPSReceiver, at now: MonotonicInstant, effects: inout [Effect]) {
        var active = activeReceivers ?? []
        if receiver.active {
            // gpsd says so again once it knows the driver (the receiver's first data): heard, though not a new receiver.
            heardFromReceiver(at: now, effects: &effects)
            guard !active.contains(receiver.path), active.count < Self.maximumReceivers else { return }
            active.insert(receiver.path)
            effects.append(.log(LogLine(.notice, "GPS receiver \(receiver.path) active in gpsd")))
        } else {
            guard let known = activeReceivers else {
                // gpsd has not listed its receivers yet (it always does first): said, but no claim about the others.
                effects.append(.log(LogLine(.warning, "GPS receiver \(receiver.path) gone: gpsd deactivated it")))
                return
            }
            guard known.contains(receiver.path) else { return }
            active.remove(receiver.path)
            let none = active.isEmpty ? "; " + Self.noReceiverAdvice : ""
            effects.append(.log(LogLine(.warning, "GPS receiver \(receiver.path) gone: gpsd deactivated it\(none)")))
        }
        activeReceivers = active
    }
}
