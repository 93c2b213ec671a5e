#!/usr/bin/env python3
"""Independent reference geometry for traffic-collision alert tests: eight two-aircraft encounters, their closest
points of approach, and 120 s of position fixes to replay them.

Written from geometry alone, without reading cockpitd's code or tests (nothing under Sources/ was opened; under
Tests/ only the fixture provenance table Tests/Fixtures/SOURCE.md), so that a test comparing cockpitd's answers with
these numbers compares two independent derivations.

Usage:  python3 Scripts/encounter-reference.py [--output Tests/Fixtures/encounters/encounters.json]
Python 3 standard library only. Deterministic: running it again gives the same bytes.

UNITS (as in the JSON keys): latitude/longitude degrees WGS-84; altitude feet above MSL; ground track degrees true;
ground speed knots (1 kt = 1852/3600 m/s exactly); vertical speed feet per minute (1 ft = 0.3048 m exactly);
distances metres; times seconds from the scenario's start (t = 0 is the instant of the "own"/"target" states).

FRAME — how latitude/longitude become metres
  The local frame is the East-North-Up (ENU) tangent plane of the WGS-84 ellipsoid (a = 6378137 m,
  f = 1/298.257223563) at own aircraft's position at t = 0, at the reference height H_REF = 3000 ft (914.4 m; MSL
  is used as ellipsoidal height: the ~49 m geoid undulation at 47 N 8 E changes horizontal distances by < 0.05 mm
  over 5 km).
  * geodetic -> ECEF is the closed form; ECEF -> ENU is the exact rotation; ENU -> geodetic is the exact inverse
    rotation followed by an iterative ECEF -> geodetic (to 1e-14 rad).  Round trip error < 1e-6 m.
  * Horizontal and vertical are kept apart: an aircraft's horizontal position (E, N) is put on the globe (and read
    back) at the one reference height H_REF, whatever its altitude; its altitude is a separate number.  (Placing
    each at its own altitude would let the plane's tilt, 1 mrad per 6.4 km from the origin, leak altitude
    differences into horizontal distance: 0.17 m for 150 m of height 7 km out.)  The Up coordinate is solved so
    that the geodetic height is exactly H_REF (the plane drops below the ellipsoid by about d^2 / 2R, 2 m at 5 km).
  * horizontal distance = sqrt(dE^2 + dN^2); bearing = atan2(dE, dN) (degrees true at own position, because the
    plane's North axis is true north there).  Distances are at 3000 ft, i.e. (R + h) / R = 1.000144 times the
    distance on the ellipsoid surface (0.7 m at 5 km).
  * Error of the method: the ENU horizontal distance differs from the geodesic distance (Vincenty's inverse on the
    ellipsoid, scaled by (R + h) / R) by chord/arc and plane-tilt terms of order d^3 / R^2: millimetres at 5-10 km.
    The script measures it on every fix pair of every time series and writes the maximum into
    meta.frameCheck.maxEnuVsGeodesicMetres (it stops if that exceeds 0.01 m).
  * For comparison it writes what three flat-earth shortcuts get wrong on the same fix pairs
    (meta.frameCheck.flatEarthShortcutMaxErrorMetres): a spherical equirectangular projection (R = 6371008.8 m)
    with own's or the mean latitude is 0.29 % short east-west at 47 N (the prime-vertical radius there is
    6389.6 km, not 6371.0 km): ~15 m at 5 km, so it does NOT meet "< 1 m over 5 km"; the same projection with the
    WGS-84 radii of curvature (N cos(lat) east-west, M north-south) at the mean latitude is within millimetres.
    A test that converts the published fixes with a spherical shortcut must allow for those 15 m, or use the
    ellipsoidal radii.

MOTION
  Straight-line cases: each aircraft keeps a constant velocity vector in the ENU plane of own's t = 0 position:
  E = E0 + v*sin(track)*t, N = N0 + v*cos(track)*t, altitude = alt0 + vs*t/60.  The published track is that vector's
  direction measured from the plane's North axis, i.e. the number a flat-earth tracker would use directly.  (For a
  target a few km east of own, the true track at the target's own position differs by the meridian convergence,
  dLon * sin(lat), at most ~0.05 deg here; each target state also gives trueTrackAtPositionDeg for information.)
  Circling case: both gliders fly circles about one thermal centre at constant speed (angular rate = v / r),
  turning the same way (left, counter-clockwise seen from above), climbing at a constant rate.

CLOSEST POINT OF APPROACH (CPA) — the reference answers
  With relative horizontal position p = (E_t - E_o, N_t - N_o) and relative horizontal velocity
  w = v_t - v_o at t = 0 (both from the straight-line states):
      tcpa = -(p . w) / |w|^2            (seconds; horizontal-only relative motion)
      miss = |p + w * tcpa|              (metres, horizontal)
      verticalSeparationAtTcpaFeet = (alt_t + vs_t*tcpa/60) - (alt_o + vs_o*tcpa/60)   (target minus own)
  If |w| = 0 (same track and speed): tcpa is defined as 0 and miss is the current horizontal distance.
  tcpaSeconds is the unclamped value (negative = the closest point is in the past, the aircraft are diverging);
  tcpaClampedSeconds = max(tcpa, 0) and missClampedMetres = the horizontal distance at that time: the closest point
  from now on, which is what an alerting function should use.
  Cross-check: the horizontal range is evaluated every 0.01 s from t = 0 to t = 120 s along the same motion
  (circles for the circling pair) and its minimum is reported as bruteForceTcpaSeconds / bruteForceMissMetres (the
  first time that minimum is reached).  For straight-line cases these must equal tcpaClamped / missClamped within
  0.05 s / 0.5 m; the script asserts it.
  Relative clock position: relative bearing = (bearing own->target - own track) mod 360, clock = round(rel / 30),
  with 0 written as 12 (so 345..15 deg is 12 o'clock, 75..105 deg is 3 o'clock; exact halves round half-up).

CONVENTIONS AT A DISTANCE (why a test may see a metre or two)
  At several km, "a straight line on track T" depends on the frame: a straight line in own's tangent plane, a line
  of constant true track (rhumb line) and a great circle part by about x^2 * tan(lat) / 2R for an east-west offset
  x (1.8 m at 4.6 km here), because meridians converge.  Distances are not affected (see FRAME), directions are.
  The scenarios are laid out so that this matters little: long initial separations lie north-south, east-west
  offsets stay under ~1.8 km.  Each reference also gives otherFlatFrameConventions: the same CPA from the published
  lat/lon/track/speed with the offset converted by WGS-84 radii at the mean latitude (the script asserts it is
  within 0.5 m / 0.05 s of the reference for the straight-line cases) and by a spherical equirectangular shortcut
  (R = 6371008.8 m; shows the size of that shortcut's error, several metres in some scenarios).

TIME SERIES
  For every second t = 0..120: both aircraft's latitude, longitude, altitude (ft), track and speed, and the
  horizontal range (m), slant range (m: sqrt(horizontal^2 + (dAlt in m)^2)) and relative altitude (ft, target minus
  own).  Latitudes/longitudes are rounded to 1e-9 deg (0.1 mm); the reference answers are computed from the same
  rounded initial positions (re-converted to ENU), so the published inputs and outputs agree exactly.
"""
import argparse
import json
import math
import os
import sys

