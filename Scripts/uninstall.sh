#!/usr/bin/env bash
# Removes cockpitd. Recordings, a refreshed database and the configuration are kept unless --purge is given.
set -euo pipefail
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr}
purge=no
[ "${1:-}" = "--purge" ] && purge=yes
if [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]; then
  systemctl disable --now cockpitd.service cockpit-data-update.timer 2>/dev/null || true
  systemctl stop cockpit-data-update.service 2>/dev/null || true
fi
rm -f "$DESTDIR$PREFIX/bin/cockpitd" "$DESTDIR$PREFIX/bin/cockpitctl" "$DESTDIR$PREFIX/lib/systemd/system/cockpitd.service" \
  "$DESTDIR$PREFIX/lib/sysusers.d/cockpit.conf" "$DESTDIR$PREFIX/lib/tmpfiles.d/cockpit.conf" \
  "$DESTDIR$PREFIX/bin/cockpit-data-update" "$DESTDIR$PREFIX/lib/systemd/system/cockpit-data-update.service" \
  "$DESTDIR$PREFIX/lib/systemd/system/cockpit-data-update.timer"
rm -rf "$DESTDIR$PREFIX/share/cockpit" "$DESTDIR$PREFIX/share/doc/cockpitd"
if [ "$purge" = yes ]; then
  rm -rf "$DESTDIR/var/lib/cockpit" "$DESTDIR/etc/cockpit"
  echo "uninstall.sh: removed, including /var/lib/cockpit and /etc/cockpit"
else
  echo "uninstall.sh: removed; kept /var/lib/cockpit (recordings) and /etc/cockpit (use --purge to delete them)"
fi
[ -z "$DESTDIR" ] && [ -d /run/systemd/system ] && systemctl daemon-reload || true
