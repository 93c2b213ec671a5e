#!/usr/bin/env bash
# The embedded default: replays a bundled real flight (a glider over northern Spain, 2023-07-04, that climbs just past
# 10,000 ft pressure altitude) at 60x real time and shows cockpitd's status panel with the traffic radar below it.
# A second replay of the same recording flies as traffic, one minute behind on the same track: the two replays send
# each other traffic reports on loopback, as two aircraft would by radio. Both are moved to today (--retime) so that
# the times on the screen are today's.
#   SPEED=60 COUNT=N (stop after N frames) bash Scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
# Only what the demo runs, with SwiftPM's own progress lines (the first build takes about 11 minutes on 2 cores).
swift build -c release --product cockpitd
swift build -c release --product cockpitctl
bin=.build/release
flight=Tests/Fixtures/flights/opensoar__missing_lcu_lseeyou_lines.igc
socket=${COCKPIT_SOCKET:-/tmp/cockpitd-demo-$UID.sock}
speed=${SPEED:-60}
trail_seconds=60
port_own=${DEMO_PORT:-29400}
port_traffic=$((port_own + 1))
now=$(date -u +%s)
own_start=$(date -u -d "@$now" +%Y-%m-%dT%H:%M:%SZ)
traffic_start=$(date -u -d "@$((now + trail_seconds))" +%Y-%m-%dT%H:%M:%SZ)
common=(--speed "$speed" --profile glider --log-level warning)
"$bin/cockpitd" replay "$flight" "${common[@]}" --retime "$own_start" --socket "$socket" \
  --traffic-port "$port_own" --traffic-to "127.0.0.1:$port_traffic" &
own=$!
# The traffic's first fix is one minute later by the clock of both replays, so it starts that much replay time later.
sleep "$(awk -v s="$trail_seconds" -v x="$speed" 'BEGIN { printf "%.3f", s / x }')"
# A replay's traffic identifier comes from its file's name: the traffic flies the same file under another name.
traffic_flight=/tmp/cockpitd-demo-$UID-traffic.igc
ln -sf "$PWD/$flight" "$traffic_flight"
"$bin/cockpitd" replay "$traffic_flight" "${common[@]}" --retime "$traffic_start" --socket "$socket.traffic" \
  --traffic-port "$port_traffic" --traffic-to "127.0.0.1:$port_own" > /dev/null &
traffic=$!
trap 'kill $own $traffic 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
"$bin/cockpitctl" --socket "$socket" watch --radar ${COUNT:+--count "$COUNT"} || true
kill -INT $own $traffic 2>/dev/null || true   # ends the replays early if watch was stopped first
wait $own 2>/dev/null || true
wait $traffic 2>/dev/null || true
