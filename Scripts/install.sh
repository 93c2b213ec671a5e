#!/usr/bin/env bash
# Installs cockpitd: release binaries (static Swift standard library), systemd unit, sysusers/tmpfiles files,
# default configuration (an existing one is kept) and the airfield database; then, on a live system (no DESTDIR),
# creates the user and directories and enables the service.
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
fi
echo "install.sh: installed into ${DESTDIR:-/}"
