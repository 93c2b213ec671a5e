#!/usr/bin/env python3
"""Finding complete circles in a glider's GPS track, for circling_wind.py (Python 3.11 standard library only).
Written from the public descriptions of glide computers' circling detection (a turn rate of about 4 deg/s kept
up for a full turn), without reading cockpitd's code.

CIRCLING (find_circles)
    Fixes with validity V, a repeated or backward time are dropped (counted).  Positions become local east/north
    metres by summing the displacements between successive fixes (WGS-84 radii at their mean latitude and
    height, igc_fixes.py).  The ground track is taken over a chord of about 3 s (at least one fix interval),
    unwrapped, and its rate over about 10 s (at least one interval either side) is the turn rate.  Circling: a
    run of samples turning one way at 4 deg/s or more, with no gap over max(3 intervals, 10 s) and ground speed
    over 2 m/s.  The smoothed rate reaches 4 deg/s while half its window is still straight flight, so the first
    circle starts one half window (5 s, or one interval if longer) after the run starts, past the roll-in.  A
    circle: from there until the unwrapped track has turned 360 deg (interpolated in time), then the next
    360 deg from there; an incomplete last turn is not a circle.  Each circle also names the start of the one
    before it in the same run (previous_start_s), for fits that need two circles of a sparse log.
    A ground track turns faster upwind than downwind (in a 30 kt wind at 45 kt airspeed, 3 times and 0.6 times
    the heading's rate), but it turns through 360 deg in exactly one turn of the heading: a circle found on the
    track is a turn of the glider.
"""
import math

from igc_fixes import displacement_m

TURN_RATE_MIN_DPS = 4.0


# ---------------------------------------------------------------------------------------------------- preparation
def clean_fixes(track):
    """Valid fixes in strictly increasing time; drops counted by reason."""
    kept, dropped = [], {}
    for fix in track.fixes:
        if not fix.valid:
            dropped["validity V"] = dropped.get("validity V", 0) + 1
        elif kept and fix.time_s <= kept[-1].time_s:
            dropped["repeated or backward time"] = dropped.get("repeated or backward time", 0) + 1
        else:
            kept.append(fix)
    return kept, dropped


def local_metres(fixes):
    """East and north metres of every fix from the first, summed fix to fix."""
    east, north = [0.0], [0.0]
    for a, b in zip(fixes, fixes[1:]):
        height = 0.5 * ((a.gnss_alt_m or 0) + (b.gnss_alt_m or 0))
        de, dn = displacement_m(a.lat_deg, a.lon_deg, b.lat_deg, b.lon_deg, height)
        east.append(east[-1] + de)
        north.append(north[-1] + dn)
    return east, north


def median_interval_s(times):
    gaps = sorted(b - a for a, b in zip(times, times[1:]))
    return gaps[len(gaps) // 2] if gaps else 1.0


def chord_samples(times, east, north, span):
    """(mid time, velocity east, velocity north) over chords of `span` fix intervals, skipping gaps."""
    dt = median_interval_s(times)
    gap = max(3.0 * dt, 10.0)
    out = []
    for j in range(len(times) - span):
        elapsed = times[j + span] - times[j]
        if elapsed <= 0 or elapsed > gap * span:
            continue
        out.append((0.5 * (times[j] + times[j + span]), (east[j + span] - east[j]) / elapsed,
                    (north[j + span] - north[j]) / elapsed))
    return out


# ------------------------------------------------------------------------------------------------------ circling
def find_circles(times, east, north):
    """Complete circles as dicts: start_s, end_s, direction; in time order."""
    dt = median_interval_s(times)
    samples = chord_samples(times, east, north, max(1, round(3.0 / dt)))
    gap = max(3.0 * dt, 10.0)
    runs, current, theta = [], [], 0.0
    for sample in samples:
        t, ve, vn = sample
        if math.hypot(ve, vn) < 2.0 or (current and t - current[-1][0] > gap):
            if current:
                runs.append(current)
            current = []
            if math.hypot(ve, vn) < 2.0:
                continue
        track = math.degrees(math.atan2(ve, vn))
        if current:
            theta += (track - current[-1][2] + 180.0) % 360.0 - 180.0
        else:
            theta = track
        current.append((t, theta, track))
    if current:
        runs.append(current)

    circles = []
    half_window = max(5.0, dt)
    for run in runs:
        rates = turn_rates(run, half_window)
        i = 0
        while i < len(run):
            sign = 1 if rates[i] >= TURN_RATE_MIN_DPS else -1 if rates[i] <= -TURN_RATE_MIN_DPS else 0
            if sign == 0:
                i += 1
                continue
            j = i
            while j + 1 < len(run) and rates[j + 1] * sign >= TURN_RATE_MIN_DPS:
                j += 1
            # The rate smoothed over +-5 s reaches the threshold while half its window is still straight
            # flight: the first circle starts one half window later, past the roll-in.
            first = i
            while first < j and run[first][0] < run[i][0] + half_window:
                first += 1
            circles += split_turns(run[first:j + 1], sign)
            i = j + 1
    return circles


def turn_rates(run, half_window_s):
    """Rate of the unwrapped track (deg/s) at each sample over +-half_window_s (at least one sample each side)."""
    rates = []
    for i, (t, _, _) in enumerate(run):
        lo = hi = i
        while lo > 0 and t - run[lo - 1][0] <= half_window_s:
            lo -= 1
        while hi < len(run) - 1 and run[hi + 1][0] - t <= half_window_s:
            hi += 1
        lo, hi = (max(0, i - 1) if lo == i else lo), (min(len(run) - 1, i + 1) if hi == i else hi)
        span = run[hi][0] - run[lo][0]
        rates.append((run[hi][1] - run[lo][1]) / span if span > 0 else 0.0)
    return rates


def split_turns(segment, sign):
    """Successive 360-degree turns of the unwrapped track in one circling segment."""
    out = []
    start_t, start_theta, previous = segment[0][0], segment[0][1], None
    for (t0, th0, _), (t1, th1, _) in zip(segment, segment[1:]):
        target = start_theta + sign * 360.0
        if (th1 - target) * sign >= 0 > (th0 - target) * sign:
            crossing = t0 + (t1 - t0) * (target - th0) / (th1 - th0)
            out.append({"start_s": start_t, "end_s": crossing, "direction": "right" if sign > 0 else "left",
                        "previous_start_s": previous})
            previous, start_t, start_theta = start_t, crossing, target
    return out
