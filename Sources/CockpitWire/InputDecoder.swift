public import CockpitCore

/// Turns raw inputs into core events. The same decoder serves live mode and every replay format: a line of a
/// line-oriented source goes to that source's decoder (`WireLineSources`; gpsd's JSON through `GPSDReportDecoder`),
/// BMP280 ADC words go through the datasheet compensation, traffic datagrams through `TrafficDatagramCheck`.
public struct InputDecoder: Sendable {
    public var baroCalibration: BMP280Calibration?
    /// Key for traffic tags: when set, untagged or wrongly tagged datagrams are rejected.
    public var trafficAuthenticator: TrafficAuthenticator?
    private var lineDecoders = WireLineSources.makeDecoders()

    public init(baroCalibration: BMP280Calibration? = nil) {
        self.baroCalibration = baroCalibration
    }

    /// The core event for one raw input, or nil when the input has no meaning for the core (a calibration record).
    public mutating func decode(_ input: RawInput) -> Event? {
        switch input {
        case .line(let source, let text):
            // A source without a decoder cannot reach here: recordings only give lines of registered sources.
            return lineDecoders[source]?.decode(text)
        case .lineSourceLink(let source, let link):
            return lineDecoders[source]?.link(link)
        case .gpsFix(let fix):
            return .gps(.fix(fix))
        case .gpsSource(let event):
            return .gpsSource(event)
        case .baroADC(let adcT, let adcP):
            guard let calibration = baroCalibration else {
                return .baroSource(.readError(reason: "ADC sample without calibration"))
            }
            do {
                let result = try BMP280Compensation.compensate(adcT: adcT, adcP: adcP, calibration: calibration)
                return .baro(BaroSample(pressurePascals: result.pressurePascals,
                                        temperatureCelsius: result.temperatureCelsius))
            } catch {
                return .baroSource(.readError(reason: error.description))
            }
        case .baroCalibration(let bytes):
            do {
                baroCalibration = try BMP280Calibration.validated(registerBytes: bytes)
                return nil
            } catch {
                baroCalibration = nil
                return .baroSource(.readError(reason: error.description))
            }
        case .baroPressure(let pressure, let temperature):
            return .baro(BaroSample(pressurePascals: pressure, temperatureCelsius: temperature))
        case .baroSource(let event):
            return .baroSource(event)
        case .datagram(let bytes, _):
            return TrafficDatagramCheck.check(bytes, authenticator: trafficAuthenticator)
        case .command(let command):
            return .command(command)
        case .muteTraffic(let seconds):
            return .muteTraffic(seconds: seconds)
        }
    }
}
