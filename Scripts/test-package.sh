#!/usr/bin/env bash
# Package test: builds the .deb (and a rebuilt one with a higher version), runs lintian, then installs into a fresh
# Debian 12 root made by debootstrap (a folder of the test's own) with dpkg -i in a chroot, and checks: files where
# docs/packaging.md says, the user, the enabled unit, `cockpitd --check-config` on the shipped conffile, an edited
# conffile surviving an upgrade, remove keeping /var/lib/cockpit, purge deleting it. Needs root (chroot, mount).
#
# The debootstrap download is cached as a tarball (debootstrap --make-tarball) and the apt downloads beside it in
# $PACKAGE_TEST_CACHE (default .build-debootstrap/), so reruns only unpack. Debian's mirror must be reachable.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then exec sudo -E bash "$0" "$@"; fi
started=$(date +%s)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${PACKAGE_TEST_CACHE:-$PWD/.build-debootstrap}
work=$(mktemp -d /var/tmp/cockpit-package-test.XXXXXX)
root=$work/root
cleanup() {
  if [ -n "${debootstrap:-}" ]; then wait "$debootstrap" 2>/dev/null || true; fi   # let it finish before deleting its folder
  if mountpoint -q "$root/proc" 2>/dev/null; then umount "$root/proc"; fi
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
phase() { echo "test-package: [$(( $(date +%s) - started )) s] $*"; }
pass() { echo "  ok: $*"; }
fail() { echo "  FAIL: $*"; failures=$((failures + 1)); }
check() { # description command...
  local description=$1; shift
  if "$@"; then pass "$description"; else fail "$description"; fi
}
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

# The fresh root, in the background while the packages build (debootstrap is mostly waiting on the disk).
mkdir -p "$cache/archives" "$cache/lists"
tarball=$cache/bookworm-minbase.tgz
(
  if [ ! -f "$tarball" ]; then
    debootstrap --variant=minbase --make-tarball="$tarball.part" bookworm "$work/make-tarball" "$mirror"
    mv "$tarball.part" "$tarball"
  fi
  debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$root" "$mirror"
) >"$work/debootstrap.log" 2>&1 &
debootstrap=$!

phase "building the packages"
bash Scripts/package.sh --output "$work/v1"
bash Scripts/package.sh --no-build --rebuild 1 --output "$work/v2"
deb=$(ls "$work"/v1/cockpitd_*.deb)
next=$(ls "$work"/v2/cockpitd_*.deb)
version=$(dpkg-deb -f "$deb" Version)
next_version=$(dpkg-deb -f "$next" Version)
check "the rebuilt package's version $next_version is higher than $version" dpkg --compare-versions "$next_version" gt "$version"
check "the package is named cockpitd_<version>_<arch>.deb" test "$(basename "$deb")" = "cockpitd_${version}_$(dpkg --print-architecture).deb"
check "the package version is what cockpitd --version prints" test "$(.build-release-static/release/cockpitd --version)" = "cockpitd $version"

# The relay server is not an aircraft: none of the device libraries (Package.swift: CockpitDevices) in its package.
relay_deb=$(ls "$work"/v1/cockpit-relay_*.deb 2>/dev/null || true)
if [ -n "$relay_deb" ]; then
  relay_depends=$(dpkg-deb -f "$relay_deb" Depends)
  check "cockpit-relay depends on none of libgps28, libasound2, libgpiod2, libi2c0 ($relay_depends)" \
    bash -c '! grep -qE "libgps|libasound|libgpiod|libi2c" <<<"$1"' _ "$relay_depends"
fi

# The daemon's release link (Package.swift, daemonReleaseLink; docs/performance.md, "Idle memory").
shipped=$work/shipped
mkdir -p "$shipped" && dpkg-deb -x "$deb" "$shipped"
check "the shipped cockpitd packs its relative relocations (DT_RELR)" bash -c 'readelf -d "$1" | grep -q "(RELR)"' _ "$shipped/usr/bin/cockpitd"
dynamic_symbols=$(readelf --dyn-syms -W "$shipped/usr/bin/cockpitd" | grep -cE '^ *[0-9]+:' || true)
check "the shipped cockpitd exports no Swift symbols ($dynamic_symbols dynamic symbols, the C libraries' imports)" \
  bash -c '[ "$1" -lt 1000 ] && ! readelf --dyn-syms -W "$2" | grep -v " UND " | grep -q "\$s"' _ "$dynamic_symbols" "$shipped/usr/bin/cockpitd"
# The libc6 version in Depends must cover every glibc version the binaries name, GLIBC_ABI_DT_RELR (2.36) included.
needed_glibc=$(readelf -V "$shipped"/usr/bin/* | sed -nE 's/.*Name: GLIBC_([0-9]+\.[0-9]+).*/\1/p; s/.*Name: GLIBC_ABI_DT_RELR.*/2.36/p' | sort -V | tail -n 1)
depends_libc=$(dpkg-deb -f "$deb" Depends | sed -nE 's/.*libc6 \(>= ([^)]+)\).*/\1/p')
check "Depends' libc6 (>= $depends_libc) covers the newest glibc version the binaries need ($needed_glibc)" \
  dpkg --compare-versions "$depends_libc" ge "$needed_glibc"

phase "lintian"
lintian_output=$(lintian --tag-display-limit 0 --display-info "$work"/v1/*.deb 2>&1) || true
echo "$lintian_output" | sed 's/^/  lintian: /'
check "lintian reports no errors" bash -c '! grep -q "^E: " <<<"$1"' _ "$lintian_output"
while read -r tag; do
  [ -n "$tag" ] || continue
  check "lintian warning $tag is listed with its reason in docs/packaging.md" grep -q "\`$tag\`" docs/packaging.md
done < <(echo "$lintian_output" | sed -n 's/^W: [^:]*: \([a-z0-9-]*\).*/\1/p' | sort -u)

phase "a fresh Debian 12 root (debootstrap, finished while the packages build)"
wait "$debootstrap" || { tail -n 20 "$work/debootstrap.log"; exit 1; }
mount -t proc proc "$root/proc"
cp -a "$cache/lists/." "$root/var/lib/apt/lists/" 2>/dev/null || true
find "$cache/archives" -name '*.deb' -exec cp {} "$root/var/cache/apt/archives/" \;
in_root apt-get update -qq
# The package's Depends, installed with apt (first alternative, versions left to apt).
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/[[:space:]]//g' | grep -v '^$')
in_root apt-get install -y -qq --no-install-recommends $depends >"$work/apt.log" 2>&1 || { tail -n 20 "$work/apt.log"; exit 1; }
cp -a "$root/var/lib/apt/lists/." "$cache/lists/"
find "$root/var/cache/apt/archives" -name '*.deb' -exec cp -n {} "$cache/archives/" \;
cp "$deb" "$next" "$root/tmp/"

phase "dpkg -i $(basename "$deb")"
check "dpkg -i succeeds" in_root dpkg -i "/tmp/$(basename "$deb")"
check "dpkg says cockpitd $version is installed" test "$(in_root dpkg-query -W -f='${Status} ${Version}' cockpitd)" = "install ok installed $version"
while read -r path; do
  check "$path is installed (docs/packaging.md)" test -e "$root$path"
done < <(sed -n 's/^| `\(\/[^`]*\)` |.*/\1/p' docs/packaging.md)
check "docs/packaging.md lists at least 15 paths" test "$(sed -n 's/^| `\(\/[^`]*\)` |.*/\1/p' docs/packaging.md | wc -l)" -ge 15
check "/etc/cockpit/cockpitd.conf is a conffile" bash -c 'dpkg-deb -I "$1" conffiles | grep -qx /etc/cockpit/cockpitd.conf' _ "$deb"
check "the user cockpit exists, with home /var/lib/cockpit and no login shell" \
  bash -c '[[ "$(chroot "$1" getent passwd cockpit)" =~ ^cockpit:x:[0-9]+:[0-9]+:.*:/var/lib/cockpit:/usr/sbin/nologin$ ]]' _ "$root"
check "cockpit is a member of group i2c" bash -c 'chroot "$1" id -nG cockpit | tr " " "\n" | grep -qx i2c' _ "$root"
check "/var/lib/cockpit belongs to cockpit, mode 750" test "$(in_root stat -c '%U:%G %a' /var/lib/cockpit)" = "cockpit:cockpit 750"
check "/var/cache/cockpit belongs to cockpit, mode 750" test "$(in_root stat -c '%U:%G %a' /var/cache/cockpit)" = "cockpit:cockpit 750"
check "the service is enabled (multi-user.target.wants link)" \
  test "$(readlink "$root/etc/systemd/system/multi-user.target.wants/cockpitd.service")" = /lib/systemd/system/cockpitd.service
check "nothing was started in the chroot (no /run/cockpit)" test ! -e "$root/run/cockpit"
check "cockpitd --version runs in the new root" test "$(in_root cockpitd --version)" = "cockpitd $version"
check "cockpitd --check-config passes on the shipped conffile" in_root cockpitd --check-config --config /etc/cockpit/cockpitd.conf
check "cockpitd --check-config finds the packaged airfield database" \
  bash -c 'chroot "$1" cockpitd --check-config | grep -qx "  airfields = /usr/share/cockpit/airfields.sqlite"' _ "$root"
printf 'log-levle = debug\n' > "$root/tmp/bad.conf"
check "cockpitd --check-config fails on a misspelt key (so the check above means something)" \
  bash -c '! chroot "$1" cockpitd --check-config --config /tmp/bad.conf >/dev/null 2>&1' _ "$root"
check "cockpitctl --help runs in the new root" bash -c 'chroot "$1" cockpitctl --help >/dev/null' _ "$root"
check "man finds the page generated for cockpitctl" bash -c 'gzip -dc "$1/usr/share/man/man1/cockpitctl.1.gz" | grep -q "^\.Nm cockpitctl"' _ "$root"

# The data updater (docs/data-update.md): shipped with its timer enabled; one update with a home field set, from a
# loopback server holding the shared OurAirports CSVs and the three German SRTM tiles (the chroot shares the host's
# network); then a replay of a glider flight from that field has terrain under it and reach over it, from the
# terrain folder the daemon reads by default.
phase "cockpit-data-update: one update with home = EDFA, then a replay over the region"
shared=${SHARED_DATA:-$PWD/../shared/data}
check "cockpit-data-update is installed" test -x "$root/usr/bin/cockpit-data-update"
check "cockpit-data-update.timer is enabled (timers.target.wants link)" \
  test "$(readlink "$root/etc/systemd/system/timers.target.wants/cockpit-data-update.timer")" = /lib/systemd/system/cockpit-data-update.timer
check "cockpit-data-update.service is installed beside it" test -f "$root/lib/systemd/system/cockpit-data-update.service"
package_depends=$(dpkg-deb -f "$deb" Depends)
check "Depends names libcurl4 and zlib1g, which cockpit-data-update links ($package_depends)" \
  bash -c 'grep -q "libcurl4" <<<"$1" && grep -q "zlib1g" <<<"$1"' _ "$package_depends"
updater_libraries=$(in_root ldd /usr/bin/cockpit-data-update 2>&1 || true)
check "ldd: cockpit-data-update finds libcurl.so.4 and libz.so.1, and links no Swift library (static stdlib)" \
  bash -c 'grep -q "libcurl.so.4 =>" <<<"$1" && grep -q "libz.so.1 =>" <<<"$1" && ! grep -qE "not found|libswift|libFoundation" <<<"$1"' _ "$updater_libraries"
check "the postinst says how to set the home field" bash -c 'dpkg-deb --ctrl-tarfile "$1" | tar -xO ./postinst | grep -q "home = EDFA"' _ "$deb"
www=$work/www
mkdir -p "$www/N50"
if [ -f "$shared/terrain/N50E008.hgt" ] && [ -f "$shared/ourairports/airports.csv" ]; then
  cp "$shared/ourairports/airports.csv" "$shared/ourairports/runways.csv" "$shared/ourairports/airport-frequencies.csv" "$www/"
  for tile in N50E008 N50E009 N50E010; do gzip -c "$shared/terrain/$tile.hgt" > "$www/N50/$tile.hgt.gz"; done
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 Tests/Tools/etag_http_server.py --port "$port" --directory "$www" --log "$work/requests.log" --lifetime 600 &
  server=$!
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  cp "$root/etc/cockpit/cockpitd.conf" "$work/cockpitd.conf.shipped"
  {
    echo "home = EDFA"
    echo "airports-url = http://127.0.0.1:$port/airports.csv"
    echo "runways-url = http://127.0.0.1:$port/runways.csv"
    echo "frequencies-url = http://127.0.0.1:$port/airport-frequencies.csv"
    echo "terrain-url = http://127.0.0.1:$port/{lat}/{tile}.hgt.gz"
  } >> "$root/etc/cockpit/cockpitd.conf"
  check "cockpitd --check-config accepts the updater's keys" \
    bash -c 'chroot "$1" cockpitd --check-config --config /etc/cockpit/cockpitd.conf | grep -qx "  terrain-region = EDFA:300"' _ "$root"
  update_started=$(date +%s%N)
  update_status=0
  in_root runuser -u cockpit -- cockpitd data update > "$work/update.log" 2>&1 || update_status=$?
  update_seconds=$(( ($(date +%s%N) - update_started) / 1000000 ))
  update_seconds="$((update_seconds / 1000)).$(printf '%03d' $((update_seconds % 1000)))"
  sed 's/^/  update: /' "$work/update.log"
  check "cockpitd data update exits 0 (took $update_seconds s)" test "$update_status" -eq 0
  check "the update installed the airfields (72,395 by the default rules)" grep -q "installed /var/lib/cockpit/airfields.sqlite: 72395 airfields" "$work/update.log"
  check "300 km around EDFA is 49 tiles: 3 fetched, 46 not published by the test server" \
    grep -q "terrain: 49 tiles: 3 fetched, 0 current, 46 not published by the source, 0 failed" "$work/update.log"
  check "the tiles are in /var/lib/cockpit/terrain, the cockpit user's" \
    test "$(in_root stat -c '%U %s' /var/lib/cockpit/terrain/N50E008.hgt)" = "cockpit 2884802"
  check "cockpitd --check-config: terrain defaults to /var/lib/cockpit/terrain" \
    bash -c 'chroot "$1" cockpitd --check-config | grep -qx "  terrain = /var/lib/cockpit/terrain"' _ "$root"
  in_root runuser -u cockpit -- cockpitd data update > "$work/update2.log" 2>&1 || true
  check "a second update fetches nothing ($(tail -n 1 "$work/update2.log"))" grep -q "^data update: 52 requests, 0 bytes" "$work/update2.log"
  cp Tests/Fixtures/flights/opensoar__aat_strepla.igc "$root/tmp/flight.igc"
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 cockpitd replay /tmp/flight.igc --profile glider \
    --speed 20 --from 12:40:00 --socket /tmp/replay.sock --log-level error > "$work/replay.log" 2>&1 &
  replay=$!
  replay_status=""
  for _ in $(seq 1 60); do
    sleep 0.5
    replay_status=$(in_root cockpitctl --socket /tmp/replay.sock status --json 2>/dev/null || true)
    python3 -c 'import json, sys; s = json.loads(sys.argv[1]); sys.exit(0 if s["flight"]["heightSource"].startswith("terrain (SRTM)") and s["glide"].get("terrainAvailable") else 1)' "$replay_status" 2>/dev/null && break
  done
  kill "$replay" 2>/dev/null || true; wait "$replay" 2>/dev/null || true
  replay_says=$(python3 -c 'import json, sys; s = json.loads(sys.argv[1]); f, g = s["flight"], s["glide"]; print(f"""{f["heightAboveGroundFeet"]} ft above ground from {f["heightSource"]}, terrainAvailable {g.get("terrainAvailable")}, {g.get("reachableCount")} fields within glide""")' "$replay_status" 2>/dev/null || echo "no status")
  check "the replay over EDFA has terrain: $replay_says" \
    python3 -c 'import json, sys; s = json.loads(sys.argv[1]); f, g = s["flight"], s["glide"]; sys.exit(0 if f["heightSource"].startswith("terrain (SRTM)") and f["heightAboveGroundFeet"] is not None and g["terrainAvailable"] is True and g["reachableCount"] is not None else 1)' "$replay_status"
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
  cp "$work/cockpitd.conf.shipped" "$root/etc/cockpit/cockpitd.conf"
else
  fail "the shared data ($shared/terrain/N50E008.hgt, $shared/ourairports/airports.csv) is not there for the data update"
fi

web_deb=$(ls "$work"/v1/cockpit-web_*.deb 2>/dev/null || true)
if [ -n "$web_deb" ]; then
  phase "dpkg -i $(basename "$web_deb")"
  cp "$web_deb" "$root/tmp/"
  check "dpkg -i cockpit-web succeeds" in_root dpkg -i "/tmp/$(basename "$web_deb")"
  check "cockpit-web.socket is enabled (sockets.target.wants link)" \
    test "$(readlink "$root/etc/systemd/system/sockets.target.wants/cockpit-web.socket")" = /lib/systemd/system/cockpit-web.socket
  check "cockpit-web.service is installed beside it" test -f "$root/lib/systemd/system/cockpit-web.service"
  check "cockpit-web --version runs in the new root" test "$(in_root cockpit-web --version)" = "cockpit-web $version"
  check "cockpit-web depends on none of the device libraries" \
    bash -c '! dpkg-deb -f "$1" Depends | grep -qE "libgps|libasound|libgpiod|libi2c|libsqlite"' _ "$web_deb"
  check "dpkg -P cockpit-web succeeds" in_root dpkg -P cockpit-web
  check "no cockpit-web file or link is left" \
    bash -c 'test -z "$(find "$1/etc/systemd" "$1/lib/systemd" "$1/usr/bin" -name "cockpit-web*" 2>/dev/null)"' _ "$root"
fi

phase "edit the conffile, upgrade to $next_version"
printf '\n# edited by the installer\nlog-level = debug\n' >> "$root/etc/cockpit/cockpitd.conf"
edited=$(md5sum < "$root/etc/cockpit/cockpitd.conf")
check "dpkg -i of the rebuilt package succeeds" in_root dpkg -i "/tmp/$(basename "$next")"
check "cockpitd $next_version is installed" test "$(in_root dpkg-query -W -f='${Version}' cockpitd)" = "$next_version"
check "the edited conffile survived the upgrade" test "$(md5sum < "$root/etc/cockpit/cockpitd.conf")" = "$edited"
check "no .dpkg-new/.dpkg-dist/.dpkg-old beside it" test -z "$(ls "$root/etc/cockpit" | grep -E '\.dpkg-')"
check "cockpitd --check-config passes on the edited conffile and applies it" \
  bash -c 'chroot "$1" cockpitd --check-config --config /etc/cockpit/cockpitd.conf 2>&1 | grep -qx "  log-level = debug"' _ "$root"

phase "remove"
mkdir -p "$root/var/lib/cockpit/recordings"
echo '{"flight":"kept"}' > "$root/var/lib/cockpit/recordings/flight.jsonl"
check "dpkg -r succeeds" in_root dpkg -r cockpitd
check "/usr/bin/cockpitd is gone" test ! -e "$root/usr/bin/cockpitd"
check "/var/lib/cockpit and its recording are kept" test -s "$root/var/lib/cockpit/recordings/flight.jsonl"
check "the conffile is kept (status config-files)" test "$(in_root dpkg-query -W -f='${Status}' cockpitd)" = "deinstall ok config-files"
check "the edited conffile is still there" test "$(md5sum < "$root/etc/cockpit/cockpitd.conf")" = "$edited"

phase "purge"
check "dpkg -P succeeds" in_root dpkg -P cockpitd
check "/var/lib/cockpit is deleted" test ! -e "$root/var/lib/cockpit"
check "/var/cache/cockpit is deleted" test ! -e "$root/var/cache/cockpit"
check "/etc/cockpit/cockpitd.conf is deleted" test ! -e "$root/etc/cockpit/cockpitd.conf"
check "no enablement link is left" test ! -e "$root/etc/systemd/system/multi-user.target.wants/cockpitd.service"
check "dpkg no longer knows cockpitd" bash -c '! chroot "$1" dpkg-query -W cockpitd >/dev/null 2>&1' _ "$root"

for package in "$work"/v1/*.deb; do
  echo "test-package: $(basename "$package") is $(stat -c %s "$package") bytes, installed $(dpkg-deb -f "$package" Installed-Size) KiB"
done
phase "$failures failure(s) in $(( $(date +%s) - started )) s"
[ "$failures" -eq 0 ]
