public import CockpitCore
import CockpitIO

extension RelayEngine {
    enum Authentication {
        case key(slot: Int)
        case refused(reason: String)
    }

    /// Finds the key that made a tagged datagram's tag. A bound identifier costs one HMAC with its own key. Otherwise
    /// the keys are tried in order within the key-trial budgets (per source address and for the whole relay): a
    /// datagram that runs out of budget is `rate-limited-key-trials`, one that no key verifies is `bad-tag`, and one
    /// made by another key than the identifier's is `identifier-bound-to-other-key`. A report binds a free identifier
    /// to its key (a ground query's identifier is one-time and binds nothing).
    mutating func authenticate(_ datagram: [UInt8], address: RelaySource, nowSeconds: Double) -> Authentication {
        let identifier = UInt32(datagram[3]) << 16 | UInt32(datagram[4]) << 8 | UInt32(datagram[5])
        let bound = bindings.use(identifier, nowSeconds: nowSeconds)
        var skipping: Int?
        if let bound, let slot = keyring.slot(fingerprint: bound) {
            if keyring.verify(datagram, slot: slot) { return .key(slot: slot) }
            skipping = slot
        }
        let wanted = keyring.count - (skipping == nil ? 0 : 1)
        let fromAddress = keyTrials.withdraw(address, upTo: wanted, nowSeconds: nowSeconds)
        let granted = totalKeyTrials.withdraw(0, upTo: fromAddress, nowSeconds: nowSeconds)
        let search = keyring.search(datagram, skipping: skipping, budget: granted)
        keyTrials.refund(address, fromAddress - search.spent)
        totalKeyTrials.refund(0, granted - search.spent)
        guard let slot = search.slot else {
            return .refused(reason: search.exhausted ? RelayDrop.rateLimitedKeyTrials : TrafficPacket.Rejection.badTag.rawValue)
        }
        if bound != nil { return .refused(reason: RelayDrop.boundToOtherKey) }
        guard datagram[1] == TrafficPacket.MessageType.report.rawValue else { return .key(slot: slot) }
        switch bindings.bind(identifier, to: keyring.fingerprints[slot], nowSeconds: nowSeconds) {
        case .bound: return .key(slot: slot)
        case .full: return .refused(reason: RelayDrop.tableFull)
        case .boundToOther: return .refused(reason: RelayDrop.boundToOtherKey)
        }
    }

    /// Records a report's sequence number (or a ground query's one-time identifier) as used, never moving it back.
    /// `untilSeconds` is the moment the record counts from: later than now for a report dated ahead.
    mutating func useUp(_ report: TrafficPacket.Report, untilSeconds: Double) {
        if report.type == .groundQuery {
            if answeredQueries.count >= configuration.rateTableCapacity { answeredQueries.removeAll(keepingCapacity: true) }
            answeredQueries[report.identifier] = max(answeredQueries[report.identifier] ?? -.infinity, untilSeconds)
            return
        }
        if let last = lastSequence[report.identifier] {
            let ahead = report.sequence &- last.sequence
            guard ahead != 0 && ahead < 0x8000 else {
                if ahead == 0 { lastSequence[report.identifier]?.seconds = max(last.seconds, untilSeconds) }
                return
            }
            lastSequence[report.identifier] = (report.sequence, max(last.seconds, untilSeconds))
        } else {
            lastSequence[report.identifier] = (report.sequence, untilSeconds)
        }
    }

    /// A report another relay stored in the shared database, with the fingerprint of the key that authenticated it
    /// there. The database decides between relays who owns an identifier (its upsert refuses another key's row), so a
    /// local binding to another key gives way: that key's sequence numbers and picture entry go with it.
    public mutating func merge(_ report: TrafficPacket.Report, keyFingerprint: UInt64?, ageSeconds: Double, nowSeconds: Double) {
        guard ageSeconds <= configuration.expirySeconds else { return }
        let heardAtSeconds = nowSeconds - max(0, ageSeconds)
        if let keyFingerprint {
            if bindings.adopt(report.identifier, fingerprint: keyFingerprint, lastUsedSeconds: heardAtSeconds) {
                lastSequence[report.identifier] = nil
                picture.remove(report.identifier)
            }
        } else if bindings.fingerprint(of: report.identifier) != nil {
            return
        }
        picture.update(report, heardAtSeconds: heardAtSeconds, fromDatabase: true, holder: nil)
    }

    /// Bindings read from the shared database at start (identifiers other relays bound lately).
    public mutating func adoptBinding(_ identifier: UInt32, fingerprint: UInt64, silentSeconds: Double, nowSeconds: Double) {
        bindings.adopt(identifier, fingerprint: fingerprint, lastUsedSeconds: nowSeconds - max(0, silentSeconds))
    }
}
