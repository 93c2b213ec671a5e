#!/usr/bin/env bash
# The embedded default: two real glider flights from the same airfield (Leverkusen, 2017-07-15 and 2017-07-17) flown
# against each other, and a real FLARM's own collision simulation on the first glider's FLARM port. Shows cockpitd's
# status panel with the traffic radar below it, at 5x real time, for 12 minutes of the flight (about 2½ minutes).
#
# - Own aircraft: the first flight, shown from 11:15:36 UTC (airborne at 4,200 ft MSL): the replay applies the flight
#   from its first fix (08:37:56, on the grid; launched at 10:21:38) up to then at once (--from), so the panel opens
#   on a glider airborne since its real takeoff, and paces it from there.
# - Traffic by cockpitd's own traffic reports: the second flight (launched 14:02:56), shown from 3 h 29 min later in
#   its day than the first (--from 14:44:46), so that the two circle in the same thermal — within 500 m for a minute,
#   230 m at the closest, as two gliders sharing a thermal are. The two replays send each other their reports on
#   loopback, as two aircraft would by radio.
# - Traffic by radio: FLARM's built-in collision simulation (PowerMouse S1, a head-on at 100 m/s closing), as a real
#   FLARM printed it on its serial port, turned to the glider's track, played on the own glider's FLARM port from
#   11:26:16 UTC: advisory, caution and warning callouts, the target at 12 o'clock.
# Scripts/demo-recordings.py makes the two recordings (it only ends them at the window's end and adds the FLARM's
# lines, turned to the glider's track); both replays are moved to today (--retime) so that the window's start is now.
#   SPEED=5 COUNT=N (stop after N frames) bash Scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
# Only what the demo runs, with SwiftPM's own progress lines (the first build takes about 11 minutes on 2 cores).
# --no-color-diagnostics: on a terminal SwiftPM otherwise adds -color-diagnostics to every compiler command, and a
# changed command line rebuilds everything; without colour the command lines are the same on a terminal and on a
# pipe, so one build serves both.
swift build -c release --product cockpitd --no-color-diagnostics
swift build -c release --product cockpitctl --no-color-diagnostics
bin=.build/release
flights=Tests/Fixtures/flights
own_flight=$flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc
traffic_flight=$flights/igc-parser__2017-07-17-lev__FR_77hv14x1.igc
flarm_log=Tests/Fixtures/radio-traffic/flarm/PowerMouse_Simulation_S1.txt
socket=${COCKPIT_SOCKET:-/tmp/cockpitd-demo-$UID.sock}
speed=${SPEED:-5}
port_own=${DEMO_PORT:-29400}
port_traffic=$((port_own + 1))
work=.build/demo
mkdir -p "$work"

# The whole flights recorded as the daemon reads them (IGC fixes and pressure altitudes), then cut and joined.
common=(--profile glider --log-level error)
"$bin/cockpitd" replay "$own_flight" "${common[@]}" --record "$work/own-flight.jsonl" > /dev/null
"$bin/cockpitd" replay "$traffic_flight" "${common[@]}" --record "$work/traffic-flight.jsonl" > /dev/null
# 2017-07-15 11:15:36 UTC = 1500117336; the second flight's same moment is 2 days, 3 h 29 min 10 s later.
window=1500117336 offset=185350
firsts=$(python3 Scripts/demo-recordings.py "$work/own-flight.jsonl" "$work/traffic-flight.jsonl" "$flarm_log" \
  --start "$window" --seconds 720 --offset "$offset" --flarm-at 1500117976 "$work/own.jsonl" "$work/traffic.jsonl")
read -r own_first traffic_first <<< "$firsts"   # each recording's first fix, UTC seconds

# --retime moves each flight's first fix so that the window's start (--from) is now in both.
now=$(date -u +%s)
utc() { date -u -d "@$1" +"$2"; }
replay=(--speed "$speed" --profile glider --log-level warning)
"$bin/cockpitd" replay "$work/own.jsonl" "${replay[@]}" --socket "$socket" \
  --from "$(utc "$window" %T)" --retime "$(utc $((now - window + own_first)) %FT%TZ)" \
  --traffic-port "$port_own" --traffic-to "127.0.0.1:$port_traffic" &
own=$!
"$bin/cockpitd" replay "$work/traffic.jsonl" "${replay[@]}" --socket "$socket.traffic" \
  --from "$(utc $((window + offset)) %T)" --retime "$(utc $((now - window - offset + traffic_first)) %FT%TZ)" \
  --traffic-port "$port_traffic" --traffic-to "127.0.0.1:$port_own" > /dev/null 2> "$work/traffic-replay.log" &
traffic=$!
trap 'kill $own $traffic 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
"$bin/cockpitctl" --socket "$socket" watch --radar ${COUNT:+--count "$COUNT"} || true
kill -INT $own $traffic 2>/dev/null || true   # ends the replays early if watch was stopped first
wait $own 2>/dev/null || true
wait $traffic 2>/dev/null || true
# The traffic replay's own log (its callouts about the other glider) goes to a file, not into the panel.
echo "The traffic glider's replay log: $work/traffic-replay.log"