# WGS-84
A = 6378137.0
F = 1.0 / 298.257223563
E2 = F * (2.0 - F)
R_MEAN = 6371008.8          # IUGG mean Earth radius, for the flat-earth comparisons only
KT = 1852.0 / 3600.0        # metres per second in one knot
FT = 0.3048                 # metres in one foot

OWN_LAT, OWN_LON, OWN_ALT_FT = 47.0, 8.0, 3000.0
SERIES_SECONDS = 120
BRUTE_STEP = 0.01
LATLON_DECIMALS = 9
H_REF = OWN_ALT_FT * FT     # the one height at which every horizontal (E, N) is placed on / read off the globe


# ---------------------------------------------------------------------------------------------------------------
# Geodesy
def geodetic_to_ecef(lat_deg, lon_deg, h):
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    n = A / math.sqrt(1.0 - E2 * math.sin(lat) ** 2)
    return ((n + h) * math.cos(lat) * math.cos(lon),
            (n + h) * math.cos(lat) * math.sin(lon),
            (n * (1.0 - E2) + h) * math.sin(lat))


def ecef_to_geodetic(x, y, z):
    lon = math.atan2(y, x)
    p = math.hypot(x, y)
    lat = math.atan2(z, p * (1.0 - E2))
    for _ in range(20):
        n = A / math.sqrt(1.0 - E2 * math.sin(lat) ** 2)
        h = p / math.cos(lat) - n
        new_lat = math.atan2(z, p * (1.0 - E2 * n / (n + h)))
        if abs(new_lat - lat) < 1e-14:
            lat = new_lat
            break
        lat = new_lat
    n = A / math.sqrt(1.0 - E2 * math.sin(lat) ** 2)
    h = p / math.cos(lat) - n
    return math.degrees(lat), math.degrees(lon), h


class EnuFrame:
    """The ENU tangent frame at one geodetic point."""

    def __init__(self, lat_deg, lon_deg, h):
        self.origin = geodetic_to_ecef(lat_deg, lon_deg, h)
        self.height = h
        lat, lon = math.radians(lat_deg), math.radians(lon_deg)
        sl, cl, so, co = math.sin(lat), math.cos(lat), math.sin(lon), math.cos(lon)
        self.e = (-so, co, 0.0)
        self.n = (-sl * co, -sl * so, cl)
        self.u = (cl * co, cl * so, sl)

    def to_enu(self, lat_deg, lon_deg, h):
        x, y, z = geodetic_to_ecef(lat_deg, lon_deg, h)
        d = (x - self.origin[0], y - self.origin[1], z - self.origin[2])
        dot = lambda a: a[0] * d[0] + a[1] * d[1] + a[2] * d[2]
        return dot(self.e), dot(self.n), dot(self.u)

    def to_geodetic(self, e, n, u):
        x = self.origin[0] + e * self.e[0] + n * self.n[0] + u * self.u[0]
        y = self.origin[1] + e * self.e[1] + n * self.n[1] + u * self.u[1]
        z = self.origin[2] + e * self.e[2] + n * self.n[2] + u * self.u[2]
        return ecef_to_geodetic(x, y, z)

    def place(self, e, n, height):
        """Geodetic position whose ENU East/North are (e, n) and whose height is `height`."""
        u = height - self.height - (e * e + n * n) / (2.0 * A)   # first guess: the plane's drop below the ellipsoid
        for _ in range(10):
            lat, lon, h = self.to_geodetic(e, n, u)
            if abs(h - height) < 1e-7:
                break
            u += height - h
        return lat, lon, h


