/// The JSON form of a snapshot, as served by the control socket. Every key carries its unit; every
/// section is always present, with nulls where a value is unknown. Each section is rendered in a file next to its
/// state type (`GPSState+Status.swift`, …) and listed once here.
extension StatusSnapshot {
    static let sections: [(name: String, render: @Sendable (StatusSnapshot) -> JSONObject)] = [
        ("gps", { $0.gpsJSON }),
        ("baro", { $0.baroJSON }),
        ("flight", { $0.flightJSON }),
        ("hypoxia", { $0.hypoxiaJSON }),
        ("airfields", { $0.airfieldsJSON }),
        ("glide", { $0.glideJSON }),
        ("traffic", { $0.trafficJSON }),
        ("radioTraffic", { $0.radioTrafficJSON }),
        ("weather", { $0.weatherJSON }),
        ("alerts", { $0.alertsJSON }),
    ]

    public var json: JSONObject {
        var object: JSONObject = [
            "monotonicSeconds": .number(monotonic.seconds, decimals: 3),
            "utc": .optional(utc),
            "utcSource": utc == nil ? .null : .string("gps"),
            "revision": .integer(self.revision),
        ]
        for section in Self.sections { object[section.name] = .object(section.render(self)) }
        return object
    }

}

