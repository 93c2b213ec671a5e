#!/usr/bin/env python3
"""Independent reference decoder for UAT 978 MHz frames as dump978 prints them (raw text, one frame a line).

Written from the specifications' field layouts and the real recordings only, without reading cockpitd's code or its
Swift tests, so that a test comparing cockpitd's UAT decoder with this tool's output compares two independent
readings of the same frames.  Python 3.11 standard library only.

Usage:
    uat_reference.py downlinks FILE   one JSON object a line per downlink (ADS-B, TIS-B, ADS-R)
    uat_reference.py targets FILE     JSON: the last state of each (address, address qualifier) pair
    uat_reference.py uplinks FILE     one JSON object a line per uplink: ground station, information frames, texts
    uat_reference.py metars FILE      JSON: per station the newest METAR or SPECI by its issue time
    uat_reference.py tafs FILE        JSON: per station the newest TAF (TAF, TAF.AMD, ...) by its issue time
FILE may be gzip-compressed (recognised by its first two bytes) or "-" for standard input.  A summary of what was
read (lines, frames, refusals by reason) goes to standard error.

INPUT (dump978 and dump978-fa raw output)
    "-" + 36 or 68 hex digits  downlink, 18-byte basic or 34-byte long ADS-B message payload (after FEC)
    "+" + 864 hex digits       uplink, 432-byte ground uplink payload (after FEC)
    then ";" and optional "key=value;" fields: rs (symbols corrected), rssi (dB), t (Unix seconds); others ignored.
    Lines starting with any other character ("#" comments, "!" metadata) and empty lines are counted and skipped.
    A "+"/"-" line with bad hex or a wrong length is refused, counted by reason, never decoded.

FIELD LAYOUTS: see uat_frames.py (DO-282B downlink and uplink, DO-358B APDU, DLAC text); --help prints them.

OUTPUT CHOICES (what a comparing test must know)
    Latitude/longitude rounded to 6 decimals (the LSB is 2.1e-5 degrees).  Ground speed (sqrt of the squares of
    the north and east velocities) and true track (atan2(east, north)) rounded to 0.1; the track is null when both
    velocities are 0 kt.  Null means "not in the frame" or "the frame says no data".
    Text reports: "text" is the record as transmitted (TAB counts expanded, LF as "\\n", the record's trailing
    newline dropped); "text_one_line" is the same with every run of white space made one space.  "issue_time" is
    the third word as written when it has the form ddhhmmZ, else null (some TAFs carry no issue time).
    "Newest" compares ddhhmm with a month wrap: a day more than 15 days after another is taken as the month before.
    On equal issue times the one heard later in the file wins.
    targets: for each (address, qualifier) the most recent non-null value of each field, the frame count and the
    first/last line numbers.  Nothing is judged implausible here: a frame that passed FEC but carries a nonsense
    position is decoded as it reads.
"""
import argparse
import gzip
import json
import sys
from collections import Counter

import uat_frames
from uat_frames import DOWNLINK_BYTES, UPLINK_BYTES, decode_downlink, decode_uplink


# ---------------------------------------------------------------------------------------------------- input lines
def open_lines(path):
    if path == "-":
        return sys.stdin
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="ascii", errors="replace", newline="\n")
    return open(path, "r", encoding="ascii", errors="replace", newline="\n")


def frames(path, stats):
    """Yield (line number, "+" or "-", payload bytes, metadata dict) for every well-formed frame line."""
    source = open_lines(path)
    try:
        yield from frame_lines(source, stats)
    finally:
        if source is not sys.stdin:
            source.close()


def frame_lines(source, stats):
    for number, raw in enumerate(source, 1):
        stats["lines"] += 1
        line = raw.strip()
        if not line:
            stats["skipped: empty line"] += 1
            continue
        kind = line[0]
        if kind not in "+-":
            stats["skipped: line starting with %r" % kind] += 1
            continue
        hex_part, _, rest = line[1:].partition(";")
        try:
            payload = bytes.fromhex(hex_part)
        except ValueError:
            stats["refused: not hex"] += 1
            continue
        expected = DOWNLINK_BYTES if kind == "-" else (UPLINK_BYTES,)
        if len(payload) not in expected or len(hex_part) != 2 * len(payload):
            stats["refused: %s frame of %d hex digits" % ("downlink" if kind == "-" else "uplink", len(hex_part))] += 1
            continue
        meta = {}
        for item in rest.split(";"):
            key, eq, value = item.partition("=")
            if not eq:
                continue
            try:
                meta[key] = int(value) if key == "rs" else float(value) if key in ("rssi", "t") else value
            except ValueError:
                stats["metadata not understood: %s" % key] += 1
        yield number, kind, payload, meta


