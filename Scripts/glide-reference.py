#!/usr/bin/env python3
"""Independent reference for cockpitd's glide reach (docs/glide.md), written from the geometry alone.

Standard library only. It reads SRTM .hgt tiles itself (big-endian int16 metres above the EGM96 geoid, 1201 or 3601
posts a side, rows north to south, -32768 void), and for each scenario works out:

  distance and initial course on the sphere of radius 6,371,008.8 m (haversine);
  ground speed along the course: sqrt(V^2 - crosswind^2) - headwind (wind FROM a true direction);
  height lost over the path: distance * V / (L/D * ground speed);
  or, with a polar (sink = a*v^2 + b*v + c; from three points, or from best L/D, its speed and the minimum sink in
  vertex form), the airspeed that loses the least height per metre over the ground, found by scanning every 1 mm/s
  from the minimum-sink speed to the polar's top speed: MacCready 0 speed to fly with the wind;
  arrival height over the field: altitude MSL - height lost - field elevation MSL;
  the glide line against terrain + clearance every 30 m along the great circle (bilinear terrain), reporting the
  smallest margin and where; a point with no tile, or a void, makes the terrain unknown.

Verdict: "too-low" when the arrival height is under the arrival margin, else "blocked" when the glide line goes
below terrain + clearance at a known point, else "unknown" when a point has no terrain, else "reachable".

Usage: glide-reference.py [--synthetic DIR | --polar | --scenarios FILE --terrain DIR]   prints one JSON line per scenario.
       --polar works the polar scenarios (speed to fly in the wind) over the fixtures' tiles.
       --synthetic DIR writes the synthetic antimeridian tiles (N00E179.hgt, N00W180.hgt) into DIR and uses them.
       --scenarios FILE --terrain DIR works the scenarios of FILE (one JSON object a line, the keys of SCENARIOS
       below; "polar" as {"figures": [L/D, km/h, sink m/s], "topKmh": km/h} or {"points": [[km/h, m/s] x 3]}) over the
       tiles of DIR.
"""
import json
import math
import os
import struct
import sys

R = 6_371_008.8
FEET_PER_METRE = 1 / 0.3048
KNOT_MS = 1852 / 3600
STEP_M = 30.0


class Tiles:
    def __init__(self, directory):
        self.directory = directory
        self.cache = {}

    def tile(self, south, west):
        key = (south, west)
        if key not in self.cache:
            name = "%s%02d%s%03d.hgt" % ("N" if south >= 0 else "S", abs(south), "E" if west >= 0 else "W", abs(west))
            path = os.path.join(self.directory, name)
            data = None
            if os.path.exists(path):
                with open(path, "rb") as f:
                    raw = f.read()
                size = int(round(math.sqrt(len(raw) // 2)))
                if size * size * 2 == len(raw):
                    data = (size, raw)
            self.cache[key] = data
        return self.cache[key]

    def elevation(self, lat, lon):
        lon = (lon + 180) % 360 - 180
        south, west = math.floor(lat), math.floor(lon)
        t = self.tile(south, west)
        if t is None:
            return None
        size, raw = t
        n = size - 1
        y = (south + 1 - lat) * n
        x = (lon - west) * n
        r, c = min(int(y), n - 1), min(int(x), n - 1)
        fy, fx = y - r, x - c

        def post(rr, cc):
            return struct.unpack_from(">h", raw, (rr * size + cc) * 2)[0]

        a, b, cc_, d = post(r, c), post(r, c + 1), post(r + 1, c), post(r + 1, c + 1)
        if -32768 in (a, b, cc_, d):
            return None
        return (a * (1 - fx) + b * fx) * (1 - fy) + (cc_ * (1 - fx) + d * fx) * fy


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(h)))


def course(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360


def intermediate(lat1, lon1, lat2, lon2, f):
    """The point a fraction f of the way along the great circle (unit vectors, slerp)."""
    def vec(lat, lon):
        la, lo = math.radians(lat), math.radians(lon)
        return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))
    a, b = vec(lat1, lon1), vec(lat2, lon2)
    dot = max(-1.0, min(1.0, sum(i * j for i, j in zip(a, b))))
    omega = math.acos(dot)
    if omega < 1e-12:
        return lat1, lon1
    s1 = math.sin((1 - f) * omega) / math.sin(omega)
    s2 = math.sin(f * omega) / math.sin(omega)
    v = [s1 * i + s2 * j for i, j in zip(a, b)]
    return math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))), math.degrees(math.atan2(v[1], v[0]))


