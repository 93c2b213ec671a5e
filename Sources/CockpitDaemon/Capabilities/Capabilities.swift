/// The one place capabilities are registered. A capability is a settings group (its options), and may contribute
/// outputs of the runner and control requests (see `SettingsGroup`). Adding one is its own files plus one line in
/// `listed`; an input source's own settings group is registered by its source (`InputSource.Group`), not here.
public enum Capabilities {
    /// The groups registered by hand, in the order of `--help`, `--check-config` and docs/configuration.md's table.
    /// Groups that several sources share or that are more than a source's options are here; a group only its source
    /// names (`ADSBJSONSettings`) is not.
    static let listed: [any SettingsGroup.Type] = [
        ConfigSettings.self,
        ControlSettings.self,
        GPSSettings.self,
        BaroSettings.self,
        HypoxiaSettings.self,
        AirfieldSettings.self,
        FlightSettings.self,
        GlideSettings.self,   // after FlightSettings: the glide defaults follow the profile
        FlightLogSettings.self,
        TrafficSettings.self,
        RadioTrafficSettings.self,
        GDL90Settings.self, FLARMSettings.self,   // EFB outputs (docs/efb.md)
        AlertSettings.self,
        RecordingSettings.self,
        LoggingSettings.self,
        ReplaySettings.self,
        DataUpdateSettings.self,   // the updater's keys, in the daemon's file (docs/data-update.md)
    ]

    /// Every settings group, once: `listed`, with each source's group that it does not list placed after the group of
    /// the source before it in `WireSources.List` and after the sources' groups already placed there (at the end when
    /// no source is before it). So the adsb-json source's options follow the other radio receivers'
    /// (`RadioTrafficSettings`, the SBS source's group) wherever options are listed, and a later radio source's own
    /// group follows adsb-json's. The core's configuration does not depend on this order among the sources' groups:
    /// each adds its own radio sources to `core.radioTraffic.sources`.
    public static let all: [any SettingsGroup.Type] = placing(InputSources.settingsGroups, in: listed)

    /// `listed` with each of `sourceGroups` (one per source, in the sources' order) that it lacks inserted after the
    /// previous source's group and the groups inserted after that one before.
    static func placing(_ sourceGroups: [any SettingsGroup.Type], in listed: [any SettingsGroup.Type]) -> [any SettingsGroup.Type] {
        func isListed(_ group: any SettingsGroup.Type) -> Bool { listed.contains { ObjectIdentifier($0) == ObjectIdentifier(group) } }
        var groups = listed
        var previous: Int?   // where the previous source's group is in `groups`
        for group in sourceGroups {
            if let index = groups.firstIndex(where: { ObjectIdentifier($0) == ObjectIdentifier(group) }) {
                previous = index
                continue
            }
            var index = previous.map { $0 + 1 } ?? groups.endIndex
            while index < groups.endIndex, !isListed(groups[index]) { index += 1 }
            groups.insert(group, at: index)
            previous = index
        }
        return groups
    }
}
