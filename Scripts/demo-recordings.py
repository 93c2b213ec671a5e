#!/usr/bin/env python3
"""The demo's two recordings (Scripts/demo.sh), made from real data only:

- own: a window of the recording of one glider flight (`cockpitd replay FLIGHT --record`), with a real FLARM's serial
  output played on its FLARM port at a chosen instant (the lines verbatim, one second apart as the FLARM printed them);
- traffic: the same window of a second glider flight's recording, moved by OFFSET seconds, so that the two meet as
  they did not on the day.

Nothing in a fix is changed: the windows only drop lines, and the FLARM lines are added with the recording format's
`flarm` kind (docs/recording-format.md). The replays' --retime moves both to today.

  demo-recordings.py OWN.rec TRAFFIC.rec FLARM.txt --start UTC --seconds N --offset S --flarm-at UTC OUT_OWN OUT_TRAFFIC
"""
import argparse
import json
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline()
        lines = [json.loads(line) for line in f if line.strip()]
    return header, lines


def window(lines, first_utc, last_utc):
    """The lines from the fix at first_utc up to the fix at last_utc (a fix and what follows it until the next fix)."""
    kept, inside = [], False
    for line in lines:
        if line["k"] == "fix":
            utc = line["fix"].get("utc")
            inside = utc is not None and first_utc <= utc <= last_utc
        if inside:
            kept.append(line)
    if not kept:
        sys.exit(f"demo-recordings: no fix between {first_utc} and {last_utc}")
    return kept


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
    parser.add_argument("--start", type=int, required=True, help="first fix of the own window, UTC seconds")
    parser.add_argument("--seconds", type=int, required=True, help="length of the windows")
    parser.add_argument("--offset", type=int, required=True, help="traffic's UTC minus own UTC at the same moment")
    parser.add_argument("--flarm-at", type=int, required=True, help="own UTC of the FLARM log's first second")
    parser.add_argument("out_own")
    parser.add_argument("out_traffic")
    args = parser.parse_args()

    own_header, own = read(args.own)
    own = window(own, args.start, args.start + args.seconds)
    # The monotonic time of each own fix, to put the FLARM's seconds between the fixes of the same second.
    fix_time = {line["fix"]["utc"]: line["t"] for line in own if line["k"] == "fix"}
    added = []
    for index, second in enumerate(flarm_seconds(args.flarm)):
        at = fix_time.get(args.flarm_at + index)
        if at is None:
            sys.exit(f"demo-recordings: the own window has no fix at {args.flarm_at + index} for the FLARM log")
        for order, sentence in enumerate(second):
            added.append({"t": at + 200_000_000 + order * 1_000_000, "k": "flarm", "line": sentence})
    own = sorted(own + added, key=lambda line: line["t"])   # stable: a fix stays before what was recorded after it
    write(args.out_own, own_header, own)

    traffic_header, traffic = read(args.traffic)
    traffic = window(traffic, args.start + args.offset, args.start + args.offset + args.seconds)
    write(args.out_traffic, traffic_header, traffic)
    print(f"demo-recordings: own {len(own)} lines ({len(added)} FLARM lines), traffic {len(traffic)} lines")


if __name__ == "__main__":
    main()
