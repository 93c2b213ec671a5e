#!/usr/bin/env bash
# The embedded default: replays a bundled real flight (a glider over northern Spain, 2023-07-04, that climbs
# just past 10,000 ft pressure altitude) at 60x real time and shows cockpitd's live status panel.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build -c release 2>&1 | tail -n 1
bin=.build/release
flight=Tests/Fixtures/flights/opensoar__missing_lcu_lseeyou_lines.igc
socket=${COCKPIT_SOCKET:-/tmp/cockpitd-demo.sock}
speed=${SPEED:-60}
"$bin/cockpitd" replay "$flight" --speed "$speed" --socket "$socket" --airfields Data/airfields.sqlite --profile glider --log-level warning &
daemon=$!
trap 'kill $daemon 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
"$bin/cockpitctl" --socket "$socket" watch ${COUNT:+--count "$COUNT"} || true
kill -INT $daemon 2>/dev/null || true   # ends the replay early if watch was stopped first; prints the summary
wait $daemon || true
