#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/Corpus/<target>/ from the repository's fixtures and the specs' worked examples.
Run from the repository root: python3 Fuzz/seed-corpus.py (idempotent; see Fuzz/Corpus/SOURCE.md)."""
import hashlib, os, re

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "Fuzz", "Corpus")
fixtures = os.path.join(root, "Tests", "Fixtures", "flights")

def seed(target, data):
    if isinstance(data, str): data = data.encode()
    directory = os.path.join(out, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()[:16]), "wb") as f: f.write(data)

def head(name, lines, skip=0):
    with open(os.path.join(fixtures, name), "rb") as f: return b"".join(f.readlines()[skip:skip + lines])

# control-request: the protocol's documented requests (docs/control-protocol.md).
requests = [
    'status', '{"v":1,"request":"status","id":7}', '{"v":1,"request":"watch"}', '{"v":1,"request":"version"}',
    '{"v":1,"request":"nearest","n":5,"radiusNauticalMiles":50,"minRunwayFeet":2000,"hardSurface":true}',
    '{"v":1,"request":"nearest","at":{"latitudeDegrees":47.46,"longitudeDegrees":8.55},"all":true}',
    '{"v":1,"request":"airfield","ident":"LSZH","metar":"LSZH 221150Z 24012G25KT 200V280 9999 FEW040 12/04 Q1015"}',
    '{"v":1,"request":"history","lastSeconds":600,"per":"second"}', '{"v":1,"request":"flights"}',
    '{"v":1,"request":"export","flight":1,"format":"igc"}', '{"v":1,"request":"hypoxia.ack","id":"a"}',
    '{"v":2,"request":"status"}', '{"request":"echo","id":[1,{"a":null}],"x":"\\u00e9\\n"}',
]
for r in requests: seed("control-request", r)
# control-connection: script byte, then the client's writes cut at 0xFE.
seed("control-connection", b"\x00status\n")
seed("control-connection", b"\x20" + b'{"v":1,"request":"watch"}\n\xfe\xfe')
seed("control-connection", b"\x08" + b"".join(b'{"request":"echo","pad":"%d%s"}\n' % (i, b"x" * 300) for i in range(3)))
seed("control-connection", b"\x01" + b'{"request":"echo","n":1}\n{"request":"echo","n":2}\n')
seed("control-connection", b"\x06" + b'{"v":1,"req\xfeuest":"nearest","n":5}\n\xfe{"v":1,"request":"airf')
seed("control-connection", b"\x12" + b'{"v":1,"request":"export","flight":1,"format":"gpx"}\n{"request":"echo"}\n')
# traffic-datagram: mode byte (0x04: on into a core; 0x03: keyed receiver, valid tag), then docs/traffic-packet.md's
# worked examples (report, ground query, reply v1 and v2; example 2 carries a tag under the spec's example key).
examples = ["c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800",
            "c102205e5e5e00006b02bd250000683fb70012348000ffffffff8000",
            "c101e000beefffff6b02bd2000fa4fb899eb80f9fffb0000ffffff024fa4faeb60b6ffffff000000",
            "c181205e5e5e00006b02bd26000002123456a06b02bd2401f46843230016640271044c200000654321a06b02bd250000681b4ffff6e600c80320d555fb",
            "c28100a1b2c300016b02bd2001f4c37ef386142002123456800401cfff0601f43240026543210102ff9c00038000ff0080",
            "c101b0a1b2c300026b02bd2100fac37ef3861420016303b6c0000800c4c17a11a2a42c8c"]
for example in examples:
    seed("traffic-datagram", b"\x04" + bytes.fromhex(example))
    seed("traffic-datagram", b"\x07" + bytes.fromhex(example))
# gpsd-line: mode byte (read size, 0x40 into a core), then real gpsd output.
seed("gpsd-line", b"\x7f" + head("gpsd-3.22__bundg_zeus_9.gpspipe.jsonl", 12))
seed("gpsd-line", b"\x45" + head("gpsd-3.22__bundg_zeus_9.gpspipe.jsonl", 6, skip=200))
seed("gpsd-line", b"\x40" + b'{"class":"TPV","mode":3}*{"class":"TPV","mode":3}\n{"class":"TPV","mode":3,"time":"2017-09-24T14:30:01.000Z","lat":46.2,"lon":12.8}\r\n')
# replay-file: a recording (docs/recording-format.md; calibration and ADC words from the BMP280 datasheet), a gpspipe
# log and IGC heads from the fixtures.
seed("replay-file", '{"format":"cockpitd-recording","formatVersion":1,"software":"cockpitd 0.1.0","timeUnit":"monotonic nanoseconds",'
     '"devices":{"gps":{"source":"gpsd","endpoint":"localhost:2947"},"baro":{"source":"bmp280","calibrationHex":'
     '"706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017"}},"core":{"gpsStaleAfterSeconds":3,"baroStaleAfterSeconds":2,"tickIntervalSeconds":1}}\n'
     '{"t":1000000000,"k":"gpsd","line":"{\\"class\\":\\"TPV\\",\\"mode\\":3,\\"time\\":\\"2017-09-24T14:30:01.000Z\\",\\"lat\\":46.2,\\"lon\\":12.8,\\"altMSL\\":1200.5}"}\n'
     '{"t":1050000000,"k":"baro.adc","adcT":519888,"adcP":415148}\n'
     '{"t":1100000000,"k":"baro.calibration","hex":"706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017"}\n'
     '{"t":1200000000,"k":"fix","fix":{"utc":1506263402,"mode":3,"lat":46.2,"lon":12.8,"altMSL":1201,"altHAE":1248,"speed":30,"track":90,"climb":1,"eph":5,"epv":8}}\n'
     '{"t":1300000000,"k":"datagram","from":"192.0.2.7:4000","hex":"c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800"}\n'
     '{"t":1400000000,"k":"baro.pressure","pressurePa":100653.3,"temperatureC":25.1}\n'
     '{"t":1500000000,"k":"command","command":"hypoxia.ack"}\n{"t":1600000000,"k":"gps.disconnected","reason":"eof"}\n')
seed("replay-file", head("gpsd-3.22__bundg_zeus_9.gpspipe.jsonl", 20, skip=100))
# A version-2 header: the recorded settings a replay applies through each option's own parser, and the traffic seed.
seed("replay-file", '{"format":"cockpitd-recording","formatVersion":2,"software":"cockpitd 0.2.0","timeUnit":"monotonic nanoseconds",'
     '"devices":{"gps":{"source":"gpsd","endpoint":"localhost:2947"},"baro":{"source":"none"}},"core":{"gpsStaleAfterSeconds":3,'
     '"baroStaleAfterSeconds":2,"tickIntervalSeconds":1,"trafficIdentifierSeed":"9c3e5d7f01234567"},"settings":{"profile":"glider",'
     '"rules":"easa","hypoxia-alert-percent":"35","min-runway-feet":"profile","airfields":"none","terrain":"none","geoid":"none",'
     '"traffic-interval":"1","gdl90-address":"A1B2C3","wing-span":"15"}}\n'
     '{"t":1000000000,"k":"gpsd","line":"{\\"class\\":\\"TPV\\",\\"mode\\":3,\\"time\\":\\"2017-09-24T14:30:01.000Z\\",\\"lat\\":46.2,\\"lon\\":12.8,\\"altMSL\\":1200.5}"}\n')

# gpsd-decode: one line at a time, as gpsd wrote them (a TPV at start-up, a 3D TPV, a SKY), and one in gpsd's layout
# with the edge values the differential tests name (a leap second, nine decimals, a null).
for number in (4, 7, 200, 700):
    seed("gpsd-decode", head("gpsd-3.22__bundg_zeus_9.gpspipe.jsonl", 1, skip=number).rstrip(b"\r\n"))
seed("gpsd-decode", '{"class":"TPV","device":"/dev/ttyACM0","status":2,"mode":2,"time":"2016-12-31T23:59:60.123456789Z","lat":-33.9,"lon":151.2,"speed":0.0,"track":null}')

seed("replay-file", head("igc_lib__napret.igc", 40))
seed("replay-file", head("aerofiles__skytraxx21-2023-04-15.igc", 30))
# metar-wind: reports in the formats WindParser reads (docs/airfields.md, ICAO Annex 3 groups).
for m in ["METAR LSZH 221150Z 24012G25KT 200V280 9999 FEW040 12/04 Q1015",
          "SPECI EGLL 221220Z VRB03KT CAVOK 15/08 Q1020", "LFPG 221200Z 00000KT 9999 SKC 10/02 Q1030",
          "TAF LSZH 221100Z 2212/2318 27015G30KT 9999 BKN030\nMETAR LSZH 221150Z 12005MPS 9999 FEW040 12/04 Q1015=",
          "UUEE 221200Z 36010KMH 9999 OVC010 M02/M05 Q1008", "KJFK 221151Z 31022G3KT 10SM FEW250 M04/M18 A3034"]:
    seed("metar-wind", m)
# config-file: the shipped configuration (all keys commented) and a few set keys (Systemd/cockpitd.conf).
with open(os.path.join(root, "Systemd", "cockpitd.conf"), "rb") as f: conf = f.read()
seed("config-file", conf)
uncommented = re.sub(rb"(?m)^# ([a-z][a-z0-9-]* = )", rb"\1", conf)
seed("config-file", uncommented)
seed("config-file", b"\xef\xbb\xbfgpsd = localhost:2947\nrecord = no\n")
# ourairports-csv: OurAirports' header rows with a few real rows (LSZH, its runways and frequencies; public domain).
A = ('"id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","icao_code","iata_code","gps_code","local_code","home_link","wikipedia_link","keywords"\n'
     '2434,"LSZH","large_airport","Zürich Airport",47.458056,8.548056,1417,"EU","CH","CH-ZH","Zurich","yes","LSZH","ZRH","LSZH",,"https://www.zurich-airport.com/","https://en.wikipedia.org/wiki/Z%C3%BCrich_Airport","Kloten, ""Zurich"""\n')
