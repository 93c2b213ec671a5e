#!/usr/bin/env python3
"""FLARM data-port NMEA test sentences written from the FLARM specification, not from cockpitd's decoder.

Writes Tests/Fixtures/flarm-spec/sentences.json: a list of cases
    {"name", "sentence", "valid", "action", "expected", "source", "notes"}
where `sentence` is the complete sentence without its CR LF (a test appends "\r\n" when it feeds a line-based
reader), `valid` says whether the sentence is a well-formed NMEA 0183 sentence (leading "$", "*", two-digit checksum
that matches) whose fields conform to the FLARM ICD, `action` says what a read-only cockpit decoder should do with it
("traffic" for a $PFLAA target, "status" for $PFLAU, "device-error" for a $PFLAE report, "ignore" for a well-formed
sentence that carries nothing for us, "reject" for a malformed one), and `expected` gives every field's meaning in
named units.

Checksums are computed here: XOR of every byte strictly between "$" and "*", written as two uppercase hex digits
(NMEA 0183; FLARM FTD-012 "all sentences carry a checksum").  Nothing is copied from a decoder's output: the expected
values are read off the specification's field definitions by hand and written into this file.

Sources (read for facts; no text of them is copied here beyond field names and enumerations):
  ICD7   FLARM Technology, FTD-012 "Data Port Interface Control Document (ICD)", revision table up to 7.17
         (2022-08-16), as summarised in shared/data/radio-traffic/flarm-nmea.md (which read the 7.20 PDF) and as the
         field definitions are transcribed in public third-party parsers (found with the `search`/`find_string`
         tools; their code was not used).  Sentence/field names below are the ICD's (<AlarmLevel>, <IDType>, ...).
  ICDold older FLARM "Data Port Specification" revisions (6.x; third-party parsers cite "v7.00"): same sentences, but
         <IDType> 1..3 with 3 = anonymous, alarm levels 13-18 / 9-12 / 0-8 s, and relative positions
         -32768..32767 m.
  NMEA   NMEA 0183: checksum = 8-bit XOR of all characters between "$" (or "!") and "*", converted to two ASCII
         hex characters (0-9, A-F), most significant first (v3.0 wording as quoted in vendor manuals).
  LOGS   real FLARM captures in shared/data/radio-traffic/flarm/ (a 9-field $PFLAU seen from a PowerMouse).

Python 3 standard library only.  Usage: python3 Scripts/flarm-spec-sentences.py [--output PATH]
"""
import argparse
import json
import math
import os

ICD7 = "FLARM FTD-012 Data Port ICD 7.x"
ICDOLD = "older FLARM Data Port Specification (6.x, cited by third parties as 'v7.00')"
NOTES = "shared/data/radio-traffic/flarm-nmea.md"
NMEA = "NMEA 0183 (checksum: XOR of the characters between $ and *, two hex characters 0-9 A-F, MSB first)"

KNOTS_PER_MPS = 3600.0 / 1852.0
FPM_PER_MPS = 60.0 / 0.3048

ALARM_LEVEL = {
    0: "no alarm (also used for no-alarm traffic information)",
    1: "alarm, 15-20 s to impact (ICD 7.x; 13-18 s in older revisions); in $PFLAU also Alert Zone alarm or "
       "traffic advisory",
    2: "alarm, 10-15 s to impact (ICD 7.x; 9-12 s in older revisions)",
    3: "alarm, 0-10 s to impact (ICD 7.x; 0-8 s in older revisions)",
}
ID_TYPE = {
    0: "random ID (configured, or because the target or own aircraft is in stealth mode)",
    1: "official ICAO 24-bit aircraft address",
    2: "fixed FLARM ID (chosen by FLARM)",
    3: "anonymous ID (stealth) in older specification revisions; outside ICD 7.x's range 0-2 - treat like 0 (random)",
}
AIRCRAFT_TYPE = {
    "0": "reserved (unknown)", "1": "glider / motor glider / TMG", "2": "tow plane / tug plane",
    "3": "helicopter / gyrocopter / rotorcraft", "4": "skydiver, parachute", "5": "drop plane for skydivers",
    "6": "hang glider (hard)", "7": "paraglider (soft)", "8": "aircraft with reciprocating engine(s)",
    "9": "aircraft with jet/turboprop engine(s)", "A": "unknown", "B": "balloon", "C": "airship, blimp, zeppelin",
    "D": "unmanned aerial vehicle (UAV, RPAS, drone)", "E": "reserved", "F": "static obstacle",
}
SOURCE = {0: "FLARM", 1: "ADS-B", 3: "ADS-R (UAT ADS-B rebroadcast on 1090 MHz)",
          4: "TIS-B (broadcast of non-ADS-B aircraft)", 6: "Mode-S (non-directional)"}
