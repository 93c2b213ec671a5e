#!/usr/bin/env bash
# Regenerates Packaging/link/cockpitd.order, the linker's symbol-ordering file for the daemon's release link
# (Package.swift, daemonReleaseLink; why: docs/performance.md, "Idle memory"). It lists the functions of the static
# daemon that run at start-up and while idle first, then the ones a replay of the bundled flight adds, so the pages
# start-up touches (and the kernel's 64 KiB fault-around windows around them) hold code the daemon uses.
# Names come from callgrind, which records every function executed. A stale list costs locality, never correctness:
# run this after large changes and compare `cockpit-bench memory`. Needs valgrind (a developer tool, not CI).
# Data is ordered too (docs/performance.md, "Conformance descriptors and start-up data gathered"): every protocol
# conformance descriptor first in .rodata (the runtime's conformance scan reads all of them), then the .rodata and
# .bss input sections that start-up touches, found by sampling page faults with perf (linux-perf; root or
# kernel.perf_event_paranoid <= 1) over five link-and-run passes; without perf only the descriptors are ordered.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
command -v valgrind > /dev/null || { echo "link-order: valgrind is not installed (apt install valgrind)" >&2; exit 1; }
scratch=.build-release-static
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The shipped build, with the linker's map: which input section each function is in.
bash Scripts/release-build.sh --scratch-path "$scratch" --product cockpitd -Xlinker -Map="$work/link.map" -Xlinker --no-demangle
# valgrind 3.19 cannot read the Swift 6.3 debug info; the symbol table is all callgrind needs.
strip --strip-debug -o "$work/cockpitd" "$scratch/release/cockpitd"
mkdir -p "$work/home/cache"
home=$work/home

# Start-up and idle: the configuration cockpit-bench memory measures (every output on, a fresh index cache, a control
# group from /etc/group as on an installed system), connected to a gpsd whose receiver has no fix, as an installed
# daemon waits on the ground (Debian's gpsd, which Scripts/setup.sh installs).
[ -x /usr/sbin/gpsd ] || { echo "link-order: /usr/sbin/gpsd is not installed (bash Scripts/setup.sh)" >&2; exit 1; }
/usr/sbin/gpsd -N -n -b -S 29951 -F "$home/gpsd.sock" udp://127.0.0.1:29950 > "$work/gpsd.log" 2>&1 &
gpsd_pid=$!
trap 'kill "$gpsd_pid" 2> /dev/null; rm -rf "$work"' EXIT
sleep 0.5
idle_arguments=(run --socket "$home/c.sock" --gpsd 127.0.0.1:29951 --baro none --airfields Data/airfields.sqlite
    --traffic-port 29800 --traffic-to 127.0.0.1:29801 --gdl90-to 127.0.0.1:29802 --gdl90-discovery-port 0
    --flarm-port 29803 --flight-log "$home/flightlog.sqlite" --record "$home/recording.jsonl" --audio-device none
    --control-group "$(id -gn)")
CACHE_DIRECTORY=$home/cache timeout -s TERM 25 valgrind --tool=callgrind --demangle=no --dump-instr=no \
    --callgrind-out-file="$work/idle.cg" "$work/cockpitd" "${idle_arguments[@]}" > "$work/idle.log" 2>&1 || true
grep -q "running" "$work/idle.log" || { cat "$work/idle.log" >&2; echo "link-order: the idle daemon did not start" >&2; exit 1; }
grep -q "gpsd connected" "$work/idle.log" || { cat "$work/idle.log" "$work/gpsd.log" >&2; echo "link-order: the idle daemon did not connect to gpsd" >&2; exit 1; }

# In flight: the bundled flight through the same core, airfield lookups on.
valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/replay.cg" "$work/cockpitd" \
    replay Tests/Fixtures/flights/opensoar__missing_lcu_lseeyou_lines.igc --airfields Data/airfields.sqlite \
    --profile glider --log-level warning > "$work/replay.log" 2>&1