seed("ourairports-csv", b"\x00" + A.encode())
R = ('"id","airport_ref","airport_ident","length_ft","width_ft","surface","lighted","closed","le_ident","le_latitude_deg","le_longitude_deg","le_elevation_ft","le_heading_degT","le_displaced_threshold_ft","he_ident","he_latitude_deg","he_longitude_deg","he_elevation_ft","he_heading_degT","he_displaced_threshold_ft"\r\n'
     '247426,2434,"LSZH",8202,197,"CON",1,0,"10",47.4612,8.5349,1391,95.0,,"28",47.4576,8.5706,1402,275.0,\r\n')
seed("ourairports-csv", b"\x00\xfe" + R.encode())
F = ('"id","airport_ref","airport_ident","type","description","frequency_mhz"\n'
     '64033,2434,"LSZH","TWR","ZURICH TWR",118.1\n64034,2434,"LSZH","ATIS","ATIS, ""D""",128.525\n')
seed("ourairports-csv", b"\x01\xfe\xfe" + F.encode())
seed("ourairports-csv", b"\x00" + A.encode() + b"\xfe" + R.encode() + b"\xfe" + F.encode())
# bmp280: mode byte, the datasheet's calibration (section 3.12), the data registers for adc_T 519888 / adc_P 415148,
# then raw words as a recording may hold them.
cal = bytes.fromhex("706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017")
seed("bmp280", b"\x02" + cal + bytes([0x65, 0x5A, 0xC0, 0x7E, 0xED, 0x00]))
seed("bmp280", b"\x03" + cal + bytes([0x65, 0x5A, 0xC0, 0x7E, 0xED, 0x00]) + (519888).to_bytes(4, "little") + (1).to_bytes(4, "little")
     + (0x80000).to_bytes(4, "little") + (0xFFFFF).to_bytes(4, "little"))
