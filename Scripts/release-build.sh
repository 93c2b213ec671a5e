#!/usr/bin/env bash
# The shipped release build, in one place for Scripts/install.sh, Scripts/package.sh and Scripts/link-order.sh:
# static Swift standard library, every Swift module (dependencies included) compiled with one section per function,
# full RELRO. Package.swift adds the daemon's link (lld, the symbol-ordering file Packaging/link/cockpitd.order and
# Packaging/link/cockpitd-text.ld); why each part is there and what it saves: docs/performance.md, "Idle memory".
#
#   bash Scripts/release-build.sh [--scratch-path DIR] [swift build arguments …]   # default .build-release-static
#
# -function-sections: without it the compiler puts a file's internal functions, closures and thunks in one .text
# section, which the ordering file cannot split (it moves whole sections), so the functions start-up runs sit among
# ones it never runs, and each 64 KiB fault-around window start-up touches maps both. -z now: full RELRO (lintian's
# hardening-no-bindnow); it only changes the link step.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-release-static
if [ "${1:-}" = --scratch-path ]; then scratch=$2; shift 2; fi
exec swift build -c release --static-swift-stdlib --scratch-path "$scratch" \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker -z -Xlinker now "$@"
