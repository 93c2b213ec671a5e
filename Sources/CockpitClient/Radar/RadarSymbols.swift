/// The characters the radar draws with: Unicode (braille rings, triangles, arrows) or plain ASCII.
public struct RadarSymbols: Sendable, Equatable {
    public var ascii: Bool

    public static let unicode = RadarSymbols(ascii: false)
    public static let plain = RadarSymbols(ascii: true)

    /// Target glyph: its shape says above / level (±500 ft) / below; hollow when old.
    public func glyph(_ band: RadarTarget.Band, dimmed: Bool) -> Character {
        if ascii {
            switch band { case .above: "^"; case .level: "*"; case .below: "v"; case .unknown: "?" }
        } else {
            switch band {
            case .above: dimmed ? "△" : "▲"
            case .level: dimmed ? "◇" : "◆"
            case .below: dimmed ? "▽" : "▼"
            case .unknown: dimmed ? "○" : "●"
            }
        }
    }

    public func trend(_ trend: RadarTarget.Trend) -> String {
        switch trend {
        case .climbing: ascii ? "^" : "↑"
        case .descending: ascii ? "v" : "↓"
        case .none: ""
        }
    }

    /// Own aircraft, pointing along its track (8 directions), at the centre.
    public func own(octant: Int) -> Character {
        if ascii { return "@" }
        return ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"][octant & 7]
    }

    public var ownWithoutTrack: Character { ascii ? "@" : "◎" }

    /// A target beyond the range: an arrow on the outer ring pointing out towards it.
    public func edge(octant: Int) -> Character {
        ascii ? ["^", "/", ">", "\\", "v", "/", "<", "\\"][octant & 7] : ["⇑", "⇗", "⇒", "⇘", "⇓", "⇙", "⇐", "⇖"][octant & 7]
    }

    public var ringDot: Character { "." }
    public var degree: String { ascii ? "" : "°" }

    /// Data tag: relative altitude in hundreds of feet (TCAS style, "+05" = 500 ft above, "00" level), the trend
    /// arrow, "!" for a proximity alert, "~" (ASCII only, where the glyph cannot be hollow) for an old target.
    public func tag(_ target: RadarTarget, beyondRange: Bool) -> String {
        var tag = target.proximity ? "!" : ""
        if ascii && target.isDimmed { tag += "~" }
        if beyondRange { return tag + RadarText.distance(target.distanceNauticalMiles) + "nm" }
        if let feet = target.relativeAltitudeFeet {
            let hundreds = Int((feet / 100).rounded())
            let digits = String(abs(hundreds))
            tag += (hundreds > 0 ? "+" : hundreds < 0 ? "-" : "") + (digits.count < 2 ? "0" + digits : digits)
        } else {
            tag += "?"
        }
        return tag + trend(target.trend)
    }

    public func legend(width: Int) -> String {
        let full = ascii
            ? "^ above  * +-500ft  v below  +05 = 500ft  ^v >=500fpm  ~ old>5s  ! close  >beyond"
            : "▲ above  ◆ ±500ft  ▼ below  +05 = 500ft  ↑↓ ≥500fpm  △ old>5s  ! close  ⇒ beyond"
        let short = ascii
            ? "^abv *+-500ft vblw ^vclimb ~old !close >far"
            : "▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far"
        return full.count <= width ? full : String(short.prefix(width))
    }
}

enum RadarText {
    /// One decimal below 10, whole numbers above.
    static func distance(_ nauticalMiles: Double) -> String {
        if nauticalMiles < 9.95 {
            let tenths = Int((nauticalMiles * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        return String(Int(nauticalMiles.rounded()))
    }

    static func range(_ nauticalMiles: Double) -> String {
        nauticalMiles == nauticalMiles.rounded() ? String(Int(nauticalMiles)) : distance(nauticalMiles)
    }

    static func threeDigits(_ degrees: Double) -> String {
        let value = Int(degrees.rounded()) % 360
        let text = String(value)
        return String(repeating: "0", count: 3 - text.count) + text
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func leftPadded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
