public import CockpitCore
import CockpitIO
public import CockpitDevices

/// Alerts that reach the pilot (docs/alerts.md, Hardware/alerts.md): the voice into the intercom (espeak-ng clips
/// played through ALSA), and an LED, a buzzer and an acknowledge button on GPIO.
public struct AlertSettings: SettingsGroup {
    public static let title = "Alerts"
    /// ALSA PCM for the voice; nil: no voice output (a replay's default).
    public var audioDevice: String?
    public var volumePercent = 80
    public var voice = "en"
    public var wordsPerMinute = 165
    public var speechCache: String
    public var voiceEnabled = true
    public var gpio: GPIOConfiguration?
    public var gpioChip: String?
    public var ledLine: Int?, buzzerLine: Int?, buttonLine: Int?

    public init(mode: RunMode) {
        audioDevice = mode == .run ? "default" : nil
        speechCache = mode == .run ? "/var/lib/cockpit/speech" : "/tmp/cockpitd-speech"
    }

    public static let options: [SettingOption<AlertSettings>] = [
        .init("audio-device", .value(name: "PCM"),
              help: "ALSA device for spoken alerts (into the intercom's music/aux input); none: no voice. run: default; replay: none.",
              set: { $0.audioDevice = try SettingValue.nonEmpty($1) == "none" ? nil : $1 }, show: { $0.audioDevice ?? "none" }),
        .init("audio-volume", .value(name: "PERCENT"), help: "Level of spoken alerts and the attention tone (1–100 % of full scale).",
              set: { $0.volumePercent = try SettingValue.integer($1, 1...100) }, show: { String($0.volumePercent) }),
        .init("speech-voice", .value(name: "VOICE"), help: "espeak-ng voice for spoken alerts (en, en-us, de, …).",
              set: { $0.voice = try SettingValue.nonEmpty($1) }, show: { $0.voice }),
        .init("speech-rate", .value(name: "WPM"), help: "Speaking rate of alerts in words per minute (100–250).",
              set: { $0.wordsPerMinute = try SettingValue.integer($1, 100...250) }, show: { String($0.wordsPerMinute) }),
        .init("speech-cache", .value(name: "DIR"), help: "Directory for the rendered speech clips. run: /var/lib/cockpit/speech.",
              set: { $0.speechCache = try SettingValue.nonEmpty($1) }, show: { $0.speechCache }),
        .init("no-voice", .flag, replay: .replaysOwn, help: "Never speak (the alert board, LED and buzzer still work).",
              set: { $0.voiceEnabled = !(try SettingValue.flag($1)) }, show: { SettingValue.yesNo(!$0.voiceEnabled) }),
        .init("gpio-chip", .value(name: "CHIP"),
              help: "GPIO chip for LED, buzzer and button: a label (pinctrl-rp1 on a Pi 5), name, path or number. Unset: no GPIO is touched.",
              set: { $0.gpioChip = try SettingValue.nonEmpty($1) }, show: { $0.gpioChip ?? "none" }),
        .init("gpio-led", .value(name: "LINE"), help: "Line offset of the alert LED (steady: all good, slow blink: degraded sensor, fast blink: warning).",
              set: { $0.ledLine = try SettingValue.integer($1, 0...511) }, show: { $0.ledLine.map(String.init) ?? "none" }),
        .init("gpio-buzzer", .value(name: "LINE"), help: "Line offset of the buzzer (a beep pattern per priority with each announcement).",
              set: { $0.buzzerLine = try SettingValue.integer($1, 0...511) }, show: { $0.buzzerLine.map(String.init) ?? "none" }),
        .init("gpio-button", .value(name: "LINE"), help: "Line offset of the acknowledge push button (to ground; pull-up, debounced).",
              set: { $0.buttonLine = try SettingValue.integer($1, 0...511) }, show: { $0.buttonLine.map(String.init) ?? "none" }),
    ]

    public func validate(mode: RunMode) throws(SettingError) {
        let lines = [ledLine, buzzerLine, buttonLine].compactMap { $0 }
        if gpioChip == nil, !lines.isEmpty { throw SettingError("--gpio-led/--gpio-buzzer/--gpio-button need --gpio-chip") }
        if gpioChip != nil, lines.isEmpty { throw SettingError("--gpio-chip needs at least one of --gpio-led, --gpio-buzzer, --gpio-button") }
        if Set(lines).count != lines.count { throw SettingError("GPIO lines must differ") }
    }

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        core.alerts.voiceEnabled = voiceEnabled
    }

    public func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        var outputs: [any RunnerOutput] = []
        if voiceEnabled, let audioDevice {
            let clips = SpeechClips(directory: speechCache, voice: voice, wordsPerMinute: wordsPerMinute)
            outputs.append(AlertAudioOutput(device: audioDevice, clips: clips, volumePercent: volumePercent,
                                            waitForEachAnnouncement: context.handOffPolicy == .waitWhenFull, logger: context.logger))
        }
        if let gpioChip {
            let configuration = GPIOConfiguration(chip: gpioChip, ledLine: ledLine, buzzerLine: buzzerLine, buttonLine: buttonLine)
            outputs.append(AlertIndicatorOutput(configuration: configuration, commands: context.commands, logger: context.logger) {
                configuration throws(GPIOError) in try LibgpiodLineDriver(configuration)
            })
        }
        return outputs
    }
}