def polar_coefficients(polar):
    """(a, b, c, minimum-sink speed, top speed) in m/s. Three points: the 3x3 system solved by Cramer's rule.
    Figures (L/D, best-glide km/h, minimum sink m/s): vertex form s = a (v - vm)^2 + smin whose tangent at V passes
    through the origin: s'(V) = 1/LD and s(V) = V/LD give vm = 2 LD smin - V and a = 1 / (2 LD (V - vm))."""
    if "points" in polar:
        pts = [(k / 3.6, m) for k, m in polar["points"]]
        def det(m):
            return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                    + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
        rows = [[v * v, v, 1.0] for v, _ in pts]
        rhs = [m for _, m in pts]
        d = det(rows)
        coeffs = []
        for col in range(3):
            m = [r[:] for r in rows]
            for i in range(3):
                m[i][col] = rhs[i]
            coeffs.append(det(m) / d)
        a, b, c = coeffs
        top = max(v for v, _ in pts)
    else:
        ld, kmh, smin = polar["figures"]
        v = kmh / 3.6
        vm = 2 * ld * smin - v
        a = 1 / (2 * ld * (v - vm))
        b, c = -2 * a * vm, a * vm * vm + smin
        top = polar["topKmh"] / 3.6
    return a, b, c, -b / (2 * a), top


def speed_to_fly(polar, head, cross):
    """(airspeed, ground speed, height lost per metre) at the least height lost per metre, or None."""
    a, b, c, vmin, top = polar_coefficients(polar)
    best = None
    steps = int((top - vmin) / 0.001)
    for i in range(steps + 1):
        v = vmin + i * 0.001
        if v <= abs(cross):
            continue
        gs = math.sqrt(v * v - cross * cross) - head
        if gs <= 0:
            continue
        loss = (a * v * v + b * v + c) / gs
        if best is None or loss < best[2]:
            best = (v, gs, loss)
    return best


def reach(tiles, s):
    lat, lon, alt = s["lat"], s["lon"], s["altitudeMSLMeters"]
    flat, flon = s["fieldLat"], s["fieldLon"]
    elev = s["fieldElevationFeet"] / FEET_PER_METRE
    ld, v = s["glideRatio"], s["bestGlideKnots"] * KNOT_MS
    wind_from, wind = s.get("windFromDegrees", 0.0), s.get("windKnots", 0.0) * KNOT_MS
    clearance, arrival_margin = s["clearanceMeters"], s["arrivalMarginMeters"]
    dist = haversine(lat, lon, flat, flon)
    crs = course(lat, lon, flat, flon)
    angle = math.radians(crs - wind_from)
    head, cross = wind * math.cos(angle), wind * math.sin(angle)
    gs = math.sqrt(max(0.0, v * v - cross * cross)) - head
    out = {"name": s["name"], "distanceMeters": round(dist, 1), "courseDegrees": round(crs, 2)}
    if "polar" in s:
        flown = speed_to_fly(s["polar"], head, cross)
        if flown is None:
            out.update(verdict="too-low", arrivalFeet=None)
            return out
        v, gs, per_metre = flown
        out["speedToFlyKnots"] = round(v / KNOT_MS, 2)
        out["groundSpeedKnots"] = round(gs / KNOT_MS, 2)
    else:
        if gs <= 0:
            out.update(verdict="too-low", arrivalFeet=None)
            return out
        per_metre = v / (ld * gs)
    arrival = alt - dist * per_metre - elev
    out["arrivalFeet"] = round(arrival * FEET_PER_METRE, 1)
    steps = max(1, int(math.ceil(dist / STEP_M)))
    worst, worst_at, unknown_at = None, None, None
    for i in range(1, steps + 1):
        d = dist * i / steps
        plat, plon = intermediate(lat, lon, flat, flon, i / steps)
        t = tiles.elevation(plat, plon)
        if t is None:
            if unknown_at is None:
                unknown_at = d
            continue
        margin = alt - d * per_metre - (t + clearance)
        if worst is None or margin < worst:
            worst, worst_at = margin, d
    out["minMarginMeters"] = None if worst is None else round(worst, 1)
    out["minMarginAtMeters"] = None if worst_at is None else round(worst_at)
    out["unknownFromMeters"] = None if unknown_at is None else round(unknown_at)
    if arrival < arrival_margin:
        out["verdict"] = "too-low"
    elif worst is not None and worst < 0:
        out["verdict"] = "blocked"
    elif unknown_at is not None:
        out["verdict"] = "unknown"
    else:
        out["verdict"] = "reachable"
    return out


