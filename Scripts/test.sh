#!/usr/bin/env bash
# The whole test suite, from a plain clone (this is what CI runs): installs what is missing, builds once (warnings are
# errors), then every check, and ends with one verdict line: `test: N passed, N failed`.
#
# Needs: sudo (apt packages the first time; the package test's chroot), the network (the Swift package mirrors, and
# deb.debian.org for the package test's debootstrap the first time), about 3 GB of disk in the clone (the debug, the
# sanitizer and the release build folders). How long it takes on a 2-core machine: README, "Two commands".
#
# What is built, and why not fewer: one debug build with the tests (`swift build --build-tests`); its cockpitd serves
# the unit checks and the black-box campaign, and `swift test --skip-build` runs the suites from it. The fuzz smoke
# run needs its own build (every module instrumented for libFuzzer and ASan), and the package test the shipped release
# build (static standard library, the release link): those are different binaries, not the same ones built twice.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
logs=.build/test-logs
mkdir -p "$logs"
rm -f "$logs/swift-test-issues.txt"
passed=0
failed=0
elapsed() { local s=$(( $(date +%s) - started )); printf '%d min %02d s' $((s / 60)) $((s % 60)); }
phase() { echo "test: [$(elapsed)] $*"; }
verdict() {
  # What failed, again at the very end (CI shows the end of the output): swift test's recorded issues, each with the
  # lines of its message that follow it.
  if [ -s "$logs/swift-test-issues.txt" ]; then
    echo "test: what swift test's failing tests recorded (the whole log: $logs/swift-test.log):"
    head -n 80 "$logs/swift-test-issues.txt"
  fi
  echo "test: $passed passed, $failed failed (in $(elapsed))"
  [ "$failed" -eq 0 ] && exit 0 || exit 1
}
count() { # passed failed what
  passed=$((passed + $1)); failed=$((failed + $2))
  phase "$3: $1 passed, $2 failed"
}

phase "setup (apt packages)"
bash Scripts/setup.sh || { failed=$((failed + 1)); echo "test: setup failed"; verdict; }

phase "building, debug with the tests (the log: $logs/build.log)"
if ! swift build --build-tests -Xswiftc -warnings-as-errors > "$logs/build.log" 2>&1; then
  grep -E "error:|warning:" "$logs/build.log" | sort -u | head -n 60
  tail -n 20 "$logs/build.log"
  failed=$((failed + 1)); echo "test: the build failed, nothing else ran"
  verdict
fi
tail -n 1 "$logs/build.log"
binary=$PWD/.build/debug/cockpitd

phase "systemd units"
if bash Scripts/check-units.sh "$binary"; then count 1 0 "systemd units"; else count 0 1 "systemd units"; fi

# The independent reference tools' own tests (Python standard library; a few seconds).
phase "reference tools (Tests/Tools)"
if python3 -m unittest discover -s Tests/Tools -p 'test_*.py' > "$logs/tools.log" 2>&1; then
  count "$(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' "$logs/tools.log")" 0 "reference tools"
else
  cat "$logs/tools.log"; count 0 1 "reference tools"
fi

# The black-box campaign, short (about a minute): every surface, the daemon answering, every input accounted for.
phase "black-box campaign, short"
if python3 Scripts/blackbox.py --binary "$binary" --scale short > "$logs/blackbox-short.log" 2>&1; then
  count 1 0 "black-box campaign"
else
  cat "$logs/blackbox-short.log"; count 0 1 "black-box campaign"
fi

# Beside swift test, the shipped release build for the package test: the suites wait on processes, sockets and timers
# for much of their time and keep one core of two busy on average (swift test's CPU time was 623 s in 606 s of wall
# time here), so the build fills the other core instead of adding its quarter of an hour of two cores after them.
# (Held to one compile job it left a core idle once swift test was done: BoringSSL's C files one at a time.)
phase "swift test (the log: $logs/swift-test.log), and beside it the release build ($logs/release-build.log)"
( bash Scripts/package.sh --build-only > "$logs/release-build.log" 2>&1 ) &
release_job=$!
swift test --skip-build 2>&1 | tee "$logs/swift-test.log"
status=${PIPESTATUS[0]}
total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*/\1/p' "$logs/swift-test.log" | tail -n 1)
broken=$(grep -E '^.{0,4}Test .* failed after' "$logs/swift-test.log" | grep -vc 'Test run with' || true)
grep -E -A 6 'recorded an issue' "$logs/swift-test.log" > "$logs/swift-test-issues.txt" || true
if [ -z "$total" ]; then
  count 0 1 "swift test (no summary: the test process did not finish, exit $status)"
elif [ "$status" -ne 0 ] && [ "$broken" -eq 0 ]; then
  count $((total - 1)) 1 "swift test (exit $status without a failing test named)"
else
  count $((total - broken)) "$broken" "swift test"
fi

# Fuzzing smoke run (docs/fuzzing.md): the sanitizer build of Fuzz/, then every target from its seeds with a fixed
# seed and count (about 10 s each, Fuzz/smoke-runs); any crash, leak or timeout fails, the same on every machine.
# The campaigns that look for new inputs run by hand (Scripts/fuzz.sh TARGET SECONDS). Its build starts beside the
# rest of the release build; the package test (lintian, install/upgrade/remove/purge in a debootstrapped Debian 12)
# starts when the release build is done (a failed one fails there, with its error), beside the smoke run's targets,
# which use one core at a time. Each log is printed when its run is done, the smoke run's first.
phase "fuzz smoke run (sanitizer build of Fuzz/; $logs/fuzz-smoke.log), beside the rest of the release build"
( bash Scripts/fuzz.sh smoke > "$logs/fuzz-smoke.log" 2>&1; echo $? > "$logs/fuzz-smoke.status" ) &
fuzz_job=$!
wait "$release_job"
phase "release build done: package test (lintian, debootstrapped Debian 12; $logs/package.log)"
( bash Scripts/test-package.sh > "$logs/package.log" 2>&1; echo $? > "$logs/package.status" ) &
package_job=$!

wait "$fuzz_job"
phase "fuzz smoke run done"
cat "$logs/fuzz-smoke.log"
status=$(cat "$logs/fuzz-smoke.status" 2>/dev/null || echo 1)
ran=$(grep -cE ' exit=[0-9]+$' "$logs/fuzz-smoke.log" || true)
clean=$(grep -cE ' exit=0$' "$logs/fuzz-smoke.log" || true)
missing=$(grep -c 'has no line in Fuzz/smoke-runs' "$logs/fuzz-smoke.log" || true)
bad=$((ran - clean + missing))
if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi   # the build failed, or a crash left an artifact
count "$clean" "$bad" "fuzz smoke run"

wait "$package_job"
phase "package test done"
cat "$logs/package.log"
status=$(cat "$logs/package.status" 2>/dev/null || echo 1)
ok=$(grep -c '^  ok: ' "$logs/package.log" || true)
bad=$(grep -c '^  FAIL: ' "$logs/package.log" || true)
if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi   # stopped before its checks (build, debootstrap, apt)
count "$ok" "$bad" "package test"

verdict
