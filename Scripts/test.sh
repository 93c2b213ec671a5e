#!/usr/bin/env bash
# The whole test suite, from a plain clone: installs what is missing, builds (warnings are errors), tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build -Xswiftc -warnings-as-errors 2>&1 | tail -n 3
bash Scripts/check-units.sh "$PWD/.build/debug/cockpitd"
# The black-box campaign, short (about a minute): every surface, the daemon answering, every input accounted for.
python3 Scripts/blackbox.py --binary "$PWD/.build/debug/cockpitd" --scale short > .build/blackbox-short.log \
  || { cat .build/blackbox-short.log; exit 1; }
swift test -Xswiftc -warnings-as-errors
# Fuzzing smoke run (docs/fuzzing.md): the sanitizer build of Fuzz/, then every target from its seeds with a fixed
# seed and count (about 10 s each, Fuzz/smoke-runs); any crash, leak or timeout fails CI, the same on every machine.
# The campaigns that look for new inputs run by hand (Scripts/fuzz.sh TARGET SECONDS).
bash Scripts/fuzz.sh smoke
bash Scripts/test-package.sh    # the .deb: lintian, then install/upgrade/remove/purge in a debootstrapped Debian 12