# airfield-index: the shipped database's stored index (layout in Sources/CockpitCore/Airfields/AirfieldIndex+Stored.swift:
# "CKDT", format, count, leaf size, 22-byte entries, FNV-1a 64), cut to the airfields around LSZH and given its own
# header and checksum; and the cache image of the same entries (AirfieldIndex+Image.swift: "CKDX", native little-endian
# on x86-64 and arm64, 24-byte entries, unit vectors as Float, axes). Mode byte: bit 0 image, bit 1 fix the header,
# bit 2 fix the checksum.
import math, sqlite3, struct
def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data: h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
blob = sqlite3.connect("file:%s?mode=ro" % os.path.join(root, "Data", "airfields.sqlite"), uri=True).execute(
    "SELECT data FROM airport_index WHERE format = 2").fetchone()[0]
magic, fmt, count, leaf = struct.unpack_from("<4sIII", blob, 0)
assert magic == b"CKDT" and len(blob) == 16 + count * 22 + 8 and fnv1a(blob[:-8]) == struct.unpack_from("<Q", blob, len(blob) - 8)[0]
near = [blob[16 + i * 22:16 + (i + 1) * 22] for i in range(count)
        if abs(struct.unpack_from("<i", blob, 16 + i * 22 + 4)[0] - 47_464_700) < 300_000
        and abs(struct.unpack_from("<i", blob, 16 + i * 22 + 8)[0] - 8_549_200) < 400_000][:60]
