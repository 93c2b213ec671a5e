#!/usr/bin/env python3
"""Checks Data/glider-polars.csv: every row parses, the three speeds rise, the sinks are plausible for a sailplane
(0.4-2.5 m/s), the masses are consistent, every source key is documented in docs/glider-polars.md, and the best
glide ratio of the parabola through the three points is within 15 % of the one the source states (when it states
one).  Prints each type's implied and stated best L/D.  Exit status 0 when every row passes, 1 otherwise.

Run:  python3 Tests/Tools/check_polars.py [CSV] [SOURCES.md]      (Python 3.11, stdlib only)

The parabola s(v) = a v^2 + b v + c (v in m/s, s in m/s, sink positive down) is the one through the three points;
its best glide is where the tangent from the origin touches it: v* = sqrt(c / a), L/D = v* / s(v*).
"""
import csv
import math
import os
import re
import sys

COLUMNS = [
    "type", "aliases", "reference_mass_kg", "wing_area_m2", "empty_mass_kg", "max_mass_kg", "max_water_litres",
    "v1_kmh", "w1_ms", "v2_kmh", "w2_ms", "v3_kmh", "w3_ms", "stated_best_ld", "stated_best_ld_kmh", "source_keys",
]
SINK_RANGE_MS = (0.4, 2.5)
LD_TOLERANCE = 0.15

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_CSV = os.path.join(ROOT, "Data", "glider-polars.csv")
DEFAULT_SOURCES = os.path.join(ROOT, "docs", "glider-polars.md")


class RowError(ValueError):
    pass


def parabola(points):
    """Coefficients (a, b, c) of s = a v^2 + b v + c through three (v m/s, s m/s) points (Lagrange form)."""
    (x1, y1), (x2, y2), (x3, y3) = points
    d1 = (x1 - x2) * (x1 - x3)
    d2 = (x2 - x1) * (x2 - x3)
    d3 = (x3 - x1) * (x3 - x2)
    a = y1 / d1 + y2 / d2 + y3 / d3
    b = -(y1 * (x2 + x3) / d1 + y2 * (x1 + x3) / d2 + y3 * (x1 + x2) / d3)
    c = y1 * x2 * x3 / d1 + y2 * x1 * x3 / d2 + y3 * x1 * x2 / d3
    return a, b, c


def best_glide(points_kmh):
    """(L/D, speed km/h) of the best glide of the parabola through three (km/h, m/s) points."""
    a, b, c = parabola([(v / 3.6, w) for v, w in points_kmh])
    if a <= 0 or c <= 0:
        raise RowError(f"the three points do not make a polar with a best glide (a={a:.6g}, c={c:.6g})")
    v = math.sqrt(c / a)
    sink = a * v * v + b * v + c
    if sink <= 0:
        raise RowError(f"the parabola sinks {sink:.3f} m/s at its best-glide speed: not a polar")
    return v / sink, v * 3.6


def documented_keys(sources_path):
    """Source keys documented in the sources file: headings of the form ### `key`."""
    with open(sources_path, encoding="utf-8") as handle:
        return set(re.findall(r"^###\s+`([^`]+)`", handle.read(), flags=re.MULTILINE))


def number(row, column, required=True):
    text = row[column].strip()
    if text == "":
        if required:
            raise RowError(f"{column} is empty")
        return None
    try:
        value = float(text)
    except ValueError:
        raise RowError(f"{column} is not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise RowError(f"{column} must be a positive number: {text!r}")
    return value


def check_row(row, keys):
    """The row's report line; raises RowError on the first problem."""
    if not row["type"].strip():
        raise RowError("type is empty")
    aliases = [alias.strip() for alias in row["aliases"].split("|") if alias.strip()]
    if not aliases:
        raise RowError("no aliases")
    reference = number(row, "reference_mass_kg")
    number(row, "wing_area_m2")
    empty = number(row, "empty_mass_kg", required=False)
    maximum = number(row, "max_mass_kg")
    number(row, "max_water_litres", required=False)
    if reference > maximum:
        raise RowError(f"reference mass {reference:g} kg is over the maximum mass {maximum:g} kg")
    if empty is not None and empty >= reference:
        raise RowError(f"empty mass {empty:g} kg is not under the reference mass {reference:g} kg")
    points = [(number(row, f"v{i}_kmh"), number(row, f"w{i}_ms")) for i in (1, 2, 3)]
    speeds = [v for v, _ in points]
    if not speeds[0] < speeds[1] < speeds[2]:
        raise RowError(f"speeds do not rise: {speeds}")
    for v, w in points:
        if not SINK_RANGE_MS[0] <= w <= SINK_RANGE_MS[1]:
            raise RowError(f"sink {w:g} m/s at {v:g} km/h is outside {SINK_RANGE_MS[0]}-{SINK_RANGE_MS[1]} m/s")
    row_keys = [key.strip() for key in row["source_keys"].split("|") if key.strip()]
    if not row_keys:
        raise RowError("no source key")
    missing = [key for key in row_keys if key not in keys]
    if missing:
        raise RowError(f"source keys not documented in the sources file: {missing}")
    implied, implied_kmh = best_glide(points)
    stated = number(row, "stated_best_ld", required=False)
    stated_kmh = number(row, "stated_best_ld_kmh", required=False)
    line = f"{row['type']}: implied best L/D {implied:.1f} at {implied_kmh:.0f} km/h"
    if stated is None:
        return line + "; the source states none"
    line += f"; stated {stated:g}" + (f" at {stated_kmh:g} km/h" if stated_kmh else "")
    deviation = abs(implied - stated) / stated
    if deviation > LD_TOLERANCE:
        raise RowError(f"{line}: {deviation:.0%} off the stated L/D (limit {LD_TOLERANCE:.0%})")
    return line + f" ({deviation:.1%} off)"


def data_lines(handle):
    """The file's lines without comments (# ...) and blank lines."""
    for line in handle:
        if line.strip() and not line.lstrip().startswith("#"):
            yield line


def check(csv_path, sources_path, out=sys.stdout):
    """Checks the table; prints one line a type and a summary; returns the number of failed rows (or 1 when the
    header is wrong)."""
    keys = documented_keys(sources_path)
    with open(csv_path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(data_lines(handle))
        if reader.fieldnames != COLUMNS:
            print(f"FAIL header: {reader.fieldnames} (expected {COLUMNS})", file=out)
            return 1
        failures = 0
        rows = 0
        seen_aliases = {}
        for row in reader:
            rows += 1
            if None in row or any(value is None for value in row.values()):
                print(f"FAIL row {rows}: {len(COLUMNS)} columns expected", file=out)
                failures += 1
                continue
            try:
                print("ok   " + check_row(row, keys), file=out)
            except RowError as error:
                print(f"FAIL {row['type'] or 'row ' + str(rows)}: {error}", file=out)
                failures += 1
                continue
            for alias in row["aliases"].split("|"):
                folded = alias.strip().casefold()
                if folded in seen_aliases and seen_aliases[folded] != row["type"]:
                    print(f"FAIL {row['type']}: alias {alias.strip()!r} also names {seen_aliases[folded]}", file=out)
                    failures += 1
                seen_aliases[folded] = row["type"]
    print(f"{rows} types, {failures} failed", file=out)
    return failures


def main(argv):
    csv_path = argv[1] if len(argv) > 1 else DEFAULT_CSV
    sources_path = argv[2] if len(argv) > 2 else DEFAULT_SOURCES
    return 1 if check(csv_path, sources_path) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
