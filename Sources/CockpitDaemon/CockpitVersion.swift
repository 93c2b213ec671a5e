public enum CockpitVersion {
    public static let version = "0.1.0"
    public static let name = "cockpitd"
    public static var full: String { "\(name) \(version)" }
}