GPS = {0: "no GPS reception (FLARM not working)", 1: "3-D fix on ground (not airborne)", 2: "3-D fix, airborne"}
ALARM_TYPE = {0: "no aircraft within range or no-alarm traffic information", 2: "aircraft alarm",
              3: "obstacle alarm (also Alert Zone alarm when data port version < 7)",
              4: "traffic advisory (once when an aircraft comes within 1.5 km horizontally and 300 m vertically; "
                 "data port version >= 4)",
              0x41: "Alert Zone alarm, zone type 0x41 = skydiver drop zone (data port version >= 7; types 10..FF "
                    "are the PFLAO <ZoneType> values)"}
SEVERITY = {0: "no error, normal operation (disregard the other fields)", 1: "information only, normal operation",
            2: "functionality may be reduced", 3: "fatal problem, device will not work"}
ERROR_CODE = {
    0x11: "firmware expired (needs valid GPS, so not in the first minute or so after power-on)",
    0x12: "firmware update error", 0x21: "power (e.g. voltage < 8 V)", 0x22: "UI error", 0x23: "audio error",
    0x24: "ADC error", 0x25: "SD card error", 0x26: "USB error", 0x27: "LED error", 0x28: "EEPROM error",
    0x29: "general hardware error", 0x2A: "transponder receiver Mode-C/S/ADS-B unserviceable",
    0x2B: "EEPROM error", 0x2C: "GPIO error", 0x31: "GPS communication", 0x32: "configuration of GPS module",
    0x33: "GPS antenna", 0x41: "RF communication",
    0x42: "another FLARM device with the same radio ID is being received (alarms suppressed for it)",
    0x43: "wrong ICAO 24-bit address or radio ID", 0x51: "communication", 0x61: "flash memory",
    0x71: "pressure sensor", 0x81: "obstacle database (e.g. incorrect file type)", 0x82: "obstacle database expired",
    0x91: "flight recorder", 0x93: "engine-noise recording not possible", 0x94: "range analyzer",
    0xA1: "configuration error (e.g. reading flarmcfg.txt from SD/USB)",
    0xB1: "invalid obstacle database license", 0xB2: "invalid IGC feature license",
    0xB3: "invalid AUD feature license", 0xB4: "invalid ENL feature license", 0xB5: "invalid RFB feature license",
    0xB6: "invalid TIS feature license", 0x100: "generic error", 0x101: "flash file system error",
    0x110: "failure updating firmware of external display",
    0x120: "device operated outside the designated region; it does not work", 0xF1: "other",
}


def checksum(body):
    c = 0
    for ch in body.encode("ascii"):
        c ^= ch
    return c


def sentence(body, lower=False):
    hh = "%02X" % checksum(body)
    return "$" + body + "*" + (hh.lower() if lower else hh)


def opt_int(s):
    return None if s == "" else int(s)


def opt_float(s):
    return None if s == "" else float(s)


def clock(rel_deg):
    c = int(math.floor(rel_deg / 30.0 + 0.5)) % 12
    return 12 if c == 0 else c


