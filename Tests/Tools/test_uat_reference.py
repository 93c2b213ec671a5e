#!/usr/bin/env python3
"""Unit tests for uat_reference.py and uat_frames.py on encodings worked out by hand from the field layouts
(DO-282B, DO-358B), not from the decoder's output.  Each frame below is assembled bit by bit in the test; the
comments show the arithmetic.
Where a real recording holds the same encoding, its bytes are checked too (shared/data/radio-traffic/uat/SOURCE.md
states the decoded values of those lines).

Run:  python3 -m unittest discover -s Tests/Tools -p 'test_uat_reference.py'     (Python 3.11, stdlib only)
"""
import io
import os
import sys
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uat_frames as uat  # noqa: E402
import uat_reference  # noqa: E402


def downlink(payload_type=0, qualifier=0, address=0xA66EF1, lat_raw=0, lon_raw=0, geometric=0, alt_code=0, nic=0,
             state_tail=b"\x00" * 5, length=18):
    """A downlink frame from its fields: header (5 + 3 + 24 bits), then lat (23) lon (24) altitude type (1),
    altitude code (12) and NIC (4), then bytes 12-16 as given."""
    header = ((payload_type << 27) | (qualifier << 24) | address).to_bytes(4, "big")
    position = ((lat_raw << 25) | (lon_raw << 1) | geometric).to_bytes(6, "big")
    altitude = ((alt_code << 4) | nic).to_bytes(2, "big")
    frame = header + position + altitude + state_tail
    return frame + b"\x00" * (length - len(frame))


class BitFields(unittest.TestCase):
    def test_field_reads_across_byte_boundaries(self):
        self.assertEqual(uat.field(b"\x12\x34\x56", 4, 12), 0x234)
        self.assertEqual(uat.field(b"\x80", 0, 1), 1)
        self.assertEqual(uat.field(b"\x01\x80", 7, 2), 0b11)


class LatitudeLongitude(unittest.TestCase):
    # One LSB is 360 / 2^24 degrees.  45 deg = 2^24 / 8 = 0x200000; -90 deg longitude is 270 deg = 0xC00000;
    # -45 deg latitude is encoded as 135 deg (the 23-bit field runs 0 .. 180 deg) = 3 * 2^24 / 8 = 0x600000.
    def test_hand_encoded_pairs(self):
        lat, lon = uat.lat_lon(downlink(lat_raw=0x200000, lon_raw=0xC00000), 32)
        self.assertEqual((lat, lon), (45.0, -90.0))
        lat, lon = uat.lat_lon(downlink(lat_raw=0x600000, lon_raw=0x400000), 32)
        self.assertEqual((lat, lon), (-45.0, 90.0))

    def test_first_san_jose_line(self):
        # Line 1 of sample-data.txt.gz; SOURCE.md: raw lat 1 745 454 -> 37.45338 N, raw lon 11 087 110 -> 122.09643 W.
        frame = bytes.fromhex("00a66ef135445d525a0c0519119021204800")
        self.assertEqual(uat.field(frame, 32, 23), 1745454)
        self.assertEqual(uat.field(frame, 55, 24), 11087110)
        # 1 745 454 * 360 = 628 363 440 = 37 * 16 777 216 + 7 606 448, 7 606 448 / 16 777 216 = 0.4533796;
        # 11 087 110 * 360 = 3 991 359 600 = 237 * 16 777 216 + 15 159 408 -> 237.903571 - 360 = -122.096429
        lat, lon = uat.lat_lon(frame, 32)
        self.assertAlmostEqual(lat, 37.453380, places=6)
        self.assertAlmostEqual(lon, -122.096429, places=6)


class Altitude(unittest.TestCase):
    # Code n means n * 25 - 1025 ft: 1000 ft -> (1000 + 1025) / 25 = 81 = 0x051; code 1 = -1000 ft; 0 = unknown.
    def test_codes(self):
        self.assertEqual(uat.altitude_feet(81), 1000)
        self.assertEqual(uat.altitude_feet(1), -1000)
        self.assertIsNone(uat.altitude_feet(0))

    def test_in_a_frame(self):
        # Bytes 10-11 = 0x05 0x19: altitude code 0x051 = 81, NIC 9 (as in line 1 of the San Jose sample).
        decoded = uat.decode_downlink(downlink(lat_raw=1, alt_code=81, nic=9))
        self.assertEqual(decoded["altitude_ft"], 1000)
        self.assertEqual(decoded["altitude_type"], "pressure")
        self.assertEqual(decoded["nic"], 9)
        geometric = uat.decode_downlink(downlink(lat_raw=1, geometric=1, alt_code=81 + 40))  # +40 codes = +1000 ft
        self.assertEqual((geometric["altitude_ft"], geometric["altitude_type"]), (2000, "geometric"))
        self.assertEqual(downlink(alt_code=81, nic=9)[10:12], bytes.fromhex("0519"))

    def test_no_position_when_all_zero(self):
        decoded = uat.decode_downlink(downlink())
        self.assertIsNone(decoded["latitude_deg"])
        self.assertIsNone(decoded["altitude_ft"])


