/// The one place capabilities are registered. A capability is a settings group (its options), and may contribute
/// outputs of the runner and control requests (see `SettingsGroup`). Adding one is its own files plus one line here.
public enum Capabilities {
    public static let all: [any SettingsGroup.Type] = [
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
        ADSBJSONSettings.self,   // after RadioTrafficSettings: adds its source to the radio sources it sets
        GDL90Settings.self, FLARMSettings.self,   // EFB outputs (docs/efb.md)
        AlertSettings.self,
        RecordingSettings.self,
        LoggingSettings.self,
        ReplaySettings.self,
    ]
}
