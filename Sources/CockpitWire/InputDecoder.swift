public import CockpitCore

/// Turns raw inputs into core events. The same decoder serves live mode and every replay format: a line goes to its
/// line source's decoder, a record to its record source's, one decoder per source of `WireSources.all`. What a
/// source's decoder needs beyond its inputs is its own state (`update`, `recordedState`), never a parameter here.
public struct InputDecoder: Sendable {
    /// The line sources' names and decoders, in `WireSources.all` order. Looked up by comparing the name (gpsd
    /// first): a few short names compare in fewer instructions than one hash of the name.
    private let lineSourceNames = WireSources.lineSources.map { $0.source }
    private var lineDecoders: [any WireLineDecoder] = WireSources.lineSources.map { $0.init() }
    private var recordDecoders: [any WireRecordDecoder] = WireSources.recordSources.map { $0.init() }

    public init() {}

    /// Every source's decoder with the state a recording's header keeps (`devices`, as `recordedState` gives it):
    /// each source reads its own member (`devices.<source>`).
    public init(recordedState devices: JSONObject) throws(WireRecordError) {
        for index in lineDecoders.indices {
            if let state = devices[type(of: lineDecoders[index]).source]?.objectValue { try lineDecoders[index].restore(recordedState: state) }
        }
        for index in recordDecoders.indices {
            if let state = recordDecoders[index].sourceState(in: devices) { try recordDecoders[index].restore(recordedState: state) }
        }
    }

    /// `devices` with every source's recorded state added to its member (`devices.<source>`), for a recording's header.
    public func recordedState(addedTo devices: JSONObject) -> JSONObject {
        var devices = devices
        let decoders: [any WireDecoder] = lineDecoders + recordDecoders
        for decoder in decoders {
            guard let state = decoder.recordedState else { continue }
            let source = type(of: decoder).source
            var member = devices[source]?.objectValue ?? JSONObject()
            for (key, value) in state.members { member[key] = value }
            devices[source] = .object(member)
        }
        return devices
    }

    /// Changes the state of the decoder of type `D` (a source's key, a sensor's calibration); nothing when no source
    /// of `WireSources.all` decodes with `D`.
    public mutating func update<D: WireDecoder, E: Error>(_ type: D.Type, _ body: (inout D) throws(E) -> Void) throws(E) {
        if let index = lineDecoders.firstIndex(where: { $0 is D }), var decoder = lineDecoders[index] as? D {
            try body(&decoder)
            if let updated = decoder as? any WireLineDecoder { lineDecoders[index] = updated }
        } else if let index = recordDecoders.firstIndex(where: { $0 is D }), var decoder = recordDecoders[index] as? D {
            try body(&decoder)
            if let updated = decoder as? any WireRecordDecoder { recordDecoders[index] = updated }
        }
    }

    /// The decoder of type `D` as it is now.
    public func decoder<D: WireDecoder>(_ type: D.Type) -> D? {
        (lineDecoders.first { $0 is D } as? D) ?? (recordDecoders.first { $0 is D } as? D)
    }

    /// The core event for one raw input, or nil when the input has no meaning for the core (a calibration record).
    public mutating func decode(_ input: RawInput) -> Event? {
        switch input {
        case .line(let source, let text):
            // A source without a decoder cannot reach here: recordings only give lines of registered sources.
            guard let index = lineSourceNames.firstIndex(of: source) else { return nil }
            return lineDecoders[index].decode(text)
        case .lineSourceLink(let source, let link):
            guard let index = lineSourceNames.firstIndex(of: source) else { return nil }
            return lineDecoders[index].link(link)
        case .record(let wrapped):
            for index in recordDecoders.indices {
                if let event = recordDecoders[index].decodeAny(wrapped.record) { return event }
            }
            return nil
        case .gpsFix(let fix):
            return .gps(.fix(fix))
        case .command(let command):
            return .command(command)
        case .muteTraffic(let seconds):
            return .muteTraffic(seconds: seconds)
        case .glideMacCready(let metersPerSecond):
            return .glideMacCready(metersPerSecond: metersPerSecond)
        }
    }
}

extension WireDecoder {
    fileprivate func sourceState(in devices: JSONObject) -> JSONObject? { devices[Self.source]?.objectValue }
}
