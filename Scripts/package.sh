#!/usr/bin/env bash
# Builds the Debian packages: out/cockpitd_<version>_<arch>.deb, and out/cockpit-relay_<version>_<arch>.deb when
# Package.swift has a cockpit-relay executable. Release build with the static Swift standard library; the version is
# what `cockpitd --version` prints (one place, in the sources); the architecture is `dpkg --print-architecture`.
# What goes where, and why lintian's remaining tags are accepted: docs/packaging.md.
#
#   bash Scripts/package.sh                 # build, then package into out/
#   bash Scripts/package.sh --rebuild 1     # same sources as a binary-only rebuild, version <version>+b1 (upgrades)
#   bash Scripts/package.sh --no-build      # package what .build-release-static/release holds
#   bash Scripts/package.sh --output DIR    # write the .deb files into DIR
#   bash Scripts/package.sh --build-only    # build the programs and the man-page tool, package nothing
# Environment: MAINTAINER ("Name <email>") for the Maintainer field and changelog; SCRATCH for the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
output=out
rebuild=""
build=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --output) output=$2; shift 2 ;;
    --rebuild) rebuild=$2; shift 2 ;;
    --no-build) build=no; shift ;;
    --build-only) build=only; shift ;;
    *) echo "package.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -z "$rebuild" ] || [[ $rebuild =~ ^[1-9][0-9]*$ ]] || { echo "package.sh: --rebuild takes a number" >&2; exit 2; }
for tool in dpkg-deb dpkg-shlibdeps strip readelf gzip; do
  command -v "$tool" >/dev/null || { echo "package.sh: $tool is missing (bash Scripts/setup.sh installs it)" >&2; exit 1; }
done

scratch=${SCRATCH:-.build-release-static}
bin=$scratch/release
maintainer=${MAINTAINER:-cockpitd maintainers <maintainers@cockpitd.example.org>}
products=(cockpitd cockpitctl)
relay=no
if grep -Eq '\.executable\(name: *"cockpit-relay"' Package.swift; then relay=yes; products+=(cockpit-relay); fi
web=no
if grep -Eq '\.executable\(name: *"cockpit-web"' Package.swift; then web=yes; products+=(cockpit-web); fi
updater=no
if grep -Eq '\.executable\(name: *"cockpit-data-update"' Package.swift; then updater=yes; products+=(cockpit-data-update); fi

if [ "$build" != no ]; then
  for product in "${products[@]}"; do
    # The shipped build's flags (-z now among them: lintian's hardening-no-bindnow) live in release-build.sh.
    bash Scripts/release-build.sh --scratch-path "$scratch" --product "$product" 2>&1 | tail -n 1
  done
fi