def write_synthetic(directory):
    """Two flat 200 m tiles either side of the antimeridian; a 2,000 m ridge in N00W180 from 0°N to 0.4°N between
    179.95°W and 179.94°W (columns 60..72)."""
    os.makedirs(directory, exist_ok=True)
    for name, ridge in (("N00E179.hgt", False), ("N00W180.hgt", True)):
        rows = []
        for r in range(1201):
            lat = 1 - r / 1200
            row = []
            for c in range(1201):
                h = 200
                if ridge and 60 <= c <= 72 and lat <= 0.4:
                    h = 2000
                row.append(h)
            rows.append(struct.pack(">1201h", *row))
        with open(os.path.join(directory, name), "wb") as f:
            f.write(b"".join(rows))


BASE = {"glideRatio": 9.0, "bestGlideKnots": 70.0, "clearanceMeters": 150.0, "arrivalMarginMeters": 300.0}

GLIDER = {"glideRatio": 35.0, "bestGlideKnots": 55.0}

SCENARIOS = [
    # White Mountains, glider at 1,500 m south-west of Franconia Notch: Franconia (1B5) is nearer but behind the
    # Kinsman/Cannon ridge; Whitefield (KHIE) is farther and clear.
    dict(BASE, **GLIDER, name="nh-1B5-behind-ridge", lat=44.15, lon=-71.6, altitudeMSLMeters=1500.0,
         fieldLat=44.19561, fieldLon=-71.75102, fieldElevationFeet=970),
    dict(BASE, **GLIDER, name="nh-KHIE-farther-clear", lat=44.15, lon=-71.6, altitudeMSLMeters=1500.0,
         fieldLat=44.36752, fieldLon=-71.54577, fieldElevationFeet=1074),
    dict(BASE, **GLIDER, name="nh-KHIE-headwind", lat=44.15, lon=-71.6, altitudeMSLMeters=1500.0, windFromDegrees=10.0, windKnots=15.0,
         fieldLat=44.36752, fieldLon=-71.54577, fieldElevationFeet=1074),
    # North of the Presidentials at 1,200 m: Gorham (2G8) nearer but blocked, Berlin (KBML) farther and clear.
    dict(BASE, **GLIDER, name="nh-2G8-blocked", lat=44.48, lon=-71.36, altitudeMSLMeters=1200.0,
         fieldLat=44.39310, fieldLon=-71.19670, fieldElevationFeet=835),
    dict(BASE, **GLIDER, name="nh-KBML-clear", lat=44.48, lon=-71.36, altitudeMSLMeters=1200.0,
         fieldLat=44.57540, fieldLon=-71.17590, fieldElevationFeet=1161),
    # Big Island, powered: from east of the N19W157/N19W156 seam (156°W) at 1,500 m to Kona (PHKO), across the seam.
    dict(BASE, name="hi-PHKO-tile-edge", lat=19.70, lon=-155.97, altitudeMSLMeters=1500.0,
         fieldLat=19.73878, fieldLon=-156.04560, fieldElevationFeet=47),
    # Hilo from the saddle between Mauna Kea and Mauna Loa, glider at 3,000 m.
    dict(BASE, **GLIDER, name="hi-PHTO-glider", lat=19.68, lon=-155.45, altitudeMSLMeters=3000.0,
         fieldLat=19.72135, fieldLon=-155.04543, fieldElevationFeet=38),
    # Waimea-Kohala (PHMU) is on N20W156, which the fixtures leave out: terrain unknown.
    dict(BASE, **GLIDER, name="hi-PHMU-no-tile", lat=20.10, lon=-155.60, altitudeMSLMeters=2000.0,
         fieldLat=20.001301, fieldLon=-155.667999, fieldElevationFeet=2671),
]

