#!/usr/bin/env python3
"""Synthetic circling glider flights with a known wind, written as IGC files (Python 3.11 standard library only).

The glider glides straight, rolls into a steady turn, circles a given number of full turns at a constant airspeed
and bank while climbing, rolls out and glides on; several climbs may follow, each with its own wind and turn
direction.  The wind is constant within a climb and changes, if asked, at the start of the glide that leads to the
next climb.  Written from the physics of a coordinated turn, without reading cockpitd's code, as the reference for
tests of a circling-wind estimator.

PHYSICS
    Coordinated level turn at true airspeed v and bank phi (g = 9.806 65 m/s^2, standard gravity):
        radius  r = v^2 / (g tan phi)        turn rate  omega = g tan phi / v        one turn  T = 2 pi r / v
    Heading psi (degrees true, clockwise from north); a right turn (clockwise seen from above) makes psi grow.
    Air velocity (east, north) = v (sin psi, cos psi).  A wind of W knots FROM direction theta blows toward
    theta + 180: wind velocity = -W (sin theta, cos theta).  Ground velocity = air velocity + wind velocity.
    Roll-in and roll-out last --roll-s seconds each; over them the turn rate, the airspeed and the vertical speed
    change linearly between the glide's and the circle's values.  The path is integrated in 0.02 s steps
    (midpoint rule) straight onto WGS-84 latitude and longitude with the radii of curvature at the current
    latitude and height (igc_fixes.py), and sampled every second.

OUTPUT
    An IGC file: A record (manufacturer XCK, the X of an unapproved recorder), HFDTE, HFGTYGLIDERTYPE, HFFTYFRTYPE,
    then one B record a second (or every --interval-s seconds) with validity A and the same height as pressure
    and GNSS altitude (metres; the true height is used for the radii).  No G record: the file is not from a signed
    recorder.  CRLF line ends, as the IGC specification asks.  GPS noise: --noise-m sigma metres added to the written north and east
    position independently (Gaussian, seeded), on top of the IGC format's own rounding to 0.001 minute
    (1.85 m north, 1.85 cos(lat) m east).
    --truth FILE writes JSON: per climb the wind, radius, period and the steady circling's start and end.

EXAMPLES
    circling_flight.py --wind 270/20 --turns 5 > flight.igc
    circling_flight.py --wind 0/10 --wind 90/25 --turn left --turn right --noise-m 2 --seed 7 --out f.igc
"""
import argparse
import json
import math
import random
import sys
from dataclasses import dataclass, field

from igc_fixes import MPS_PER_KT, b_record, metres_per_degree

STANDARD_GRAVITY_MPS2 = 9.80665
STEP_S = 0.02


def turn_radius_m(airspeed_mps, bank_deg):
    return airspeed_mps * airspeed_mps / (STANDARD_GRAVITY_MPS2 * math.tan(math.radians(bank_deg)))


def turn_rate_dps(airspeed_mps, bank_deg):
    return math.degrees(STANDARD_GRAVITY_MPS2 * math.tan(math.radians(bank_deg)) / airspeed_mps)


def wind_vector_mps(from_deg, speed_kt):
    """(east, north) velocity of the air mass for a wind FROM from_deg at speed_kt."""
    speed = speed_kt * MPS_PER_KT
    return -speed * math.sin(math.radians(from_deg)), -speed * math.cos(math.radians(from_deg))


@dataclass
class Climb:
    wind_from_deg: float
    wind_kt: float
    turns: float = 5.0
    direction: str = "right"        # "right": clockwise seen from above; "left": anticlockwise


@dataclass
class FlightPlan:
    climbs: list = field(default_factory=lambda: [Climb(270.0, 20.0)])
    lat_deg: float = 50.3
    lon_deg: float = 8.5
    date: str = "2018-07-29"        # YYYY-MM-DD, UTC
    start_s: float = 12 * 3600      # seconds of day of the first fix
    start_alt_m: float = 1200.0
    circle_airspeed_kt: float = 45.0
    bank_deg: float = 30.0
    climb_mps: float = 2.0
    glide_airspeed_kt: float = 55.0
    glide_sink_mps: float = 0.8
    glide_s: float = 60.0           # before the first climb, between climbs and after the last
    glide_heading_deg: float = 90.0
    roll_s: float = 3.0
    noise_m: float = 0.0
    seed: int = 1
    interval_s: int = 1             # fix interval written (loggers record every 1 to 8 s or more)
    glider_type: str = "Synthetic circling glider"


