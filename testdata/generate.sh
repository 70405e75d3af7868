#!/usr/bin/env bash
# Regenerates Hecscope's real test eventlogs (testdata/logs/,
# testdata/rts-summary/, testdata/profiles/ and testdata/compare/) from the
# Haskell programs in testdata/programs/, or produces a big benchmark log.
#
# Usage:
#   generate.sh                   compile, regenerate every log in logs/,
#                                 rts-summary/ and profiles/, then --check
#   generate.sh logs NAME...      compile and regenerate only the named RUNS
#                                 entries (logs/NAME.eventlog, e.g.
#                                 `logs spans-N2 ffi-N2`), leaving every other
#                                 committed log as it is, then --check
#   generate.sh summaries [NAME...]
#                                 compile and regenerate only rts-summary/:
#                                 NAME.eventlog + NAME.s.txt, the `+RTS -s`
#                                 summary the RTS printed for that same run
#                                 (only the named SUMMARY_RUNS entries if given)
#   generate.sh profiles          compile profile.hs (prof build) and regenerate
#                                 only profiles/: the eventlog of each run with
#                                 the cost-centre report the RTS wrote beside it
#                                 (-p: NAME.prof, -P: NAME.prof, -pj: NAME.prof.json)
#   generate.sh compare [NAME...] compile and regenerate only compare/: pairs of
#                                 runs for `hecscope diff`, each run's eventlog
#                                 with the `+RTS -s` text (NAME.s.txt) or the
#                                 .prof (NAME.prof) that same run wrote (only
#                                 the named runs if given)
#   generate.sh --check           only verify the committed logs (exist, non-empty,
#                                 'hdrb' magic, .s.txt summaries complete, .prof
#                                 and .prof.json reports complete; full decode
#                                 with hecscope if it is built)
#   generate.sh big [OUT] [MIN_MB]
#                                 compile biglog.hs and write a log of at least
#                                 MIN_MB MiB (default 260) to OUT
#                                 (default ${TMPDIR:-/tmp}/hecscope-big.eventlog).
#                                 Never written into the repository by default.
#   generate.sh --help
#
# Environment: GHC (default: ghc); for `big`: BIG_N (capabilities, default 2),
# BIG_PAIRS (ping-pong pairs, default 16) and BIG_YIELDERS (yielding threads,
# default 4). BIG_N=4 BIG_PAIRS=1 BIG_YIELDERS=0 keeps one capability of four
# busy: the RTS writes the idle ones' only block when the program ends (a
# load must not read such a log twice: docs/architecture.md).
#
# Written for GHC 9.0.2 (Debian 12: ghc, ghc-prof, libghc-parallel-dev,
# libghc-parallel-prof). Notes on that RTS, checked with `+RTS -?`:
#   * -ol<file> exists and chooses the eventlog file name (used below).
#   * -l[flags]: the default classes are 's g p u' (scheduler, GC/heap, sampled
#     spark counters, user events); -lf = the defaults *plus* 'f', full spark
#     events (create/run/steal/fizzle/dud/GC'd per spark); -ln adds the
#     non-moving GC heap census events.
#   * The non-moving collector is selected with --nonmoving-gc (-xn is an
#     alias in 9.0). We use --nonmoving-gc. It cannot be combined with heap
#     profiling: `--nonmoving-gc -hT` aborts with "internal error: The
#     non-moving collector doesn't support profiling", so the non-moving log
#     has no heap profile.
#   * -hT works in a non-profiled build; heap samples go to the eventlog with
#     -l and a <prog>.hp file is written as well (deleted below).
#   * -l -p does put time-profile samples into the eventlog in 9.0.2
#     (EVENT_PROF_BEGIN / EVENT_PROF_SAMPLE_COST_CENTRE), and also writes a
#     <prog>.prof file (deleted below).
#   * -hb (biographical) SEGFAULTS in 9.0.2 on the 32nd census (heapCensus ->
#     freeHashTable after the censuses array is grown from 32 to 64 entries),
#     so the profiled leak runs use a small SCALE argument (about 15 censuses
#     at -i0.05); if -hb still crashes it is retried with a smaller SCALE.
#   * In -hb (and -hr) mode the heap samples are only written at program exit.
#   * Cost-centre reports (profiles/): -p writes <prog>.prof, -P the same
#     with `ticks` and `bytes` columns, -pj writes JSON -- also into
#     <prog>.prof (renamed to NAME.prof.json below). None of them can be given
#     a file name, hence the scratch directory. -pj hardly escapes: labels
#     and arguments get \\ and \n, but quotes and tabs stay raw (an argument
#     a"b<TAB>c is written "a"b<TAB>c"), and `module`/`src_loc` are written
#     as they are. The JSON tree has the RTS's own cost centres (SYSTEM, GC,
#     OVERHEAD_of, ...) under MAIN and counts their ticks and bytes in
#     total_ticks/total_alloc; the text report leaves them out of its tree
#     and its totals (837 ticks in -P's .prof, 1077 samples in its eventlog,
#     240 of them SYSTEM/GC). The text reports' `no.` column is a CCS number,
#     not the cost-centre id the eventlog and -pj use. The RTS folds a call to a
#     cost centre already on the stack into that entry, so the mutual
#     recursion evalExpr -> evalArgs -> evalExpr of profile.hs never shows
#     evalExpr nested in itself. SRC columns are paths as given to ghc, so
#     compile() runs ghc inside programs/ with a bare file name.
#   * -s[<file>] writes the end-of-run summary (the `+RTS -s` text) to <file>
#     instead of stderr; -S[<file>] is the verbose per-GC variant. The summary
#     starts with the command line ('prog' 'args' +RTS ...), so -s is given a
#     relative name, like -ol. The program's stdout never goes into it.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROGS="$HERE/programs"
LOGS="$HERE/logs"
SUMMARIES="$HERE/rts-summary"
PROFILES="$HERE/profiles"
COMPARE="$HERE/compare"
GHC="${GHC:-ghc}"

