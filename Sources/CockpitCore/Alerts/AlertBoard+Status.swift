/// The `alerts` section of the status.
extension StatusSnapshot {
    var alertsJSON: JSONObject {
        [
            "active": .array(alerts.active.map { alert in
                .object([
                    "id": .string(alert.id), "kind": .string(alert.kind), "priority": .string(alert.priority.rawValue),
                    "text": .string(alert.text), "sinceSeconds": .number(monotonic.seconds(since: alert.since), decimals: 0),
                    "sinceUTC": .optional(alert.sinceUTC), "acknowledgeable": .bool(alert.acknowledgeable),
                    "acknowledged": .bool(alert.acknowledged),
                ])
            }),
            "highestPriority": .optional(alerts.active.first?.priority.rawValue),
            "recent": .array(alerts.recent.reversed().map { notice in
                .object(["kind": .string(notice.kind), "text": .string(notice.text), "utc": .optional(notice.utc),
                         "agoSeconds": .number(monotonic.seconds(since: notice.at), decimals: 0)])
            }),
        ]
    }
}
