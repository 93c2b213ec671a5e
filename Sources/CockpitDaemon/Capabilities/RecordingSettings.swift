import CockpitIO
import Glibc

/// Recording every raw input (docs/recording-format.md).
public struct RecordingSettings: SettingsGroup {
    public static let title = "Recording"
    public var path: String?
    public var limitMebibytes = 1024

    public init(mode: RunMode) {}

    public var limitBytes: Int64 { Int64(limitMebibytes) << 20 }

    public static let options: [SettingOption<RecordingSettings>] = [
        .init("record", .value(name: "FILE"), help: "Record every raw input to this file (JSON lines, docs/recording-format.md); none: do not record.",
              set: { $0.path = try SettingValue.optionalPath($1) }, show: { $0.path ?? "none" }),
        .init("record-limit-mib", .value(name: "N"), help: "Stop recording (the daemon keeps running) once the file reaches this many MiB.",
              set: { $0.limitMebibytes = try SettingValue.integer($1, 1...1_048_576) }, show: { String($0.limitMebibytes) }),
    ]

    /// The file is truncated when the recording starts.
    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.writes("record", file: path) }

    /// A missing directory stopped the daemon at start ("cannot record"), after `--check-config` had said OK.
    /// A recording starts by truncating its file: one that holds something else (an IGC flight, a database, a
    /// configuration) is not written over. An empty file or an earlier recording is.
    public func validate(mode: RunMode) throws(SettingError) {
        guard let path else { return }
        if !SettingPath.parentExists(path) {
            throw SettingError("record \(path): the directory \(SettingPath.parent(path)) does not exist")
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return }
        let header = Array("{\"format\":\"\(RecordingFormat.formatName)\"".utf8)
        if let head = SettingPath.head(path, count: header.count), head != header {
            throw SettingError("record \(path): the file exists and is not a cockpitd recording; it is not written over "
                               + "(move it away or record to another file)")
        }
    }
}
