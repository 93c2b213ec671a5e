public import CockpitCore

/// An input exactly as it reached the daemon, before any interpretation. This is what a recording
/// stores, so that replay runs every decoding and compensation step again through the same code.
public enum RawInput: Sendable, Equatable {
    /// One line of a line-oriented source, verbatim as it arrived (its terminator stripped): gpsd's JSON reports
    /// (`source` "gpsd"), and every source registered in `WireLineSources.all`, decoded by that source's decoder.
    case line(source: String, text: String)
    /// A line source's connection came or went (its adapter says so; the decoder turns it into the core's event).
    case lineSourceLink(source: String, LineSourceLink)
    /// A fix from a source that is not gpsd (an IGC B record), already in core units.
    case gpsFix(GPSFix)
    case gpsSource(GPSSourceEvent)
    /// A BMP280 burst read: 20-bit raw ADC words, compensated downstream with the latest calibration.
    case baroADC(adcT: Int32, adcP: Int32)
    /// The 24 calibration bytes (0x88…0x9F) read when a BMP280 was (re)probed; also in the recording header.
    case baroCalibration(registerBytes: [UInt8])
    /// A pressure from a source that compensates itself (kernel IIO) or from an IGC pressure altitude.
    case baroPressure(pressurePascals: Double, temperatureCelsius: Double?)
    case baroSource(BaroSourceEvent)
    /// A received UDP datagram.
    case datagram(bytes: [UInt8], from: String)
    case command(Command)
    /// Traffic callouts silenced for this long (`cockpitctl alerts mute traffic 5m`, the button held); 0 lifts it.
    case muteTraffic(seconds: Double)
}

/// A line source's connection to its server or device.
public enum LineSourceLink: Sendable, Equatable {
    case connected(endpoint: String)
    case disconnected(reason: String)
}

extension RawInput {
    /// One gpsd report line.
    public static func gpsdLine(_ text: String) -> RawInput { .line(source: GPSDWireDecoder.source, text: text) }
}

/// A raw input with the monotonic time it arrived.
public struct TimedInput: Sendable, Equatable {
    public var time: MonotonicInstant
    public var input: RawInput
    public init(time: MonotonicInstant, input: RawInput) { self.time = time; self.input = input }
}