def vincenty_inverse(lat1, lon1, lat2, lon2):
    """Geodesic distance (m) and initial azimuth (deg) on the WGS-84 ellipsoid (Vincenty 1975)."""
    if lat1 == lat2 and lon1 == lon2:
        return 0.0, 0.0
    b = A * (1.0 - F)
    L = math.radians(lon2 - lon1)
    U1 = math.atan((1.0 - F) * math.tan(math.radians(lat1)))
    U2 = math.atan((1.0 - F) * math.tan(math.radians(lat2)))
    sU1, cU1, sU2, cU2 = math.sin(U1), math.cos(U1), math.sin(U2), math.cos(U2)
    lam = L
    for _ in range(200):
        sl, cl = math.sin(lam), math.cos(lam)
        sin_sigma = math.hypot(cU2 * sl, cU1 * sU2 - sU1 * cU2 * cl)
        cos_sigma = sU1 * sU2 + cU1 * cU2 * cl
        sigma = math.atan2(sin_sigma, cos_sigma)
        sin_alpha = cU1 * cU2 * sl / sin_sigma
        cos2_alpha = 1.0 - sin_alpha ** 2
        cos_2sm = cos_sigma - 2.0 * sU1 * sU2 / cos2_alpha if cos2_alpha != 0 else 0.0
        C = F / 16.0 * cos2_alpha * (4.0 + F * (4.0 - 3.0 * cos2_alpha))
        lam_prev = lam
        lam = L + (1.0 - C) * F * sin_alpha * (
            sigma + C * sin_sigma * (cos_2sm + C * cos_sigma * (-1.0 + 2.0 * cos_2sm ** 2)))
        if abs(lam - lam_prev) < 1e-13:
            break
    u2 = cos2_alpha * (A * A - b * b) / (b * b)
    AA = 1.0 + u2 / 16384.0 * (4096.0 + u2 * (-768.0 + u2 * (320.0 - 175.0 * u2)))
    BB = u2 / 1024.0 * (256.0 + u2 * (-128.0 + u2 * (74.0 - 47.0 * u2)))
    d_sigma = BB * sin_sigma * (cos_2sm + BB / 4.0 * (cos_sigma * (-1.0 + 2.0 * cos_2sm ** 2) - BB / 6.0 * cos_2sm * (
        -3.0 + 4.0 * sin_sigma ** 2) * (-3.0 + 4.0 * cos_2sm ** 2)))
    s = b * AA * (sigma - d_sigma)
    az = math.degrees(math.atan2(cU2 * math.sin(lam), cU1 * sU2 - sU1 * cU2 * math.cos(lam))) % 360.0
    return s, az


def ellipsoid_equirectangular(lat0, lon0, lat, lon):
    """Flat-earth offset using WGS-84 radii of curvature at the mean latitude, at the reference height."""
    phi = math.radians((lat0 + lat) / 2.0)
    w = math.sqrt(1.0 - E2 * math.sin(phi) ** 2)
    m = A * (1.0 - E2) / w ** 3 + H_REF
    n = A / w + H_REF
    return math.radians(lon - lon0) * n * math.cos(phi), math.radians(lat - lat0) * m


def equirectangular(lat0, lon0, lat, lon, ref_lat):
    x = math.radians(lon - lon0) * R_MEAN * math.cos(math.radians(ref_lat))
    y = math.radians(lat - lat0) * R_MEAN
    return x, y


# ---------------------------------------------------------------------------------------------------------------
# Motion models
class Straight:
    def __init__(self, e0, n0, alt_ft, track_deg, speed_kt, vs_fpm):
        self.e0, self.n0, self.alt_ft = e0, n0, alt_ft
        self.track, self.speed_kt, self.vs_fpm = track_deg, speed_kt, vs_fpm
        v = speed_kt * KT
        self.ve = v * math.sin(math.radians(track_deg))
        self.vn = v * math.cos(math.radians(track_deg))

    def at(self, t):
        """(E, N, altitude ft, track deg, speed kt) at time t."""
        return (self.e0 + self.ve * t, self.n0 + self.vn * t, self.alt_ft + self.vs_fpm * t / 60.0,
                self.track, self.speed_kt)