# --------------------------------------------------------------------------------------------------------- commands
def issue_minutes(issue_time):
    return int(issue_time[:2]) * 1440 + int(issue_time[2:4]) * 60 + int(issue_time[4:6])


def is_newer(candidate, current):
    """ddhhmmZ comparison with a month wrap; a tie counts as newer (heard later)."""
    delta = issue_minutes(candidate) - issue_minutes(current)
    if delta > 15 * 1440:
        return False
    return delta >= 0 or delta < -15 * 1440


def line_facts(number, meta):
    """Where the frame was in the file and what dump978 said about its reception (rs absent = 0 corrected)."""
    return {"line": number, "rs": meta.get("rs", 0), "rssi_db": meta.get("rssi"), "received_unix_s": meta.get("t")}


def json_lines(brackets, items):
    """A JSON array or object with one item a line (stable, diff-friendly)."""
    return brackets[0] + "".join("\n" + item + ("," if k + 1 < len(items) else "") for k, item in enumerate(items)) \
        + ("\n" if items else "") + brackets[1] + "\n"


def command_downlinks(path, stats, write):
    for number, kind, payload, meta in frames(path, stats):
        if kind == "-":
            stats["downlinks"] += 1
            write(json.dumps({**line_facts(number, meta), **decode_downlink(payload)}) + "\n")


def command_targets(path, stats, write):
    targets = {}
    for number, kind, payload, meta in frames(path, stats):
        if kind != "-":
            continue
        stats["downlinks"] += 1
        decoded = decode_downlink(payload)
        if "error" in decoded:
            stats["not a target: %s" % decoded["error"]] += 1
            continue
        key = (decoded["address"], decoded["address_qualifier"])
        target = targets.setdefault(key, {"first_line": number, "frames": 0})
        target["frames"] += 1
        target["last_line"] = number
        for name, value in decoded.items():
            if value is not None or name not in target:
                target[name] = value
    write(json_lines("[]", [json.dumps(targets[key]) for key in sorted(targets)]))


def text_reports(path, stats):
    """Yield (line number, uplink dict, report dict) for every text record of every uplink."""
    for number, kind, payload, meta in frames(path, stats):
        if kind != "+":
            continue
        stats["uplinks"] += 1
        uplink = decode_uplink(payload)
        for frame in uplink["frames"]:
            for report in frame.get("reports", []):
                yield number, uplink, report


def command_uplinks(path, stats, write):
    for number, kind, payload, meta in frames(path, stats):
        if kind == "+":
            stats["uplinks"] += 1
            write(json.dumps({**line_facts(number, meta), **decode_uplink(payload)}) + "\n")


def newest_by_station(path, stats, write, types):
    newest = {}
    for number, uplink, report in text_reports(path, stats):
        if report["type"] not in types:
            continue
        if report["issue_time"] is None:
            stats["%s without an issue time" % report["type"]] += 1
            continue
        stats["reports: %s" % report["type"]] += 1
        current = newest.get(report["station"])
        if current is None or is_newer(report["issue_time"], current["issue_time"]):
            newest[report["station"]] = {
                "type": report["type"], "issue_time": report["issue_time"], "text": report["text"],
                "text_one_line": report["text_one_line"], "line": number,
                "ground_station_latitude_deg": uplink["ground_station_latitude_deg"],
                "ground_station_longitude_deg": uplink["ground_station_longitude_deg"]}
    stats["stations"] = len(newest)
    write(json_lines("{}", ["%s: %s" % (json.dumps(station), json.dumps(newest[station]))
                            for station in sorted(newest)]))


COMMANDS = {"downlinks": command_downlinks, "targets": command_targets, "uplinks": command_uplinks,
            "metars": newest_by_station, "tafs": newest_by_station}
DEFAULT_TYPES = {"metars": "METAR,SPECI", "tafs": "TAF,TAF.AMD,TAF.COR"}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__ + "\n" + uat_frames.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("file", help="dump978 raw lines, plain or gzip; - for standard input")
    parser.add_argument("--output", "-o", help="write here instead of standard output")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")
    parser.add_argument("--types", help="metars/tafs: report types kept, comma-separated (default %s for metars, "
                        "%s for tafs)" % (DEFAULT_TYPES["metars"], DEFAULT_TYPES["tafs"]))
    args = parser.parse_args(argv)
    stats = Counter()
    out = open(args.output, "w", encoding="utf-8", newline="\n") if args.output else sys.stdout
    run = COMMANDS[args.command]
    try:
        if args.command in DEFAULT_TYPES:
            run(args.file, stats, out.write, tuple((args.types or DEFAULT_TYPES[args.command]).split(",")))
        else:
            run(args.file, stats, out.write)
    except BrokenPipeError:
        return 0
    finally:
        if args.output:
            out.close()
    if not args.quiet:
        for key in sorted(stats):
            sys.stderr.write("%s: %d\n" % (key, stats[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