@dataclass
class Segment:
    duration_s: float
    wind: tuple                     # (east, north) m/s
    rate0_dps: float                # turn rate at the start and the end (linear between)
    rate1_dps: float
    speed0_mps: float
    speed1_mps: float
    vz0_mps: float
    vz1_mps: float


def plan_segments(plan):
    """The flight as segments, and per climb the truth: wind, radius, period, steady circling start/end offsets."""
    glide_v = plan.glide_airspeed_kt * MPS_PER_KT
    circle_v = plan.circle_airspeed_kt * MPS_PER_KT
    rate = turn_rate_dps(circle_v, plan.bank_deg)
    period = 360.0 / rate
    segments, truth, clock = [], [], 0.0

    def add(seg):
        nonlocal clock
        segments.append(seg)
        clock += seg.duration_s

    for index, climb in enumerate(plan.climbs):
        wind = wind_vector_mps(climb.wind_from_deg, climb.wind_kt)
        signed = rate if climb.direction == "right" else -rate
        add(Segment(plan.glide_s, wind, 0, 0, glide_v, glide_v, -plan.glide_sink_mps, -plan.glide_sink_mps))
        add(Segment(plan.roll_s, wind, 0, signed, glide_v, circle_v, -plan.glide_sink_mps, plan.climb_mps))
        steady_start = clock
        add(Segment(climb.turns * period, wind, signed, signed, circle_v, circle_v, plan.climb_mps, plan.climb_mps))
        truth.append({"climb": index + 1, "wind_from_deg": climb.wind_from_deg, "wind_kt": climb.wind_kt,
                      "direction": climb.direction, "turns": climb.turns,
                      "radius_m": turn_radius_m(circle_v, plan.bank_deg), "period_s": period,
                      "turn_rate_dps": rate, "steady_start_offset_s": steady_start,
                      "steady_end_offset_s": clock})
        add(Segment(plan.roll_s, wind, signed, 0, circle_v, glide_v, plan.climb_mps, -plan.glide_sink_mps))
    last_wind = segments[-1].wind if segments else (0.0, 0.0)
    add(Segment(plan.glide_s, last_wind, 0, 0, glide_v, glide_v, -plan.glide_sink_mps, -plan.glide_sink_mps))
    return segments, truth


def fly(plan):
    """True positions every second: list of (seconds of day, lat, lon, height m)."""
    segments, truth = plan_segments(plan)
    lat, lon, height = plan.lat_deg, plan.lon_deg, plan.start_alt_m
    heading = plan.glide_heading_deg
    samples = [(plan.start_s, lat, lon, height)]
    elapsed, next_sample = 0.0, 1.0
    for seg in segments:
        steps = max(1, math.ceil(seg.duration_s / STEP_S - 1e-9))
        h = seg.duration_s / steps
        for k in range(steps):
            u = (k + 0.5) / steps
            rate = seg.rate0_dps + (seg.rate1_dps - seg.rate0_dps) * u
            speed = seg.speed0_mps + (seg.speed1_mps - seg.speed0_mps) * u
            vz = seg.vz0_mps + (seg.vz1_mps - seg.vz0_mps) * u
            mid_heading = math.radians(heading + rate * h / 2.0)
            east = (speed * math.sin(mid_heading) + seg.wind[0]) * h
            north = (speed * math.cos(mid_heading) + seg.wind[1]) * h
            north_per_deg, east_per_deg = metres_per_degree(lat, height)
            before = (lat, lon, height, elapsed)
            lat += north / north_per_deg
            lon += east / east_per_deg
            height += vz * h
            heading = (heading + rate * h) % 360.0
            elapsed += h
            while next_sample <= elapsed + 1e-9:
                # the sample instant falls inside this step: linear within 0.02 s (under 1 mm off the arc)
                f = (next_sample - before[3]) / h
                samples.append((plan.start_s + next_sample, before[0] + (lat - before[0]) * f,
                                before[1] + (lon - before[1]) * f, before[2] + (height - before[2]) * f))
                next_sample += 1.0
    for item in truth:
        item["steady_start_s"] = plan.start_s + item.pop("steady_start_offset_s")
        item["steady_end_s"] = plan.start_s + item.pop("steady_end_offset_s")
    return samples, truth


