#!/usr/bin/env bash
# Prints the package's debian/copyright (machine-readable format 1.0) to stdout: cockpitd itself, the shipped data,
# the Swift runtime and every Swift package in CHECKOUTS (SwiftPM's checkouts folder), which the static binaries
# contain. A package's licence is named Apache-2.0 when its LICENSE is the Apache License 2.0 (the text is in
# /usr/share/common-licenses); any other licence is copied in full.
#   bash Packaging/deb/copyright.sh .build-release-static/checkouts > copyright
set -euo pipefail
checkouts=$1
indent() { sed -e 's/[[:space:]]*$//' -e 's/^$/./' -e 's/^/ /'; }

cat <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cockpitd
Comment: NOT CERTIFIED AVIONICS; see /usr/share/doc/cockpitd/NOT-CERTIFIED.
 The programs are statically linked with the Swift standard library and the
 Swift packages listed below; each one's copyright and licence follow.

Files: *
Copyright: 2026 the cockpitd contributors
License: cockpitd-unpublished
 The cockpitd repository does not yet carry a licence statement of its own
 (no LICENSE file). Until the maintainers publish one, ask them before
 redistributing cockpitd's own code.

Files: Tests/Fixtures/geoid/egm96_15.gtx
Copyright: US National Geospatial-Intelligence Agency (EGM96), via PROJ proj-datumgrid
Comment: Installed as /usr/share/cockpit/egm96_15.gtx; the EGM96 geoid on a
 15-minute grid, as Debian's proj-data 9.1.1-1 ships it.
License: public-domain
 A work of the United States Government, not subject to copyright.

Files: Data/airfields.sqlite
Copyright: OurAirports (https://ourairports.com/data/), dedicated to the public domain
Comment: Installed as /usr/share/cockpit/airfields.sqlite; built with
 `cockpitd airfields import` from the OurAirports CSV files
 (see /usr/share/cockpit/SOURCE.md).
License: Unlicense
 This is free and unencumbered software released into the public domain.
 .
 Anyone is free to copy, modify, publish, use, compile, sell, or distribute
 this software, either in source code form or as a compiled binary, for any
 purpose, commercial or non-commercial, and by any means.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
 WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

Files: Data/WMM2025.COF
Copyright: NOAA National Centers for Environmental Information and the
 UK/US National Geospatial-Intelligence Agency (World Magnetic Model 2025)
License: public-domain
 The World Magnetic Model is a work of the United States Government and is
 not subject to copyright protection in the United States (17 U.S.C. 105).

Files: swift-runtime/*
Copyright: 2014-2026 Apple Inc. and the Swift project authors
Comment: The Swift standard library and runtime, statically linked
 (swift build --static-swift-stdlib).
License: Apache-2.0 with Runtime-Library-Exception
 Licensed under the Apache License, Version 2.0; on Debian systems the full
 text is in /usr/share/common-licenses/Apache-2.0.
 .
 Runtime Library Exception to the Apache 2.0 License:
 .
 As an exception, if you use this Software to compile your source code and
 portions of this Software are embedded into the binary product as a result,
 you may redistribute such product without providing attribution as would
 otherwise be required by Sections 4(a), 4(b) and 4(d) of the License.
EOF

others=()
for dir in "$checkouts"/*/; do
  name=$(basename "$dir")
  license=""
  for candidate in LICENSE.txt LICENSE LICENSE.md COPYING; do
    [ -f "$dir$candidate" ] && { license=$dir$candidate; break; }
  done
  [ -n "$license" ] || { echo "copyright.sh: $name has no licence file" >&2; exit 1; }
  holder=$(grep -h -m 1 -E '^[[:space:]]*Copyright \(c\)|^[[:space:]]*Copyright [0-9]' "$dir"NOTICE.txt "$license" 2>/dev/null | head -n 1 \
    | sed -E 's/^[[:space:]]*Copyright( \(c\))?[[:space:]]*//' || true)
  echo
  echo "Files: $name/*"
  echo "Copyright: ${holder:-the $name authors}"
  echo "Comment: Swift package $name, statically linked."
  if grep -q 'Apache License' "$license" && grep -q 'Version 2.0' "$license"; then
    echo "License: Apache-2.0"
  else
    echo "License: $name-licence"
    others+=("$name:$license")
  fi
done

cat <<'EOF'

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use these files except in compliance with the License. Unless required by
 applicable law or agreed to in writing, software distributed under the
 License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS
 OF ANY KIND, either express or implied.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
EOF
for entry in ${others[@]+"${others[@]}"}; do
  echo
  echo "License: ${entry%%:*}-licence"
  indent < "${entry#*:}"
done
