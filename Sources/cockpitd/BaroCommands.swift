import ArgumentParser
import CockpitCore
import CockpitIO
import CockpitDevices
import Glibc
import CockpitWire

enum BaroOptions {
    static func address(_ text: String?) throws -> UInt8? {
        guard let text else { return nil }
        let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        guard let value = UInt8(digits, radix: 16), value == 0x76 || value == 0x77 else {
            throw ValidationError("--baro-address must be 0x76 or 0x77, not '\(text)'")
        }
        return value
    }

    static func backend(_ name: String, bus: Int, address: String?) throws -> BaroSource.Backend? {
        guard (0...255).contains(bus) else { throw ValidationError("--i2c-bus must be 0…255") }
        let parsedAddress = try self.address(address)
        switch name {
        case "none": return nil
        case "i2c": return .i2c(busNumber: bus, address: parsedAddress)
        case "iio": return .iio(root: IIOBarometer.defaultRoot)
        case "auto":
            if (try? IIOBarometer()) != nil { return .iio(root: IIOBarometer.defaultRoot) }
            return .i2c(busNumber: bus, address: parsedAddress)
        default: throw ValidationError("--baro must be auto, i2c, iio or none, not '\(name)'")
        }
    }
}

struct Baro: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Barometer diagnostics for installers.",
        subcommands: [Probe.self, Decode.self])

    /// What both diagnostics print: registers in, every intermediate out.
    static func report(bus: String?, address: UInt8?, chipID: UInt8?, model: String?, calibrationBytes: [UInt8],
                       dataBytes: [UInt8]) throws -> JSONObject {
        let calibration: BMP280Calibration
        do { calibration = try BMP280Calibration(registerBytes: calibrationBytes) } catch {
            throw ValidationError("\(error)")
        }
        var problems: [JSONValue] = []
        do { _ = try BMP280Calibration.validated(registerBytes: calibrationBytes) } catch { problems.append(.string(error.description)) }
        guard let adc = BMP280Compensation.adcValues(dataRegisters: dataBytes) else {
            throw ValidationError("data must be the 6 bytes read from 0xF7…0xFC")
        }
        var object: JSONObject = [
            "bus": .optional(bus), "address": address.map { .string("0x" + String($0, radix: 16)) } ?? .null,
            "chipID": chipID.map { .string("0x" + String($0, radix: 16)) } ?? .null, "model": .optional(model),
            "calibrationHex": .string(Hex.encode(calibrationBytes)),
            "calibration": .object([
                "dig_T1": .integer(Int64(calibration.t1)), "dig_T2": .integer(Int64(calibration.t2)),
                "dig_T3": .integer(Int64(calibration.t3)), "dig_P1": .integer(Int64(calibration.p1)),
                "dig_P2": .integer(Int64(calibration.p2)), "dig_P3": .integer(Int64(calibration.p3)),
                "dig_P4": .integer(Int64(calibration.p4)), "dig_P5": .integer(Int64(calibration.p5)),
                "dig_P6": .integer(Int64(calibration.p6)), "dig_P7": .integer(Int64(calibration.p7)),
                "dig_P8": .integer(Int64(calibration.p8)), "dig_P9": .integer(Int64(calibration.p9)),
            ]),
            "calibrationProblems": .array(problems),
            "dataHex": .string(Hex.encode(dataBytes)),
            "adcT": .integer(Int64(adc.adcT)), "adcP": .integer(Int64(adc.adcP)),
        ]
        do {
            let result = try BMP280Compensation.compensate(adcT: adc.adcT, adcP: adc.adcP, calibration: calibration)
            object["tFine"] = .integer(result.tFine)
            object["temperatureCelsius"] = .number(result.temperatureCelsius, decimals: 2)
            object["pressureQ24_8"] = .integer(Int64(result.pressureQ24_8))
            object["pressurePascals"] = .number(result.pressurePascals, decimals: 2)
            object["pressureHectopascals"] = .number(result.pressurePascals / 100, decimals: 2)
            object["pressureAltitudeFeet"] = .number(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: result.pressurePascals),
                                                     decimals: 0)
            object["error"] = .null
            object["daemon"] = .string(verdict(pressurePascals: result.pressurePascals, temperatureCelsius: result.temperatureCelsius))
        } catch {
            object["error"] = .string(error.description)
        }
        return object
    }

    /// What the running daemon's core does with this reading (PlausibleRange): the same limits, so a pasted dump
    /// that compensates to 10 hPa is not shown as a cabin altitude of 100,991 ft without a word.
    static func verdict(pressurePascals: Double, temperatureCelsius: Double) -> String {
        if let problem = BaroState.problem(with: BaroSample(pressurePascals: pressurePascals, temperatureCelsius: temperatureCelsius)) {
            return "refused: " + problem
        }
        if !PlausibleRange.cabinPressureSpecifiedPascals.contains(pressurePascals) {
            return "used, flagged: below the BMP280's specified 300 hPa (accuracy not specified)"
        }
        return "used"
    }

    static func print(_ object: JSONObject, json: Bool) {
        if json {
            Swift.print(JSONWriter.string(.object(object)))
            return
        }
        func text(_ key: String) -> String {
            guard let value = object[key], value != .null else { return "—" }
            if case .string(let s) = value { return s }
            return JSONWriter.string(value)
        }
        if object["bus"] != .null { Swift.print("sensor       \(text("model")) id \(text("chipID")) at \(text("address")) on \(text("bus"))") }
        Swift.print("calibration  \(text("calibrationHex"))")
        if let values = object["calibration"]?.objectValue {
            Swift.print("             " + values.members.map { "\($0.key)=\(JSONWriter.string($0.value))" }.joined(separator: " "))
        }
        for problem in object["calibrationProblems"]?.arrayValue ?? [] { Swift.print("  PROBLEM    \(problem.stringValue ?? "")") }
        Swift.print("data         \(text("dataHex"))  adc_T=\(text("adcT")) adc_P=\(text("adcP"))")
        if object["error"] != .null {
            Swift.print("REJECTED     \(text("error"))")
            return
        }
        Swift.print("t_fine       \(text("tFine"))")
        Swift.print("temperature  \(text("temperatureCelsius")) °C")
        Swift.print("pressure     \(text("pressureQ24_8"))/256 Pa = \(text("pressurePascals")) Pa = \(text("pressureHectopascals")) hPa")
        Swift.print("pressure altitude \(text("pressureAltitudeFeet")) ft (ICAO standard atmosphere, 1013.25 hPa)")
        Swift.print("daemon       \(text("daemon"))")
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compensate pasted register dumps: 24 calibration bytes from 0x88 and 6 data bytes from 0xF7.",
            discussion: "Example (the datasheet's): cockpitd baro decode 706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017 655ac07eed00")

        @Argument(help: "Calibration registers 0x88…0x9F as 48 hex digits (spaces or colons allowed if quoted).")
        var calibrationHex: String
        @Argument(help: "Data registers 0xF7…0xFC as 12 hex digits.")
        var dataHex: String
        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() throws {
            guard let calibration = Hex.decode(calibrationHex), calibration.count == 24 else {
                throw ValidationError("calibration must be 24 bytes (48 hex digits)")
            }
            guard let data = Hex.decode(dataHex), data.count == 6 else { throw ValidationError("data must be 6 bytes (12 hex digits)") }
            Baro.print(try Baro.report(bus: nil, address: nil, chipID: nil, model: nil, calibrationBytes: calibration,
                                       dataBytes: data), json: json)
        }
    }

    struct Probe: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the live BMP280 once: bus, address, chip id, calibration, raw and compensated values.")

        @Option(name: .long, help: "I2C bus number (/dev/i2c-N).")
        var i2cBus: Int = 1
        @Option(name: .long, help: "Address 0x76 or 0x77 (default: probe both).")
        var baroAddress: String?
        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() throws {
            let address = try BaroOptions.address(baroAddress)
            let driver: BMP280Driver
            let identity: BMP280Driver.Identity
            do {
                driver = BMP280Driver(bus: try LinuxI2CBus(busNumber: i2cBus))
                identity = try driver.probe(address: address)
            } catch {
                printError("cockpitd baro probe: \(error)")
                throw ExitCode(1)
            }
            var data: [UInt8] = []
            for attempt in 0..<10 {
                do {
                    data = try driver.bus.readBlock(register: BMP280Driver.Register.pressureMSB, count: 6)
                    if let adc = BMP280Compensation.adcValues(dataRegisters: data), adc.adcP != BMP280Compensation.skippedADC { break }
                } catch {
                    if attempt == 9 { printError("cockpitd baro probe: \(error)"); throw ExitCode(1) }
                }
                usleep(50_000)   // first conversion after configuration: ≤ 43.2 ms at ×16/×2
            }
            Baro.print(try Baro.report(bus: identity.bus, address: identity.address, chipID: identity.chipID, model: identity.model,
                                       calibrationBytes: identity.calibrationBytes, dataBytes: data), json: json)
        }
    }
}

func printError(_ text: String) {
    var line = Array((text + "\n").utf8)
    _ = line.withUnsafeMutableBufferPointer { write(2, $0.baseAddress!, $0.count) }
}