# ---------------------------------------------------------------------------------------------------------------
# Field-by-field meaning, written from the ICD tables (see the module docstring); each key names its unit.
def pflaa_expected(body, protocol_min):
    f = body.split(",")
    assert f[0] == "PFLAA"
    alarm, north, east, vert, idtype, ident, track, turn, gs, climb, acft = f[1:12]
    extra = f[12:]
    directional = east != ""
    e = {
        "sentenceType": "PFLAA",
        "fieldCount": len(f) - 1,
        "alarmLevel": int(alarm), "alarmLevelMeaning": ALARM_LEVEL[int(alarm)],
        "directional": directional,
        "relativeNorthMetres": int(north) if directional else None,
        "relativeEastMetres": opt_int(east),
        "estimatedDistanceMetres": None if directional else int(north),
        "relativeVerticalMetres": int(vert),
        "idType": opt_int(idtype),
        "idTypeMeaning": ID_TYPE[int(idtype)] if idtype else "empty: no identification known (e.g. Mode-C)",
        "id": ident or None,
        "trackDegTrue": opt_int(track),
        "turnRate": None if turn == "" else turn,
        "groundSpeedMetresPerSecond": opt_int(gs),
        "climbRateMetresPerSecond": opt_float(climb),
        "aircraftTypeCode": acft, "aircraftTypeMeaning": AIRCRAFT_TYPE[acft],
        "noTrack": (extra[0] == "1") if len(extra) >= 1 and extra[0] != "" else None,
        "source": opt_int(extra[1]) if len(extra) >= 2 else None,
        "rssiDbm": opt_float(extra[2]) if len(extra) >= 3 else None,
        "minimumDataPortVersion": protocol_min,
    }
    e["sourceMeaning"] = SOURCE[e["source"]] if e["source"] is not None else (
        "field omitted (data port version < 9)")
    derived = {"relativeVerticalFeet": round(int(vert) / 0.3048, 1),
               "targetIsAbove": int(vert) > 0}
    if directional:
        n, ea = int(north), int(east)
        derived["horizontalDistanceMetres"] = round(math.hypot(n, ea), 1)
        derived["bearingDegTrue"] = round(math.degrees(math.atan2(ea, n)) % 360.0, 2)
    if e["groundSpeedMetresPerSecond"] is not None:
        derived["groundSpeedKnots"] = round(e["groundSpeedMetresPerSecond"] * KNOTS_PER_MPS, 2)
    if e["climbRateMetresPerSecond"] is not None:
        derived["climbRateFeetPerMinute"] = round(e["climbRateMetresPerSecond"] * FPM_PER_MPS, 1)
    e["derived"] = derived
    return e


def pflaa_source(extra=None):
    s = {
        "framing": NMEA + "; " + ICD7 + " (every FLARM sentence carries a checksum)",
        "fieldOrder": ICD7 + ", $PFLAA: <AlarmLevel>,<RelativeNorth>,<RelativeEast>,<RelativeVertical>,<IDType>,<ID>,"
                             "<Track>,<TurnRate>,<GroundSpeed>,<ClimbRate>,<AcftType>[,<NoTrack>[,<Source>,<RSSI>]]",
        "alarmLevel": ICD7 + ", $PFLAA <AlarmLevel>: 0..3, 1 = 15-20 s, 2 = 10-15 s, 3 = 0-10 s to impact",
        "relativeNorth/East": ICD7 + ", $PFLAA <RelativeNorth>/<RelativeEast>: metres true north/east of own "
                                     "position, -20000000..20000000; <RelativeEast> empty = non-directional, then "
                                     "<RelativeNorth> is the estimated distance",
        "relativeVertical": ICD7 + ", $PFLAA <RelativeVertical>: metres above own position, negative = lower",
        "idType": ICD7 + ", $PFLAA <IDType>: 0 random, 1 ICAO, 2 fixed FLARM ID; empty if no identification",
        "id": ICD7 + ", $PFLAA <ID>: 6 hex digits, empty if unknown",
        "track": ICD7 + ", $PFLAA <Track>: 0..359 deg true; empty under stealth or non-directional",
        "turnRate": ICD7 + ", $PFLAA <TurnRate>: currently always empty",
        "groundSpeed": ICD7 + ", $PFLAA <GroundSpeed>: 0..32767 m/s, forced > 0 when moving, 0 on ground; empty "
                              "under stealth or non-directional",
        "climbRate": ICD7 + ", $PFLAA <ClimbRate>: m/s with one decimal, -32.7..32.7, positive = climbing",
        "acftType": ICD7 + ", $PFLAA <AcftType>: hex 0..F (table)",
        "noTrack/source/rssi": ICD7 + ", $PFLAA <NoTrack> (omitted if data port version < 8), <Source> and <RSSI> "
                                      "(omitted if < 9)",
        "notes": NOTES + " section 3",
    }
    if extra:
        s.update(extra)
    return s