def stored(entries):
    body = struct.pack("<4sIII", b"CKDT", 2, len(entries), leaf) + b"".join(entries)
    return body + struct.pack("<Q", fnv1a(body))
def image(entries, source):
    out, coords, axes = b"", b"", b""
    for e in entries:
        ident, lat, lon, longest, hard, bit, axis = struct.unpack("<iiiiiBB", e)
        out += struct.pack("<iiiiiHxx", ident, lat, lon, longest, hard, bit)
        phi, lam = math.radians(lat / 1e6), math.radians(lon / 1e6)
        coords += struct.pack("<fff", math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))
        axes += bytes([axis])
    body = out + coords + axes
    return struct.pack("<4sIIIQQ", b"CKDX", 1, len(entries), 24, source, fnv1a(body)) + body
small = stored(near)
seed("airfield-index", b"\x00" + small)
seed("airfield-index", b"\x01" + image(near, fnv1a(small[:-8])))
seed("airfield-index", b"\x08" + stored(near[:9]))
seed("airfield-index", b"\x06" + small[:40] + b"\xff" * 8 + small[48:-8] + b"\x00" * 8)
seed("airfield-index", b"\x07" + image(near[:20], 0)[:100] + b"\x00" * 40 + image(near[:20], 0)[140:])
seed("airfield-index", b"\x00" + small[:30])

# Radio traffic (docs/radio-traffic-formats.md): lines of the real recordings in Tests/Fixtures/radio-traffic/ (see
# its SOURCE.md), each corpus directory with the licence file of the data it copies.
import shutil
radio = os.path.join(root, "Tests", "Fixtures", "radio-traffic")
def radio_lines(name, start, count):
    with open(os.path.join(radio, name), "rb") as f: return b"\n".join(f.read().split(b"\n")[start:start + count]) + b"\n"
def radio_licence(target, name):
    shutil.copyfile(os.path.join(radio, name), os.path.join(out, target, os.path.basename(name)))
# sbs-line: dump1090-mutability's SBS output (BSD-3-Clause, derived from antirez/dump1090's modes1.bin).
seed("sbs-line", radio_lines("adsb/modes1.sbs", 0, 40))
seed("sbs-line", radio_lines("adsb/modes1.sbs", 280, 39))
seed("sbs-line", "MSG,3,1,1,~A1B2C3,1,,,,,N123AB,3500H,101.5,359.9,-33.5,-70.25,64,7700,-1,-1,-1,-1\r\n\r\n"
     "STA,,5,179,400AE7,10103,2008/11/28,14:58:51.153,2008/11/28,14:58:51.153,RM\r\n")
