#!/usr/bin/env bash
# Regenerates docs/web/*.png: every page of cockpit-web, day and night, in headless Chromium 480 px wide, and the Now
# page at 360 and 430 px. The live pages come from the bundled paraglider flight (Tests/Fixtures/flights/
# igc_lib__napret.igc, 20–25 kt, so the paraglider profile) replayed in real time, with a second replay of the same
# flight 1.4 km east and 60 m higher sending it traffic; the Altitude and Flights pages from the flight-log fixture
# (Tests/Fixtures/flightlog) served by a daemon in run mode. Uses the debug build: swift build first (or pass the bin
# dir).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug}
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "web-screenshots: chromium is missing (bash Scripts/setup.sh installs it)" >&2; exit 1; }
for program in cockpitd cockpit-web; do
  [ -x "$bin/$program" ] || { echo "web-screenshots: $bin/$program is missing (swift build first)" >&2; exit 1; }
done
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
flight=Tests/Fixtures/flights/igc_lib__napret.igc
# The other aircraft: every B record's longitude 1.2 minutes (1.4 km) east, its altitudes 60 m higher.
python3 - "$flight" "$work/other.igc" <<'PY'
import sys
out = []
for line in open(sys.argv[1], encoding="latin-1"):
    if line.startswith("B") and len(line) >= 35:
        # B HHMMSS DDMMmmmN DDDMMmmmE V PPPPP GGGGG: longitude degrees in 15:18, minutes × 1000 in 18:23.
        minutes = int(line[15:18]) * 60000 + int(line[18:23]) + 1200
        alt_p, alt_g = int(line[25:30]) + 60, int(line[30:35]) + 60
        line = line[:15] + "%03d%05d" % divmod(minutes, 60000) + line[23:25] + "%05d%05d" % (alt_p, alt_g) + line[35:]
    out.append(line)
open(sys.argv[2], "w", encoding="latin-1").writelines(out)
PY
common=(--speed 1 --retime now --airfields Data/airfields.sqlite --profile paraglider)
"$bin/cockpitd" replay "$flight" "${common[@]}" --socket "$work/a.sock" --traffic-port 47901 --traffic-to 127.0.0.1:47902 >/dev/null 2>&1 & pids+=($!)
"$bin/cockpitd" replay "$work/other.igc" "${common[@]}" --socket "$work/b.sock" --traffic-port 47902 --traffic-to 127.0.0.1:47901 >/dev/null 2>&1 & pids+=($!)
cp Tests/Fixtures/flightlog/schema-1-two-datums.sqlite "$work/flights.sqlite"
"$bin/cockpitd" run --gpsd none --baro none --no-voice --audio-device none --flight-log "$work/flights.sqlite" \
  --airfields none --socket "$work/log.sock" >/dev/null 2>&1 & pids+=($!)
for socket in a.sock log.sock; do
  for _ in $(seq 100); do [ -S "$work/$socket" ] && break; sleep 0.1; done
done
"$bin/cockpit-web" --socket "$work/a.sock" --listen 127.0.0.1 --port 47980 >/dev/null 2>&1 & pids+=($!)
"$bin/cockpit-web" --socket "$work/log.sock" --listen 127.0.0.1 --port 47981 >/dev/null 2>&1 & pids+=($!)
# Forty seconds into the flight: airborne, the other aircraft heard.
sleep "${WEB_SCREENSHOT_WAIT:-40}"
mkdir -p docs/web
# `#page/theme/still`: the page closes its event stream after three snapshots, so that the browser's virtual time can
# run out (an open stream would hold it) and the picture is taken with every request answered.
for theme in day night; do
  for page in now where traffic altitude flights box; do
    port=47980; case $page in altitude|flights) port=47981 ;; esac
    # The Where page with a wind (a bare METAR wind group, applied to whichever airfield is chosen).
    extra=""; [ "$page" = where ] && extra=/22012G20KT
    "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir="$work/profile-$page-$theme" \
      --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" --window-size=480,1000 --virtual-time-budget=5000 \
      --screenshot="docs/web/$page-$theme.png" "http://127.0.0.1:$port/#$page/$theme/still$extra" >/dev/null 2>&1
    echo "web-screenshots: docs/web/$page-$theme.png"
  done
  # The Now page at two phones' widths: 360 px (the narrowest common Android phone) and 430 px (a large iPhone).
  for size in 360x780 430x932; do
    width=${size%x*} height=${size#*x}
    "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir="$work/profile-now-$width-$theme" \
      --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" --window-size=$width,$height --virtual-time-budget=5000 \
      --screenshot="docs/web/now-$width-$theme.png" "http://127.0.0.1:47980/#now/$theme/still" >/dev/null 2>&1
    echo "web-screenshots: docs/web/now-$width-$theme.png"
  done
done
