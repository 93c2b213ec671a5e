#!/usr/bin/env python3
"""Independent circling-wind estimator for IGC files (Python 3.11 standard library only).

Written from the public descriptions of glide computers' circling wind (a wind from each completed turn, from the
drift of successive circles and from the ground-speed maximum and minimum around a circle) and the geometry of a
turn in a moving air mass, without reading cockpitd's code: the reference a test compares cockpitd's estimate with.

Usage:
    circling_wind.py FILE.igc                    JSON lines: one per circle and method, one per climb and method
    circling_wind.py --fixture OUT.json FILE     the climbs and the agreement of successive climbs as one JSON file
A summary (fixes read and refused, circles, climbs, agreement) goes to standard error.

CIRCLING
    circling_detect.py says how circles are found.  A climb: circles each starting at most 30 s after the
    previous one ends.

PER CIRCLE (circling_fits.py; both methods on every circle, each independent of the other)
    drift        least squares of the circle's positions with a centre drifting at the wind's velocity; a circle
                 with fewer than 12 fixes (a log every 4 s or more) is fitted with the circle before it in the
                 same run ("circles_in_fit": 2), the drift of two successive circles
    gs_extremes  half the difference of the ground-speed maximum and minimum; FROM the track at the minimum
    A circle's estimate is rejected (reason given, not averaged) with too few fixes, a radius outside 15-600 m or
    a period outside 8-90 s (drift), extremes less than 120 deg of the turn apart (gs_extremes), or a wind over
    80 kt.  Quality figures: "uncertainty_kt", the fit's 1-sigma standard error of the wind speed in knots (each
    method's docstring in circling_fits.py says how), and "quality" = 1 / (1 + uncertainty_kt): 1 perfect,
    0.5 at 1 kt.

PER CLIMB
    Per method, the mean of the accepted circles' wind vectors, each weighted 1 / (uncertainty^2 + (1 kt)^2);
    "spread_kt" is the weighted RMS distance of the circles' wind vectors from that mean; "after_3_circles" is the
    plain mean of the first three accepted circles (the estimate a pilot has after three turns).

AGREEMENT (--fixture)
    Successive climbs (each with 2 or more accepted circles of the method) agree when their wind speeds differ by
    5 kt or less and their directions by 20 deg or less; the file gives pairs and agreeing pairs per method, and
    the same with the plain vector difference (|w1 - w2| <= 5 kt), which does not punish a direction that is
    meaningless in a light wind.

OUTPUT FIELDS
    times ISO 8601 UTC; wind_kt; wind_from_deg (degrees true the wind blows FROM, 0..360); heights in metres
    (GNSS altitude as the file gives it); direction "left" (anticlockwise) or "right" (clockwise seen from above).
"""
import argparse
import bisect
import datetime
import json
import math
import os
import sys

import circling_fits as fits
from circling_detect import chord_samples, clean_fixes, find_circles, local_metres, median_interval_s
from igc_fixes import MPS_PER_KT, read_igc

CLIMB_GAP_S = 30.0
DRIFT_MIN_FIXES = 12
METHODS = ("drift", "gs_extremes")


# ------------------------------------------------------------------------------------------------- wind per circle
def wind_from_vector(we, wn):
    """(speed kt, FROM degrees true) of a wind velocity (east, north) m/s."""
    return math.hypot(we, wn) / MPS_PER_KT, math.degrees(math.atan2(-we, -wn)) % 360.0


def estimate_circle(circle, times, east, north):
    """Both methods' results for one circle: {method: dict with wind_kt, wind_from_deg, ... or rejected}."""
    t0, t1 = circle["start_s"], circle["end_s"]
    period = t1 - t0
    idx = list(range(bisect.bisect_left(times, t0), bisect.bisect_right(times, t1)))
    out = {}
    if not idx:
        return {m: {"rejected": "no fixes in the circle"} for m in METHODS}
    drift_idx = idx
    if len(idx) < DRIFT_MIN_FIXES and circle["previous_start_s"] is not None:
        drift_idx = list(range(bisect.bisect_left(times, circle["previous_start_s"]), idx[-1] + 1))
    ref = drift_idx[0]
    drift = fits.drift_fit([times[i] for i in drift_idx], [east[i] - east[ref] for i in drift_idx],
                           [north[i] - north[ref] for i in drift_idx], period)
    drift["circles_in_fit"] = 1 if drift_idx is idx else 2
    if "rejected" not in drift:
        drift["wind_kt"], drift["wind_from_deg"] = wind_from_vector(*drift.pop("wind"))
        if not 15.0 <= drift["radius_m"] <= 600.0:
            drift["rejected"] = f"radius {drift['radius_m']:.0f} m outside 15-600 m"
        elif not 8.0 <= drift["period_s"] <= 90.0:
            drift["rejected"] = f"period {drift['period_s']:.1f} s outside 8-90 s"
    out["drift"] = drift

    dt = median_interval_s(times)
    span = max(1, round(period / 4.0 / dt))
    lo, hi = max(0, idx[0] - span), min(len(times), idx[-1] + span + 1)
    samples = [s for s in chord_samples(times[lo:hi], east[lo:hi], north[lo:hi], span) if t0 <= s[0] <= t1]
    extremes = fits.gs_extremes_fit([s[0] for s in samples], [s[1] for s in samples], [s[2] for s in samples],
                                    period)
    if "speed_mps" in extremes:
        extremes.update(wind_kt=extremes.pop("speed_mps") / MPS_PER_KT, wind_from_deg=extremes.pop("from_deg"))
    out["gs_extremes"] = extremes

    for result in out.values():
        if "uncertainty_mps" in result:
            result["uncertainty_kt"] = result.pop("uncertainty_mps") / MPS_PER_KT
            result["quality"] = 1.0 / (1.0 + result["uncertainty_kt"])
        if "rejected" not in result and result.get("wind_kt", 0.0) > 80.0:
            result["rejected"] = f"wind {result['wind_kt']:.0f} kt over 80 kt"
    return out