radio_licence("sbs-line", "adsb/LICENSE.antirez-dump1090")
# flarm-nmea: FlarmTerminal's real serial logs (MIT): a live contact, the head-on simulation's end (9-field PFLAU),
# the start-up of an LXN unit (self-test text, PFLAE, PFLAV), the line with binary noise and the truncated end.
seed("flarm-nmea", radio_lines("flarm/serial_log_contact_B88965.txt", 0, 40))
seed("flarm-nmea", radio_lines("flarm/PowerMouse_Simulation_S1.txt", 120, 56))
seed("flarm-nmea", radio_lines("flarm/serial_log_redbox.txt", 0, 24))
seed("flarm-nmea", radio_lines("flarm/serial_log_redbox.txt", 2845, 12))
seed("flarm-nmea", radio_lines("flarm/serial_log_redbox.txt", 3090, 8))
# Targets whose ID carries a name after `!` (a PowerFLARM hearing ADS-B, SoftRF; docs/radio-traffic.md), names the
# decoder leaves out, a malformed ID before a name, and a heartbeat whose ID carries a name.
def nmea(body):
    checksum = 0
    for byte in body.encode(): checksum ^= byte
    return "$%s*%02X\r\n" % (body, checksum)
seed("flarm-nmea", "".join(nmea(body) for body in [
    "PFLAA,0,-1210,-880,-310,2,DD4F21!DFLYR,93,0,31,1.2,1", "PFLAA,0,-38500,-40110,7820,1,4CA7B3!RYR4KP,101,0,236,0.0,9",
    "PFLAA,3,-50,55,-21,2,112DB1!FLR_112DB1,0,,2,,7,0,0,-25", "PFLAA,0,1683,-268,335,1,AA5501!D-EAAA,160,0,42,1.0,8",
    "PFLAA,0,5,328,5,3,04C002!,0,,0,0.0,6", "PFLAA,0,5,328,5,2,04C002!A*B!C,0,,0,0.0,6",
    "PFLAA,0,5,328,5,2,04C002!ABCDEFGHIJKLMNOPQ,0,,0,0.0,6", "PFLAA,0,5,328,5,2,04C00!DFLYR,0,,0,0.0,6",
    "PFLAU,2,1,2,1,1,-144,2,-310,1497,DD4F21!DFLYR"]))
radio_licence("flarm-nmea", "flarm/LICENSE.FlarmTerminal")
# ogn-aprs: Sven Schwyn's recording of the OGN APRS-IS feed (MIT): server comments, aircraft, receiver beacons and
# status lines, a relayed tracker.
with open(os.path.join(radio, "ogn", "beacons.txt"), "rb") as f: beacons = f.read().split(b"\n")
seed("ogn-aprs", b"\n".join(beacons[0:30]) + b"\n")
seed("ogn-aprs", b"\n".join([l for l in beacons if b"qAC" in l][:16]) + b"\n")
seed("ogn-aprs", b"\n".join([l for l in beacons if b"RELAY" in l or b" FL" in l or b" id8" in l][:16]) + b"\n")
radio_licence("ogn-aprs", "ogn/LICENSE.ogn_client-ruby")
# adsb-json: dump1090-fa's live aircraft.json over London (BSD-2-Clause, plord12/dump1090mqtt) and dump1090-mutability's
# --write-json output for modes1.bin; the first byte is the poll interval option, NUL bytes separate successive polls.
with open(os.path.join(radio, "readsb", "dump1090mqtt.aircraft.json"), "rb") as f: london = f.read()
with open(os.path.join(radio, "adsb", "modes1.aircraft.json"), "rb") as f: sicily = f.read()
london_rows = [l.rstrip(b",") for l in london.split(b"\n") if l.startswith(b"    {")]
seed("adsb-json", b"\x07" + london[:16000])
seed("adsb-json", b"\x03" + sicily + b"\x00" + sicily.replace(b"1795774739.7", b"1795774740.7").replace(b'"seen":2.1', b'"seen":0.1'))
seed("adsb-json", b"\x00" + b'{"now":1785349721.5,"aircraft":[' + b",".join(london_rows[:4]) + b',{"hex":"~c0ffee","type":"tisb_other","alt_baro":"ground","lat":51.47,"lon":-0.45,"seen_pos":0.4,"seen":0.1}]}'
     + b"\x00" + b'{"now":1785349722.5,"aircraft":[' + b",".join(london_rows[:2]) + b"]}")
