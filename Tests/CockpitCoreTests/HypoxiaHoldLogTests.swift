import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The log says when the hypoxia timer stops counting for want of a cabin altitude, and when it counts again: a
/// journal that ends on "holding" while the timer runs is as wrong as one that never said it held.
@Suite("Hypoxia timer hold in the log")
struct HypoxiaHoldLogTests {
    /// 4 Hz barometer samples at 12,000 ft (ICAO standard atmosphere pressure), 1 Hz ticks; the barometer silent for
    /// `gap` (sample times in seconds), then back.
    func logLines(gap: ClosedRange<Double>) -> [String] {
        var engine = Engine(configuration: CoreConfiguration())
        var lines: [String] = []
        for step in 1...160 {   // 40 s
            let time = Double(step) / 4
            let at = MonotonicInstant(seconds: time)
            var effects: [Effect] = []
            if !gap.contains(time) {
                let pascals = StandardAtmosphere.pressurePascals(pressureAltitudeFeet: 12_000)
                effects += engine.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 5)), at: at)
            }
            if step % 4 == 0 { effects += engine.handle(.tick, at: at) }
            for case .log(let line) in effects where line.message.hasPrefix("hypoxia timer") { lines.append(line.message) }
        }
        return lines
    }

    @Test func aHoldIsFollowedByTheTimerCountingAgain() {
        // Silent from 10 s to 20 s: stale after 2 s without a sample (the default), so the timer holds at the tick of
        // 13 s and counts again at the first tick with a fresh sample.
        #expect(logLines(gap: 10...20) == ["hypoxia timer holding: cabin altitude unknown", "hypoxia timer back on cabin altitude"])
    }

    @Test func theFirstCabinAltitudeAtStartIsNotABackOn() {
        #expect(logLines(gap: 100...200).isEmpty)
    }
}
