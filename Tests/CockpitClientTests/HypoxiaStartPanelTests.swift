import Testing
import CockpitClient
import CockpitCore

/// The panel never says the cabin altitude is unknown while it shows one. Before the first second has run (a replay
/// or a power-up: a barometer sample and a fix, no tick yet) the timer has read nothing: it is starting.
@Suite("Hypoxia line at start")
struct HypoxiaStartPanelTests {
    /// A barometer sample of 874.8 hPa and a fix at 4,181 ft MSL, as in the demo's first frame; then `ticks` ticks, a
    /// sample and a fix before each when `baroKeepsSending`. 874.8 hPa is 4,009 ft pressure altitude in the ICAO
    /// standard atmosphere: 288.15 K / 0.0065 K/m × (1 − (874.8 / 1013.25)^0.190266) = 1,222.1 m.
    static func panel(ticks: Int, baroKeepsSending: Bool = true) -> String {
        var engine = Engine()
        for second in 0...ticks {
            let at = MonotonicInstant(seconds: Double(second))
            if second == 0 || baroKeepsSending {
                _ = engine.handle(.baro(BaroSample(pressurePascals: 87_480, temperatureCelsius: nil)), at: at.adding(seconds: 0.1))
            }
            let fix = GPSFix(utc: UTCInstant(year: 2017, month: 7, day: 15, hour: 11, minute: 15, second: 36).adding(seconds: Double(second)),
                             mode: .threeDimensional, latitudeDegrees: 51.1366, longitudeDegrees: 7.0177,
                             altitudeMSLMeters: UnitConversions.meters(fromFeet: 4_181),
                             groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 50), trackTrueDegrees: 352)
            _ = engine.handle(.gps(.fix(fix)), at: at.adding(seconds: 0.2))
            if second < ticks { _ = engine.handle(.tick, at: at.adding(seconds: 1)) }
        }
        return StatusPanel.render(.object(engine.snapshot.json))
    }

    static func line(_ label: String, in panel: String) -> String {
        panel.split(separator: "\n").map(String.init).first { $0.hasPrefix(label) } ?? "(no \(label) line)"
    }

    @Test func beforeTheFirstSecondTheTimerIsStartingNotHolding() {
        let panel = Self.panel(ticks: 0)
        #expect(Self.line("CABIN", in: panel).contains("4009 ft"), "\(panel)")
        #expect(Self.line("HYPOXIA", in: panel).contains("timer starting"), "\(panel)")
        #expect(!panel.contains("cabin altitude unknown"), "\(panel)")
    }

    @Test func afterTheFirstSecondTheDoseIsShown() {
        let panel = Self.panel(ticks: 1)
        #expect(Self.line("HYPOXIA", in: panel).contains("dose 0"), "\(panel)")
        #expect(!panel.contains("timer starting") && !panel.contains("cabin altitude unknown"), "\(panel)")
    }

    /// Holding is still said when it is true: the barometer silent for longer than its 2 s.
    @Test func aSilentBarometerStillHolds() {
        let panel = Self.panel(ticks: 5, baroKeepsSending: false)
        #expect(Self.line("HYPOXIA", in: panel).contains("cabin altitude unknown — timer holding"), "\(panel)")
        #expect(!Self.line("CABIN", in: panel).contains("4009 ft"), "\(panel)")
    }
}
