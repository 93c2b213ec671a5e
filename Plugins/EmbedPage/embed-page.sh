#!/bin/sh
# The EmbedPage build plugin's command: writes one Swift source that holds each page file as a static string of
# `enum WebPage`.
#
#   embed-page.sh OUTPUT.swift NAME=FILE...      (NAME: the Swift name the plugin chose, e.g. indexHTML)
#
# A shell script, not a Swift tool: SwiftPM builds a plugin's Swift tool with the build's own compiler flags, and the
# fuzzing build's (-sanitize=fuzzer, whose libFuzzer brings its own `main`) cannot link an ordinary executable.
# The text is kept byte for byte in a multi-line string literal: `\` and `"` escaped, every other character as it is;
# a file with a control character other than tab and newline (a carriage return among them), or that is not UTF-8,
# stops the build with a message naming it.
set -eu
output=$1
shift
temporary="$output.tmp.$$"
trap 'rm -f "$temporary"' EXIT
{
  printf '%s\n' "// Generated at build time by the EmbedPage plugin (Plugins/EmbedPage) from the files in the target's"
  printf '%s\n\n%s\n' "// Page folder. Edit those files, not this one." "enum WebPage {"
  for pair in "$@"; do
    name=${pair%%=*}
    file=${pair#*=}
    if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$file" || ! tr -d '\000' < "$file" | cmp -s - "$file"; then
      echo "embed-page.sh: $file: a control character other than tab or newline" >&2
      exit 1
    fi
    if ! iconv -f UTF-8 -t UTF-8 "$file" > /dev/null 2>&1; then
      echo "embed-page.sh: $file: not UTF-8" >&2
      exit 1
    fi
    printf '    /// %s, %s bytes.\n' "${file##*/}" "$(wc -c < "$file" | tr -d ' ')"
    printf '    static let %s = """\n' "$name"
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' "$file"
    printf '\n"""\n'
  done
  printf '}\n'
} > "$temporary"
# Written only when it changed, so that an unchanged page does not recompile the target.
if ! cmp -s "$temporary" "$output"; then mv "$temporary" "$output"; fi
