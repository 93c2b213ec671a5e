import CockpitCore
import CockpitTestSupport

/// What Tests/Fixtures/SOURCE.md says of the bundled IGC files (the paths come from CockpitTestSupport's `Fixtures`).
extension Fixtures {
    /// From Tests/Fixtures/SOURCE.md: B records, first and last B record time (UTC), max pressure / GNSS altitude (ft).
    struct IGCExpectation: Sendable, CustomStringConvertible {
        var file: String
        var bRecords: Int
        var first: String
        var last: String
        var maxPressureFeet: Double
        var maxGNSSFeet: Double
        var description: String { file }
    }

    static let igc: [IGCExpectation] = [
        .init(file: "igc_lib__napret.igc", bRecords: 5380, first: "12:00:00", last: "13:29:39", maxPressureFeet: 3570, maxGNSSFeet: 3750),
        .init(file: "igc_lib__olsztyn.igc", bRecords: 2469, first: "10:16:43", last: "15:12:42", maxPressureFeet: 4646, maxGNSSFeet: 4616),
        .init(file: "igc-parser__20211015.igc", bRecords: 4886, first: "08:39:20", last: "10:00:45", maxPressureFeet: 8901, maxGNSSFeet: 8911),
        .init(file: "igc-parser__654G6NG1.igc", bRecords: 9762, first: "08:10:42", last: "19:04:54", maxPressureFeet: 7841, maxGNSSFeet: 8258),
        .init(file: "igc-parser__2017-07-15-lev__1_77fv6kh1.igc", bRecords: 22468, first: "08:37:56", last: "14:53:32", maxPressureFeet: 5010, maxGNSSFeet: 5377),
        .init(file: "igc-parser__2017-07-17-lev__FR_77hv14x1.igc", bRecords: 11472, first: "14:02:37", last: "17:13:48", maxPressureFeet: 4390, maxGNSSFeet: 4649),
        .init(file: "opensoar__missing_lcu_lseeyou_lines.igc", bRecords: 19448, first: "11:22:54", last: "16:47:10", maxPressureFeet: 10115, maxGNSSFeet: 10853),
        .init(file: "opensoar__aat_strepla.igc", bRecords: 15915, first: "11:52:58", last: "16:18:12", maxPressureFeet: 7116, maxGNSSFeet: 7474),
        .init(file: "aerofiles__skytraxx21-2023-04-15.igc", bRecords: 2008, first: "07:39:37", last: "08:13:04", maxPressureFeet: 2106, maxGNSSFeet: 2310),
        .init(file: "igc2kml-0.1.0__2022_06_26_01-1718.igc", bRecords: 883, first: "16:17:31", last: "16:32:19", maxPressureFeet: 4613, maxGNSSFeet: 4895),
    ]
}
