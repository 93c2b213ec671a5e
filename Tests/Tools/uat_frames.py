"""Frame decoding for uat_reference.py: DO-282B downlinks and uplinks, DO-358B APDUs and DLAC text.

Written from the specifications' field layouts and the real recordings only, without reading cockpitd's code.
Every function is pure: bytes in, plain dicts, lists and numbers out.

DOWNLINK LAYOUT (RTCA DO-282B; bit 0 = most significant bit of byte 0)
    header   bits 0-4 payload type, 5-7 address qualifier, 8-31 address
    state vector (every payload type 0-10), from byte 4:
             bits 32-54 latitude (23 bits), 55-78 longitude (24 bits), both in units of 360/2^24 degrees (a raw
             latitude over 90 degrees is negative: minus 180; a longitude over 180: minus 360); lat = lon = NIC = 0
             means no position.  Bit 79 altitude type (0 pressure altitude, 1 geometric altitude), bits 80-91
             altitude code (0 = unknown, else code * 25 - 1025 ft), bits 92-95 NIC.
             Bits 96-97 air/ground state (0 airborne subsonic, 1 airborne supersonic, 2 on ground, 3 reserved).
             Airborne: bit 99 north/south sign (1 = south), 100-109 magnitude; bit 110 east/west sign (1 = west),
             111-120 magnitude (0 = no data, else magnitude - 1 kt, times 4 when supersonic); bit 121 vertical rate
             source (0 geometric, 1 pressure), bit 122 sign (1 = down), 123-131 magnitude (0 = no data, else
             (magnitude - 1) * 64 ft/min).  On ground: bits 100-109 ground speed (0 = no data, else - 1 kt),
             110-111 track/heading type (0 none, 1 true track, 2 magnetic heading, 3 true heading), 112-120 angle
             (units of 360/512 degrees).  Bits 132-135: UTC coupled + uplink feedback (ADS-B, qualifiers 0, 1, 4,
             5) or TIS-B site id (qualifiers 2, 3, 6).
    mode status (payload types 1 and 3), from byte 17: three 16-bit words w1 w2 w3, w1 = emitter category * 1600 +
             c1 * 40 + c2, w2 = c3 * 1600 + c4 * 40 + c5, w3 = c6 * 1600 + c7 * 40 + c8, base-40 characters
             0-9 = "0".."9", 10-35 = "A".."Z", 36 = space, 37-39 not printable (trailing ones dropped); bit 214
             (CSID) = 1: the characters are the call sign, 0: they are the flight plan id (Mode 3/A code).
    auxiliary state vector (payload types 1, 2, 5, 6), from byte 29: bits 232-243 the secondary altitude (same code)
             whose type is the other one of the state vector's.

UPLINK LAYOUT (DO-282B ground uplink; DO-358B FIS-B)
    header   bits 0-22 latitude, 23-46 longitude (as above), 47 position valid, 48 UTC coupled, 50 application data
             valid, 51-55 slot id, 56-59 TIS-B site id.  Then 424 bytes of information frames until one of length 0:
             9-bit length, 3 reserved bits, 4-bit frame type (0 = FIS-B APDU, 14 = current report list,
             15 = TIS-B/ADS-R service status), then `length` bytes of data.
    APDU     bits 0-2 reserved (A, G, P flags), 3-13 product id, 14 segmentation flag, 15-16 time option;
             then month (4) and day (5) when the time option is 2 or 3, hours (5) and minutes (6), seconds (6) when
             the time option is 1 or 3; then, when segmented, product file id (10), product file length (9) and
             APDU number (9).  The payload starts at the next whole byte.
    product 413 (generic text): 6-bit DLAC characters packed four to three bytes.  0 ETX (fill), 1-26 "A".."Z",
             27 NC (dropped), 28 TAB (the next character is a count of spaces), 29 RS (ends a record), 30 LF
             (newline), 31 CC (dropped), 32 space, 33-63 ASCII "!".."?".  A record reads
             "TYPE STATION ddhhmmZ text..." (TYPE: METAR, SPECI, TAF, TAF.AMD, WINDS, PIREP, ...).

"""
import math

QUALIFIER_NAMES = ["adsb_icao", "adsb_self_assigned", "tisb_icao", "tisb_track_file", "surface_vehicle",
                   "fixed_beacon", "adsr_non_icao", "reserved"]
AIR_GROUND_NAMES = ["airborne_subsonic", "airborne_supersonic", "on_ground", "reserved"]
EMITTER_NAMES = ["no_information", "light", "small", "large", "high_vortex_large", "heavy", "highly_manoeuvrable",
                 "rotorcraft", "unassigned_8", "glider_sailplane", "lighter_than_air", "parachutist_skydiver",
                 "ultralight_hang_glider_paraglider", "unassigned_13", "unmanned_aerial_vehicle",
                 "space_transatmospheric_vehicle", "unassigned_16", "surface_emergency_vehicle",
                 "surface_service_vehicle", "point_obstacle", "cluster_obstacle", "line_obstacle"]
