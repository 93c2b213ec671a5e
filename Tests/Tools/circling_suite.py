#!/usr/bin/env python3
"""The set of synthetic circling flights kept as fixtures (Tests/Fixtures/wind/synthetic/), with their true winds
and this project's reference estimates, so that a test of cockpitd's estimator reads files instead of running
Python (Python 3.11 standard library only).

Usage:
    circling_suite.py DIR     writes DIR/<name>.igc for every flight and DIR/manifest.json

The flights: winds of 10, 20 and 30 kt from 0, 90, 225 and 300 deg true, each turned left and right (24), a calm
(no wind), a wind changing between two climbs (270/20 then 120/12) and a logger recording every 4 s.  Every one
glides 60 s heading 090, rolls in over 3 s, circles 5 full turns (6 at 4 s) at 45 kt and 30 deg bank (radius
94.65 m, one turn 25.69 s) climbing 2 m/s, rolls out and glides 60 s, with GPS noise sigma 2 m (seeded: the
flight's number in the list).  manifest.json gives per flight the plan, per climb the truth (wind, radius, period,
steady circling's start and end UTC) and circling_wind.py's estimate per method: the climb's mean and the mean of
its first three circles ("after_3_circles"), the issue's measure: within 2 kt and 10 deg of the truth.
"""
import json
import os
import sys
import tempfile
from dataclasses import asdict

import circling_flight as cf
import circling_wind as cw


def suite():
    """(name, FlightPlan) for every flight of the set, in order."""
    plans = []
    for speed in (10, 20, 30):
        for from_deg in (0, 90, 225, 300):
            for direction in ("left", "right"):
                plans.append((f"w{from_deg:03d}-{speed}kt-{direction}", [cf.Climb(from_deg, speed, 5, direction)], 1))
    plans.append(("calm-left", [cf.Climb(0, 0, 5, "left")], 1))
    plans.append(("change-270-20kt-right-120-12kt-left",
                  [cf.Climb(270, 20, 5, "right"), cf.Climb(120, 12, 5, "left")], 1))
    plans.append(("w225-20kt-right-4s", [cf.Climb(225, 20, 6, "right")], 4))
    return [(name, cf.FlightPlan(climbs=climbs, noise_m=2.0, seed=index + 1, interval_s=interval))
            for index, (name, climbs, interval) in enumerate(plans)]


def igc_text(plan):
    lines, truth = cf.igc_lines(plan)
    return "".join(line + "\r\n" for line in lines), truth


def reference(text, name):
    """circling_wind.py's per-climb estimates of one flight's IGC text."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, name + ".igc")
        with open(path, "w", encoding="ascii", newline="") as handle:
            handle.write(text)
        result = cw.analyse(path)
    return [{"start": climb["start"], "end": climb["end"], "circles": climb["circles"],
             "directions": climb["directions"],
             **{method: climb[method] for method in cw.METHODS}} for climb in result["climbs"]]


def manifest_entry(name, plan, text, truth):
    for climb in truth:
        for key in ("steady_start_s", "steady_end_s"):
            climb[key[:-2]] = cw.iso_time(plan.date, climb.pop(key))
    plan_fields = {k: v for k, v in asdict(plan).items() if k != "climbs"}
    return cw.rounded({"file": name + ".igc", "plan": plan_fields, "truth": truth,
                       "reference": reference(text, name)})


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: circling_suite.py DIR", file=sys.stderr)
        return 2
    folder = argv[0]
    os.makedirs(folder, exist_ok=True)
    entries = []
    for name, plan in suite():
        text, truth = igc_text(plan)
        with open(os.path.join(folder, name + ".igc"), "w", encoding="ascii", newline="") as handle:
            handle.write(text)
        entries.append(manifest_entry(name, plan, text, truth))
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump({"tool": "Tests/Tools/circling_suite.py", "flights": entries}, handle, indent=1)
        handle.write("\n")
    print(f"{len(entries)} flights written to {folder}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