class Circle:
    """Constant-speed circle about (ce, cn), counter-clockwise (left turn) when `left` is True."""

    def __init__(self, ce, cn, radius, angle0_deg, speed_kt, alt_ft, vs_fpm, left=True):
        self.ce, self.cn, self.r = ce, cn, radius
        self.angle0 = math.radians(angle0_deg)   # polar angle from East, counter-clockwise
        self.speed_kt, self.alt_ft, self.vs_fpm = speed_kt, alt_ft, vs_fpm
        self.omega = (speed_kt * KT / radius) * (1.0 if left else -1.0)

    def at(self, t):
        a = self.angle0 + self.omega * t
        e = self.ce + self.r * math.cos(a)
        n = self.cn + self.r * math.sin(a)
        # velocity is the derivative: r*omega*(-sin a, cos a)
        ve, vn = -self.r * self.omega * math.sin(a), self.r * self.omega * math.cos(a)
        track = math.degrees(math.atan2(ve, vn)) % 360.0
        return e, n, self.alt_ft + self.vs_fpm * t / 60.0, track, self.speed_kt


# ---------------------------------------------------------------------------------------------------------------
# Scenario design: each straight-line scenario is specified by what it should produce (tcpa, miss, which side) and
# the target's initial position is solved from that, so the numbers are round by construction; the published
# reference is then recomputed from the rounded published lat/lon, not taken from the design values.
def target_start_for(own, track_t, speed_t, tcpa, miss, side):
    """Target initial (E, N) so that relative straight-line motion gives `tcpa`, `miss`; side = +1 puts the
    relative position at CPA to the left of the relative velocity vector, -1 to the right."""
    vte = speed_t * KT * math.sin(math.radians(track_t))
    vtn = speed_t * KT * math.cos(math.radians(track_t))
    we, wn = vte - own.ve, vtn - own.vn
    wl = math.hypot(we, wn)
    # unit vector perpendicular to w, to its left: (-wn, we)/|w|
    pe, pn = side * miss * (-wn / wl), side * miss * (we / wl)
    return pe - we * tcpa, pn - wn * tcpa


def scenarios():
    out = []
    # 1. head-on, 100 kt each, 100 m lateral offset, same altitude, CPA in 45 s
    # (north-south, so that the 4.6 km of initial separation lies along a meridian: see "CONVENTIONS" above)
    own = Straight(0, 0, OWN_ALT_FT, 0.0, 100.0, 0.0)
    e, n = target_start_for(own, 180.0, 100.0, 45.0, 100.0, -1)   # target passes 100 m west (own's left)
    out.append(("head-on", "Head-on: both at 100 kt on reciprocal tracks (000/180), same altitude; the target "
                "passes 100 m to own's left (west). Closing speed 200 kt.", own,
                Straight(e, n, OWN_ALT_FT, 180.0, 100.0, 0.0)))
    # 2. crossing at 90 deg, target from the right
    own = Straight(0, 0, OWN_ALT_FT, 0.0, 100.0, 0.0)
    e, n = target_start_for(own, 270.0, 90.0, 40.0, 150.0, -1)
    out.append(("crossing-90-from-right", "Crossing at 90 deg: own northbound at 100 kt, the target westbound at "
                "90 kt coming from own's right (east), 200 ft above, level. Horizontal CPA 150 m in 40 s.", own,
                Straight(e, n, OWN_ALT_FT + 200.0, 270.0, 90.0, 0.0)))
    # 3. overtaking: faster target from behind, 150 m lateral offset
    own = Straight(0, 0, OWN_ALT_FT, 45.0, 90.0, 0.0)
    e, n = target_start_for(own, 45.0, 130.0, 60.0, 150.0, -1)
    out.append(("overtaking", "Overtaking: own on track 045 at 90 kt; a faster target (130 kt, same track, same "
                "altitude) comes from behind, offset 150 m to own's right; it draws level in 60 s.", own,
                Straight(e, n, OWN_ALT_FT, 45.0, 130.0, 0.0)))
    # 4. climbing into the other
    own = Straight(0, 0, OWN_ALT_FT, 180.0, 100.0, 0.0)
    e, n = target_start_for(own, 120.0, 80.0, 30.0, 50.0, +1)
    out.append(("climbing-into", "Climb into: own southbound (180) at 100 kt, level at 3000 ft; the target 500 ft "
                "below climbs at 1000 ft/min on track 120 at 80 kt, converging: horizontal CPA 50 m in 30 s, exactly "
                "where it reaches own's altitude.", own,
                Straight(e, n, OWN_ALT_FT - 500.0, 120.0, 80.0, 1000.0)))
    # 5. circling pair (handled separately: circles)
    r_own, r_tgt = 100.0, 115.0
    own_c = Circle(-r_own, 0.0, r_own, 0.0, 45.0, OWN_ALT_FT, 400.0)       # own at the circle's east point, heading N
    tgt_c = Circle(-r_own, 0.0, r_tgt, 180.0, 45.0, OWN_ALT_FT + 100.0, 400.0)  # half a circle away, heading S
    out.append(("circling-pair", "Two gliders circling left in the same thermal at 45 kt, half a circle apart: own "
                "on a 100 m radius, the target on a 115 m radius about the same centre, 100 ft above, both climbing "
                "400 ft/min. Their angular rates differ (0.2315 vs 0.2013 rad/s), so the gap closes: the straight-line "
                "CPA from instantaneous velocities (tcpa 0, i.e. diverging) is not meaningful here; the reference is "
                "the minimum distance along the circles.", own_c, tgt_c))
    # 6. parallel formation
    own = Straight(0, 0, OWN_ALT_FT, 270.0, 90.0, 0.0)
    tgt = Straight(0.0, -300.0, OWN_ALT_FT, 270.0, 90.0, 0.0)   # 300 m south = own's left when westbound
    out.append(("parallel-formation", "Parallel formation: same track (270) and speed (90 kt), same altitude, the "
                "target 300 m abeam on own's left. Relative velocity is zero: tcpa is defined as 0 and the miss "
                "distance is the current distance (300 m), constant.", own, tgt))
    # 7. pass behind (future CPA behind own)
    own = Straight(0, 0, OWN_ALT_FT, 0.0, 100.0, 0.0)
    e, n = target_start_for(own, 270.0, 100.0, 25.0, 400.0, +1)
    out.append(("pass-behind", "Pass behind: own northbound at 100 kt; the target westbound at 100 kt from own's "
                "right, same altitude, crosses own's track behind it. Horizontal CPA 400 m in 25 s (relative "
                "position at CPA is behind-right of own).", own, Straight(e, n, OWN_ALT_FT, 270.0, 100.0, 0.0)))
    # 7b. pass behind, already past CPA (diverging)
    own = Straight(0, 0, OWN_ALT_FT, 0.0, 100.0, 0.0)
    e, n = target_start_for(own, 270.0, 100.0, -20.0, 400.0, +1)
    out.append(("pass-behind-diverging", "Pass behind, CPA in the past: same geometry as pass-behind, but the target "
                "crossed behind own 20 s ago (unclamped tcpa -20 s, miss 400 m then). From now on the aircraft only "
                "diverge: the clamped answer is tcpa 0 with the current distance.", own,
                Straight(e, n, OWN_ALT_FT - 300.0, 270.0, 100.0, 0.0)))
    return out


