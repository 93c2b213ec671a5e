import RealModule

/// Time of Useful Consciousness (TUC) by cabin pressure altitude: the **lower end** of the published ranges for an
/// average person at rest after a gradual ascent (rapid-decompression figures are not used). Sources and reasoning in
/// docs/hypoxia.md: FAA AC 61-107B CHG 1 table and its caution, FAA AIM 8-1-2, FAA CAMI physiology tables.
/// Between rows, ln(TUC) is interpolated linearly in altitude; above the last row the last value holds.
public enum TimeOfUsefulConsciousness {
    public struct Row: Sendable, Equatable {
        public var altitudeFeet: Double
        public var minutes: Double
        public var source: String
    }

    public static let table: [Row] = [
        Row(altitudeFeet: 10_000, minutes: 60, source: "no TUC is published; 60 min makes the 50 % alert fall at EASA NCO.OP.190's 30 minutes"),
        Row(altitudeFeet: 12_500, minutes: 60, source: "ditto: 14 CFR 91.211(a)(1), crew oxygen after 30 min above 12,500 ft"),
        Row(altitudeFeet: 15_000, minutes: 30, source: "AIM 8-1-2: performance can deteriorate seriously within 15 min"),
        Row(altitudeFeet: 18_000, minutes: 20, source: "AIM 8-1-2 / CAMI: 20–30 min"),
        Row(altitudeFeet: 20_000, minutes: 5, source: "AIM 8-1-2: 5–12 min (AC 61-107B's 30 min is the optimistic outlier)"),
        Row(altitudeFeet: 22_000, minutes: 5, source: "AC 61-107B: 5–10 min; CAMI: 10 min"),
        Row(altitudeFeet: 25_000, minutes: 3, source: "AC 61-107B / CAMI: 3–5 min"),
        Row(altitudeFeet: 28_000, minutes: 2.5, source: "AC 61-107B / CAMI: 2.5–3 min"),
        Row(altitudeFeet: 30_000, minutes: 1, source: "AC 61-107B / CAMI: 1–2 min"),
        Row(altitudeFeet: 35_000, minutes: 0.5, source: "AC 61-107B / CAMI: 30–60 s"),
        Row(altitudeFeet: 40_000, minutes: 0.25, source: "AC 61-107B / CAMI: 15–20 s"),
        Row(altitudeFeet: 43_000, minutes: 0.15, source: "CAMI: 9–12 s at 43,000 ft"),
    ]

    /// The altitude at which dose starts to accumulate.
    public static let thresholdFeet = 10_000.0

    /// TUC in seconds at a cabin altitude, or nil below 10,000 ft (no dose accrues there).
    public static func seconds(atCabinAltitudeFeet altitude: Double) -> Double? {
        guard altitude.isFinite, altitude >= thresholdFeet else { return nil }
        let rows = table
        guard altitude < rows[rows.count - 1].altitudeFeet else { return rows[rows.count - 1].minutes * 60 }
        var upper = 1
        while rows[upper].altitudeFeet <= altitude { upper += 1 }
        let low = rows[upper - 1], high = rows[upper]
        if altitude == low.altitudeFeet { return low.minutes * 60 }
        let fraction = (altitude - low.altitudeFeet) / (high.altitudeFeet - low.altitudeFeet)
        let logMinutes = Double.log(low.minutes) + fraction * (Double.log(high.minutes) - Double.log(low.minutes))
        return Double.exp(logMinutes) * 60
    }
}
