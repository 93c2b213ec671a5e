import RealModule

/// The ICAO Standard Atmosphere (ICAO Doc 7488) up to 20 km, used to turn a static pressure into a
/// pressure altitude referenced to 1013.25 hPa — never to QNH. Cabin altitude is exactly this
/// quantity computed from cabin pressure, and 14 CFR 91.211 and EASA NCO.OP.190 are written in it.
public enum StandardAtmosphere {
    public static let seaLevelPressurePascals = 101_325.0
    public static let seaLevelTemperatureKelvin = 288.15
    /// Temperature lapse rate in the troposphere, K/m.
    public static let troposphereLapseRateKelvinPerMeter = 0.0065
    public static let standardGravityMetersPerSecondSquared = 9.80665
    /// Specific gas constant of dry air, J/(kg·K).
    public static let gasConstantJoulesPerKilogramKelvin = 287.05287
    public static let tropopauseAltitudeMeters = 11_000.0
    public static let tropopauseTemperatureKelvin = 216.65

    /// R·L/g0 ≈ 0.190263.
    static let troposphereExponent =
        gasConstantJoulesPerKilogramKelvin * troposphereLapseRateKelvinPerMeter / standardGravityMetersPerSecondSquared
    /// R·T11/g0 ≈ 6341.62 m, the scale height of the isothermal layer above the tropopause.
    static let stratosphereScaleHeightMeters =
        gasConstantJoulesPerKilogramKelvin * tropopauseTemperatureKelvin / standardGravityMetersPerSecondSquared
    /// ≈ 22,632.04 Pa.
    public static let tropopausePressurePascals =
        seaLevelPressurePascals * Double.pow(tropopauseTemperatureKelvin / seaLevelTemperatureKelvin, 1 / troposphereExponent)
    public static let tropopauseAltitudeFeet = UnitConversions.feet(fromMeters: tropopauseAltitudeMeters)

    /// Pressure altitude in feet for a static pressure in pascals. Nil for non-positive or non-finite input;
    /// values outside the sensor's range are still computed (the caller decides what is plausible).
    public static func pressureAltitudeFeet(pressurePascals: Double) -> Double? {
        guard pressurePascals.isFinite, pressurePascals > 0 else { return nil }
        let meters: Double
        if pressurePascals >= tropopausePressurePascals {
            meters = seaLevelTemperatureKelvin / troposphereLapseRateKelvinPerMeter
                * (1 - Double.pow(pressurePascals / seaLevelPressurePascals, troposphereExponent))
        } else {
            meters = tropopauseAltitudeMeters
                + stratosphereScaleHeightMeters * Double.log(tropopausePressurePascals / pressurePascals)
        }
        return UnitConversions.feet(fromMeters: meters)
    }

    /// The inverse: the standard static pressure at a pressure altitude (used to turn IGC pressure
    /// altitudes back into the pressures a barometer would have measured).
    public static func pressurePascals(pressureAltitudeFeet: Double) -> Double {
        let meters = UnitConversions.meters(fromFeet: pressureAltitudeFeet)
        if meters <= tropopauseAltitudeMeters {
            let ratio = 1 - meters * troposphereLapseRateKelvinPerMeter / seaLevelTemperatureKelvin
            return seaLevelPressurePascals * Double.pow(ratio, 1 / troposphereExponent)
        }
        return tropopausePressurePascals * Double.exp(-(meters - tropopauseAltitudeMeters) / stratosphereScaleHeightMeters)
    }
}