# Program arguments (SCALE) of the leak runs; see programs/leak.hs.
LEAK_SCALE=5000       # non-profiled runs (about 0.8 s, ~14 censuses with -i0.05)
LEAK_PROF_SCALE=1200  # profiled runs (about 1 s, ~17 censuses; -hb dies at 32)
SPANS_REQUESTS=400    # spans.hs: requests served by the 6 workers (~140 KB)
FFI_ROUNDS=20         # ffi.hs: safe foreign calls per sleeper thread (~35 KB)

# The committed logs: NAME|PROGRAM|BUILD|PROGRAM ARGS|RTS FLAGS
# BUILD is 'thr' (-threaded -eventlog) or 'prof' (-prof -fprof-auto -eventlog).
# (-ol<file> is added by the script.)
RUNS=(
  "sparks-N1|sparks|thr||-l -N1"
  "sparks-N2|sparks|thr||-l -N2"
  "sparks-N4|sparks|thr||-l -N4"
  "sparks-lf-N2|sparks|thr||-lf -N2"
  "threads-N2|threads|thr||-l -N2"
  "leak-hT|leak|thr|$LEAK_SCALE|-hT -l -i0.05"
  "leak-nonmoving-N2|leak|thr|$LEAK_SCALE|--nonmoving-gc -l -ln -N2"
  "leak-prof-hc|leak|prof|$LEAK_PROF_SCALE|-l -hc -i0.05"
  "leak-prof-hy|leak|prof|$LEAK_PROF_SCALE|-l -hy -i0.05"
  "leak-prof-hd|leak|prof|$LEAK_PROF_SCALE|-l -hd -i0.05"
  "leak-prof-hm|leak|prof|$LEAK_PROF_SCALE|-l -hm -i0.05"
  "leak-prof-hr|leak|prof|$LEAK_PROF_SCALE|-l -hr -i0.05"
  "leak-prof-hb|leak|prof|$LEAK_PROF_SCALE|-l -hb -i0.05"
  "leak-prof-p|leak|prof|$LEAK_PROF_SCALE|-l -p -i0.05"
  "spans-N2|spans|thr|$SPANS_REQUESTS|-l -N2"
  "ffi-N2|ffi|thr|$FFI_ROUNDS|-l -N2"
)
# The .hp file of this run is kept as logs/<name>.hp; all other side files go.
KEEP_HP_OF="leak-prof-hc"
MAX_TOTAL_KB=12288

# Program arguments of the rts-summary runs. sparks: nfib 32 and 3 rounds of
# the parListChunk phase (~45 MB allocated: 30-40 collections at -A1m; at
# -N3 -A64k ~560 collections in ~300 KB of log; 4 rounds would pass 400 KB).
SUMMARY_SPARKS_ARGS="32 3"
SUMMARY_THREADS_ARGS="100 10" # ~360 KB; threads.hs allocates < 1 MB: 1 GC (at exit)
SUMMARY_LEAK_SCALE=2000       # ~180 collections, 70-90 KB
SUMMARY_PARFIB_ARGS=34        # parfib 34 at -N8: ~0.15 s, ~280 collections, ~180 KB