class Velocity(unittest.TestCase):
    def test_airborne(self):
        # Bytes 12-16 bits: A/G 00, reserved 0, N/S sign 1 (south), N/S 100 (= 99 kt), E/W sign 0, E/W 66 (= 65 kt),
        # VV source 0 (geometric), sign 1 (down), VV 4 (= 3 * 64 = 192 ft/min), then 4 bits 1000 (UTC coupled).
        bits = "00" + "0" + "1" + format(100, "010b") + "0" + format(66, "010b") + "0" + "1" + format(4, "09b") + "1000"
        tail = int(bits, 2).to_bytes(5, "big")
        decoded = uat.decode_downlink(downlink(lat_raw=1, state_tail=tail))
        self.assertEqual((decoded["north_velocity_kt"], decoded["east_velocity_kt"]), (-99, 65))
        # sqrt(99^2 + 65^2) = sqrt(14026) = 118.43; atan2(65, -99) = 180 - 33.29 = 146.71 deg
        self.assertEqual((decoded["ground_speed_kt"], decoded["track_deg_true"]), (118.4, 146.7))
        self.assertEqual((decoded["vertical_rate_fpm"], decoded["vertical_rate_source"]), (-192, "geometric"))
        self.assertTrue(decoded["utc_coupled"])
        # The same bytes are in line 1 of the San Jose sample (SOURCE.md: -99 kt, +65 kt, -192 ft/min geometric).
        self.assertEqual(tail, bytes.fromhex("1190212048"))

    def test_on_ground(self):
        # A/G 10 (on ground), reserved 00, ground speed 13 (= 12 kt), type 01 (true track), angle 128 (= 90 deg).
        bits = "10" + "00" + format(13, "010b") + "01" + format(128, "09b") + "0" * 15
        decoded = uat.decode_downlink(downlink(lat_raw=1, state_tail=int(bits, 2).to_bytes(5, "big")))
        self.assertEqual(decoded["air_ground_name"], "on_ground")
        self.assertEqual((decoded["ground_speed_kt"], decoded["track_deg_true"]), (12, 90.0))
        self.assertIsNone(decoded["vertical_rate_fpm"])


class CallSign(unittest.TestCase):
    # Base 40: "0".."9" = 0..9, "A".."Z" = 10..35, space = 36.  Emitter category 2 (small) and "N5130E  ":
    #   w1 = 2 * 1600 + N(23) * 40 + 5(5)  = 3200 + 920 + 5    = 4125  = 0x101D
    #   w2 = 1 * 1600 + 3 * 40 + 0         = 1720              = 0x06B8
    #   w3 = E(14) * 1600 + 36 * 40 + 36   = 22400 + 1440 + 36 = 23876 = 0x5D44
    def frame(self, csid):
        mode_status = bytes.fromhex("101d06b85d44") + b"\x00" * 3 + bytes([0x02 if csid else 0x00])  # CSID bit 214
        return downlink(payload_type=1, lat_raw=1, length=34)[:17] + mode_status + b"\x00" * 7

    def test_call_sign(self):
        decoded = uat.decode_downlink(self.frame(csid=True))
        self.assertEqual(decoded["call_sign"], "N5130E")
        self.assertEqual((decoded["emitter_category"], decoded["emitter_category_name"]), (2, "small"))
        self.assertIsNone(decoded["flight_plan_id"])

    def test_flight_plan_id_when_csid_clear(self):
        decoded = uat.decode_downlink(self.frame(csid=False))
        self.assertIsNone(decoded["call_sign"])
        self.assertEqual(decoded["flight_plan_id"], "N5130E")

    def test_real_long_frame(self):
        # Line 95 of the San Jose sample (SOURCE.md: a long frame of A66EF1 with call sign N5130E) holds the same
        # three words in bytes 17-22.
        frame = bytes.fromhex("08a66ef1353e2d525fd4050911882aa038101d06b85d440be2a4c2a0000590000000")
        self.assertEqual(frame[17:23], bytes.fromhex("101d06b85d44"))
        self.assertEqual(uat.decode_downlink(frame)["call_sign"], "N5130E")


