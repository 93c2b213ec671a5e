import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// Debian's gpsd 3.22 with what it passes on as it is (seen on the bench): two receivers on one gpsd (a USB GPS and
/// a second one hot-plugged), and a receiver coasting on dead reckoning (GGA quality 6, RMC mode E: gpsd's TPV
/// "status":5). Positions are the napret paraglider flight (igc_lib__napret.igc, moved to 2024-04-03).
@Suite("Real gpsd: one receiver at a time, measured positions only", .serialized)
struct GPSDReceiverTests {
    static func epochs() throws -> [NMEAWriter.Epoch] {
        try NMEAWriter.epochs(igcPath: Fixtures.path("flights/igc_lib__napret.igc"), count: 40, newDate: (2024, 4, 3))
    }

    @Test func aSecondReceiverOnTheSameGpsdDoesNotMoveThePosition() async throws {
        let gpsd = RealGPSD(receivers: 2)
        gpsd.start()
        let (daemon, socket) = try gpsd.startConnectedDaemon()
        defer { daemon.stop() }
        let epochs = try Self.epochs()
        var latitudes: [Double] = []
        for (index, epoch) in epochs.enumerated() {
            // The second receiver reports the same seconds 2° (120 nm) further north.
            var elsewhere = epoch
            elsewhere.latitude += 2
            for sentence in NMEAWriter.sentences(epoch) { gpsd.send(sentence, receiver: 0) }
            if index > 0 { for sentence in NMEAWriter.sentences(elsewhere) { gpsd.send(sentence, receiver: 1) } }
            // The position shown once this second's fix is in (both receivers' sentences were sent before).
            var shown: JSONValue?
            _ = await waitFor(seconds: 2) {
                shown = gpsStatus(socket)
                return shown?["utc"]?.stringValue == epoch.utc.iso8601
            }
            if let latitude = shown?["latitudeDegrees"]?.doubleValue { latitudes.append(latitude) }
        }
        #expect(await waitFor(seconds: 5) { gpsStatus(socket)?["utc"]?.stringValue == epochs.last!.utc.iso8601 })
        let status = gpsStatus(socket)
        let north = epochs.map(\.latitude).max()! + 0.01
        #expect(latitudes.count >= epochs.count - 2)
        #expect(latitudes.allSatisfy { $0 < north }, "the position jumped to the second receiver's")
        #expect(status?["device"] == .string(gpsd.deviceName(0)))
        #expect((status?["otherDeviceReports"]?.int64Value ?? 0) >= Int64(epochs.count - 2))
        #expect(status?["status"] == .string("valid"))
        gpsd.stop()
    }

    @Test func deadReckonedPositionsAreShownAsNotMeasuredAndTheFixGoesStale() async throws {
        let gpsd = RealGPSD()
        gpsd.start()
        let (daemon, socket) = try gpsd.startConnectedDaemon()
        defer { daemon.stop() }
        let epochs = try Self.epochs()
        for epoch in epochs.prefix(5) {
            for sentence in NMEAWriter.sentences(epoch) { gpsd.send(sentence) }
            _ = await waitFor(seconds: 2) { gpsStatus(socket)?["utc"]?.stringValue == epoch.utc.iso8601 }
        }
        #expect(await waitFor(seconds: 5) { gpsStatus(socket)?["utc"]?.stringValue == epochs[4].utc.iso8601 })
        // Satellites lost: the receiver coasts, one estimated epoch every 0.5 s for 5 s.
        for epoch in epochs[5..<15] {
            for sentence in NMEAWriter.sentences(epoch, fixQuality: 6, modeIndicator: "E") { gpsd.send(sentence) }
            try await Task.sleep(nanoseconds: 500_000_000)
        }
        let status = gpsStatus(socket)
        #expect(status?["receiverStatus"] == .string("dead reckoning"))
        #expect(status?["positionMeasured"] == .bool(false))
        #expect((status?["notMeasuredFixes"]?.int64Value ?? 0) >= 9)
        #expect(status?["status"] == .string("stale"), "5 s of estimated positions is 5 s without a fix")
        #expect(status?["utc"] == .string(epochs[4].utc.iso8601), "the last measured position stays the one shown")
        let full = try #require(try ControlClient(path: socket).request("status")["status"])
        let panel = StatusPanel.render(full)
        #expect(panel.contains("STALE NOT MEASURED (dead reckoning)"), "\(panel)")
        gpsd.stop()
    }
}