radio_licence("adsb-json", "readsb/LICENSE.dump1090mqtt")
radio_licence("adsb-json", "adsb/LICENSE.antirez-dump1090")
# uat-uplink: real uplinks (432 bytes after FEC) from dump978's San Jose sample (BSD-2-Clause) and fisb-decode's
# Indiana capture (BSD-2-Clause-Patent); the first byte is the mode (docs/fuzzing.md): 0 bytes, 1 upper-case hex,
# 0x0a one hex digit spoiled, 4 one APDU alone.
import gzip
def uplink(name, line):
    with gzip.open(os.path.join(radio, "uat", name), "rb") as f: text = f.read().split(b"\n")[line - 1]
    return bytes.fromhex(text[1:].split(b";")[0].decode())
ksjc = uplink("sample-data.txt.gz", 593)   # six METARs, KSJC's of 240353Z first
seed("uat-uplink", b"\x00" + ksjc)
seed("uat-uplink", b"\x00" + uplink("sample-data.txt.gz", 356))   # three TAFs
seed("uat-uplink", b"\x00" + uplink("sample-data.txt.gz", 564))   # TIS-B/ADS-R service status and a NOTAM
seed("uat-uplink", b"\x00" + uplink("sample-data.txt.gz", 602))   # a segmented NOTAM
seed("uat-uplink", b"\x01" + uplink("tg30.head-800.978.gz", 32))   # TAF.AMD KLCK
seed("uat-uplink", b"\x0a" + uplink("tg30.head-800.978.gz", 2))    # TAF.AMD KDAY
ksjc_apdu_length = (ksjc[8] << 1) | (ksjc[9] >> 7)
seed("uat-uplink", b"\x04" + ksjc[10:10 + ksjc_apdu_length])
radio_licence("uat-uplink", "uat/LICENSE.dump978-fa")
radio_licence("uat-uplink", "uat/LICENSE.fisb-decode")
# uat-line: dump978-fa's raw lines as read from its port (docs/radio-traffic.md), cut from dump978's San Jose sample
# (BSD-2-Clause) and fisb-decode's Indiana capture (BSD-2-Clause-Patent): downlinks and uplinks from the start, the
# TIS-B stretch, the frame that decodes to 3.9 N 56.7 E (line 996), `#` comments with rssi/t fields; and hand-made
# refusals (odd hex, wrong lengths, no ';', a reserved payload type, a basic frame of a long type, CR LF, `!` metadata).
def uat_lines(name, start, count, limit=16000):
    with gzip.open(os.path.join(radio, "uat", name), "rb") as f: lines = f.read().split(b"\n")[start - 1:start - 1 + count]
    out = b""
    for line in lines:
        if len(out) + len(line) + 1 > limit: break
        out += line + b"\n"
    return out
seed("uat-line", uat_lines("sample-data.txt.gz", 1, 40))
seed("uat-line", b"".join(l + b"\n" for l in uat_lines("sample-data.txt.gz", 490, 80, 10**6).split(b"\n") if l.startswith(b"-")))
seed("uat-line", uat_lines("sample-data.txt.gz", 990, 12))
seed("uat-line", uat_lines("tg30.head-800.978.gz", 1, 14))
seed("uat-line", b"-00a66ef135445d525a0c051911902120480;\n-00a66ef135445d525a0c0519119021204800\n"
     b"-00a66ef135445d525a0c05191190212048zz;\n-00a66ef135445d525a0c05191190212048;\n+00;\n"
     b"-58a66ef1353e2d525fd4050911882aa038101d06b85d440be2a4c2a0000590000000;rs=2;\n"
     b"-08a66ef135445d525a0c0519119021204800;\n-00a66ef135445d525a0c0519119021204800;rs=x;ss=;rssi=nan;t=;\r\n"
     b"!rs=1;\n\n-0aa952b5358bd752400005a8139213004f039f0264e6c404c8974200000610000000;rs=3;future=1;\n")
radio_licence("uat-line", "uat/LICENSE.dump978-fa")
radio_licence("uat-line", "uat/LICENSE.fisb-decode")
