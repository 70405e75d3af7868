#!/usr/bin/env bash
# Rewrites testdata/golden/printed.sha256: what HECSCOPE prints for every
# testdata and conformance log, as checked by tests/tst_printed.cpp.
#
#   testdata/golden/write-printed.sh [HECSCOPE]   (default build/release/app/hecscope)
#
# Run it only when a change to printed figures is intended, and review the
# diff of printed.sha256 together with the outputs that changed (the test
# writes each differing output into the build tree).
#
# One line per (log, command):
#   LOG COMMAND WORDS... EXIT OUT_BYTES OUT_SHA256 ERR_BYTES ERR_SHA256
# LOG is testdata/... (run from the testdata folder) or conformance/...
# (run from $HECSCOPE_SHARED_DIR/conformance, default ../shared beside the
# repository, as tests/CMakeLists.txt has it), given to hecscope as the path
# after that first word, so `info --json`'s "file" does not depend on where
# the checkout is. The command runs as `hecscope WORD1 FILE WORD2...`.
# Keep the log patterns and the command list in step with tst_printed.cpp.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$repo/build/release/app/hecscope}")
shared=${HECSCOPE_SHARED_DIR:-$repo/../shared}
out=$here/printed.sha256

[[ -x $bin ]] || { echo "write-printed.sh: no hecscope binary at $bin" >&2; exit 2; }
[[ -d $shared/conformance/ghc-events ]] || {
    echo "write-printed.sh: no conformance logs in $shared/conformance/ghc-events" >&2; exit 2; }

commands=("info --json" "info --rts-summary" "threads --csv" "spans --csv"
          "profile --folded" "sparks" "heap --csv")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# root-word  folder  pattern
logs() {
    (cd "$repo/testdata" && ls logs/*.eventlog logs/*.hp rts-summary/*.eventlog profiles/*.eventlog \
        | LC_ALL=C sort | sed 's|^|testdata/|')
    (cd "$shared/conformance" && ls ghc-events/*.eventlog | LC_ALL=C sort | sed 's|^|conformance/|')
}

{
    echo "# hecscope's stdout/stderr per log and command; written by testdata/golden/write-printed.sh,"
    echo "# checked by tests/tst_printed.cpp. LOG COMMAND... EXIT OUT_BYTES OUT_SHA256 ERR_BYTES ERR_SHA256"
    logs | while read -r log; do
        root=${log%%/*}
        file=${log#*/}
        if [[ $root == testdata ]]; then dir=$repo/testdata; else dir=$shared/conformance; fi
        for c in "${commands[@]}"; do
            read -r -a words <<<"$c"
            set +e
            (cd "$dir" && "$bin" "${words[0]}" "$file" "${words[@]:1}" >"$tmp/out" 2>"$tmp/err" </dev/null)
            rc=$?
            set -e
            printf '%s %s %d %d %s %d %s\n' "$log" "$c" "$rc" \
                "$(wc -c <"$tmp/out")" "$(sha256sum <"$tmp/out" | cut -d' ' -f1)" \
                "$(wc -c <"$tmp/err")" "$(sha256sum <"$tmp/err" | cut -d' ' -f1)"
        done
    done
} >"$out.new"
mv "$out.new" "$out"
echo "write-printed.sh: $(grep -vc '^#' "$out") lines in $out"
