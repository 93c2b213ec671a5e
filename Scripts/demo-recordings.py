#!/usr/bin/env python3
"""The demo's two recordings (Scripts/demo.sh), made from real data only:

- own: one glider flight's recording (`cockpitd replay FLIGHT --record`) from its start up to the end of the demo's
  window, with a real FLARM's serial output played on its FLARM port at a chosen instant inside the window (one second
  apart as the FLARM printed them), turned to the glider's track;
- traffic: a second glider flight's recording from its start up to the same window's end, moved by OFFSET seconds,
  so that the two meet as they did not on the day.

The flights keep their start so that a replay sees the real launch: demo.sh replays them with `--from` the window's
start (everything before it applied at once), so the panel opens on a glider that has been airborne since its takeoff.

Nothing in a fix is changed: the recordings only drop the lines after the window, and the FLARM lines are added with
the recording format's `flarm` kind (docs/recording-format.md). The FLARM's collision simulation was recorded on a
device flying north (its $GPRMC track 0°), and $PFLAA's RelativeNorth/RelativeEast and Track are relative to true
north (FTD-012), so each second's $PFLAA is turned by the own glider's track at that second minus the FLARM's track:
the target is then where the FLARM put it relative to the FLARM's own track (dead ahead for the head-on), but ahead
of the glider. $PFLAU's RelativeBearing is from the own ground track already (FTD-012), so it is the same after the
turn and stays as printed, as do the FLARM's own GPS sentences; every changed sentence gets its checksum recomputed.
The replays' --retime moves both to today.

  demo-recordings.py OWN.rec TRAFFIC.rec FLARM.txt --start UTC --seconds N --offset S --flarm-at UTC OUT_OWN OUT_TRAFFIC

It prints the first fix's UTC (seconds) of each output on stdout, `OWN TRAFFIC` (demo.sh's --retime is worked out
from them), and what it wrote on stderr.
"""
import argparse
import json
import math
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline()
        lines = [json.loads(line) for line in f if line.strip()]
    return header, lines


def until(lines, last_utc):
    """The lines from the start up to the fix at last_utc and what follows it until the next fix."""
    kept, inside = [], True
    for line in lines:
        if line["k"] == "fix":
            utc = line["fix"].get("utc")
            inside = utc is None or utc <= last_utc
        if inside:
            kept.append(line)
    if not any(line["k"] == "fix" and line["fix"].get("utc") is not None for line in kept):
        sys.exit(f"demo-recordings: no fix with a time up to {last_utc}")
    return kept


def first_fix_utc(lines):
    return next(line["fix"]["utc"] for line in lines if line["k"] == "fix" and line["fix"].get("utc") is not None)


def checksum(body):
    """The NMEA checksum of the text between '$' and '*': the XOR of its bytes, two upper-case hex digits."""
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def turned(sentence, degrees):
    """A $PFLAA sentence with RelativeNorth/RelativeEast and Track turned clockwise by `degrees` (other sentences, and
    a bearing-less $PFLAA with RelativeEast empty, as they are). Metres and degrees stay integers as FTD-012 has
    them."""
    if not sentence.startswith("$PFLAA,"):
        return sentence
    body = sentence[1:].split("*")[0]
    fields = body.split(",")
    north, east, track = fields[2], fields[3], fields[7]
    if north == "" or east == "":
        return sentence
    angle = math.radians(degrees)
    n, e = float(north), float(east)
    fields[2] = str(round(n * math.cos(angle) - e * math.sin(angle)))
    fields[3] = str(round(n * math.sin(angle) + e * math.cos(angle)))
    if track != "":
        fields[7] = str(round(float(track) + degrees) % 360)
    body = ",".join(fields)
    return f"${body}*{checksum(body)}"


def gprmc_track(second):
    """The FLARM's own true track in one second of its output ($GPRMC field 8), 0 if it printed none."""
    for sentence in second:
        if sentence.startswith("$GPRMC,"):
            fields = sentence.split("*")[0].split(",")
            if len(fields) > 8 and fields[8] != "":
                return float(fields[8])
    return 0.0


def flarm_seconds(path):
    """The FLARM's output cut into seconds: a second holds one $GPRMC (the FLARM's position report, once a second) and
    the sentences around it up to the next."""
    seconds = []
    with open(path, encoding="ascii", errors="replace") as f:
        for raw in f:
            sentence = raw.strip()
            if not sentence.startswith("$"):
                continue
            if not seconds or (sentence.startswith("$GPRMC") and any(s.startswith("$GPRMC") for s in seconds[-1])):
                seconds.append([])
            seconds[-1].append(sentence)
    return seconds


def write(path, header, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write(header)
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("own")
    parser.add_argument("traffic")
    parser.add_argument("flarm")
    parser.add_argument("--start", type=int, required=True, 
                        help="the own window's first fix (the replay's --from), UTC seconds")
    parser.add_argument("--seconds", type=int, required=True, help="length of the windows")
    parser.add_argument("--offset", type=int, required=True, help="traffic's UTC minus own UTC at the same moment")
    parser.add_argument("--flarm-at", type=int, required=True, help="own UTC of the FLARM log's first second")
    parser.add_argument("out_own")
    parser.add_argument("out_traffic")
    args = parser.parse_args()

    own_header, own = read(args.own)
    own = until(own, args.start + args.seconds)
    # The monotonic time and true track of each own fix, to put the FLARM's seconds between the fixes of the same
    # second and turn them to the glider's track.
    fixes = {line["fix"]["utc"]: line for line in own if line["k"] == "fix" and line["fix"].get("utc") is not None}
    added = []
    for index, second in enumerate(flarm_seconds(args.flarm)):
        fix = fixes.get(args.flarm_at + index)
        if fix is None or fix["fix"].get("track") is None:
            sys.exit(f"demo-recordings: the own flight has no fix with a track at {args.flarm_at + index} "
                     "for the FLARM log")
        degrees = fix["fix"]["track"] - gprmc_track(second)
        for order, sentence in enumerate(second):
            added.append({"t": fix["t"] + 200_000_000 + order * 1_000_000, "k": "flarm",
                          "line": turned(sentence, degrees)})
    own = sorted(own + added, key=lambda line: line["t"])   # stable: a fix stays before what was recorded after it
    write(args.out_own, own_header, own)

    traffic_header, traffic = read(args.traffic)
    traffic = until(traffic, args.start + args.offset + args.seconds)
    write(args.out_traffic, traffic_header, traffic)
    print(f"demo-recordings: own {len(own)} lines ({len(added)} FLARM lines), traffic {len(traffic)} lines",
          file=sys.stderr)
    print(first_fix_utc(own), first_fix_utc(traffic))


if __name__ == "__main__":
    main()