# rts-summary/: runs whose `+RTS -s` text is kept beside the eventlog, so the
# tests can compare Hecscope's GC statistics with the RTS's own. Same format
# as RUNS; the script adds -ol<name>.eventlog and -s<name>.s.txt.
SUMMARY_RUNS=(
  "sparks-N1-s|sparks|thr|$SUMMARY_SPARKS_ARGS|-l -N1"
  "sparks-N2-s|sparks|thr|$SUMMARY_SPARKS_ARGS|-l -N2"
  "sparks-N4-s|sparks|thr|$SUMMARY_SPARKS_ARGS|-l -N4"
  "sparks-N8-s|sparks|thr|$SUMMARY_SPARKS_ARGS|-l -N8"
  "mvar-N3-s|threads|thr|$SUMMARY_THREADS_ARGS|-l -N3"
  "leak-hT-s|leak|thr|$SUMMARY_LEAK_SCALE|-hT -l -i0.05"
  "nonmoving-N2-s|leak|thr|$SUMMARY_LEAK_SCALE|--nonmoving-gc -l -ln -N2"
  "sparks-N3-A64k-s|sparks|thr|$SUMMARY_SPARKS_ARGS|-l -N3 -A64k"
  "parfib-N8-s|parfib|thr|$SUMMARY_PARFIB_ARGS|-l -N8"
)
MAX_SUMMARY_KB=2048

# profiles/: runs of profile.hs (prof build) with a cost-centre report:
# NAME|RTS FLAGS|REPORT SUFFIX. The script adds -olNAME.eventlog and keeps
# the <prog>.prof the RTS wrote as NAME<suffix>.
PROFILE_ARGS=100   # profile.hs SCALE: ~0.6 s profiled, ~600 ticks, ~240 MB allocated
PROFILE_RUNS=(
  "profile-p|-p -l|.prof"
  "profile-P|-P -l|.prof"
  "profile-pj|-pj -l|.prof.json"
)
MAX_PROFILES_KB=1536

# compare/: pairs of runs, "before" and "after" a change, for `hecscope diff`
# and its tests. Same format as SUMMARY_RUNS (the -s text kept beside each).
COMPARE_PARFIB_ARGS=32       # parfib 32: ~0.2 s at -N1, sparks on every capability
COMPARE_LEAK_SCALE=2000      # as leak-hT-s; "fixed": the same work, leaks fixed
COMPARE_RUNS=(
  "parfib-N1|parfib|thr|$COMPARE_PARFIB_ARGS|-l -N1"
  "parfib-N4|parfib|thr|$COMPARE_PARFIB_ARGS|-l -N4"
  "leak-before|leak|thr|$COMPARE_LEAK_SCALE|-hT -l -i0.05"
  "leak-after|leak|thr|$COMPARE_LEAK_SCALE fixed|-hT -l -i0.05"
  # spans.hs at -N1 and -N2: the same user spans and markers at other times
  # (the stacked timelines aligned at one of them).
  "spans-N1|spans|thr|$SPANS_REQUESTS|-l -N1"
  "spans-N2|spans|thr|$SPANS_REQUESTS|-l -N2"
)
# Profiled pairs: NAME|PROGRAM ARGS|RTS FLAGS|REPORT SUFFIX (as PROFILE_RUNS):
# profile.hs as it is, and with collatzMax made four times slower.
COMPARE_PROFILE_ARGS=60
COMPARE_PROFILE_RUNS=(
  "profile-before|$COMPARE_PROFILE_ARGS|-P -l|.prof"
  "profile-slower|$COMPARE_PROFILE_ARGS slow|-P -l|.prof"
)
MAX_COMPARE_KB=1536

die() { echo "generate.sh: error: $*" >&2; exit 1; }
note() { echo "generate.sh: $*" >&2; }
fsize() { stat -c %s "$1"; }

BUILD=""
cleanup() { if [[ -n "$BUILD" && -d "$BUILD" ]]; then rm -rf "$BUILD"; fi; }
trap cleanup EXIT

make_build_dir() {
  BUILD="$(mktemp -d "${TMPDIR:-/tmp}/hecscope-testdata.XXXXXX")"
  mkdir -p "$BUILD/run"
}

