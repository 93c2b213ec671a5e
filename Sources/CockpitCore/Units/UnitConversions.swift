/// Exact unit conversion factors. Every quantity in cockpitd carries its unit in its name
/// (`altitudeFeet`, `speedKnots`, `pressurePascals`); these are the only places units change.
public enum UnitConversions {
    /// International foot, exactly 0.3048 m.
    public static let metersPerFoot = 0.3048
    /// International nautical mile, exactly 1852 m.
    public static let metersPerNauticalMile = 1852.0
    /// One knot is one nautical mile per hour: 1852 / 3600 m/s.
    public static let metersPerSecondPerKnot = 1852.0 / 3600.0
    public static let pascalsPerHectopascal = 100.0

    @inlinable public static func feet(fromMeters meters: Double) -> Double { meters / metersPerFoot }
    @inlinable public static func meters(fromFeet feet: Double) -> Double { feet * metersPerFoot }
    @inlinable public static func knots(fromMetersPerSecond metersPerSecond: Double) -> Double {
        metersPerSecond / metersPerSecondPerKnot
    }
    @inlinable public static func metersPerSecond(fromKnots knots: Double) -> Double { knots * metersPerSecondPerKnot }
    /// 1 km/h = 1,000 m / 3,600 s.
    @inlinable public static func metersPerSecond(fromKilometersPerHour kilometersPerHour: Double) -> Double { kilometersPerHour / 3.6 }
    @inlinable public static func feetPerMinute(fromMetersPerSecond metersPerSecond: Double) -> Double {
        metersPerSecond * 60.0 / metersPerFoot
    }
    @inlinable public static func nauticalMiles(fromMeters meters: Double) -> Double { meters / metersPerNauticalMile }
}