def pflau_expected(body, protocol_min):
    f = body.split(",")
    assert f[0] == "PFLAU"
    rx, tx, gps, power, alarm, bearing, atype, vert, dist = (f[1:10] + [""] * 9)[:9]
    ident = f[10] if len(f) > 10 else None
    at = int(atype, 16)
    e = {
        "sentenceType": "PFLAU",
        "fieldCount": len(f) - 1,
        "rxCount": int(rx),
        "tx": int(tx), "txMeaning": "transmission OK" if tx == "1" else "no transmission",
        "gpsStatus": int(gps), "gpsStatusMeaning": GPS[int(gps)],
        "power": int(power), "powerMeaning": "OK" if power == "1" else "under- or over-voltage",
        "alarmLevel": int(alarm), "alarmLevelMeaning": ALARM_LEVEL[int(alarm)],
        "relativeBearingDeg": opt_int(bearing),
        "alarmTypeHex": atype, "alarmType": at, "alarmTypeMeaning": ALARM_TYPE[at],
        "relativeVerticalMetres": opt_int(vert),
        "relativeDistanceMetres": opt_int(dist) if len(f) > 9 else None,
        "relativeDistanceFieldPresent": len(f) > 9,
        "id": ident if ident else None,
        "idFieldPresent": ident is not None,
        "hasTarget": bearing != "" or vert != "" or (len(f) > 9 and dist != ""),
        "minimumDataPortVersion": protocol_min,
    }
    if at in (3,) or at >= 0x10:
        e["derived"] = {"note": "obstacle / Alert Zone: bearing and vertical are 0 by definition, not a direction"}
    elif e["relativeBearingDeg"] is not None:
        e["derived"] = {"clockPosition": clock(e["relativeBearingDeg"] % 360),
                        "side": "ahead" if e["relativeBearingDeg"] == 0 else
                        ("right" if 0 < e["relativeBearingDeg"] < 180 else
                         ("behind" if abs(e["relativeBearingDeg"]) == 180 else "left"))}
    return e


def pflau_source(extra=None):
    s = {
        "framing": NMEA + "; " + ICD7,
        "fieldOrder": ICD7 + ", $PFLAU: <RX>,<TX>,<GPS>,<Power>,<AlarmLevel>,<RelativeBearing>,<AlarmType>,"
                             "<RelativeVertical>,<RelativeDistance>[,<ID>] (<ID> from data port version 4)",
        "rx": ICD7 + ", $PFLAU <RX>: 0..99 devices with unique IDs received, regardless of distance",
        "tx": ICD7 + ", $PFLAU <TX>: 1 = OK, 0 = no transmission",
        "gps": ICD7 + ", $PFLAU <GPS>: 0 none, 1 3-D fix on ground, 2 3-D fix airborne",
        "power": ICD7 + ", $PFLAU <Power>: 1 OK, 0 under/over-voltage",
        "alarmLevel": ICD7 + ", $PFLAU <AlarmLevel>",
        "relativeBearing": ICD7 + ", $PFLAU <RelativeBearing>: -180..180 deg from own true ground track, clockwise "
                                  "positive, 0 = ahead; empty for non-directional or no target; 0 for obstacle "
                                  "and Alert Zone",
        "alarmType": ICD7 + ", $PFLAU <AlarmType>: hex 0..FF; 0, 2, 3, 4, 10..FF = Alert Zone type (>= v7)",
        "relativeVertical": ICD7 + ", $PFLAU <RelativeVertical>: metres above own, empty with no target, 0 for "
                                   "obstacle/Alert Zone",
        "relativeDistance": ICD7 + ", $PFLAU <RelativeDistance>: 0..2147483647 m horizontal; empty with nothing "
                                   "to report; 0 for Alert Zone",
        "id": ICD7 + ", $PFLAU <ID>: 6 hex digits (data port version >= 4)",
        "notes": NOTES + " section 2",
    }
    if extra:
        s.update(extra)
    return s


def pflae_expected(body):
    f = body.split(",")
    assert f[0] == "PFLAE"
    e = {"sentenceType": "PFLAE", "fieldCount": len(f) - 1, "queryType": f[1],
         "queryTypeMeaning": {"A": "FLARM sends status (requested or spontaneous)",
                              "R": "request to FLARM to send status (sent by a display, not by FLARM)"}[f[1]]}
    if f[1] == "A":
        code = int(f[3], 16)
        e.update({"severity": int(f[2]), "severityMeaning": SEVERITY[int(f[2])],
                  "errorCodeHex": f[3], "errorCode": code,
                  "errorCodeMeaning": ERROR_CODE.get(code, "not in the ICD's table: unknown code (show it as "
                                                            "'FLARM error %s')" % f[3]) if code else "none",
                  "errorCodeKnown": code in ERROR_CODE or code == 0,
                  "message": f[4] if len(f) > 4 else None,
                  "messageFieldPresent": len(f) > 4})
    return e