# Polars: the ASK 21 from Schleicher's figures (best glide 33.5 at 85 km/h single crew, minimum sink 0.65 m/s; top of
# the polar at its 180 km/h rough-air speed), and a three-point polar (hypothetical figures of a 15 m class glider).
ASK21 = {"figures": (33.5, 85.0, 0.65), "topKmh": 180.0}
THREE_POINTS = {"points": [(80.0, 0.62), (120.0, 1.00), (170.0, 2.10)]}
KHIE_FROM_SW = dict(BASE, lat=44.15, lon=-71.6, altitudeMSLMeters=1500.0, fieldLat=44.36752, fieldLon=-71.54577, fieldElevationFeet=1074)

POLARS = [
    # The KHIE path (course 010) flown on the ASK 21 polar: calm, a 15 kt headwind (speed to fly up), a 15 kt
    # tailwind (down, toward minimum sink), a 20 kt crosswind, and the three-point polar into a 25 kt headwind.
    dict(KHIE_FROM_SW, name="polar-KHIE-calm", polar=ASK21),
    dict(KHIE_FROM_SW, name="polar-KHIE-headwind", polar=ASK21, windFromDegrees=10.0, windKnots=15.0),
    dict(KHIE_FROM_SW, name="polar-KHIE-tailwind", polar=ASK21, windFromDegrees=190.0, windKnots=15.0),
    dict(KHIE_FROM_SW, name="polar-KHIE-crosswind", polar=ASK21, windFromDegrees=100.0, windKnots=20.0),
    dict(KHIE_FROM_SW, name="polar3-KHIE-headwind", polar=THREE_POINTS, windFromDegrees=10.0, windKnots=25.0),
    # North of the Presidentials at 1,200 m to Berlin (KBML, course 054) with a 15 kt headwind and a 20 kt tailwind.
    # Hilo (PHTO, course 084) from the Big Island's saddle at 3,000 m into a 20 kt headwind.
    dict(BASE, name="polar-PHTO-headwind", polar=ASK21, windFromDegrees=84.0, windKnots=20.0, lat=19.68, lon=-155.45,
         altitudeMSLMeters=3000.0, fieldLat=19.72135, fieldLon=-155.04543, fieldElevationFeet=38),
    dict(BASE, name="polar-KBML-headwind", polar=ASK21, windFromDegrees=54.0, windKnots=15.0, lat=44.48, lon=-71.36,
         altitudeMSLMeters=1200.0, fieldLat=44.57540, fieldLon=-71.17590, fieldElevationFeet=1161),
    dict(BASE, name="polar-KBML-tailwind", polar=ASK21, windFromDegrees=234.0, windKnots=20.0, lat=44.48, lon=-71.36,
         altitudeMSLMeters=1200.0, fieldLat=44.57540, fieldLon=-71.17590, fieldElevationFeet=1161),
]

SYNTHETIC = [
    # Synthetic tiles either side of the antimeridian (write_synthetic), glider at 2,500 m from 0.3°N 179.9°E.
    dict(BASE, **GLIDER, name="am-ridge-blocks", lat=0.3, lon=179.9, altitudeMSLMeters=2500.0,
         fieldLat=0.3, fieldLon=-179.9, fieldElevationFeet=656),
    dict(BASE, **GLIDER, name="am-across-clear", lat=0.3, lon=179.9, altitudeMSLMeters=2500.0,
         fieldLat=0.7, fieldLon=-179.92, fieldElevationFeet=656),
    dict(BASE, **GLIDER, name="am-west-farther", lat=0.3, lon=179.9, altitudeMSLMeters=2500.0,
         fieldLat=0.3, fieldLon=179.65, fieldElevationFeet=656),
]


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    terrain = os.path.join(here, "..", "Tests", "Fixtures", "terrain")
    scenarios = SCENARIOS
    if args[:1] == ["--polar"]:
        scenarios = POLARS
    if args[:1] == ["--synthetic"]:
        terrain = args[1]
        write_synthetic(terrain)
        scenarios = SYNTHETIC
    if args[:1] == ["--scenarios"] and len(args) == 4 and args[2] == "--terrain":
        with open(args[1], encoding="utf-8") as f:
            scenarios = [json.loads(line) for line in f if line.strip()]
        terrain = args[3]
    tiles = Tiles(terrain)
    for s in scenarios:
        print(json.dumps(reach(tiles, s)))


if __name__ == "__main__":
    main()
