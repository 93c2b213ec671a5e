public import CockpitCore

/// The status's `data` section in words: the panel's DATA line (`cockpitctl status`) — the airfield data's date (its
/// age once past the refresh), the terrain tiles and region, the last update and the next.
public enum DataText {
    /// The DATA line's parts; nil without a `data` section (a replay), where only an old database is said.
    public static func panelParts(_ data: JSONValue?, airfields: JSONValue?) -> [String]? {
        guard let data, let object = data.objectValue, !object.members.isEmpty else { return nil }
        var parts: [String] = []
        if let airfields, let age = AirfieldText.databaseAge(airfields) {
            parts.append(age)
        } else if let date = data["airfields"]?["dataDate"]?.stringValue {
            parts.append("airfields of \(date)")
        }
        if let terrain = data["terrain"] {
            let tiles = terrain["tiles"]?.int64Value ?? 0
            let region = terrain["region"]?.stringValue.map { " (\($0))" } ?? ""
            if terrain["inUse"]?.boolValue == false {
                parts.append("terrain not in use")
            } else if tiles == 0 {
                parts.append("no terrain tiles" + (region.isEmpty ? ": set home (docs/data-update.md)" : region))
            } else {
                parts.append("terrain \(tiles) tile\(tiles == 1 ? "" : "s")\(region)")
            }
        }
        parts += updateParts(data)
        return parts
    }

    /// The last update (the worse of the two data sets') and the next.
    static func updateParts(_ data: JSONValue) -> [String] {
        let sets = ["airfields", "terrain"].compactMap { data[$0] }.filter { $0["lastAttempt"]?.stringValue != nil }
        guard !sets.isEmpty else { return ["never updated"] }
        var parts: [String] = []
        if let failed = sets.first(where: { $0["result"]?.stringValue == "failed" }) {
            parts.append("update FAILED \(short(failed["lastAttempt"]?.stringValue)): \(failed["reason"]?.stringValue ?? "?")")
        } else {
            parts.append("updated \(short(sets.compactMap { $0["lastAttempt"]?.stringValue }.max()))")
        }
        if let next = sets.compactMap({ $0["nextUpdate"]?.stringValue }).max() { parts.append("next \(short(next))") }
        return parts
    }

    /// `2026-11-29T00:30:12Z` as `11-29 00:30Z`.
    static func short(_ iso: String?) -> String {
        guard let iso, iso.count >= 16 else { return iso ?? "?" }
        let characters = Array(iso)
        return String(characters[5..<10]) + " " + String(characters[11..<16]) + "Z"
    }
}
