#!/usr/bin/env bash
# Fuzzing (docs/fuzzing.md): builds the libFuzzer harness in Fuzz/ with the sanitizers, then runs targets.
#   Scripts/fuzz.sh --list                              the targets (one per input surface)
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer flags]    one target, e.g. Scripts/fuzz.sh gpsd-line 600 -runs=10000000
#   Scripts/fuzz.sh all SECONDS [libFuzzer flags]       every target in turn (CI runs this as a smoke run)
# The growing corpus lives in Fuzz/.build/corpus/TARGET (seeded from Fuzz/Corpus/TARGET, which stays small);
# crashes, leaks and timeouts are written to Fuzz/.build/artifacts/TARGET/ and make the script fail. Logs go to
# Fuzz/.build/logs/TARGET.log. Long campaigns: run under `nice -n 19` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

targets() { find Fuzz/Corpus -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort; }

if [[ ${1:-} == --list ]]; then targets; exit 0; fi
if [[ $# -lt 2 || ! ${2} =~ ^[0-9]+$ ]]; then
    echo "usage: Scripts/fuzz.sh TARGET|all SECONDS [libFuzzer flags…] | --list" >&2
    exit 2
fi
which=$1
seconds=$2
shift 2

# The sanitizer build: every Swift module (dependencies included) instrumented for coverage and ASan. Campaigns that
# run several targets at once build first and set COCKPIT_FUZZ_NO_BUILD=1 (one build folder, one build at a time).
# COCKPIT_FUZZ_OPTIMIZE=1: the same sanitizers with the Swift code optimized (-O keeps Swift's own traps: overflow,
# bounds, unwrap), in Fuzz/.build-campaign — 3–30× the executions per second, for the 10⁷-execution campaigns.
scratch=.build
optimize=()
if [[ -n ${COCKPIT_FUZZ_OPTIMIZE:-} ]]; then scratch=.build-campaign; optimize=(-Xswiftc -O); fi
if [[ -z ${COCKPIT_FUZZ_NO_BUILD:-} ]]; then
    # On a failure the whole output is shown (the tail alone can hide the error). SwiftPM keeps the root package's
    # old file list in this scratch folder's build manifest: files moved between its modules fail as "missing
    # inputs", a new file as "cannot find 'X' in scope". So after any failure the manifest is dropped and the build
    # tried once more (the corpus beside it is kept); a real compile error fails the second time too.
    mkdir -p "Fuzz/$scratch"
    build() { swift build -c debug --scratch-path "$scratch" "${optimize[@]}" -Xswiftc -sanitize=fuzzer,address > "$scratch/build.log" 2>&1; }
    ( cd Fuzz && { build || { rm -f "$scratch/debug.yaml" "$scratch/build.db" && build; }; } \
        && grep -v "Cannot export local symbol" "$scratch/build.log" | tail -n 2 || { grep -v "Cannot export local symbol" "$scratch/build.log" >&2; exit 1; } )
fi
binary="$root/Fuzz/$scratch/debug/cockpit-fuzz"

run_one() {
    local target=$1
    shift
    [[ -d Fuzz/Corpus/$target ]] || { echo "unknown target '$target' (Scripts/fuzz.sh --list)" >&2; return 2; }
    local work="$root/Fuzz/.build/corpus/$target" artifacts="$root/Fuzz/.build/artifacts/$target"
    local log="$root/Fuzz/.build/logs/$target.log"
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    local max_len
    max_len=$(COCKPIT_FUZZ_TARGET=$target COCKPIT_FUZZ_QUERY=max_len "$binary")
    local status=0 dictionary=()
    [[ -f Fuzz/Dictionaries/$target.dict ]] && dictionary=(-dict="$root/Fuzz/Dictionaries/$target.dict")
    # -timeout: one input taking 10 s is a hang; leaks are reported by LeakSanitizer at exit (-detect_leaks=1).
    # SWIFT_BACKTRACE: Swift's own crash backtracer would race libFuzzer's handler for a trap (and trips ASan).
    COCKPIT_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
        -rss_limit_mb=2048 -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$artifacts/" "${dictionary[@]}" "$@" \
        "$work" "$root/Fuzz/Corpus/$target" > "$log" 2>&1 || status=$?
    local stats
    stats=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    printf '%-20s %s  runs=%s exit=%s\n' "$target" "${stats:-no stats}" "${runs:-?}" "$status"
    if [[ $status -ne 0 ]] || [[ -n $(ls -A "$artifacts") ]]; then
        echo "FUZZ FAILURE in $target: see $log and $artifacts/" >&2
        grep -E 'ERROR|SUMMARY|Fatal error|Test unit written' "$log" | head -n 20 >&2 || true
        return 1
    fi
}

if [[ $which == all ]]; then
    failed=0
    for target in $(targets); do run_one "$target" "$@" || failed=1; done
    exit $failed
fi
run_one "$which" "$@"