HEADING_TYPES = [None, "true_track", "magnetic_heading", "true_heading"]
BASE40 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ "   # 37-39 are not printable
DEGREES_PER_LSB = 360.0 / (1 << 24)
DOWNLINK_BYTES = (18, 34)
UPLINK_BYTES = 432
TEXT_PRODUCT = 413
DOWNLINK_FIELDS = ("latitude_deg", "longitude_deg", "altitude_ft", "altitude_type", "nic", "air_ground",
                   "air_ground_name", "north_velocity_kt", "east_velocity_kt", "ground_speed_kt", "track_deg_true",
                   "heading_deg", "heading_type", "vertical_rate_fpm", "vertical_rate_source", "utc_coupled",
                   "tisb_site_id", "emitter_category", "emitter_category_name", "call_sign", "flight_plan_id",
                   "emergency_status", "uat_version", "secondary_altitude_ft", "secondary_altitude_type")


def field(data, first_bit, length):
    """The unsigned integer in bits first_bit .. first_bit + length - 1 of data (bit 0 = MSB of byte 0)."""
    first_byte, last_byte = first_bit // 8, (first_bit + length - 1) // 8
    chunk = int.from_bytes(data[first_byte:last_byte + 1], "big")
    return (chunk >> ((last_byte + 1) * 8 - first_bit - length)) & ((1 << length) - 1)


def lat_lon(data, first_bit):
    """(latitude, longitude) in degrees from a 23-bit latitude followed by a 24-bit longitude."""
    lat = field(data, first_bit, 23) * DEGREES_PER_LSB
    lon = field(data, first_bit + 23, 24) * DEGREES_PER_LSB
    return (lat - 180.0 if lat > 90.0 else lat), (lon - 360.0 if lon > 180.0 else lon)


def altitude_feet(code):
    return None if code == 0 else code * 25 - 1025


# -------------------------------------------------------------------------------------------------------- downlinks
def decode_downlink(b):
    payload_type, qualifier = field(b, 0, 5), field(b, 5, 3)
    out = {"payload_type": payload_type, "length_bytes": len(b), "address": "%06X" % field(b, 8, 24),
           "address_qualifier": qualifier, "address_qualifier_name": QUALIFIER_NAMES[qualifier],
           **dict.fromkeys(DOWNLINK_FIELDS)}
    if len(b) == 18 and payload_type != 0:
        out["error"] = "basic (18-byte) frame with payload type %d" % payload_type
    elif payload_type > 10:
        out["error"] = "payload type %d carries no state vector" % payload_type
    if "error" in out:
        return out
    out.update(decode_state_vector(b, qualifier))
    if payload_type in (1, 3):
        out.update(decode_mode_status(b))
    if payload_type in (1, 2, 5, 6):
        code = field(b, 232, 12)
        out["secondary_altitude_ft"] = altitude_feet(code)
        out["secondary_altitude_type"] = None if code == 0 else ("pressure" if field(b, 79, 1) else "geometric")
    return out


def decode_state_vector(b, qualifier):
    raw_lat, raw_lon, nic = field(b, 32, 23), field(b, 55, 24), field(b, 92, 4)
    lat, lon = lat_lon(b, 32)
    has_position = raw_lat != 0 or raw_lon != 0 or nic != 0
    code = field(b, 80, 12)
    air_ground = field(b, 96, 2)
    sv = {"latitude_deg": round(lat, 6) if has_position else None,
          "longitude_deg": round(lon, 6) if has_position else None,
          "altitude_ft": altitude_feet(code),
          "altitude_type": None if code == 0 else ("geometric" if field(b, 79, 1) else "pressure"),
          "nic": nic, "air_ground": air_ground, "air_ground_name": AIR_GROUND_NAMES[air_ground]}
    if air_ground in (0, 1):
        scale = 4 if air_ground == 1 else 1
        north, east = field(b, 100, 10), field(b, 111, 10)
        if north:
            sv["north_velocity_kt"] = (north - 1) * scale * (-1 if field(b, 99, 1) else 1)
        if east:
            sv["east_velocity_kt"] = (east - 1) * scale * (-1 if field(b, 110, 1) else 1)
        if north and east:
            n, e = sv["north_velocity_kt"], sv["east_velocity_kt"]
            sv["ground_speed_kt"] = round(math.hypot(n, e), 1)
            if n or e:
                sv["track_deg_true"] = round(math.degrees(math.atan2(e, n)) % 360.0, 1) % 360.0
        rate = field(b, 123, 9)
        if rate:
            sv["vertical_rate_fpm"] = (rate - 1) * 64 * (-1 if field(b, 122, 1) else 1)
            sv["vertical_rate_source"] = "pressure" if field(b, 121, 1) else "geometric"
    elif air_ground == 2:
        speed = field(b, 100, 10)
        if speed:
            sv["ground_speed_kt"] = speed - 1
        kind, angle = field(b, 110, 2), round(field(b, 112, 9) * 360.0 / 512.0, 1)
        if kind == 1:
            sv["track_deg_true"] = angle
        elif kind in (2, 3):
            sv["heading_deg"], sv["heading_type"] = angle, HEADING_TYPES[kind]
    if qualifier in (2, 3, 6):
        sv["tisb_site_id"] = field(b, 132, 4)
    else:
        sv["utc_coupled"] = bool(field(b, 132, 1))
    return sv