nm --defined-only "$work/cockpitd" > "$work/symbols"
python3 - "$work" "$work/functions.order" "$(git rev-parse --short HEAD)" <<'EOF'
import re, sys
work, out, commit = sys.argv[1:4]
code = {f[2] for f in (l.split() for l in open(work + "/symbols")) if len(f) == 3 and f[1] in "tTwW"}
def executed(path):
    # callgrind compresses names: "fn=(12) name" the first time, "fn=(12)" after; cfn= lines name callees.
    names, seen = {}, set()
    for line in open(path, errors="replace"):
        m = re.match(r"^c?fn=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            seen.add(names.get(m.group(1)))
    return {name for name in seen if name in code}
# The linker moves whole input sections. A function that shares a large section with others (the prebuilt standard
# library, FoundationEssentials and C objects have one .text each) would drag all of them into the ordered front and
# spread the functions that are listed; such functions are left where the linker puts them.
# Local helpers share names across files (objectdestroyTm, block_copy_helper, …): the linker moves every section that
# defines the name, so a name is listed only when every one of them is small.
section_functions, section_size, current, owners = {}, {}, None, {}
for line in open(work + "/link.map", errors="replace"):
    f = line.split()
    if len(f) >= 5 and ":(" in f[-1]:
        current = f[-1]
        section_size[current] = int(f[2], 16)
        section_functions[current] = 0
    elif len(f) == 5 and current is not None and f[3] == "1" and not f[4].startswith("."):
        section_functions[current] += 1
        owners.setdefault(f[4], set()).add(current)
def movable(name):
    return all(section_functions[s] <= 1 or section_size[s] <= 4096 for s in owners.get(name, ()))
idle = {name for name in executed(work + "/idle.cg") if movable(name)}
flight = {name for name in executed(work + "/replay.cg") if movable(name)} - idle
with open(out, "w") as f:
    f.write(f"# Symbol-ordering file for the daemon's release link, made by Scripts/link-order.sh on {commit}:\n")
    f.write(f"# {len(idle)} functions run at start-up and idle, then {len(flight)} more that a replay runs.\n")
    f.write("".join(name + "\n" for name in sorted(idle)))
    f.write("".join(name + "\n" for name in sorted(flight)))
print(f"link-order: {len(idle)} start-up and idle functions, {len(flight)} more in flight -> {out}")
EOF

# Data, then the final link. The ordering file is not a build input SwiftPM tracks: each pass links again.
order=$root/Packaging/link/cockpitd.order
link_daemon() {
    cat "$work/functions.order" "$work/descriptors.order" "$work/touched.order" > "$order"
    rm -f "$scratch/release/cockpitd"
    bash Scripts/release-build.sh --scratch-path "$scratch" --product cockpitd -Xlinker -Map="$work/link.map" \
        -Xlinker --no-demangle > /dev/null
}
: > "$work/descriptors.order"
: > "$work/touched.order"
link_daemon
# Every conformance descriptor: on a cache miss, swift_conformsToProtocol reads the descriptor of every record.
awk 'NF == 5 && $5 ~ /^\$s.*Mc$/ { print $5 }' "$work/link.map" | sort -u > "$work/descriptors.order"
echo "link-order: $(wc -l < "$work/descriptors.order") conformance descriptors"
profile_runs=5
command -v perf > /dev/null || { echo "link-order: perf is not installed: no start-up data is ordered" >&2; profile_runs=0; }
for run in $(seq 1 "$profile_runs"); do
    link_daemon
    # Which .rodata and .bss input sections start-up touches. Only the first touch of a page faults, so a section that
    # shares a page with one touched before shows in a later run, once the sections listed so far are packed together.
    rm -rf "$home/cache" && mkdir -p "$home/cache"
    CACHE_DIRECTORY=$home/cache timeout -s INT 3 perf record -q -e page-faults -c 1 -d -o "$work/pf.data" \
        "$scratch/release/cockpitd" "${idle_arguments[@]}" > "$work/perf.log" 2>&1 || true
    grep -q "running" "$work/perf.log" || { cat "$work/perf.log" >&2; echo "link-order: the daemon did not start under perf" >&2; exit 1; }
    perf script -i "$work/pf.data" --show-mmap-events 2> /dev/null | grep MMAP2 > "$work/mmaps" || true
    perf script -i "$work/pf.data" -F addr 2> /dev/null > "$work/faults" || true
    python3 - "$work" "$(readlink -f "$scratch/release/cockpitd")" <<'PY'
import bisect, re, sys
work, binary = sys.argv[1:3]
base = None
for line in open(work + "/mmaps"):
    m = re.search(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*\]: \S+ (\S+)", line)
    if m and int(m.group(3), 16) == 0 and m.group(4) == binary:
        base = int(m.group(1), 16)
if base is None:
    sys.exit("link-order: perf saw no mapping of " + binary)
# The input sections of .rodata and .bss, each with the first symbol it defines (the linker orders sections by symbol).
# lld's map indents output sections by 1 column after the alignment, input sections by 9, symbols by 17.
sections, output, current = [], False, None
for line in open(work + "/link.map", errors="replace"):
    m = re.match(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+( +)(\S+)$", line.rstrip("\n"))
    if not m:
        continue
    depth, name = len(m.group(3)), m.group(4)
    if depth == 1:
        output, current = name in (".rodata", ".bss"), None
    elif output and depth == 9:
        current = [int(m.group(1), 16), int(m.group(2), 16), None]
        sections.append(current)
    elif output and depth == 17 and current is not None and current[2] is None:
        current[2] = name
sections.sort()
starts = [s[0] for s in sections]
listed = [line.strip() for line in open(work + "/touched.order")]
for line in open(work + "/faults"):
    try:
        address = int(line.split()[0], 16) - base
    except (IndexError, ValueError):
        continue
    i = bisect.bisect_right(starts, address) - 1
    if i >= 0 and address < sections[i][0] + sections[i][1] and sections[i][2] and sections[i][2] not in listed:
        listed.append(sections[i][2])
open(work + "/touched.order", "w").write("".join(name + "\n" for name in listed))
print(f"link-order: {len(listed)} .rodata and .bss sections touched at start-up")
PY
done
link_daemon
sed -i "2a # Then data: $(wc -l < "$work/descriptors.order") conformance descriptors (all), $(wc -l < "$work/touched.order") .rodata and .bss sections start-up touches." "$order"