def vector_kt(speed_kt, from_deg):
    """(east, north) knots of the air's motion for a wind FROM from_deg."""
    return -speed_kt * math.sin(math.radians(from_deg)), -speed_kt * math.cos(math.radians(from_deg))


def average_winds(estimates):
    """Weighted vector mean and spread of accepted circle estimates; None if none."""
    if not estimates:
        return None
    weights = [1.0 / (e["uncertainty_kt"] ** 2 + 1.0) for e in estimates]
    vectors = [vector_kt(e["wind_kt"], e["wind_from_deg"]) for e in estimates]
    total = sum(weights)
    me = sum(w * v[0] for w, v in zip(weights, vectors)) / total
    mn = sum(w * v[1] for w, v in zip(weights, vectors)) / total
    spread = math.sqrt(sum(w * ((v[0] - me) ** 2 + (v[1] - mn) ** 2) for w, v in zip(weights, vectors)) / total)
    speed = math.hypot(me, mn)
    return {"wind_kt": speed, "wind_from_deg": math.degrees(math.atan2(-me, -mn)) % 360.0, "spread_kt": spread,
            "circles_used": len(estimates)}


def plain_mean(estimates):
    vectors = [vector_kt(e["wind_kt"], e["wind_from_deg"]) for e in estimates]
    me = sum(v[0] for v in vectors) / len(vectors)
    mn = sum(v[1] for v in vectors) / len(vectors)
    return {"wind_kt": math.hypot(me, mn), "wind_from_deg": math.degrees(math.atan2(-me, -mn)) % 360.0}


# ------------------------------------------------------------------------------------------------- flight, climbs
def iso_time(date, seconds):
    seconds = int(round(seconds))
    days, rest = divmod(seconds, 86400)
    clock = f"{rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}Z"
    if date is None:
        return clock
    day = datetime.date.fromisoformat(date) + datetime.timedelta(days=days)
    return f"{day.isoformat()}T{clock}"


def height_at(fixes, times, t):
    """GNSS altitude (m) of the fix nearest in time to t, or None."""
    best = min(range(len(times)), key=lambda i: abs(times[i] - t))
    return fixes[best].gnss_alt_m


def analyse(path):
    """Everything the tool knows about one IGC file: fixes, circles with both methods' estimates, climbs."""
    track = read_igc(path)
    fixes, dropped = clean_fixes(track)
    times = [f.time_s for f in fixes]
    east, north = local_metres(fixes)
    circles = find_circles(times, east, north) if len(fixes) > 2 else []
    for circle in circles:
        circle["estimates"] = estimate_circle(circle, times, east, north)

    climbs = []
    for circle in circles:
        if climbs and circle["start_s"] - climbs[-1][-1]["end_s"] <= CLIMB_GAP_S:
            climbs[-1].append(circle)
        else:
            climbs.append([circle])
    climb_out = []
    for number, members in enumerate(climbs, 1):
        start, end = members[0]["start_s"], members[-1]["end_s"]
        h0, h1 = height_at(fixes, times, start), height_at(fixes, times, end)
        entry = {"climb": number, "start": iso_time(track.date, start), "end": iso_time(track.date, end),
                 "start_s": start, "end_s": end, "circles": len(members),
                 "directions": sorted({c["direction"] for c in members}),
                 "height_start_m": h0, "height_end_m": h1}
        for method in METHODS:
            accepted = [c["estimates"][method] for c in members if "rejected" not in c["estimates"][method]]
            entry[method] = average_winds(accepted)
            if entry[method] is not None and len(accepted) >= 3:
                entry[method]["after_3_circles"] = plain_mean(accepted[:3])
        for circle in members:
            circle["climb"] = number
        climb_out.append(entry)
    return {"date": track.date, "b_records": len(track.fixes), "refused": track.refused, "dropped": dropped,
            "fixes": len(fixes), "interval_s": median_interval_s(times) if len(times) > 1 else None,
            "circles": circles, "climbs": climb_out}


