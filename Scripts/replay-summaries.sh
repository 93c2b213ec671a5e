#!/usr/bin/env bash
# Replays every recorded flight in Tests/Fixtures (IGC files, gpsd logs, cockpitd recordings) with one cockpitd binary
# and writes each replay's summary (text and --json) into a folder, so that two builds can be compared with `diff -r`:
# a change that must not change behaviour leaves the folders identical.
#
#   Scripts/replay-summaries.sh BINARY OUTDIR
#   diff -r OUTDIR-before OUTDIR-after && echo "no difference"
#
# Each flight is replayed as fast as it goes (no control socket) with the shipped airfield database, the bundled
# terrain tiles and geoid, twice: with the default (powered) profile and as a glider, so that the glide, terrain and
# flight-state capabilities all run. Only standard output is kept: standard error carries wall-clock timings.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: $0 BINARY OUTDIR}
out=${2:?usage: $0 BINARY OUTDIR}
mkdir -p "$out"
count=0
while IFS= read -r file; do
  name=$(basename "$file")
  for profile in powered glider; do
    common=(replay "$file" --airfields Data/airfields.sqlite --terrain Tests/Fixtures/terrain
            --geoid Tests/Fixtures/geoid/egm96_15.gtx --profile "$profile" --no-voice)
    "$binary" "${common[@]}" > "$out/$name.$profile.txt" 2>/dev/null || echo "exit $?" >> "$out/$name.$profile.txt"
    "$binary" "${common[@]}" --json > "$out/$name.$profile.json" 2>/dev/null || echo "exit $?" >> "$out/$name.$profile.json"
    count=$((count + 1))
  done
done < <(find Tests/Fixtures/flights Tests/Fixtures/recordings -type f \( -name '*.igc' -o -name '*.log' -o -name '*.jsonl' \) | sort)
echo "replay-summaries: $count replays of $((count / 2)) recordings into $out"
