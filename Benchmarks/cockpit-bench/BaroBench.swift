import CockpitCore
import CockpitIO
import CockpitWire

/// `cockpit-bench baro`: compensation (datasheet 64-bit integer form) plus ICAO pressure altitude, per sample.
func baroBenchmark() throws {
    let calibration = try BMP280Calibration(registerBytes: Hex.decode("706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017")!)
    let samples = 2_000_000
    var checksum = 0.0
    var best = Double.infinity
    for _ in 0..<5 {
        let start = MonotonicClock.now()
        for index in 0..<samples {
            let adcP = Int32(300_000 + index % 200_000)
            let result = try BMP280Compensation.compensate(adcT: 519_888, adcP: adcP, calibration: calibration)
            checksum += StandardAtmosphere.pressureAltitudeFeet(pressurePascals: result.pressurePascals) ?? 0
        }
        best = min(best, MonotonicClock.now().seconds(since: start))
    }
    print("baro: compensation + pressure altitude: \(Int(best * 1e9 / Double(samples))) ns per sample (best of 5 × \(samples); checksum \(Int(checksum) % 1000))")
}
