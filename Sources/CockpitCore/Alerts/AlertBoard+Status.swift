/// The `alerts` section of the status.
extension StatusSnapshot {
    var alertsJSON: JSONObject {
        [
            "active": .array(alerts.active.map { alert in
                .object([
                    "id": .string(alert.id), "kind": .string(alert.kind), "priority": .string(alert.priority.rawValue),
                    "text": .string(alert.text), "phrase": .string(alert.phrase.joined(separator: " ").replacingPauses()),
                    "repeatSeconds": alert.repeatSeconds.map { .number($0) } ?? .null, "clears": .string(alert.clears),
                    "sinceSeconds": .number(monotonic.seconds(since: alert.since), decimals: 0),
                    "sinceUTC": .optional(alert.sinceUTC), "acknowledgeable": .bool(alert.acknowledgeable),
                    "acknowledged": .bool(alert.acknowledged),
                    "lastSpokenSecondsAgo": alert.lastSpokenAt.map { .number(monotonic.seconds(since: $0), decimals: 1) } ?? .null,
                ])
            }),
            "highestPriority": .optional(alerts.active.first?.priority.rawValue),
            "voice": alerts.voice.map { voice in
                .object(["id": .string(voice.id), "priority": .string(voice.priority.rawValue),
                         "forSeconds": .number(max(0, voice.until.seconds(since: monotonic)), decimals: 1)])
            } ?? .null,
            "announcements": .integer(alerts.announcements),
            "interruptions": .integer(alerts.interruptions),
            "recent": .array(alerts.recent.reversed().map { notice in
                .object(["kind": .string(notice.kind), "text": .string(notice.text), "utc": .optional(notice.utc),
                         "agoSeconds": .number(monotonic.seconds(since: notice.at), decimals: 0)])
            }),
        ]
    }
}