def base40(word):
    return [word // 1600 % 40, word // 40 % 40, word % 40]


def decode_mode_status(b):
    w1, w2, w3 = field(b, 136, 16), field(b, 152, 16), field(b, 168, 16)
    emitter = w1 // 1600
    codes = base40(w1)[1:] + base40(w2) + base40(w3)
    while codes and codes[-1] >= 36:          # trailing spaces and unprintable characters
        codes.pop()
    text = "".join(BASE40[c] if c < 37 else "?" for c in codes)
    is_call_sign = bool(field(b, 214, 1))
    return {"emitter_category": emitter,
            "emitter_category_name": EMITTER_NAMES[emitter] if emitter < len(EMITTER_NAMES) else "reserved",
            "call_sign": (text or None) if is_call_sign else None,
            "flight_plan_id": None if is_call_sign else (text or None),
            "emergency_status": field(b, 184, 3), "uat_version": field(b, 187, 3)}


# ---------------------------------------------------------------------------------------------------------- uplinks
DLAC = "\x00ABCDEFGHIJKLMNOPQRSTUVWXYZ\x1b\x1c\x1d\n\x1f !\"#$%&'()*+,-./0123456789:;<=>?"
DLAC_ETX, DLAC_NC, DLAC_TAB, DLAC_RS, DLAC_CC = 0, 27, 28, 29, 31


def dlac_records(data):
    """The text records in DLAC-encoded bytes: a list of strings, RS-separated, TAB counts expanded."""
    records, current, tab = [], [], False
    for k in range(len(data) * 8 // 6):
        code = field(data, 6 * k, 6)
        if tab:
            current.append(" " * code)
            tab = False
        elif code == DLAC_TAB:
            tab = True
        elif code == DLAC_RS:
            records.append("".join(current))
            current = []
        elif code not in (DLAC_ETX, DLAC_NC, DLAC_CC):
            current.append(DLAC[code])
    records.append("".join(current))
    return [r.rstrip("\n") for r in records if r.strip()]


def is_issue_time(word):
    return (len(word) == 7 and word[:6].isdigit() and word[6] == "Z" and 1 <= int(word[:2]) <= 31
            and int(word[2:4]) <= 23 and int(word[4:6]) <= 59)


def text_report(record):
    words = record.split()
    return {"type": words[0] if words else None, "station": words[1] if len(words) > 1 else None,
            "issue_time": words[2] if len(words) > 2 and is_issue_time(words[2]) else None,
            "text": record, "text_one_line": " ".join(words)}


def decode_apdu(p):
    out = {"product_id": field(p, 3, 11), "segmented": bool(field(p, 14, 1)), "time_option": field(p, 15, 2)}
    bit = 17
    if out["time_option"] in (2, 3):
        out["month"], out["day"] = field(p, bit, 4), field(p, bit + 4, 5)
        bit += 9
    out["hours"], out["minutes"] = field(p, bit, 5), field(p, bit + 5, 6)
    bit += 11
    if out["time_option"] in (1, 3):
        out["seconds"] = field(p, bit, 6)
        bit += 6
    if out["segmented"]:
        out["product_file_id"], out["product_file_length"] = field(p, bit, 10), field(p, bit + 10, 9)
        out["apdu_number"] = field(p, bit + 19, 9)
        bit += 28
    start = (bit + 7) // 8
    if start > len(p):
        out["error"] = "APDU header longer than its frame"
    elif out["product_id"] == TEXT_PRODUCT and not out["segmented"]:
        out["reports"] = [text_report(r) for r in dlac_records(p[start:])]
    return out


def decode_uplink(b):
    lat, lon = lat_lon(b, 0)
    out = {"ground_station_latitude_deg": round(lat, 6), "ground_station_longitude_deg": round(lon, 6),
           "position_valid": bool(field(b, 47, 1)), "utc_coupled": bool(field(b, 48, 1)),
           "application_data_valid": bool(field(b, 50, 1)), "slot_id": field(b, 51, 5),
           "tisb_site_id": field(b, 56, 4), "frames": []}
    data, offset = b[8:], 0
    while offset + 2 <= len(data):
        length, frame_type = field(data, 8 * offset, 9), field(data, 8 * offset + 12, 4)
        if length == 0:
            break
        frame = {"type": frame_type, "length_bytes": length}
        body = data[offset + 2:offset + 2 + length]
        offset += 2 + length
        if len(body) < length:
            frame["error"] = "frame runs past the end of the uplink"
        elif frame_type == 0:
            frame.update(decode_apdu(body))
        out["frames"].append(frame)
    return out