def agreement(climbs, method, min_circles=2, speed_kt=5.0, angle_deg=20.0):
    """Successive climbs with an estimate from min_circles or more: pairs, agreeing pairs (speed and angle), and
    agreeing pairs by the vector difference alone."""
    usable = [c for c in climbs if c[method] is not None and c[method]["circles_used"] >= min_circles]
    pairs = agree = agree_vector = 0
    for a, b in zip(usable, usable[1:]):
        wa, wb = a[method], b[method]
        pairs += 1
        if (abs(wa["wind_kt"] - wb["wind_kt"]) <= speed_kt
                and fits.angle_difference_deg(wa["wind_from_deg"], wb["wind_from_deg"]) <= angle_deg):
            agree += 1
        va, vb = vector_kt(wa["wind_kt"], wa["wind_from_deg"]), vector_kt(wb["wind_kt"], wb["wind_from_deg"])
        if math.hypot(va[0] - vb[0], va[1] - vb[1]) <= speed_kt:
            agree_vector += 1
    return {"climbs_compared": len(usable), "pairs": pairs, "agree_5kt_20deg": agree,
            "agree_vector_5kt": agree_vector}


# ------------------------------------------------------------------------------------------------------- output
def rounded(value):
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def circle_lines(result):
    """JSON-ready dicts, one per circle and method, then one per climb and method."""
    date = result["date"]
    for number, circle in enumerate(result["circles"], 1):
        for method in METHODS:
            line = {"type": "circle", "circle": number, "climb": circle["climb"], "method": method,
                    "start": iso_time(date, circle["start_s"]), "end": iso_time(date, circle["end_s"]),
                    "direction": circle["direction"]}
            line.update(circle["estimates"][method])
            yield rounded(line)
    for climb in result["climbs"]:
        for method in METHODS:
            line = {"type": "climb", "method": method}
            line.update({k: v for k, v in climb.items() if k not in METHODS})
            line.update(climb[method] or {"rejected": "no accepted circle"})
            yield rounded(line)


def fixture(result, name):
    climbs = []
    for climb in result["climbs"]:
        entry = {k: climb[k] for k in ("climb", "start", "end", "circles", "directions", "height_start_m",
                                       "height_end_m")}
        for method in METHODS:
            entry[method] = climb[method]
        climbs.append(entry)
    return rounded({"flight": name, "tool": "Tests/Tools/circling_wind.py", "date": result["date"],
                    "fixes": result["fixes"], "interval_s": result["interval_s"],
                    "circles": len(result["circles"]),
                    "circles_accepted": {m: sum(1 for c in result["circles"] if "rejected" not in c["estimates"][m])
                                         for m in METHODS},
                    "climbs": climbs,
                    "agreement": {m: agreement(result["climbs"], m) for m in METHODS},
                    "methods_agree": methods_agree(result["climbs"])})


def methods_agree(climbs, min_circles=2, speed_kt=5.0, angle_deg=20.0):
    """Climbs (2 or more accepted circles by both methods) whose drift and gs_extremes winds agree."""
    both = [c for c in climbs if all(c[m] is not None and c[m]["circles_used"] >= min_circles for m in METHODS)]
    agree = sum(1 for c in both
                if abs(c["drift"]["wind_kt"] - c["gs_extremes"]["wind_kt"]) <= speed_kt
                and fits.angle_difference_deg(c["drift"]["wind_from_deg"],
                                              c["gs_extremes"]["wind_from_deg"]) <= angle_deg)
    return {"climbs": len(both), "agree_5kt_20deg": agree}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("igc", help="IGC file")
    parser.add_argument("--fixture", metavar="OUT.json", help="write the climbs and agreement as one JSON file")
    args = parser.parse_args(argv)
    try:
        result = analyse(args.igc)
    except OSError as error:
        print(f"circling_wind: cannot read {args.igc}: {error.strerror}", file=sys.stderr)
        return 1
    name = os.path.basename(args.igc)
    if args.fixture:
        try:
            with open(args.fixture, "w", encoding="utf-8") as handle:
                json.dump(fixture(result, name), handle, indent=1)
                handle.write("\n")
        except OSError as error:
            print(f"circling_wind: cannot write {args.fixture}: {error.strerror}", file=sys.stderr)
            return 1
    else:
        for line in circle_lines(result):
            print(json.dumps(line))
    agree = {m: agreement(result["climbs"], m) for m in METHODS}
    print(f"{name}: {result['b_records']} B records, {result['fixes']} fixes used "
          f"(refused {result['refused'] or 0}, dropped {result['dropped'] or 0}), interval {result['interval_s']} s; "
          f"{len(result['circles'])} circles in {len(result['climbs'])} climbs; successive climbs agreeing "
          + "; ".join(f"{m} {a['agree_5kt_20deg']}/{a['pairs']} (vector {a['agree_vector_5kt']})"
                      for m, a in agree.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
