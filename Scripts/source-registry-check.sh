#!/bin/sh
# What the compiler says about an input source that is not whole (docs/adding-a-capability.md): type-checks a
# throwaway source against the modules of the debug build, in a temporary folder, and prints each error.
#   1. a descriptor that names no decoder;
#   2. a source listed in WireSources.List without its daemon half (InputSource);
#   3. a listed source with its daemon half but without its fuzz entry (FuzzedSource).
# Exits 0 when all three are refused as expected, 1 when one compiles (the list no longer ties that half).
# Run from the repository after `swift build --build-tests` (it reads the build's flags from .build/debug.yaml).
set -eu
cd "$(dirname "$0")/.."
build=.build/debug
[ -f .build/debug.yaml ] && [ -d "$build/Modules" ] || { echo "no debug build: run swift build --build-tests" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Modules" "$work/cache"

# The C module maps each module was built with (the -Xcc pairs of its compile command).
xcc() {
    python3 - "$1" <<'EOF'
import json, sys
for line in open(".build/debug.yaml"):
    line = line.strip()
    if line.startswith("args: [") and f'"-module-name","{sys.argv[1]}"' in line:
        args = json.loads(line[len("args: "):])
        print("\n".join(a for i, a in enumerate(args) if a == "-Xcc" or (i and args[i - 1] == "-Xcc")))
        break
EOF
}
swift_flags="-package-name main -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault -diagnostic-style llvm -module-cache-path $work/cache"

# Runs swiftc with a module's C flags; prints its error lines; true when `expected` is among them.
check() {
    label=$1; module=$2; expected=$3; shift 3
    xcc "$module" > "$work/xcc"
    # shellcheck disable=SC2046,SC2086
    swiftc $swift_flags $(cat "$work/xcc") "$@" > "$work/out" 2>&1 || true
    echo "== $label"
    grep -E ': (error|note: (where|protocol requires nested))' "$work/out" | sed "s|$PWD/||; s|$work/||" | awk '!seen[$0]++' || true
    if grep -q "$expected" "$work/out"; then return 0; fi
    echo "   expected \"$expected\": not refused"
    return 1
}
status=0

cat > "$work/NoDecoder.swift" <<'EOF'
import CockpitWire

enum ThrowawayDescriptor: SourceDescriptor {
    static let label = "throwaway"
    static let fuzzTarget = "throwaway"
}
EOF
check "a descriptor without a decoder" CockpitWire "does not conform to protocol 'SourceDescriptor'" \
    -typecheck -I "$build/Modules" "$work/NoDecoder.swift" || status=1

# CockpitWire again, with a throwaway source (a decoder of its own: SBS's) listed last.
mkdir "$work/wire"
cp -R Sources/CockpitWire/. "$work/wire/"
cat > "$work/wire/ThrowawayDescriptor.swift" <<'EOF'
public enum ThrowawayDescriptor: SourceDescriptor {
    public typealias Decoder = SBSWireDecoder
    public static let label = "throwaway"
    public static let fuzzTarget = "throwaway"
}
EOF
python3 - "$work/wire/WireSources.swift" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
start = text.index("public typealias List = SourceList<")
end = text.index("\n    >", start)
open(path, "w").write(text[:end] + "\n        ThrowawayDescriptor," + text[end:])
EOF
xcc CockpitWire > "$work/xcc"
# shellcheck disable=SC2046,SC2086
swiftc $swift_flags $(cat "$work/xcc") -emit-module -module-name CockpitWire -emit-module-path "$work/Modules/CockpitWire.swiftmodule" \
    -I "$build/Modules" $(find "$work/wire" -name '*.swift') > "$work/out" 2>&1 || { cat "$work/out"; exit 2; }

check "a listed source without its daemon half" CockpitDaemon "conform to 'InputSource'" \
    -typecheck -module-name CockpitDaemon -I "$work/Modules" -I "$build/Modules" $(find Sources/CockpitDaemon -name '*.swift') || status=1

cat > "$work/ThrowawayInput.swift" <<'EOF'
public import CockpitWire

extension ThrowawayDescriptor: InputSource {
    public typealias Group = RadioTrafficSettings
    public static func makeLiveInputs(_ settings: RadioTrafficSettings, _ context: LiveInputContext) -> [any LiveInput] { [] }
}
EOF
xcc CockpitDaemon > "$work/xcc"
# shellcheck disable=SC2046,SC2086
swiftc $swift_flags $(cat "$work/xcc") -emit-module -module-name CockpitDaemon -emit-module-path "$work/Modules/CockpitDaemon.swiftmodule" \
    -I "$work/Modules" -I "$build/Modules" $(find Sources/CockpitDaemon -name '*.swift') "$work/ThrowawayInput.swift" > "$work/out" 2>&1 \
    || { cat "$work/out"; exit 2; }
check "a listed source without its fuzz entry" CockpitFuzzTargets "conform to 'FuzzedSource'" \
    -typecheck -module-name CockpitFuzzTargets -I "$work/Modules" -I "$build/Modules" $(find Sources/CockpitFuzzTargets -name '*.swift') || status=1

exit $status
