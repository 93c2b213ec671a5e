public import Logging
import CockpitIO

/// The journal.
public struct LoggingSettings: SettingsGroup {
    public static let title = "Logging"
    public var level = Logger.Level.info

    public init(mode: RunMode) {}

    public static let options: [SettingOption<LoggingSettings>] = [
        .init("log-level", .value(name: "LEVEL"), help: "Lowest log level written: trace, debug, info, notice, warning, error, critical.",
              set: { settings, text throws(SettingError) in
                  guard let level = Logger.Level(rawValue: text) else {
                      throw SettingError("must be trace, debug, info, notice, warning, error or critical, not \"\(text)\"")
                  }
                  settings.level = level
              }, show: { $0.level.rawValue }),
    ]

    public func makeLogger(label: String) -> Logger {
        let sink = LogSink.detect()
        let level = self.level
        var logger = Logger(label: label) { label in JournalLogHandler(label: label, sink: sink, level: level) }
        logger.logLevel = level
        return logger
    }
}