# ---------------------------------------------------------------------------------------------------------------
def clock_position(rel_deg):
    c = int(math.floor(rel_deg / 30.0 + 0.5)) % 12
    return 12 if c == 0 else c


def r2(x, nd=3):
    v = round(x, nd)
    return 0.0 if v == 0 else v


def build():
    frame = EnuFrame(OWN_LAT, OWN_LON, H_REF)
    result_scenarios = []
    frame_err = {"maxEnuVsGeodesicMetres": 0.0, "maxBearingDiffDeg": 0.0,
                 "maxHorizontalRangeCheckedMetres": 0.0, "maxDistanceFromOriginMetres": 0.0}
    flat = {k: {"within5km": 0.0, "beyond5km": 0.0} for k in ("sphereOwnLat", "sphereMeanLat", "ellipsoidMeanLat")}

    for name, description, own, tgt in scenarios():
        circling = isinstance(own, Circle)
        # --- publish the initial states as rounded lat/lon, then re-derive ENU from those rounded values
        states = {}
        for label, m in (("own", own), ("target", tgt)):
            e, n, alt, track, spd = m.at(0.0)
            lat, lon, _ = frame.place(e, n, H_REF)
            lat, lon = round(lat, LATLON_DECIMALS), round(lon, LATLON_DECIMALS)
            states[label] = (lat, lon, alt, track, spd, m.vs_fpm)
        # Re-derive the ENU start positions from the published (rounded) values.
        pub = {}
        for label in ("own", "target"):
            lat, lon, alt, track, spd, vs = states[label]
            e, n, _ = frame.to_enu(lat, lon, H_REF)
            pub[label] = (e, n)
        if circling:
            # shift the circle centres by the rounding offsets (sub-mm) so the motion passes through the published point
            for label, m in (("own", own), ("target", tgt)):
                e0, n0, *_ = m.at(0.0)
                m.ce += pub[label][0] - e0
                m.cn += pub[label][1] - n0
            own_s = Straight(pub["own"][0], pub["own"][1], states["own"][2], states["own"][3], states["own"][4],
                             states["own"][5])
            tgt_s = Straight(pub["target"][0], pub["target"][1], states["target"][2], states["target"][3],
                             states["target"][4], states["target"][5])
        else:
            own = own_s = Straight(pub["own"][0], pub["own"][1], *states["own"][2:])
            tgt = tgt_s = Straight(pub["target"][0], pub["target"][1], *states["target"][2:])

        # --- analytic straight-line CPA (horizontal-only), from the instantaneous t=0 velocities
        pe, pn = tgt_s.e0 - own_s.e0, tgt_s.n0 - own_s.n0
        we, wn = tgt_s.ve - own_s.ve, tgt_s.vn - own_s.vn
        w2 = we * we + wn * wn
        relative_velocity_zero = w2 < 1e-12
        tcpa = 0.0 if relative_velocity_zero else -(pe * we + pn * wn) / w2
        miss = math.hypot(pe + we * tcpa, pn + wn * tcpa)
        tcl = max(tcpa, 0.0)
        miss_cl = math.hypot(pe + we * tcl, pn + wn * tcl)
        vsep = (tgt_s.alt_ft + tgt_s.vs_fpm * tcpa / 60.0) - (own_s.alt_ft + own_s.vs_fpm * tcpa / 60.0)
        vsep_cl = (tgt_s.alt_ft + tgt_s.vs_fpm * tcl / 60.0) - (own_s.alt_ft + own_s.vs_fpm * tcl / 60.0)
        cur = math.hypot(pe, pn)
        bearing = math.degrees(math.atan2(pe, pn)) % 360.0
        rel = (bearing - states["own"][3]) % 360.0

        # --- brute force along the true motion (circles for the circling pair), 0.01 s steps, t in [0, 120]
        def hrange(t):
            eo, no_, *_ = own.at(t)
            et, nt, *_ = tgt.at(t)
            return math.hypot(et - eo, nt - no_)

        steps = int(round(SERIES_SECONDS / BRUTE_STEP))
        best_t, best_d = 0.0, hrange(0.0)
        best60_t, best60_d = 0.0, best_d
        for i in range(1, steps + 1):
            t = i * BRUTE_STEP
            d = hrange(t)
            if d < best_d - 1e-9:
                best_t, best_d = t, d
            if t <= 60.0 + 1e-9 and d < best60_d - 1e-9:
                best60_t, best60_d = t, d

        if not circling:
            assert abs(best_t - tcl) <= 0.05 + 1e-9, (name, best_t, tcl)
            assert abs(best_d - miss_cl) <= 0.5, (name, best_d, miss_cl)

        # --- time series
        series = []
        for t in range(SERIES_SECONDS + 1):
            row = {"t": t}
            pos = {}
            for label, m in (("own", own), ("target", tgt)):
                e, n, alt, track, spd = m.at(float(t))
                lat, lon, _ = frame.place(e, n, H_REF)
                pos[label] = (e, n, alt, lat, lon)
                row[label] = {"latitudeDeg": round(lat, LATLON_DECIMALS), "longitudeDeg": round(lon, LATLON_DECIMALS),
                              "altitudeFeet": r2(alt, 3), "trackDeg": r2(track % 360.0, 4), "groundSpeedKnots": spd}
            (eo, no_, ao, lao, loo), (et, nt, at, lat_, lot) = pos["own"], pos["target"]
            h = math.hypot(et - eo, nt - no_)
            dalt_ft = at - ao
            row["rangeMetres"] = r2(h, 3)
            row["slantRangeMetres"] = r2(math.hypot(h, dalt_ft * FT), 3)
            row["relativeAltitudeFeet"] = r2(dalt_ft, 3)
            series.append(row)
            # frame checks on the published (rounded) fixes
            la1, lo1 = row["own"]["latitudeDeg"], row["own"]["longitudeDeg"]
            la2, lo2 = row["target"]["latitudeDeg"], row["target"]["longitudeDeg"]
            e1, n1, _ = frame.to_enu(la1, lo1, H_REF)
            e2, n2, _ = frame.to_enu(la2, lo2, H_REF)
            h_pub = math.hypot(e2 - e1, n2 - n1)
            s, _az = vincenty_inverse(la1, lo1, la2, lo2)
            # scale the ellipsoid-surface geodesic to the aircraft's mean height (local radius ~ 6.37e6 m)
            s_alt = s * (1.0 + H_REF / 6371000.0)
            frame_err["maxEnuVsGeodesicMetres"] = max(frame_err["maxEnuVsGeodesicMetres"], abs(h_pub - s_alt))
            frame_err["maxHorizontalRangeCheckedMetres"] = max(frame_err["maxHorizontalRangeCheckedMetres"], h_pub)
            frame_err["maxDistanceFromOriginMetres"] = max(frame_err["maxDistanceFromOriginMetres"],
                                                          math.hypot(e1, n1), math.hypot(e2, n2))
            # flat-earth shortcuts, each about own's position at that second (what a tracker does per fix)
            for key, (x, y) in (("sphereOwnLat", equirectangular(la1, lo1, la2, lo2, la1)),
                                ("sphereMeanLat", equirectangular(la1, lo1, la2, lo2, (la1 + la2) / 2.0)),
                                ("ellipsoidMeanLat", ellipsoid_equirectangular(la1, lo1, la2, lo2))):
                err = abs(math.hypot(x, y) - s_alt)
                bucket = "within5km" if s_alt <= 5000.0 else "beyond5km"
                flat[key][bucket] = max(flat[key][bucket], err)
            if t == 0 and h_pub > 1.0:
                bearing_geo = vincenty_inverse(la1, lo1, la2, lo2)[1]
                db = abs((bearing_geo - bearing + 180.0) % 360.0 - 180.0)
                frame_err["maxBearingDiffDeg"] = max(frame_err["maxBearingDiffDeg"], db)

        # --- true track at the target's own position (meridian convergence), for information
        lat_t, lon_t = states["target"][0], states["target"][1]
        tf = EnuFrame(lat_t, lon_t, H_REF)
        # direction of the target's ENU(own) velocity expressed in the target's local frame
        ve, vn = tgt_s.ve, tgt_s.vn
        vx = [ve * frame.e[i] + vn * frame.n[i] for i in range(3)]
        te = sum(vx[i] * tf.e[i] for i in range(3))
        tn = sum(vx[i] * tf.n[i] for i in range(3))
        true_track_at_target = math.degrees(math.atan2(te, tn)) % 360.0

        def state_json(label, extra=None):
            lat, lon, alt, track, spd, vs = states[label]
            d = {"latitudeDeg": lat, "longitudeDeg": lon, "altitudeFeet": alt, "trackDeg": r2(track, 6),
                 "groundSpeedKnots": spd, "verticalSpeedFeetPerMinute": vs}
            if extra:
                d.update(extra)
            return d

        ref = {
            "tcpaSeconds": r2(tcpa, 3),
            "missMetres": r2(miss, 3),
            "verticalSeparationAtTcpaFeet": r2(vsep, 3),
            "tcpaClampedSeconds": r2(tcl, 3),
            "missClampedMetres": r2(miss_cl, 3),
            "verticalSeparationAtTcpaClampedFeet": r2(vsep_cl, 3),
            "relativeVelocityZero": relative_velocity_zero,
            "closingSpeedMetresPerSecond": r2(-(pe * we + pn * wn) / cur if cur > 0 else 0.0, 4),
            "currentHorizontalDistanceMetres": r2(cur, 3),
            "currentVerticalSeparationFeet": r2(states["target"][2] - states["own"][2], 3),
            "bearingOwnToTargetDegTrue": r2(bearing, 4),
            "relativeBearingDeg": r2(rel, 4),
            "clockPosition": clock_position(rel),
            "bruteForceTcpaSeconds": r2(best_t, 2),
            "bruteForceMissMetres": r2(best_d, 3),
        }
        # The same straight-line CPA under two other flat-frame conventions, from the published lat/lon/track/speed
        # only (what an implementation that converts the initial fixes itself would compute).
        conv = {}
        for key, conv_fn in (("wgs84RadiiMeanLat", lambda la0, lo0, la, lo: ellipsoid_equirectangular(la0, lo0, la, lo)),
                             ("sphereOwnLat", lambda la0, lo0, la, lo: equirectangular(la0, lo0, la, lo, la0))):
            x, y = conv_fn(states["own"][0], states["own"][1], states["target"][0], states["target"][1])
            we2, wn2 = (tgt_s.ve - own_s.ve), (tgt_s.vn - own_s.vn)
            ww = we2 * we2 + wn2 * wn2
            tc = 0.0 if ww < 1e-12 else -(x * we2 + y * wn2) / ww
            conv[key] = {"tcpaSeconds": r2(tc, 3), "missMetres": r2(math.hypot(x + we2 * tc, y + wn2 * tc), 3),
                         "currentHorizontalDistanceMetres": r2(math.hypot(x, y), 3)}
        conv["note"] = ("Same CPA formulas, but the target's initial offset converted with a flat shortcut and the "
                        "published tracks used directly as directions in it. wgs84RadiiMeanLat differs from the "
                        "reference only through which 'straight line' a track means at a distance (ENU straight "
                        "line vs. a line of constant true track); sphereOwnLat adds the sphere's 0.29 % east-west "
                        "scale error at 47 N.")
        ref["otherFlatFrameConventions"] = conv
        if not circling:
            spread_m = abs(conv["wgs84RadiiMeanLat"]["missMetres"] - miss)
            spread_t = abs(conv["wgs84RadiiMeanLat"]["tcpaSeconds"] - tcpa)
            assert spread_m < 0.5 and spread_t < 0.05, (name, spread_m, spread_t)
        entry = {"name": name, "description": description,
                 "motion": "circles" if circling else "straight-line",
                 "own": state_json("own"),
                 "target": state_json("target", {"trueTrackAtPositionDeg": r2(true_track_at_target, 4)}),
                 "reference": ref}
        if circling:
            ref["straightLineCpaMeaningful"] = False
            ref["note"] = ("tcpaSeconds/missMetres are the straight-line CPA from the t=0 velocities (they say the "
                           "pair is diverging, closest now); the true closest approaches along the circles are "
                           "trueMinimumOver60s and trueMinimumOver120s, and bruteForce* is the 120 s minimum.")
            ref["trueMinimumOver60s"] = {"timeSeconds": r2(best60_t, 2), "horizontalMetres": r2(best60_d, 3),
                                         "verticalSeparationFeet": r2(tgt.at(best60_t)[2] - own.at(best60_t)[2], 3)}
            # analytic check of the 120 s minimum: concentric circles, angle gap closes at |dw|
            dw = abs(own.omega - tgt.omega)
            t_meet = math.pi / dw
            ref["trueMinimumOver120s"] = {"timeSeconds": r2(best_t, 2), "horizontalMetres": r2(best_d, 3),
                                          "verticalSeparationFeet": r2(tgt.at(best_t)[2] - own.at(best_t)[2], 3),
                                          "analyticTimeSeconds": r2(t_meet, 3),
                                          "analyticHorizontalMetres": r2(abs(tgt.r - own.r), 3)}
            assert abs(best_t - t_meet) < 0.05 and abs(best_d - abs(tgt.r - own.r)) < 0.01
            entry["circles"] = {
                "centreLatitudeDeg": round(frame.place(own.ce, own.cn, H_REF)[0], LATLON_DECIMALS),
                "centreLongitudeDeg": round(frame.place(own.ce, own.cn, H_REF)[1], LATLON_DECIMALS),
                "ownRadiusMetres": own.r, "targetRadiusMetres": tgt.r, "turnDirection": "left (counter-clockwise)",
                "ownTurnRateDegPerSecond": r2(math.degrees(own.omega), 4),
                "targetTurnRateDegPerSecond": r2(math.degrees(tgt.omega), 4)}
        entry["timeSeries"] = series
        result_scenarios.append(entry)

    assert frame_err["maxEnuVsGeodesicMetres"] < 0.01, frame_err
    meta = {
        "generator": "Scripts/encounter-reference.py",
        "independence": "written from geometry and the task statement alone; no cockpitd source or test was read",
        "units": {"latitudeDeg": "degrees WGS-84", "altitudeFeet": "feet above MSL", "trackDeg": "degrees true",
                  "groundSpeedKnots": "knots (1852/3600 m/s)", "verticalSpeedFeetPerMinute": "ft/min (1 ft = 0.3048 m)",
                  "distances": "metres", "times": "seconds from t = 0"},
        "frame": ("WGS-84 East-North-Up tangent plane at own aircraft's t=0 position (exact geodetic<->ECEF<->ENU); "
                  "horizontal = East/North components; every horizontal position is put on / read off the globe at "
                  "the reference height 3000 ft (MSL taken as ellipsoidal height); altitude kept separately"),
        "cpaDefinition": ("horizontal-only straight-line relative motion from t=0 velocities: tcpa = -(p.w)/|w|^2, "
                          "miss = |p + w*tcpa|; |w| = 0 => tcpa 0, miss = current distance; vertical separation is "
                          "target minus own altitude at tcpa from each one's vertical speed; *Clamped = closest point "
                          "from t=0 on (tcpa < 0 means diverging)"),
        "clockPosition": "round(((bearing - own track) mod 360) / 30), 0 written as 12",
        "bruteForce": "minimum horizontal range along the scenario's motion, 0.01 s steps over 0..120 s (first "
                      "time the minimum is reached)",
        "timeSeries": "t = 0..120 s every 1 s; rangeMetres horizontal, slantRangeMetres 3-D, relativeAltitudeFeet "
                      "target minus own",
        "frameCheck": {k: r2(v, 6) for k, v in frame_err.items()},
    }
    meta["frameCheck"]["flatEarthShortcutMaxErrorMetres"] = {
        k: {b: r2(v, 3) for b, v in d.items()} for k, d in flat.items()}
    meta["frameCheck"]["flatEarthShortcuts"] = (
        "Horizontal-distance error of three shortcuts on every published fix pair, against the geodesic distance "
        "(Vincenty on WGS-84, scaled by (R+h)/R to the 3000 ft reference height), split at 5 km of separation. "
        "sphereOwnLat: spherical R = 6371008.8 m, x = dLon*R*cos(own lat), y = dLat*R. sphereMeanLat: the same "
        "with the pair's mean latitude. ellipsoidMeanLat: x = dLon*N*cos(mean lat), y = dLat*M with the WGS-84 "
        "prime-vertical (N) and meridional (M) radii of curvature at the mean latitude, plus the 3000 ft height. "
        "At 47 N the sphere is 0.29 % short east-west (N = 6389.6 km vs 6371.0 km): about 14 m at 5 km, so a "
        "spherical shortcut does NOT meet a 1 m-at-5 km requirement here; the ellipsoidal one does.")
    return {"meta": meta, "scenarios": result_scenarios}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--output", default=os.path.join(here, "..", "Tests", "Fixtures", "encounters", "encounters.json"))
    args = ap.parse_args()
    data = build()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    # Pretty-printed, except that each time-series row stays on one line (diff-friendly, and a sixth of the size).
    rows = {}
    for s in data["scenarios"]:
        key = "@@series:%s@@" % s["name"]
        rows[key] = s["timeSeries"]
        s["timeSeries"] = key
    text = json.dumps(data, indent=1)
    for key, series in rows.items():
        body = ",\n".join("   " + json.dumps(r, separators=(",", ":")) for r in series)
        text = text.replace(json.dumps(key), "[\n" + body + "\n  ]")
    with open(args.output, "w") as f:
        f.write(text + "\n")
    for s in data["scenarios"]:
        s["timeSeries"] = rows["@@series:%s@@" % s["name"]]
    print("%-24s %10s %10s %12s %10s %10s %6s" % ("scenario", "tcpa s", "miss m", "vsep@tcpa ft", "bf tcpa", "bf miss",
                                                   "clock"))
    for s in data["scenarios"]:
        r = s["reference"]
        print("%-24s %10.3f %10.3f %12.3f %10.2f %10.3f %6d" % (s["name"], r["tcpaSeconds"], r["missMetres"],
                                                                 r["verticalSeparationAtTcpaFeet"],
                                                                 r["bruteForceTcpaSeconds"], r["bruteForceMissMetres"],
                                                                 r["clockPosition"]))
    print("frame check:", json.dumps(data["meta"]["frameCheck"]), file=sys.stderr)


if __name__ == "__main__":
    main()
