#!/usr/bin/env bash
# Installs cockpitd: release binaries (static Swift standard library), systemd unit, sysusers/tmpfiles files,
# default configuration (an existing one is kept), the airfield database and the data updater (cockpit-data-update
# with its daily timer); then, on a live system (no DESTDIR), creates the user and directories, enables the service
# and the timer, says how to name the home field, and runs the first data update when the box is online (a 5-second
# reachability check first; offline, the install goes on and the timer tries each day).
#
#   sudo bash Scripts/install.sh                 # build and install on this machine (e.g. a Raspberry Pi)
#   DESTDIR=/tmp/root bash Scripts/install.sh    # stage into a scratch root (packaging, tests)
#   BIN_DIR=.build/debug DESTDIR=… bash Scripts/install.sh --no-build   # use binaries built already
set -euo pipefail
cd "$(dirname "$0")/.."
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr}
build=yes
for argument in "$@"; do
  case "$argument" in
    --no-build) build=no ;;
    *) echo "install.sh: unknown argument $argument" >&2; exit 2 ;;
  esac
done
if [ "$build" = yes ]; then
  bash Scripts/release-build.sh --scratch-path .build-release-static
  BIN_DIR=${BIN_DIR:-.build-release-static/release}
else
  BIN_DIR=${BIN_DIR:-.build/release}
fi
install -d "$DESTDIR$PREFIX/bin" "$DESTDIR$PREFIX/lib/systemd/system" "$DESTDIR$PREFIX/lib/sysusers.d" \
  "$DESTDIR$PREFIX/lib/tmpfiles.d" "$DESTDIR$PREFIX/share/cockpit" "$DESTDIR$PREFIX/share/doc/cockpitd" "$DESTDIR/etc/cockpit"
install -m 0755 "$BIN_DIR/cockpitd" "$BIN_DIR/cockpitctl" "$DESTDIR$PREFIX/bin/"
if command -v strip >/dev/null && [ "$build" = yes ]; then strip "$DESTDIR$PREFIX/bin/cockpitd" "$DESTDIR$PREFIX/bin/cockpitctl"; fi
updater=no
if [ -x "$BIN_DIR/cockpit-data-update" ]; then
  updater=yes
  install -m 0755 "$BIN_DIR/cockpit-data-update" "$DESTDIR$PREFIX/bin/"
  if command -v strip >/dev/null && [ "$build" = yes ]; then strip "$DESTDIR$PREFIX/bin/cockpit-data-update"; fi
  for unit in cockpit-data-update.service cockpit-data-update.timer; do
    sed "s|^ExecStart=/usr/bin/|ExecStart=$PREFIX/bin/|" "Systemd/$unit" > "$DESTDIR$PREFIX/lib/systemd/system/$unit"
    chmod 0644 "$DESTDIR$PREFIX/lib/systemd/system/$unit"
  done
fi
sed "s|^ExecStart=/usr/bin/|ExecStart=$PREFIX/bin/|" Systemd/cockpitd.service > "$DESTDIR$PREFIX/lib/systemd/system/cockpitd.service"
chmod 0644 "$DESTDIR$PREFIX/lib/systemd/system/cockpitd.service"
install -m 0644 Systemd/cockpit-sysusers.conf "$DESTDIR$PREFIX/lib/sysusers.d/cockpit.conf"
install -m 0644 Systemd/cockpit-tmpfiles.conf "$DESTDIR$PREFIX/lib/tmpfiles.d/cockpit.conf"
install -m 0644 Data/airfields.sqlite Data/WMM2025.COF Data/SOURCE.md "$DESTDIR$PREFIX/share/cockpit/"
install -m 0644 Tests/Fixtures/geoid/egm96_15.gtx "$DESTDIR$PREFIX/share/cockpit/"
install -m 0644 README.md docs/*.md "$DESTDIR$PREFIX/share/doc/cockpitd/"
if [ -e "$DESTDIR/etc/cockpit/cockpitd.conf" ]; then
  install -m 0644 Systemd/cockpitd.conf "$DESTDIR/etc/cockpit/cockpitd.conf.default"
  echo "install.sh: kept the existing /etc/cockpit/cockpitd.conf (new defaults in cockpitd.conf.default)"
else
  install -m 0644 Systemd/cockpitd.conf "$DESTDIR/etc/cockpit/cockpitd.conf"
fi
if [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]; then
  systemd-sysusers "$PREFIX/lib/sysusers.d/cockpit.conf"
  systemd-tmpfiles --create "$PREFIX/lib/tmpfiles.d/cockpit.conf"
  "$PREFIX/bin/cockpitd" --check-config --config /etc/cockpit/cockpitd.conf >/dev/null
  systemctl daemon-reload
  systemctl enable --now cockpitd.service
  echo "install.sh: cockpitd is running; try: cockpitctl status (as root or a member of group cockpit)"
  if [ "$updater" = yes ]; then
    systemctl enable --now cockpit-data-update.timer
    conf=/etc/cockpit/cockpitd.conf
    if ! grep -Eq '^[[:space:]]*(home|terrain-region)[[:space:]]*=' "$conf"; then
      echo "install.sh: terrain (height above ground, glide reach over the hills) comes from cockpitd data update:"
      echo "  set the home airfield in $conf (home = EDFA: the tiles 300 km around it, or terrain-region ="
      echo "  ICAO:KM, LAT,LON:KM or box:S,W,N,E), then run: sudo systemctl start cockpit-data-update"
    fi
    # The first update now when the box is online (the airfields, and the terrain once home is set); the host of
    # the airports URL answering on its port within 5 s is taken as online.
    url=$(sed -n 's/^[[:space:]]*airports-url[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$conf" | head -n 1)
    url=${url:-https://davidmegginson.github.io/ourairports-data/airports.csv}
    host=${url#*://}; host=${host%%/*}; port=443
    case "$url" in http://*) port=80 ;; esac
    case "$host" in *:*) port=${host##*:}; host=${host%:*} ;; esac
    if timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$host" "$port" 2>/dev/null; then
      echo "install.sh: online ($host answers): the first data update (progress below; the daily timer does it from now on)"
      runuser -u cockpit -- "$PREFIX/bin/cockpit-data-update" --config "$conf" \
        || echo "install.sh: the first data update did not finish (said above); the timer tries again each day"
    else
      echo "install.sh: offline ($host did not answer within 5 s): no data update now; the daily timer runs it when the box is online"
    fi
  fi
fi
echo "install.sh: installed into ${DESTDIR:-/}"
