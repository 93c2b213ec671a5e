/// A receiver gpsd has active that sends nothing: a dead serial line, the wrong baud rate, TX and RX swapped, a hung
/// USB puck. gpsd keeps such a receiver in its list and writes nothing for it, where a receiver that talks without a
/// fix gets a TPV of mode 1 every cycle (Debian's gpsd 3.22, with a UDP receiver). Without this the status would say
/// "no fix yet", as under a hangar roof, and an installer would wait for a fix that can never come.
extension GPSState {
    /// Nothing from any receiver for this long, while gpsd has one active, is silence: gpsd's cycle is 1 s, and a
    /// receiver reporting every 5 s (the slowest rate commonly set) is not called silent between its reports.
    public static let receiverSilentAfterSeconds = 10.0

    /// How long gpsd's active receivers have sent nothing, once that is longer than `receiverSilentAfterSeconds`;
    /// nil while something comes, without a connection to gpsd, and while gpsd has no receiver (said as such).
    public func receiverSilentSeconds(at now: MonotonicInstant) -> Double? {
        guard sourceConnected == true, activeReceivers?.isEmpty == false, let heard = receiverLastHeardAt else { return nil }
        let seconds = now.seconds(since: heard)
        return seconds > Self.receiverSilentAfterSeconds ? seconds : nil
    }

    /// gpsd wrote a report of a receiver's (a TPV of any mode, a SKY), or activated one: it talks, or may now.
    mutating func heardFromReceiver(at now: MonotonicInstant, effects: inout [Effect]) {
        if receiverSilenceSaid, let heard = receiverLastHeardAt {
            effects.append(.log(LogLine(.notice, "GPS receiver talks again after \(Int(now.seconds(since: heard).rounded())) s of silence")))
        }
        receiverSilenceSaid = false
        receiverLastHeardAt = now
    }

    /// Says the silence once, on the tick where it begins.
    mutating func tickReceiverSilence(at now: MonotonicInstant, effects: inout [Effect]) {
        guard !receiverSilenceSaid, let seconds = receiverSilentSeconds(at: now) else { return }
        receiverSilenceSaid = true
        let names = (activeReceivers ?? []).sorted().joined(separator: ", ")
        effects.append(.log(LogLine(.warning,
            "gpsd's GPS receiver (\(names)) has sent nothing for \(Int(seconds.rounded())) s: check its power, its cable and, on a serial line, the baud rate")))
    }
}