PFLAE_SOURCE = {
    "framing": NMEA + "; " + ICD7,
    "fieldOrder": ICD7 + ", $PFLAE: <QueryType>,<Severity>,<ErrorCode>[,<Message>]",
    "queryType": ICD7 + ", $PFLAE <QueryType>: R = request (other fields omitted), A = FLARM sends status",
    "severity": ICD7 + ", $PFLAE <Severity>: 0 no error, 1 information only, 2 functionality may be reduced, "
                       "3 fatal problem",
    "errorCode": ICD7 + ", $PFLAE <ErrorCode>: hex 0..FFF (table of codes 11..F1)",
    "message": ICD7 + ", $PFLAE <Message>: omitted if data port version < 7 (or DEVTYPE Flarm04); max 40 ASCII "
                      "characters, may be empty",
    "notes": NOTES + " section 4 (an error is repeated every second for 30 s; 'A,0,0' once after start-up)",
}


# ---------------------------------------------------------------------------------------------------------------
def cases():
    out = []

    def add(name, sent, valid, action, expected, source, notes=None, **extra):
        c = {"name": name, "sentence": sent, "valid": valid, "action": action, "expected": expected,
             "source": source}
        c.update(extra)
        if notes:
            c["notes"] = notes
        out.append(c)

    def aa(name, body, protocol_min=1, notes=None, src=None):
        add(name, sentence(body), True, "traffic", pflaa_expected(body, protocol_min), pflaa_source(src), notes)

    def au(name, body, protocol_min=1, notes=None, src=None):
        add(name, sentence(body), True, "status", pflau_expected(body, protocol_min), pflau_source(src), notes)

    def ae(name, body, notes=None, action="device-error"):
        add(name, sentence(body), True, action, pflae_expected(body), PFLAE_SOURCE, notes)

    # --- $PFLAA -------------------------------------------------------------------------------------------------
    aa("pflaa-icd-example-glider", "PFLAA,0,-1234,1234,220,2,DD8F12,180,,30,-1.4,1", 1,
       "The ICD's own example: a glider 1.2 km south and 1.2 km east (1745 m, bearing 135), 220 m higher, track "
       "south, 30 m/s, sinking 1.4 m/s, fixed FLARM ID DD8F12, no danger. (The ICD's prose also mentions 'a slight "
       "left turn with 4.5 deg/s' although <TurnRate> is empty - a known inconsistency of the example; the field is "
       "empty, so there is no turn rate.)")
    aa("pflaa-icao-piston-alarm3", "PFLAA,3,85,-40,-12,1,4B1A2C,47,,51,2.5,8", 1,
       "Urgent alarm: powered aircraft with ICAO address 4B1A2C, 85 m north / 40 m west (94 m, bearing 334.8), 12 m "
       "below, climbing 2.5 m/s.")
    aa("pflaa-random-id-alarm1", "PFLAA,1,-420,310,35,0,F1E2D3,300,,28,-0.8,1", 1,
       "IDType 0: F1E2D3 is a random ID - do not look it up in an aircraft database and do not use it to link "
       "tracks across flights.")
    aa("pflaa-towplane-alarm2-negative-offsets", "PFLAA,2,-150,-95,-8,2,DDA0B1,15,,36,1.8,2", 1,
       "Both horizontal offsets negative (south-west), slightly below.")
    aa("pflaa-stealth-no-track-speed-climb", "PFLAA,0,800,-600,45,0,3A7F01,,,,,1", 1,
       "Stealth mode on either side, no alarm: anonymous (random) ID, position and (noisy) relative altitude, but "
       "track, ground speed and climb rate are empty - unknown, not zero.")
    aa("pflaa-non-directional-mode-s", "PFLAA,0,1500,,-150,1,3C6544,,,,,9", 6,
       "Non-directional transponder target (Mode-S, ICAO 3C6544): <RelativeEast> is empty, so <RelativeNorth> = "
       "1500 is an estimated DISTANCE (from signal strength), not a northward offset; no bearing, track, speed or "
       "climb. Non-directional targets appear from data port version 6.")
    aa("pflaa-non-directional-mode-c-no-id", "PFLAA,0,2100,,90,,,,,,,A", 6,
       "Mode-C target: no identification, so <IDType> and <ID> are empty; estimated distance 2100 m; aircraft type "
       "A (unknown). A decoder needs some other key for it (FLARM gives none).")
    aa("pflaa-v8-no-track-set", "PFLAA,0,-250,-900,120,2,DDA5BA,95,,25,1.2,1,1", 8,
       "<NoTrack> = 1: the target asked to stay private - its data must not be stored (flight log, database) or "
       "passed to a system that would store it.")
    aa("pflaa-v9-adsb-jet", "PFLAA,0,3200,-4100,610,1,440D3E,210,,110,-3.0,9,0,1,-78.5", 9,
       "Data port version 9: <NoTrack> 0, <Source> 1 = ADS-B, <RSSI> -78.5 dBm.")
    aa("pflaa-v9-flarm-rssi-empty", "PFLAA,2,120,-60,-20,2,DD1234,30,,33,0.4,2,0,0,", 9,
       "Version 9 with <Source> 0 (FLARM) and <RSSI> empty (unknown): the trailing comma keeps the empty field.")
    aa("pflaa-v9-adsr-no-alarm", "PFLAA,0,5000,2000,300,1,A12345,180,,70,0.0,8,0,3,", 9,
       "<Source> 3 = ADS-R: FLARM computes no alarm for ADS-R/TIS-B targets (AlarmLevel always 0); positions may be "
       "extrapolated - indicative display only.")
    aa("pflaa-idtype-3-legacy-anonymous", "PFLAA,0,500,500,0,3,A1B2C3,90,,20,0.0,7", 1,
       "IDType 3 = 'anonymous ID (stealth)' in older specification revisions; ICD 7.x documents only 0..2 (0 = "
       "random). Accept it and treat it like 0 (the project's notes say the same; SkyDemon is reported to reject "
       "IDType outside 0-2).",
       {"idType": ICDOLD + ", $PFLAA <IDType>: 1 ICAO, 2 FLARM, 3 anonymous; ICD 7.x: 0..2 only"})
    aa("pflaa-uav-hex-aircraft-type", "PFLAA,1,-60,35,-5,2,DE0A11,270,,8,0.0,D", 1,
       "<AcftType> is hexadecimal: D = UAV/drone (a decoder that parses it as decimal gets nothing).")
    aa("pflaa-beyond-16-bit-offsets", "PFLAA,0,-25000,40000,-300,1,4CA123,90,,230,-5.1,9", 1,
       "North/east offsets beyond +-32767 m: valid in ICD 7.x (range +-20 000 000 m), but older revisions gave "
       "-32768..32767 - a decoder storing them in Int16 would overflow. 47 170 m away.",
       {"relativeNorth/East": ICD7 + ": -20000000..20000000; " + ICDOLD + ": -32768..32767"})
    aa("pflaa-on-ground-speed-zero", "PFLAA,0,30,-12,0,2,DD4711,0,,0,0.0,2", 1,
       "<GroundSpeed> 0 means 'on the ground' (FLARM forces it > 0 when the aircraft is considered moving). Track 0 "
       "is true north here, not 'no track'.")

    # --- $PFLAU -------------------------------------------------------------------------------------------------
    au("pflau-no-traffic", "PFLAU,0,1,2,1,0,,0,,,", 4,
       "Heartbeat with nothing around: RX 0, TX OK, airborne 3-D fix, power OK; bearing, vertical, distance and ID "
       "empty (10 fields, the last empty).")
    au("pflau-nine-fields-no-id", "PFLAU,0,0,0,1,0,,0,,", 1,
       "9 fields: RX..RelativeDistance present (distance empty), <ID> omitted - the form of data port version < 4, "
       "exactly as a real PowerMouse sends it throughout its capture (its alarm lines too, e.g. "
       "'$PFLAU,1,0,2,1,3,0,2,0,935*5E'). Still a valid heartbeat: no GPS, no transmission. (The project's note "
       "flarm-nmea.md section 2 reads this line as 'RelativeDistance omitted'; counting the commas, it is the ID.)",
       {"observed": "shared/data/radio-traffic/flarm/PowerMouse_Simulation_S1.txt ($PFLAU,0,0,0,1,0,,0,,*63)"})
    au("pflau-icd-example-9-oclock", "PFLAU,2,1,2,1,1,-90,2,50,75,1A304C", 4,
       "ICD example: two aircraft received; the most dangerous, ID 1A304C, is at 9 o'clock (-90 deg), 50 m above "
       "and 75 m away; level 1 alarm.")
    au("pflau-alarm3-behind-below", "PFLAU,3,1,2,1,3,-170,2,-25,110,4B1A2C", 4,
       "Level 3 aircraft alarm, relative bearing -170 deg (behind, slightly left: 6 o'clock), 25 m below, 110 m.")
    au("pflau-alarm2-without-id", "PFLAU,3,1,2,1,2,-30,2,-32,755", 1,
       "Data port version < 4: no <ID> field (9 fields). 11 o'clock, 32 m below, 755 m, level 2 (ICD example).")
    au("pflau-traffic-advisory", "PFLAU,5,1,2,1,1,90,4,150,1400,DD8F12", 4,
       "AlarmType 4 = traffic advisory, sent once as an aircraft comes within 1.5 km and 300 m; AlarmLevel is 1 "
       "with it. 3 o'clock, 150 m above, 1400 m.")
    au("pflau-obstacle-alarm", "PFLAU,1,1,2,1,2,0,3,0,320,FFFFFF", 8,
       "AlarmType 3 = obstacle: bearing and vertical are 0 by definition (not 'dead ahead, same height'); 320 m "
       "away; ID FFFFFF = obstacle without an ID.")
    au("pflau-alert-zone", "PFLAU,0,1,2,1,1,0,41,0,0,3F0A12", 7,
       "AlarmType 0x41 (hex!) = Alert Zone of type skydiver drop zone (version >= 7): bearing, vertical and "
       "distance are 0 for zones; the ID is the zone's. Inside a zone the level is 1 for 4 s then 0 for 12 s.")
    au("pflau-no-gps-under-voltage", "PFLAU,0,0,0,0,0,,0,,,", 4,
       "GPS 0 (FLARM not working: wait a few seconds before warning), no transmission, power fault.")

    # --- $PFLAE -------------------------------------------------------------------------------------------------
    ae("pflae-self-test-ok", "PFLAE,A,0,0", "Sent once after start-up when all is fine: no error.", "status")
    ae("pflae-firmware-expired-fatal", "PFLAE,A,3,11,Firmware expired",
       "Severity 3: the device will not work; code 11 = firmware expired.")
    ae("pflae-obstacle-db-expired-info", "PFLAE,A,1,82,Obstacle database expired",
       "Severity 1, information only: operation normal.")
    ae("pflae-gps-antenna-no-message", "PFLAE,A,2,33",
       "Data port version < 7: <Message> omitted. Severity 2, code 33 = GPS antenna.")
    ae("pflae-unknown-code-empty-message", "PFLAE,A,2,3FF,",
       "Code 3FF is within the ICD's range (0..FFF) but not in its table: show 'FLARM error 3FF' with the severity. "
       "<Message> present but empty.")
    ae("pflae-request-from-display", "PFLAE,R",
       "A request a display sends to FLARM; not a status from the device - nothing to report.", "ignore")

    # --- framing edge cases --------------------------------------------------------------------------------------
    good = "PFLAA,0,-1234,1234,220,2,DD8F12,180,,30,-1.4,1"
    cs = checksum(good)
    add("bad-checksum", "$%s*%02X" % (good, cs ^ 0x01), False, "reject",
        {"reason": "checksum mismatch", "computedChecksumHex": "%02X" % cs,
         "transmittedChecksumHex": "%02X" % (cs ^ 0x01)},
        {"framing": NMEA}, "The ICD example with its checksum's lowest bit flipped.")
    add("truncated-no-checksum", "$PFLAA,0,-1234,1234,220,2,DD8", False, "reject",
        {"reason": "truncated: no '*' and checksum, fields missing"}, {"framing": NMEA + "; " + ICD7},
        "A line cut mid-sentence (as at the end of a real capture). Must not yield a target with ID 'DD8'.")
    add("truncated-in-checksum", "$PFLAU,0,1,2,1,0,,0,,,*" + ("%02X" % checksum("PFLAU,0,1,2,1,0,,0,,,"))[0],
        False, "reject", {"reason": "truncated: one checksum digit instead of two"}, {"framing": NMEA})
    add("missing-checksum", "$PFLAU,0,1,2,1,0,,0,,,", False, "reject",
        {"reason": "no checksum; FLARM always sends one, so a line without it is taken as damaged"},
        {"framing": ICD7 + " (all FLARM sentences carry a checksum); " + NMEA +
                    " makes the checksum optional only for some standard sentences"},
        "Policy choice, stated: NMEA 0183 itself does not require a checksum on every sentence type, but on a FLARM "
        "port its absence means the line is not what FLARM sent.")
    # lowercase checksum: pick a sentence whose checksum contains a letter
    for body in ("PFLAU,2,1,2,1,1,-90,2,50,75,1A304C", "PFLAU,0,1,2,1,0,,0,,,", "PFLAE,A,0,0", good):
        if any(ch in "ABCDEF" for ch in "%02X" % checksum(body)):
            break
    add("lowercase-checksum", sentence(body, lower=True), True,
        "status" if body.startswith("PFLAU") else "traffic",
        dict(pflau_expected(body, 4) if body.startswith("PFLAU") else pflaa_expected(body, 1),
             checksumHexUppercase="%02X" % checksum(body)),
        {"framing": NMEA + ": the checksum is transmitted as the characters 0-9 and A-F (uppercase); FLARM and both "
                           "real logs use uppercase"},
        "The checksum VALUE is right but written in lowercase. NMEA 0183 says a talker transmits 0-9/A-F, so this "
        "is not conformant output; a tolerant receiver (comparing the hex value case-insensitively) accepts it. "
        "valid = true is the lenient choice; validStrict = false is the letter of the standard.",
        validStrict=False)
    add("unexpected-talker-wind", sentence("IIMWV,214.0,R,12.5,N,A"), True, "ignore",
        {"reason": "well-formed NMEA from another talker (II = integrated instrumentation, MWV = wind speed and "
                   "angle): not a FLARM sentence, carries no traffic"},
        {"framing": NMEA}, "Must be skipped without an error and without disturbing the FLARM link state.")
    add("unexpected-proprietary-talker", sentence("PFLAX,A"), True, "ignore",
        {"reason": "FLARM's answer to a switch into binary mode; a read-only decoder never sends that command, so it "
                   "has nothing to act on"},
        {"framing": NMEA, "sentence": ICD7 + ", $PFLAX (binary-mode switch; only after a display's request)"})
    add("non-numeric-field", sentence("PFLAA,0,-12a4,1234,220,2,DD8F12,180,,30,-1.4,1"), False, "reject",
        {"reason": "<RelativeNorth> is not a decimal integer"}, {"framing": NMEA, "relativeNorth": ICD7},
        "Checksum is correct; the content is not. Drop the sentence rather than guess a position.")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--output",
                    default=os.path.join(here, "..", "Tests", "Fixtures", "flarm-spec", "sentences.json"))
    args = ap.parse_args()
    # The checksum routine, checked against lines of the real FLARM captures in shared/data/radio-traffic/flarm/.
    assert sentence("PFLAU,0,0,0,1,0,,0,,") == "$PFLAU,0,0,0,1,0,,0,,*63"
    assert sentence("PFLAU,0,0,0,1,0,,0,,,") == "$PFLAU,0,0,0,1,0,,0,,,*4F"
    assert sentence("PFLAA,0,-5,19,-76,2,B88965,270,,1,-0.2,1") == "$PFLAA,0,-5,19,-76,2,B88965,270,,1,-0.2,1*04"
    assert sentence("PFLAU,1,0,2,1,3,0,2,0,935") == "$PFLAU,1,0,2,1,3,0,2,0,935*5E"
    cs = cases()
    for c in cs:   # self-check: every case called valid has a correct checksum, and vice versa for framing rejects
        s = c["sentence"]
        if "*" in s and len(s.split("*")[1]) == 2:
            ok = int(s.split("*")[1], 16) == checksum(s[1:s.index("*")])
        else:
            ok = False
        if c["valid"]:
            assert ok and s.startswith("$"), c["name"]
    names = [c["name"] for c in cs]
    assert len(names) == len(set(names))
    data = {"meta": {
        "generator": "Scripts/flarm-spec-sentences.py",
        "writtenFrom": "FLARM FTD-012 Data Port ICD 7.x field definitions (via shared/data/radio-traffic/"
                       "flarm-nmea.md and public transcriptions of the ICD's field tables), older FLARM data-port "
                       "specification wording where it differs, and NMEA 0183's checksum rule",
        "independence": "written without reading cockpitd's decoder or its tests",
        "sentenceField": "complete sentence from '$' to the checksum, without CR LF",
        "valid": "well-formed NMEA 0183 (leading $, '*', two hex digits matching the XOR of the characters between $ "
                 "and *) with fields that conform to the FLARM ICD",
        "action": {"traffic": "a $PFLAA target", "status": "$PFLAU heartbeat/alarm, or $PFLAE with no error",
                   "device-error": "$PFLAE reporting an error to show", "ignore": "well-formed, nothing for us",
                   "reject": "malformed: drop it"},
        "nulls": "null = the field is empty or omitted (unknown), never zero",
        "units": "metres, metres per second, degrees; derived.* adds feet, knots, feet per minute "
                 "(1 kt = 1852/3600 m/s, 1 ft = 0.3048 m)",
    }, "cases": cs}
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=True)
        f.write("\n")
    for c in cs:
        print("%-5s %-13s %-38s %s" % (c["valid"], c["action"], c["name"], c["sentence"]))


if __name__ == "__main__":
    main()