# The version: what the binaries print for --version; cockpitctl must agree with cockpitd.
printed=$("$bin/cockpitd" --version)
version=${printed##* }
[[ $version =~ ^[0-9][0-9A-Za-z.~]*$ ]] || { echo "package.sh: cannot read a version from '$printed'" >&2; exit 1; }
for product in "${products[@]:1}"; do
  other=$("$bin/$product" --version)
  [ "${other##* }" = "$version" ] || { echo "package.sh: $product --version says '$other', cockpitd says $version" >&2; exit 1; }
done
debian_version=$version${rebuild:++b$rebuild}
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
commit=$(git log -1 --format='%h' 2>/dev/null || echo unknown)
mkdir -p "$output"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Man pages from the argument parser (swift-argument-parser's generate-manual tool, built once on the side).
manual_tool=.build-manual/debug/generate-manual
if [ ! -x "$manual_tool" ]; then
  swift build --package-path "$scratch/checkouts/swift-argument-parser" --scratch-path .build-manual \
    --product generate-manual 2>&1 | tail -n 1
fi
[ "$build" != only ] || exit 0
manual_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)

# Installs the files every package has: binary, man page, completions, copyright, changelog, not-certified notice.
stage_program() { # root product
  local root=$1 product=$2 doc=$1/usr/share/doc/$3
  install -d "$root/usr/bin" "$root/usr/share/man/man1" "$doc" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
  install -m 0755 "$bin/$product" "$root/usr/bin/$product"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$product"
  # bash-completion sources the file: no #! line (lintian's bash-completion-with-hashbang).
  "$bin/$product" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/usr/share/bash-completion/completions/$product"
  "$bin/$product" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_$product"
  "$bin/$product" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/$product.fish"
  mkdir -p "$work/man-$product"
  "$manual_tool" "$bin/$product" --date "$manual_date" --section 1 --authors "$maintainer" \
    --output-directory "$work/man-$product" >/dev/null
  local page
  page=$(ls "$work/man-$product"/*.1)   # one page (named after the command)
  # Blank lines in a multi-paragraph help text are paragraph breaks in mdoc (groff warns on empty lines).
  sed 's/^$/.Pp/' "$page" | gzip -9n > "$root/usr/share/man/man1/$product.1.gz"
  install -m 0644 Packaging/deb/NOT-CERTIFIED "$doc/NOT-CERTIFIED"
}

stage_copyright_and_changelog() { # root package
  local doc=$1/usr/share/doc/$2
  bash Packaging/deb/copyright.sh "$scratch/checkouts" > "$doc/copyright"
  {
    if [ -n "$rebuild" ]; then
      printf 'cockpitd (%s) unstable; urgency=low, binary-only=yes\n\n' "$debian_version"
      printf '  * Binary-only rebuild %s of cockpitd %s (same sources).\n\n' "$rebuild" "$version"
      printf ' -- %s  %s\n\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
    fi
    printf 'cockpitd (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * cockpitd %s, built from git commit %s.\n' "$version" "$commit"
    printf '  * Release notes: README.md ("What works today").\n\n'
    printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
  } | gzip -9n > "$doc/changelog.gz"
}

# systemd unit + sysusers + tmpfiles, and the maintainer scripts that apply them (debhelper's conventions, written
# out: deb-systemd-helper works without a running systemd, e.g. in a chroot; start/stop only when systemd runs).
stage_service() { # root unit sysusers-file tmpfiles-file
  local root=$1 unit=$2 sysusers=$3 tmpfiles=$4 name
  name=$(basename "$unit")
  install -d "$root/lib/systemd/system" "$root/DEBIAN"
  install -m 0644 "$unit" "$root/lib/systemd/system/$name"
  local state
  state=$(sed -n 's/^StateDirectory=\([a-z0-9_-]*\).*/\1/p' "$unit" | head -n 1)
  local cache
  cache=$(sed -n 's/^CacheDirectory=\([a-z0-9_-]*\).*/\1/p' "$unit" | head -n 1)
  [ -z "$sysusers" ] || install -D -m 0644 "$sysusers" "$root/usr/lib/sysusers.d/$(basename "$sysusers" | sed 's/-sysusers//')"
  [ -z "$tmpfiles" ] || install -D -m 0644 "$tmpfiles" "$root/usr/lib/tmpfiles.d/$(basename "$tmpfiles" | sed 's/-tmpfiles//')"
  local configure='[ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]'
  {
    echo '#!/bin/sh'
    echo 'set -e'
    echo "if $configure; then"
    [ -z "$sysusers" ] || echo "    systemd-sysusers \${DPKG_ROOT:+--root=\"\$DPKG_ROOT\"} $(basename "$sysusers" | sed 's/-sysusers//')"
    [ -z "$tmpfiles" ] || echo "    systemd-tmpfiles \${DPKG_ROOT:+--root=\"\$DPKG_ROOT\"} --create $(basename "$tmpfiles" | sed 's/-tmpfiles//') || true"
    if [ -f "$root/etc/cockpit/cockpitd.conf" ] && [ "$name" = cockpitd.service ]; then
      echo '    if ! cockpitd --check-config --config /etc/cockpit/cockpitd.conf >/dev/null; then'
      echo '        echo "cockpitd: /etc/cockpit/cockpitd.conf has errors (above); the service will not start until they are fixed" >&2'
      echo '    fi'
    fi
    echo "    deb-systemd-helper unmask '$name' >/dev/null || true"
    echo "    if deb-systemd-helper --quiet was-enabled '$name'; then"
    echo "        deb-systemd-helper enable '$name' >/dev/null || true"
    echo '    else'
    echo "        deb-systemd-helper update-state '$name' >/dev/null || true"
    echo '    fi'
    echo '    if [ -d /run/systemd/system ]; then'
    echo '        systemctl --system daemon-reload >/dev/null || true'
    echo '        if [ -n "$2" ]; then action=restart; else action=start; fi'
    echo "        deb-systemd-invoke \$action '$name' >/dev/null || true"
    echo '    fi'
    echo 'fi'
  } > "$root/DEBIAN/postinst"
  {
    echo '#!/bin/sh'
    echo 'set -e'
    echo 'if [ -d /run/systemd/system ] && [ "$1" = remove ]; then'
    echo "    deb-systemd-invoke stop '$name' >/dev/null || true"
    echo 'fi'
  } > "$root/DEBIAN/prerm"
  {
    echo '#!/bin/sh'
    echo 'set -e'
    echo 'if [ -d /run/systemd/system ] && [ "$1" = remove ]; then'
    echo '    systemctl --system daemon-reload >/dev/null || true'
    echo 'fi'
    echo 'if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then'
    echo "    deb-systemd-helper mask '$name' >/dev/null || true"
    echo 'fi'
    echo 'if [ "$1" = purge ]; then'
    echo '    if command -v deb-systemd-helper >/dev/null; then'
    echo "        deb-systemd-helper purge '$name' >/dev/null || true"
    echo "        deb-systemd-helper unmask '$name' >/dev/null || true"
    echo '    fi'
    # (DynamicUser= units keep their state in /var/lib/private/NAME behind a link.)
    [ -z "$state" ] || echo "    rm -rf '/var/lib/$state' '/var/lib/private/$state'"
    [ -z "$cache" ] || echo "    rm -rf '/var/cache/$cache' '/var/cache/private/$cache'"
    echo 'fi'
  } > "$root/DEBIAN/postrm"
  chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
}

# The data updater (docs/data-update.md): its program (it links libcurl and zlib, which Depends then names), its
# service and timer, the timer enabled as debhelper enables a unit, and on a first install with systemd running the
# first update started without waiting for it (the unit waits for the network; offline it fails and the timer tries
# again each day; it never holds up the install). The postinst says how to name the home field when none is set.
stage_updater() { # root
  local root=$1 timer=cockpit-data-update.timer
  stage_program "$root" cockpit-data-update cockpitd
  install -m 0644 Systemd/cockpit-data-update.service Systemd/$timer "$root/lib/systemd/system/"
  {
    echo 'if [ "$1" = configure ]; then'
    echo "    deb-systemd-helper unmask '$timer' >/dev/null || true"
    echo "    if deb-systemd-helper --quiet was-enabled '$timer'; then"
    echo "        deb-systemd-helper enable '$timer' >/dev/null || true"
    echo '    else'
    echo "        deb-systemd-helper update-state '$timer' >/dev/null || true"
    echo '    fi'
    echo '    if [ -d /run/systemd/system ]; then'
    echo "        deb-systemd-invoke start '$timer' >/dev/null || true"
    echo '        [ -n "$2" ] || systemctl --no-block start cockpit-data-update.service >/dev/null 2>&1 || true'
    echo '    fi'
    echo "    if ! grep -Eq '^[[:space:]]*(home|terrain-region)[[:space:]]*=' /etc/cockpit/cockpitd.conf 2>/dev/null; then"
    echo '        echo "cockpitd: terrain (height above ground, glide reach over the hills) comes from cockpitd data update:"'
    echo '        echo "  set the home airfield in /etc/cockpit/cockpitd.conf (home = EDFA: the tiles 300 km around it, or"'
    echo '        echo "  terrain-region = ICAO:KM, LAT,LON:KM or box:S,W,N,E), then run: sudo systemctl start cockpit-data-update"'
    echo '        echo "  The daily cockpit-data-update.timer keeps airfields and terrain current whenever the box is online"'
    echo '        echo "  (docs: /usr/share/doc/cockpitd/data-update.md; progress: journalctl -u cockpit-data-update)."'
    echo '    fi'
    echo 'fi'
  } >> "$root/DEBIAN/postinst"
  sed -i "s/deb-systemd-invoke stop 'cockpitd.service'/deb-systemd-invoke stop 'cockpitd.service' '$timer' 'cockpit-data-update.service'/" "$root/DEBIAN/prerm"
  {
    echo 'if command -v deb-systemd-helper >/dev/null; then'
    echo "    if [ \"\$1\" = remove ]; then deb-systemd-helper mask '$timer' >/dev/null || true; fi"
    echo "    if [ \"\$1\" = purge ]; then deb-systemd-helper purge '$timer' >/dev/null || true; deb-systemd-helper unmask '$timer' >/dev/null || true; fi"
    echo 'fi'
  } >> "$root/DEBIAN/postrm"
}

# DEBIAN/control (Depends from the libraries the binaries actually link), md5sums, then dpkg-deb.
finish_package() { # root package extra-depends description-file
  local root=$1 package=$2 extra=$3 description=$4 shlibs
  install -d "$root/DEBIAN" "$work/shlibs-$package/debian"
  printf 'Source: cockpitd\n\nPackage: %s\nArchitecture: any\n' "$package" > "$work/shlibs-$package/debian/control"
  local binaries=()
  for binary in "$(realpath "$root")"/usr/bin/*; do binaries+=("-e$binary"); done
  shlibs=$(cd "$work/shlibs-$package" && dpkg-shlibdeps -O "${binaries[@]}" | sed -n 's/^shlibs:Depends=//p')
  [ -n "$shlibs" ] || { echo "package.sh: dpkg-shlibdeps found no libraries for $package" >&2; exit 1; }
  # dpkg-shlibdeps reads symbol references only. A binary with packed relative relocations (DT_RELR: the daemon's
  # release link in Package.swift) also needs a loader that applies them, glibc 2.36, which it names as the version
  # GLIBC_ABI_DT_RELR and no symbol. Without this the package would install on glibc 2.35 and not start.
  # (grep -c reads everything: grep -q would close the pipe early, and pipefail would then see readelf's SIGPIPE.)
  local libc_version relr_binaries
  libc_version=$(sed -nE 's/.*libc6 \(>= ([^)]+)\).*/\1/p' <<<"$shlibs")
  relr_binaries=$(readelf -V "$root"/usr/bin/* | grep -c 'Name: GLIBC_ABI_DT_RELR' || true)
  if [ "$relr_binaries" -gt 0 ] && [ -n "$libc_version" ] && dpkg --compare-versions "$libc_version" lt 2.36; then
    shlibs=$(sed -E 's/libc6 \(>= [^)]+\)/libc6 (>= 2.36)/' <<<"$shlibs")
  fi
  find "$root" -path "$root/DEBIAN" -prune -o -type f -exec chmod go-w {} + -o -type d -exec chmod 0755 {} +
  local size
  size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
  {
    echo "Package: $package"
    echo "Version: $debian_version"
    echo "Architecture: $arch"
    echo "Maintainer: $maintainer"
    echo "Installed-Size: $size"
    echo "Depends: $shlibs${extra:+, $extra}"
    [ "$package" != cockpitd ] || echo "Recommends: gpsd"
    echo "Section: misc"
    echo "Priority: optional"
    cat "$description"
  } > "$root/DEBIAN/control"
  if [ -d "$root/etc" ]; then (cd "$root" && find etc -type f -printf '/%p\n' | sort) > "$root/DEBIAN/conffiles"; fi
  (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
  find "$root/DEBIAN" -type f ! -name postinst ! -name prerm ! -name postrm -exec chmod 0644 {} +
  find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  local deb=$output/${package}_${debian_version}_${arch}.deb
  dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
  echo "package.sh: $deb ($(du -h "$deb" | cut -f1), installed $size KiB; Depends: $shlibs${extra:+, $extra})"
}

# --- cockpitd (cockpitd + cockpitctl) ---
root=$work/cockpitd
stage_program "$root" cockpitd cockpitd
stage_program "$root" cockpitctl cockpitd
stage_copyright_and_changelog "$root" cockpitd
install -D -m 0644 Systemd/cockpitd.conf "$root/etc/cockpit/cockpitd.conf"
install -d "$root/usr/share/cockpit"
install -m 0644 Data/airfields.sqlite Data/WMM2025.COF Data/SOURCE.md "$root/usr/share/cockpit/"
install -m 0644 Tests/Fixtures/geoid/egm96_15.gtx "$root/usr/share/cockpit/"   # EGM96 geoid: MSL for IGC replays
install -m 0644 README.md docs/*.md "$root/usr/share/doc/cockpitd/"
install -d "$root/usr/share/doc/cockpitd/Hardware"
install -m 0644 Hardware/*.md "$root/usr/share/doc/cockpitd/Hardware/"
stage_service "$root" Systemd/cockpitd.service Systemd/cockpit-sysusers.conf Systemd/cockpit-tmpfiles.conf
if [ "$updater" = yes ]; then stage_updater "$root"; fi
finish_package "$root" cockpitd "systemd, init-system-helpers (>= 1.54~), espeak-ng" Packaging/deb/cockpitd.description

# --- cockpit-relay, when the package has it ---
if [ "$relay" = yes ]; then
  root=$work/cockpit-relay
  stage_program "$root" cockpit-relay cockpit-relay
  stage_copyright_and_changelog "$root" cockpit-relay
  [ ! -f docs/relay.md ] || install -m 0644 docs/relay.md "$root/usr/share/doc/cockpit-relay/"
  extra=""
  if [ -f Systemd/cockpit-relay.service ]; then
    sysusers=""; tmpfiles=""
    [ ! -f Systemd/cockpit-relay-sysusers.conf ] || sysusers=Systemd/cockpit-relay-sysusers.conf
    [ ! -f Systemd/cockpit-relay-tmpfiles.conf ] || tmpfiles=Systemd/cockpit-relay-tmpfiles.conf
    stage_service "$root" Systemd/cockpit-relay.service "$sysusers" "$tmpfiles"
    extra="systemd, init-system-helpers (>= 1.54~)"
  fi
  finish_package "$root" cockpit-relay "$extra" Packaging/deb/cockpit-relay.description
fi

# --- cockpit-web, the pilot's page (docs/web.md): its socket unit is what is enabled; the service is started by it ---
if [ "$web" = yes ]; then
  root=$work/cockpit-web
  stage_program "$root" cockpit-web cockpit-web
  stage_copyright_and_changelog "$root" cockpit-web
  install -m 0644 docs/web.md "$root/usr/share/doc/cockpit-web/"
  stage_service "$root" Systemd/cockpit-web.socket "" ""
  install -m 0644 Systemd/cockpit-web.service "$root/lib/systemd/system/cockpit-web.service"
  # Removing stops the service with its socket (the socket alone would leave a running service behind).
  sed -i "s/deb-systemd-invoke stop 'cockpit-web.socket'/deb-systemd-invoke stop 'cockpit-web.socket' 'cockpit-web.service'/" "$root/DEBIAN/prerm"
  # The group cockpit (the control socket's) comes with cockpitd.
  finish_package "$root" cockpit-web "systemd, init-system-helpers (>= 1.54~), cockpitd (= $debian_version)" Packaging/deb/cockpit-web.description
fi
