#!/usr/bin/env python3
"""IGC fixes and WGS-84 local metres for the circling-wind reference tools (Python 3.11 standard library only).

Shared by circling_flight.py (writes IGC files) and circling_wind.py (reads them).  Written from the IGC
specification's record layouts and the WGS-84 definition, without reading cockpitd's code.

WGS-84: a = 6 378 137 m, f = 1 / 298.257 223 563, e^2 = f (2 - f).
Radii of curvature at geodetic latitude phi, with W = sqrt(1 - e^2 sin^2 phi):
    meridian        M = a (1 - e^2) / W^3     (metres north per radian of latitude, at the ellipsoid)
    prime vertical  N = a / W                 (metres east per radian of longitude is N cos phi)
At height h above the ellipsoid the arcs grow to (M + h) and (N + h) cos phi.

IGC records read and written (IGC specification, appendix A):
    HFDTE DDMMYY  or  HFDTEDATE:DDMMYY,NN      the UTC date of the first fix
    B HHMMSS DDMMmmm N|S DDDMMmmm E|W A|V PPPPP GGGGG
        time UTC, latitude and longitude in degrees and thousandths of minutes, fix validity (A = 3-D fix,
        V = 2-D or no fix), pressure altitude (ISA 1013.25 hPa datum) and GNSS altitude, metres, 5 characters
        each with a leading '-' when negative.  Characters after column 35 (extensions) are ignored.
"""
import math
from dataclasses import dataclass

WGS84_A_M = 6378137.0
WGS84_F = 1.0 / 298.257223563
WGS84_E2 = WGS84_F * (2.0 - WGS84_F)

MPS_PER_KT = 1852.0 / 3600.0


def meridian_radius_m(lat_deg):
    s = math.sin(math.radians(lat_deg))
    w2 = 1.0 - WGS84_E2 * s * s
    return WGS84_A_M * (1.0 - WGS84_E2) / (w2 * math.sqrt(w2))


def prime_vertical_radius_m(lat_deg):
    s = math.sin(math.radians(lat_deg))
    return WGS84_A_M / math.sqrt(1.0 - WGS84_E2 * s * s)


def metres_per_degree(lat_deg, height_m=0.0):
    """(metres north per degree of latitude, metres east per degree of longitude) at lat_deg, height_m."""
    north = (meridian_radius_m(lat_deg) + height_m) * math.pi / 180.0
    east = (prime_vertical_radius_m(lat_deg) + height_m) * math.cos(math.radians(lat_deg)) * math.pi / 180.0
    return north, east


def displacement_m(lat1, lon1, lat2, lon2, height_m=0.0):
    """(east, north) metres from point 1 to point 2, radii taken at the mean latitude (exact to well under a
    millimetre over the few hundred metres between fixes or across one circle)."""
    north_per_deg, east_per_deg = metres_per_degree(0.5 * (lat1 + lat2), height_m)
    dlon = (lon2 - lon1 + 540.0) % 360.0 - 180.0
    return dlon * east_per_deg, (lat2 - lat1) * north_per_deg


# ------------------------------------------------------------------------------------------------------ IGC read
@dataclass
class Fix:
    time_s: float          # seconds since 00:00 UTC of the file's date (grows past 86400 after midnight)
    lat_deg: float
    lon_deg: float
    valid: bool            # 'A' (3-D fix) in the record
    pressure_alt_m: int | None
    gnss_alt_m: int | None


@dataclass
class Track:
    date: str | None       # YYYY-MM-DD from HFDTE, None if the file has none
    fixes: list
    refused: dict          # reason -> count of B records not read


def _altitude(text):
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return None


def parse_b_record(line):
    """One B record -> (seconds of day, lat, lon, valid, pressure alt m, GNSS alt m), or a refusal reason."""
    if len(line) < 35:
        return "short B record"
    hh, mm, ss = line[1:3], line[3:5], line[5:7]
    lat_d, lat_m, ns = line[7:9], line[9:14], line[14]
    lon_d, lon_m, ew = line[15:18], line[18:23], line[23]
    validity = line[24]
    if not (hh + mm + ss + lat_d + lat_m + lon_d + lon_m).isdigit():
        return "non-digit in time or position"
    if ns not in "NS" or ew not in "EW" or validity not in "AV":
        return "bad hemisphere or validity letter"
    hours, minutes, seconds = int(hh), int(mm), int(ss)
    if hours > 23 or minutes > 59 or seconds > 59:
        return "time out of range"
    lat = int(lat_d) + int(lat_m) / 60000.0
    lon = int(lon_d) + int(lon_m) / 60000.0
    if lat > 90.0 or lon > 180.0 or int(lat_m) >= 60000 or int(lon_m) >= 60000:
        return "position out of range"
    if ns == "S":
        lat = -lat
    if ew == "W":
        lon = -lon
    return (hours * 3600 + minutes * 60 + seconds, lat, lon, validity == "A",
            _altitude(line[25:30]), _altitude(line[30:35]))


def parse_date(line):
    """HFDTE record -> YYYY-MM-DD or None.  Two-digit years are taken as 19YY from 80 on, else 20YY."""
    rest = line[5:]
    if rest.upper().startswith("DATE:"):
        rest = rest[5:]
    digits = rest[:6]
    if len(digits) != 6 or not digits.isdigit():
        return None
    day, month, year = int(digits[0:2]), int(digits[2:4]), int(digits[4:6])
    year += 1900 if year >= 80 else 2000
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def read_igc(path):
    """All B records of an IGC file as Fix objects in file order.  A time earlier than the previous fix's by more
    than 12 hours is taken as the next UTC day; records that cannot be read are counted by reason, not kept."""
    with open(path, "r", encoding="ascii", errors="replace", newline=None) as handle:
        return parse_igc_lines(handle)


def parse_igc_lines(lines):
    date, fixes, refused = None, [], {}
    day_offset, last_time = 0, None
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line.startswith("HFDTE") and date is None:
            date = parse_date(line)
        elif line.startswith("B"):
            parsed = parse_b_record(line)
            if isinstance(parsed, str):
                refused[parsed] = refused.get(parsed, 0) + 1
                continue
            seconds, lat, lon, valid, p_alt, g_alt = parsed
            if last_time is not None and seconds + day_offset < last_time - 43200:
                day_offset += 86400
            last_time = seconds + day_offset
            fixes.append(Fix(float(last_time), lat, lon, valid, p_alt, g_alt))
    return Track(date, fixes, refused)


# ----------------------------------------------------------------------------------------------------- IGC write
def format_latitude(lat_deg):
    hemisphere = "N" if lat_deg >= 0 else "S"
    thousandths = round(abs(lat_deg) * 60000.0)
    return f"{thousandths // 60000:02d}{thousandths % 60000:05d}{hemisphere}"


def format_longitude(lon_deg):
    hemisphere = "E" if lon_deg >= 0 else "W"
    thousandths = round(abs(lon_deg) * 60000.0)
    return f"{thousandths // 60000:03d}{thousandths % 60000:05d}{hemisphere}"


def format_altitude(metres):
    value = round(metres)
    return f"-{-value:04d}" if value < 0 else f"{value:05d}"


def b_record(time_s, lat_deg, lon_deg, pressure_alt_m, gnss_alt_m, valid=True):
    seconds = int(round(time_s)) % 86400
    hhmmss = f"{seconds // 3600:02d}{seconds % 3600 // 60:02d}{seconds % 60:02d}"
    return ("B" + hhmmss + format_latitude(lat_deg) + format_longitude(lon_deg) + ("A" if valid else "V")
            + format_altitude(pressure_alt_m) + format_altitude(gnss_alt_m))