class DlacText(unittest.TestCase):
    # DLAC: 0 ETX, 1-26 A-Z, 28 TAB (next = count of spaces), 29 RS, 30 LF, 32 space, 33-63 = ASCII 0x21-0x3F.
    # "METAR K" LF TAB(4) "T=" RS, four 6-bit characters to three bytes:
    #   M 13 E 5 T 20 A 1    001101 000101 010100 000001 -> 0x34 0x55 0x01
    #   R 18 SP 32 K 11 LF 30 010010 100000 001011 011110 -> 0x4A 0x02 0xDE
    #   TAB 28, 4, T 20, = 61 011100 000100 010100 111101 -> 0x70 0x45 0x3D
    #   RS 29, ETX, ETX, ETX  011101 000000 000000 000000 -> 0x74 0x00 0x00
    TEXT = bytes.fromhex("345501" "4a02de" "70453d" "740000")

    def test_records(self):
        self.assertEqual(uat.dlac_records(self.TEXT), ["METAR K\n    T="])

    def test_report_fields(self):
        report = uat.text_report("METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024 RMK AO2 SLP241 \n    T01280050=")
        self.assertEqual((report["type"], report["station"], report["issue_time"]), ("METAR", "KSJC", "240353Z"))
        self.assertEqual(report["text_one_line"],
                         "METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024 RMK AO2 SLP241 T01280050=")
        self.assertIsNone(uat.text_report("TAF KNID 2323/2423 11008KT 9999 SKC")["issue_time"])

    def test_uplink_with_one_text_apdu(self):
        # Header: slot 2, site 11 -> byte 6 = UTC coupled 1, reserved 0, app data valid 1, slot 00010 = 0xA2;
        # byte 7 = 1011 0000 = 0xB0 (line 593 of the San Jose sample has these two bytes).
        # Frame header: length 16 (4 APDU header + 12 text bytes) = 000010000, reserved 000, type 0000 -> 08 00.
        # APDU header: A G P 000, product 413 = 00110011101, S 0, T 00, hours 3 = 00011, minutes 53 = 110101,
        # 4 fill bits: 00000110 01110100 00001111 01010000 -> 06 74 0F 50 (the same in line 593's first frame).
        header = (0x200000 << 25 | 0xC00000 << 1).to_bytes(6, "big") + bytes([0xA2, 0xB0])
        frame = bytes.fromhex("0800" "06740f50") + self.TEXT
        uplink = uat.decode_uplink(header + frame + b"\x00" * (432 - 8 - len(frame)))
        self.assertEqual((uplink["ground_station_latitude_deg"], uplink["ground_station_longitude_deg"]),
                         (45.0, -90.0))
        self.assertEqual((uplink["slot_id"], uplink["tisb_site_id"], uplink["application_data_valid"]), (2, 11, True))
        self.assertEqual(len(uplink["frames"]), 1)
        apdu = uplink["frames"][0]
        self.assertEqual((apdu["type"], apdu["length_bytes"], apdu["product_id"]), (0, 16, 413))
        self.assertEqual((apdu["hours"], apdu["minutes"]), (3, 53))
        self.assertEqual(apdu["reports"][0]["text"], "METAR K\n    T=")


class NewestIssueTime(unittest.TestCase):
    def test_month_wrap(self):
        self.assertTrue(uat_reference.is_newer("010005Z", "312355Z"))     # 1st of the next month
        self.assertFalse(uat_reference.is_newer("312355Z", "010005Z"))
        self.assertTrue(uat_reference.is_newer("240356Z", "240353Z"))
        self.assertTrue(uat_reference.is_newer("240353Z", "240353Z"))     # heard later
        self.assertFalse(uat_reference.is_newer("232353Z", "240353Z"))


class Lines(unittest.TestCase):
    def test_bad_and_skipped_lines_are_counted(self):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "uat_reference_lines_test.txt")
        with open(path, "w") as handle:
            handle.write("# comment\n\n!metadata\n-00zz;\n-0011;\n-00a66ef135445d525a0c0519119021204800;rs=3;\n")
        stats = uat_reference.Counter()
        out = io.StringIO()
        with redirect_stdout(out):
            uat_reference.command_downlinks(path, stats, out.write)
        os.remove(path)
        self.assertEqual(stats["downlinks"], 1)
        self.assertEqual(stats["refused: not hex"], 1)
        self.assertEqual(stats["refused: downlink frame of 4 hex digits"], 1)
        self.assertEqual(stats["skipped: line starting with '#'"], 1)
        self.assertEqual(stats["skipped: line starting with '!'"], 1)
        self.assertIn('"rs": 3', out.getvalue())


if __name__ == "__main__":
    unittest.main()