def igc_lines(plan):
    """The IGC file's lines (without line ends) and the truth."""
    samples, truth = fly(plan)
    rng = random.Random(plan.seed)
    year, month, day = plan.date.split("-")
    lines = ["AXCKSYN synthetic circling flight",
             f"HFDTE{day}{month}{year[2:]}",
             f"HFGTYGLIDERTYPE:{plan.glider_type}",
             "HFFTYFRTYPE:cockpitd Tests/Tools/circling_flight.py"]
    for time_s, lat, lon, height in samples[::max(1, int(plan.interval_s))]:
        if plan.noise_m > 0:
            north_per_deg, east_per_deg = metres_per_degree(lat, height)
            lat += rng.gauss(0.0, plan.noise_m) / north_per_deg
            lon += rng.gauss(0.0, plan.noise_m) / east_per_deg
        lines.append(b_record(time_s, lat, lon, height, height))
    return lines, truth


def parse_wind(text):
    try:
        from_text, speed_text = text.split("/")
        return float(from_text) % 360.0, float(speed_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"wind must be FROM/KT (degrees true / knots), got {text!r}") from None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wind", type=parse_wind, action="append", metavar="FROM/KT",
                        help="one climb per --wind, in order (default: one climb, 270/20)")
    parser.add_argument("--turn", choices=["left", "right"], action="append",
                        help="turn direction per climb; the last one given applies to the climbs after it")
    parser.add_argument("--turns", type=float, default=5.0, help="full turns per climb (default 5)")
    defaults = FlightPlan()
    for name, help_text in [("lat_deg", "start latitude"), ("lon_deg", "start longitude"),
                            ("start_alt_m", "start height, m"), ("circle_airspeed_kt", "airspeed in the circle"),
                            ("bank_deg", "bank in the circle"), ("climb_mps", "climb rate in the circle"),
                            ("glide_airspeed_kt", "airspeed in the glides"), ("glide_sink_mps", "sink in glides"),
                            ("glide_s", "seconds of each glide"), ("glide_heading_deg", "first glide's heading"),
                            ("roll_s", "seconds of roll-in and of roll-out"), ("noise_m", "GPS noise sigma, m")]:
        parser.add_argument("--" + name.replace("_", "-"), dest=name, type=float,
                            default=getattr(defaults, name), help=f"{help_text} (default {getattr(defaults, name)})")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--interval-s", type=int, default=1, help="write every Nth second's fix (default 1)")
    parser.add_argument("--date", default=defaults.date, help="UTC date YYYY-MM-DD")
    parser.add_argument("--start", default="12:00:00", help="UTC time of the first fix HH:MM:SS")
    parser.add_argument("--glider-type", default=defaults.glider_type)
    parser.add_argument("--out", help="IGC file to write (default standard output)")
    parser.add_argument("--truth", help="JSON file for the true winds, radius, period and circling times")
    args = parser.parse_args(argv)

    winds = args.wind or [(270.0, 20.0)]
    turns = args.turn or ["right"]
    climbs = [Climb(w_from, w_kt, args.turns, turns[min(i, len(turns) - 1)]) for i, (w_from, w_kt) in enumerate(winds)]
    hh, mm, ss = (int(part) for part in args.start.split(":"))
    plan = FlightPlan(climbs=climbs, date=args.date, start_s=hh * 3600 + mm * 60 + ss, seed=args.seed,
                      glider_type=args.glider_type, interval_s=args.interval_s,
                      **{name: getattr(args, name) for name in FlightPlan.__dataclass_fields__
                         if name not in ("climbs", "date", "start_s", "seed", "glider_type", "interval_s")})
    lines, truth = igc_lines(plan)
    text = "".join(line + "\r\n" for line in lines)
    if args.out:
        with open(args.out, "w", encoding="ascii", newline="") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    if args.truth:
        with open(args.truth, "w", encoding="ascii") as handle:
            json.dump(truth, handle, indent=1)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
