#!/usr/bin/env bash
# same-output.sh — runs two agentread binaries over every file of a directory with a
# set of option combinations, and reports where their outputs (stdout, stderr, exit
# status) differ. `time_ms` and the `(Took …)` line are masked, as SPEC §6 allows.
# XML is compared by scripts/same-xml.py, parsed (attribute order carries no meaning).
#
# Usage: scripts/same-output.sh OLD_BIN NEW_BIN DIR [MAX_FILES]
set -euo pipefail
OLD=$(realpath "$1") NEW=$(realpath "$2") DIR=$(realpath "$3") MAX=${4:-2000}
mask() { sed -E 's/"time_ms":[0-9]+/"time_ms":0/g; s/time_ms="[0-9]+"/time_ms="0"/g; s/\(Took [0-9]+ms\)/(Took 0ms)/g'; }
OPTS=(
  ""
  "--format json"
  "-s 3 -n 7 --numbers tab"
  "--tail 5 --format json"
  "--max-line-chars 40 --max-bytes 900 --format json"
  "--start-char 3 -n 2 --numbers colon"
  "--encoding auto --hash --format json"
  "--format xml"
  "--outline --format json"
  "--outline -n 5 --start-line 3"
  "--signatures"
  "--signatures --max-tokens 300 --numbers compact --format json"
  "--fit"
  "--fit --max-tokens 2000"
  "--fit --max-tokens 20000 --max-bytes 1000000 --format json"
)
files=0 runs=0 diffs=0
cd "$DIR"
while IFS= read -r -d '' f; do
  files=$((files + 1))
  for o in "${OPTS[@]}"; do
    runs=$((runs + 1))
    # shellcheck disable=SC2086
    a=$("$OLD" "$f" $o --root "$DIR" 2>&1 | mask; echo "exit ${PIPESTATUS[0]}")
    # shellcheck disable=SC2086
    b=$("$NEW" "$f" $o --root "$DIR" 2>&1 | mask; echo "exit ${PIPESTATUS[0]}")
    if [[ "$a" != "$b" ]]; then
      diffs=$((diffs + 1))
      echo "DIFF: $f $o"
    fi
  done
done < <(find . -maxdepth 6 \( -type f -o -type d \) -print0 | head -z -n "$MAX")
echo "files: $files, runs: $runs, differences: $diffs"