# compile PROGRAM BUILD -> prints the binary path
compile() {
  local prog="$1" kind="$2" flags
  case "$kind" in
    thr) flags=(-O -threaded -eventlog -rtsopts) ;;
    prof) flags=(-O -prof -fprof-auto -eventlog -rtsopts) ;;
    *) die "unknown build kind $kind" ;;
  esac
  # One bin dir per build kind, so the binary is just <prog> (its name is
  # what the RTS records as argv[0] and uses for the .hp/.prof files).
  local exe="$BUILD/bin-$kind/$prog"
  mkdir -p "$BUILD/bin-$kind"
  if [[ ! -x "$exe" ]]; then
    note "compiling $prog.hs ($kind: ${flags[*]})"
    # Inside programs/ with a bare file name: profiles' SRC columns and
    # cost-centre definitions then say "profile.hs:83:1-80", no build path.
    (cd "$PROGS" && "$GHC" "${flags[@]}" -outputdir "$BUILD/obj-$prog-$kind" -o "$exe" \
      "$prog.hs") >"$BUILD/ghc-$prog-$kind.log" 2>&1 \
      || { cat "$BUILD/ghc-$prog-$kind.log" >&2; die "compiling $prog.hs failed"; }
  fi
  echo "$exe"
}

# run_one NAME PROGRAM BUILD ARGS RTSFLAGS [OUTDIR [summary]]
# With 'summary', the run also writes its `+RTS -s` text to OUTDIR/NAME.s.txt.
run_one() {
  local name="$1" prog="$2" kind="$3" args="$4" rts="$5"
  local outdir="${6:-$LOGS}" summary="${7:-}"
  local exe rundir out tmp rc
  exe="$(compile "$prog" "$kind")"
  out="$outdir/$name.eventlog"
  local -a argv=() rtsv=()
  read -r -a argv <<<"$args"
  read -r -a rtsv <<<"$rts"
  # -s with a relative name too: the summary's first line is the command line.
  [[ "$summary" == summary ]] && rtsv+=("-s$name.s.txt")
  local attempt=0
  while :; do
    rundir="$BUILD/run/$name"
    tmp="$rundir/$name.eventlog"
    rm -rf "$rundir"
    mkdir -p "$rundir"
    local t0=$SECONDS
    rc=0
    # Run in a scratch cwd so .hp/.prof side files never land in the repo.
    # -ol is relative, so the log's own "program arguments" event (and the
    # .hp JOB line) say -ol<name>.eventlog rather than a temp path.
    # Run through PATH so argv[0] is just the program name.
    (cd "$rundir" && PATH="$(dirname "$exe"):$PATH" \
      "$prog" "${argv[@]}" +RTS "${rtsv[@]}" "-ol$name.eventlog" -RTS \
      >"$BUILD/$name.stdout" 2>"$BUILD/$name.stderr") || rc=$?
    if [[ $rc -eq 0 ]]; then break; fi
    # GHC 9.0.2's -hb crashes on the 32nd census: retry with less work.
    if [[ "$rts" == *-hb* && $attempt -lt 2 && ${#argv[@]} -gt 0 ]]; then
      attempt=$((attempt + 1))
      argv[0]=$((argv[0] / 2))
      note "WARNING: $name crashed (exit $rc, known GHC 9.0.2 -hb bug);" \
        "retrying with program argument ${argv[0]}"
      continue
    fi
    cat "$BUILD/$name.stderr" >&2
    die "$name: '$prog ${argv[*]} +RTS $rts' exited with $rc"
  done
  [[ -s "$tmp" ]] || die "$name: no eventlog written"
  if [[ "$summary" == summary ]]; then
    [[ -s "$rundir/$name.s.txt" ]] || die "$name: no -s summary written"
    mv -f "$rundir/$name.s.txt" "$outdir/$name.s.txt"
  fi
  mv -f "$tmp" "$out"
  if [[ "$name" == "$KEEP_HP_OF" ]]; then
    [[ -s "$rundir/$prog.hp" ]] || die "$name: no .hp file written"
    mv -f "$rundir/$prog.hp" "$LOGS/$name.hp"
  fi
  rm -rf "$rundir"   # drops any other .hp / .prof side files
  printf '  %-28s %9d bytes  %3ds  (%s %s +RTS %s)\n' "$name.eventlog" \
    "$(fsize "$out")" $((SECONDS - t0)) "$prog" "${argv[*]}" "$rts"
  if [[ "$summary" == summary ]]; then
    printf '  %-28s %9d bytes  %s collections\n' "$name.s.txt" \
      "$(fsize "$outdir/$name.s.txt")" "$(summary_colls "$outdir/$name.s.txt")"
  fi
}

# summary_colls FILE.s.txt -> Gen 0 + Gen 1 collections of a `+RTS -s` text
summary_colls() {
  awk '$1 == "Gen" && $4 == "colls," { n += $3 } END { print n + 0 }' "$1"
}

# check_summary FILE.s.txt: does it look like a complete `+RTS -s` report of
# this run (and nothing else)? Prints the problems; returns 1 if any.
check_summary() {
  local f="$1" name bad=0 pat first
  name="$(basename "$f" .s.txt)"
  for pat in 'bytes allocated in the heap' 'bytes copied during GC' \
    'bytes maximum residency' 'Gen  0 .* colls, .* par' 'Gen  1 .* colls, .* par' \
    'TASKS:' 'SPARKS:' 'INIT +time' 'MUT +time' 'GC +time' 'EXIT +time' \
    'Total +time' 'Productivity'; do
    grep -Eq "$pat" "$f" || { echo "  $f: no '$pat' line"; bad=1; }
  done
  # (No check for 'Parallel GC work balance': the RTS prints it only when the
  # measured balance is > 0, which a run with parallel GCs need not have; a
  # nonmoving -N2 run with 179 parallel collections came out without it.)
  # The first line is the RTS's record of the command line, with relative
  # -ol/-s names: no program output before it, no temporary paths in it.
  first="$(head -n 1 "$f")"
  [[ "$first" == "'"*"+RTS"* && "$first" == *"'-ol$name.eventlog'"* \
    && "$first" == *"'-s$name.s.txt'"* ]] \
    || { echo "  $f: first line is not the run's command line: $first"; bad=1; }
  [[ "$first" != *"/"* ]] || { echo "  $f: a path in the command line: $first"; bad=1; }
  return $bad
}

expected_files() {
  local spec
  for spec in "${RUNS[@]}"; do echo "logs/${spec%%|*}.eventlog"; done
  echo "logs/$KEEP_HP_OF.hp"
  for spec in "${SUMMARY_RUNS[@]}"; do
    echo "rts-summary/${spec%%|*}.eventlog"
    echo "rts-summary/${spec%%|*}.s.txt"
  done
  for spec in "${PROFILE_RUNS[@]}"; do
    echo "profiles/${spec%%|*}.eventlog"
    echo "profiles/${spec%%|*}${spec##*|}"
  done
  for spec in "${COMPARE_RUNS[@]}"; do
    echo "compare/${spec%%|*}.eventlog"
    echo "compare/${spec%%|*}.s.txt"
  done
  for spec in "${COMPARE_PROFILE_RUNS[@]}"; do
    echo "compare/${spec%%|*}.eventlog"
    echo "compare/${spec%%|*}${spec##*|}"
  done
}

# check_prof FILE.prof / FILE.prof.json: a complete report of that run?
# (.prof: the title line, the header, the tree down to its last line; JSON:
# the opening keys and the closing brace.) Prints the problems; returns 1.
check_prof() {
  local f="$1" bad=0
  case "$f" in
    *.prof.json)
      [[ "$(head -c 1 "$f")" == "{" ]] || { echo "  $f: does not start with {"; bad=1; }
      grep -q '"cost_centres"' "$f" || { echo "  $f: no cost_centres"; bad=1; }
      grep -q '"profile"' "$f" || { echo "  $f: no profile tree"; bad=1; }
      [[ "$(tail -c 2 "$f" | tr -d '\n')" == "}" ]] || { echo "  $f: not closed"; bad=1; } ;;
    *.prof)
      head -n 1 "$f" | grep -q 'Time and Allocation Profiling Report  (Final)' \
        || { echo "  $f: no report title"; bad=1; }
      grep -q 'total time  = ' "$f" || { echo "  $f: no total time"; bad=1; }
      grep -q 'total alloc = ' "$f" || { echo "  $f: no total alloc"; bad=1; }
      grep -Eq '^MAIN +MAIN +<built-in> +[0-9]+ +0 ' "$f" || { echo "  $f: no MAIN tree line"; bad=1; } ;;
  esac
  return $bad
}

check() {
  local f path bad=0 total=0 summary_total=0 profiles_total=0 compare_total=0 magic
  local ok
  for f in $(expected_files); do
    path="$HERE/$f"
    if [[ ! -s "$path" ]]; then
      echo "MISSING or empty: $path"; bad=1; continue
    fi
    ok=1
    case "$f" in
      *.eventlog)
        magic="$(head -c 4 "$path")"
        [[ "$magic" == "hdrb" ]] || { echo "BAD MAGIC ($magic): $path"; ok=0; } ;;
      *.hp)
        magic="$(head -c 3 "$path")"
        [[ "$magic" == "JOB" ]] || { echo "BAD .hp header: $path"; ok=0; } ;;
      *.s.txt)
        check_summary "$path" || { echo "BAD -s summary: $path"; ok=0; } ;;
      *.prof | *.prof.json)
        check_prof "$path" || { echo "BAD report: $path"; ok=0; } ;;
    esac
    total=$((total + $(fsize "$path")))
    if [[ "$f" == rts-summary/* ]]; then
      summary_total=$((summary_total + $(fsize "$path")))
    fi
    if [[ "$f" == profiles/* ]]; then
      profiles_total=$((profiles_total + $(fsize "$path")))
    fi
    if [[ "$f" == compare/* ]]; then
      compare_total=$((compare_total + $(fsize "$path")))
    fi
    if ((ok)); then
      printf '  ok %-40s %9d bytes\n' "$f" "$(fsize "$path")"
    else
      bad=1
    fi
  done
  # Full decode with Hecscope itself when it is built: any diagnostic (error
  # or truncation warning) on stderr fails the check.
  local hecscope="" candidate err
  err="$(mktemp)"
  for candidate in "$HERE/../build/release/app/hecscope" "$HERE/../build/app/hecscope"; do
    [[ -x "$candidate" ]] && { hecscope="$candidate"; break; }
  done
  if [[ -n "$hecscope" ]]; then
    for path in "$LOGS"/*.eventlog "$SUMMARIES"/*.eventlog "$PROFILES"/*.eventlog "$COMPARE"/*.eventlog; do
      if ! "$hecscope" dump "$path" 2>"$err" >/dev/null || [[ -s "$err" ]]; then
        echo "DECODE FAILED: $path"; cat "$err"; bad=1
      fi
    done
    rm -f "$err"
  else
    note "hecscope is not built: skipping the full decode of the logs"
  fi
  local total_kb=$(((total + 1023) / 1024))
  echo "  total: $total_kb KiB in $(expected_files | wc -l) files"
  if ((total_kb > MAX_TOTAL_KB)); then
    echo "  WARNING: total exceeds $MAX_TOTAL_KB KiB"
  fi
  local summary_kb=$(((summary_total + 1023) / 1024))
  echo "  rts-summary: $summary_kb KiB"
  if ((summary_kb > MAX_SUMMARY_KB)); then
    echo "  WARNING: rts-summary/ exceeds $MAX_SUMMARY_KB KiB"
  fi
  local profiles_kb=$(((profiles_total + 1023) / 1024))
  echo "  profiles: $profiles_kb KiB"
  if ((profiles_kb > MAX_PROFILES_KB)); then
    echo "  WARNING: profiles/ exceeds $MAX_PROFILES_KB KiB"
  fi
  local compare_kb=$(((compare_total + 1023) / 1024))
  echo "  compare: $compare_kb KiB"
  if ((compare_kb > MAX_COMPARE_KB)); then
    echo "  WARNING: compare/ exceeds $MAX_COMPARE_KB KiB"
  fi
  if ((bad)); then die "check failed"; fi
  echo "generate.sh: all logs OK"
}

# GHC and the profiling libraries come from Debian (tools/dev ghc); they are
# installed here when missing, unless GHC names a compiler of the caller's.
need_ghc() {
  if ! command -v "$GHC" >/dev/null && [ "$GHC" = ghc ]; then
    note "ghc not found: installing it with tools/dev ghc"
    "$HERE/../tools/dev" ghc
  fi
  command -v "$GHC" >/dev/null || die "$GHC not found"
}

generate_logs() {
  mkdir -p "$LOGS"
  local spec name prog kind args rts t0=$SECONDS
  for spec in "${RUNS[@]}"; do
    IFS='|' read -r name prog kind args rts <<<"$spec"
    run_one "$name" "$prog" "$kind" "$args" "$rts"
  done
  echo "generated ${#RUNS[@]} logs in $((SECONDS - t0))s"
}

# generate_named_logs NAME...: regenerate only these RUNS entries.
generate_named_logs() {
  (($# > 0)) || die "logs: name at least one log (the RUNS names: $(run_names))"
  local want spec name prog kind args rts t0=$SECONDS found
  local -a specs=()
  for want in "$@"; do
    want="${want%.eventlog}"
    found=""
    for spec in "${RUNS[@]}"; do
      [[ "${spec%%|*}" == "$want" ]] && { found="$spec"; break; }
    done
    [[ -n "$found" ]] || die "logs: no run named '$want' (the RUNS names: $(run_names))"
    specs+=("$found")
  done
  need_ghc
  make_build_dir
  note "building in $BUILD (GHC: $("$GHC" --numeric-version))"
  mkdir -p "$LOGS"
  for spec in "${specs[@]}"; do
    IFS='|' read -r name prog kind args rts <<<"$spec"
    run_one "$name" "$prog" "$kind" "$args" "$rts"
  done
  echo "generated ${#specs[@]} logs in $((SECONDS - t0))s"
  check
}

run_names() {
  local spec out=""
  for spec in "${RUNS[@]}"; do out+="${out:+ }${spec%%|*}"; done
  echo "$out"
}

# rts-summary/: each run writes NAME.eventlog and NAME.s.txt together.
# With names, only those SUMMARY_RUNS entries (the others stay as committed).
generate_summaries() {
  mkdir -p "$SUMMARIES"
  local spec name prog kind args rts t0=$SECONDS want found
  local -a specs=()
  if (($# == 0)); then
    specs=("${SUMMARY_RUNS[@]}")
  fi
  for want in "$@"; do
    want="${want%.eventlog}"
    found=""
    for spec in "${SUMMARY_RUNS[@]}"; do
      [[ "${spec%%|*}" == "$want" ]] && { found="$spec"; break; }
    done
    [[ -n "$found" ]] || die "summaries: no run named '$want'"
    specs+=("$found")
  done
  for spec in "${specs[@]}"; do
    IFS='|' read -r name prog kind args rts <<<"$spec"
    run_one "$name" "$prog" "$kind" "$args" "$rts" "$SUMMARIES" summary
  done
  echo "generated ${#specs[@]} logs with -s summaries in $((SECONDS - t0))s"
}

# profile_run NAME ARGS RTSFLAGS SUFFIX OUTDIR: one run of profile.hs keeps
# its eventlog and the report the RTS wrote into <prog>.prof in the run's
# scratch directory.
profile_run() {
  local name="$1" args="$2" rts="$3" suffix="$4" outdir="$5" exe rundir
  local -a argv rtsv
  read -r -a argv <<<"$args"
  read -r -a rtsv <<<"$rts"
  exe="$(compile profile prof)"
  rundir="$BUILD/run/$name"
  rm -rf "$rundir"
  mkdir -p "$rundir"
  (cd "$rundir" && PATH="$(dirname "$exe"):$PATH" \
    profile "${argv[@]}" +RTS "${rtsv[@]}" "-ol$name.eventlog" -RTS \
    >"$BUILD/$name.stdout" 2>"$BUILD/$name.stderr") \
    || { cat "$BUILD/$name.stderr" >&2; die "$name: 'profile $args +RTS $rts' failed"; }
  [[ -s "$rundir/$name.eventlog" ]] || die "$name: no eventlog written"
  [[ -s "$rundir/profile.prof" ]] || die "$name: no profile.prof written"
  mv -f "$rundir/$name.eventlog" "$outdir/$name.eventlog"
  mv -f "$rundir/profile.prof" "$outdir/$name$suffix"
  rm -rf "$rundir"
  printf '  %-28s %9d bytes  %-18s %9d bytes  (%s +RTS %s)\n' "$name.eventlog" \
    "$(fsize "$outdir/$name.eventlog")" "$name$suffix" "$(fsize "$outdir/$name$suffix")" "$args" "$rts"
}

generate_profiles() {
  mkdir -p "$PROFILES"
  local spec name rts suffix t0=$SECONDS
  for spec in "${PROFILE_RUNS[@]}"; do
    IFS='|' read -r name rts suffix <<<"$spec"
    profile_run "$name" "$PROFILE_ARGS" "$rts" "$suffix" "$PROFILES"
  done
  echo "generated ${#PROFILE_RUNS[@]} profiled runs in $((SECONDS - t0))s"
}

# compare/: the pairs of COMPARE_RUNS (with their -s text) and
# COMPARE_PROFILE_RUNS (with their .prof).
# NAMES: only those runs (none: all).
generate_compare() {
  mkdir -p "$COMPARE"
  local spec name prog kind args rts suffix t0=$SECONDS count=0
  local wanted=" $* "
  for spec in "${COMPARE_RUNS[@]}"; do
    IFS='|' read -r name prog kind args rts <<<"$spec"
    [[ $# -eq 0 || "$wanted" == *" $name "* ]] || continue
    run_one "$name" "$prog" "$kind" "$args" "$rts" "$COMPARE" summary
    count=$((count + 1))
  done
  for spec in "${COMPARE_PROFILE_RUNS[@]}"; do
    IFS='|' read -r name args rts suffix <<<"$spec"
    [[ $# -eq 0 || "$wanted" == *" $name "* ]] || continue
    profile_run "$name" "$args" "$rts" "$suffix" "$COMPARE"
    count=$((count + 1))
  done
  ((count > 0)) || die "no compare run is named $*"
  echo "generated $count runs for compare/ in $((SECONDS - t0))s"
}

generate_compare_only() {
  need_ghc
  make_build_dir
  note "building in $BUILD (GHC: $("$GHC" --numeric-version))"
  generate_compare "$@"
  check
}

generate_all() {
  need_ghc
  make_build_dir
  note "building in $BUILD (GHC: $("$GHC" --numeric-version))"
  generate_logs
  generate_summaries
  generate_profiles
  generate_compare
  check
}

generate_profiles_only() {
  need_ghc
  make_build_dir
  note "building in $BUILD (GHC: $("$GHC" --numeric-version))"
  generate_profiles
  check
}

generate_summaries_only() {
  need_ghc
  make_build_dir
  note "building in $BUILD (GHC: $("$GHC" --numeric-version))"
  generate_summaries "$@"
  check
}

# ---- big mode ---------------------------------------------------------------

generate_big() {
  local out="${1:-${TMPDIR:-/tmp}/hecscope-big.eventlog}"
  local min_mb="${2:-260}"
  local caps="${BIG_N:-2}" pairs="${BIG_PAIRS:-16}" yielders="${BIG_YIELDERS:-4}"
  [[ "$min_mb" =~ ^[0-9]+$ ]] || die "MIN_MB must be an integer, got '$min_mb'"
  [[ "$pairs" =~ ^[1-9][0-9]*$ ]] || die "BIG_PAIRS must be a positive integer, got '$pairs'"
  [[ "$yielders" =~ ^[0-9]+$ ]] || die "BIG_YIELDERS must be an integer, got '$yielders'"
  need_ghc
  make_build_dir
  mkdir -p "$(dirname "$out")"
  out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
  local exe
  exe="$(compile biglog thr)"
  local target=$((min_mb * 1024 * 1024))
  local t0=$SECONDS

  # Calibration run: bytes per round (per pair) at this -N.
  local cal_rounds=3000 cal="$BUILD/calibrate.eventlog"
  (cd "$BUILD/run" && "$exe" "$cal_rounds" "$pairs" "$yielders" \
    +RTS -l "-N$caps" "-ol$cal" -RTS >/dev/null)
  local cal_size
  cal_size="$(fsize "$cal")"
  # rounds = target / (bytes per round) + 5% margin (size is ~linear in rounds)
  local rounds=$((target * cal_rounds * 105 / (cal_size * 100) + 1))
  note "calibration: $cal_rounds rounds -> $cal_size bytes; using $rounds rounds"

  local tmp="$out.partial" size=0 attempt
  for attempt in 1 2 3 4; do
    rm -f "$tmp"
    note "run $attempt: biglog $rounds $pairs $yielders +RTS -l -N$caps"
    (cd "$BUILD/run" && "$exe" "$rounds" "$pairs" "$yielders" \
      +RTS -l "-N$caps" "-ol$tmp" -RTS >/dev/null)
    size="$(fsize "$tmp")"
    if ((size >= target)); then break; fi
    note "only $((size / 1048576)) MiB, need $min_mb MiB; rescaling the rounds"
    rounds=$((rounds * target * 110 / (size * 100) + 1))
  done
  ((size >= target)) || { rm -f "$tmp"; die "could not reach $min_mb MiB"; }
  mv -f "$tmp" "$out"
  local est=$((size / 17))  # ~17 bytes per event for this program
  echo "big log: $out"
  echo "  size: $size bytes ($((size / 1048576)) MiB)"
  echo "  events: ~$est (estimated from the calibration run)"
  echo "  command: biglog $rounds $pairs $yielders +RTS -l -N$caps -ol$out"
  echo "  took $((SECONDS - t0))s (plus compilation)"
}

case "${1:-}" in
  "") generate_all ;;
  logs) shift; generate_named_logs "$@" ;;
  summaries) shift; generate_summaries_only "$@" ;;
  profiles) generate_profiles_only ;;
  compare) shift; generate_compare_only "$@" ;;
  --check | check) check ;;
  big) shift; generate_big "$@" ;;
  -h | --help | help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' ;;
  *) die "unknown argument '$1' (try --help)" ;;
esac
