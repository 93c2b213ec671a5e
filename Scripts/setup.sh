#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine with Swift 6.3 lacks for building and testing cockpitd.
# Idempotent: installs only missing packages. Needs root (or sudo) the first time.
set -euo pipefail
# Build and daemon tests; spoken alerts and GPIO; flight-log exports checked with real XML/SVG tools; the Debian
# package and its chroot test; cockpit-relay's tests (a throwaway PostgreSQL cluster with PostGIS); the black-box
# campaign's short run (Scripts/blackbox.py, Python 3 standard library only); tcpdump for `cockpit-bench live` (fix to
# traffic datagram on the wire, captured on lo); dump1090-mutability, fed recorded Mode S frames without a radio, for
# the ADS-B tests; chromium, the headless browser of cockpit-web's page tests and screenshots, and its old headless
# shell, whose windows can be a phone's width (the new headless mode's are never narrower than 500 pixels); zlib and
# libcurl's development files for cockpit-data-update (gunzip of terrain tiles; the static release build links
# FoundationNetworking, which needs libcurl.so).
packages=(libgps-dev libi2c-dev libsqlite3-dev gpsd gpsd-clients pkg-config systemd libasound2-dev alsa-utils espeak-ng libgpiod-dev gpiod
          libxml2-utils librsvg2-bin sqlite3 dpkg-dev lintian debootstrap binutils postgresql-15 postgresql-15-postgis-3 python3
          tcpdump dump1090-mutability chromium chromium-headless-shell zlib1g-dev libcurl4-openssl-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
command -v swift >/dev/null || { echo "setup: Swift 6.3 is not on PATH: install the Swift 6.3 toolchain for Debian 12 from swift.org and put its usr/bin on PATH (README, \"Two commands\")"; exit 1; }
