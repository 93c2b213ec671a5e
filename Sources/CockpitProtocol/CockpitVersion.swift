/// The one place the version is written: `cockpitd --version`, `cockpitctl --version`, the status, recordings and the
/// Debian package all read it from here.
public enum CockpitVersion {
    public static let version = "0.2.0"
    public static let name = "cockpitd"
    public static var full: String { "\(name) \(version)" }
}
