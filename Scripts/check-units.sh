#!/usr/bin/env bash
# Fails unless `systemd-analyze verify` prints nothing for every unit (it exits 0 on warnings, so its output is what
# counts) and `systemd-analyze security --offline=yes` rates cockpitd.service and cockpit-web.service at 2.0 or better.
# The shipped units (services, sockets, timers) run /usr/bin/…; copies pointing at the built binaries are verified.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-$PWD/.build/debug/cockpitd}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0
for unit in Systemd/*.service Systemd/*.socket Systemd/*.timer; do
  [ -e "$unit" ] || continue
  sed -e "s|^ExecStart=/usr/bin/cockpitd|ExecStart=$binary|" \
      -e "s|^ExecStart=/usr/bin/cockpit-data-update|ExecStart=$(dirname "$binary")/cockpit-data-update|" \
      -e "s|^ExecStart=/usr/bin/cockpit-relay|ExecStart=$(dirname "$binary")/cockpit-relay|" \
      -e "s|^ExecStart=/usr/bin/cockpit-web|ExecStart=$(dirname "$binary")/cockpit-web|" "$unit" > "$scratch/$(basename "$unit")"
done
# The copies are found by name (cockpit-web.service requires cockpit-web.socket): the scratch directory first, then
# systemd's own unit path (the trailing colon).
for unit in "$scratch"/*.service "$scratch"/*.socket "$scratch"/*.timer; do
  [ -e "$unit" ] || continue
  output=$(SYSTEMD_UNIT_PATH="$scratch:" systemd-analyze verify "$unit" 2>&1) || { echo "$output"; status=1; }
  if [ -n "$output" ]; then echo "systemd-analyze verify $(basename "$unit"):"; echo "$output"; status=1; fi
done
for service in cockpitd cockpit-web; do
  [ -e "$scratch/$service.service" ] || continue
  score=$(systemd-analyze security --offline=yes "$scratch/$service.service" 2>&1 | sed -n "s/.*Overall exposure level for $service.service: \([0-9.]*\).*/\1/p")
  echo "check-units: $service.service: security exposure ${score:-unknown}"
  awk -v s="${score:-99}" 'BEGIN { exit !(s <= 2.0) }' || { echo "check-units: $service.service exposure ${score:-unknown} is above 2.0"; status=1; }
done
[ "$status" -ne 0 ] || echo "check-units: systemd-analyze verify clean for every unit"
exit $status
