#!/bin/bash
# bench-structure.sh — reading by structure (SPEC §15) against universal-ctags, the
# standard outline tool, on real files nobody here wrote.
#
# Usage: scripts/bench-structure.sh [--bin PATH] [--runs N] [--files "A B …"] [--trees "D …"]
#   --bin PATH    the agentread binary (default target/release/agentread, built if missing)
#   --runs N      runs per command (default 20)
#   --files LIST  large source files (default: the largest files of a few languages found
#                 in ~/.cargo/registry/src, /usr/lib/python3*, and npm's global modules)
#   --trees LIST  source trees for the map (default: the tokio and serde crates' sources)
#
# Each row is one hyperfine run holding agentread and ctags, so noise hits both; the
# ratio is agentread's median over ctags'. ctags runs as `ctags -x --fields=+ne -f - FILE`
# (no end lines or nesting for most languages) and `ctags -R -x DIR` for a tree. Wall time
# and user+system CPU time are both shown: agentread parses a tree on every core.
# Needs hyperfine, ctags (universal-ctags) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/agentread RUNS=20 FILES="" TREES=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --files) FILES=$2; shift 2 ;;
    --trees) TREES=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "bench-structure.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in hyperfine ctags python3; do
  command -v "$tool" > /dev/null || { echo "bench-structure.sh: $tool is needed (apt-get install hyperfine universal-ctags python3)" >&2; exit 2; }
done
[[ -x $BIN ]] || cargo build --release --quiet
BIN=$(realpath "$BIN")
REG=$(ls -d ~/.cargo/registry/src/*/ 2>/dev/null | head -1)
largest() { # largest() DIR PATTERN: the largest file by lines
  find "$1" -name "$2" -size +100k 2>/dev/null | xargs -r wc -l 2>/dev/null | grep -v ' total$' | sort -n | tail -1 | awk '{print $2}'
}
if [[ -z $FILES ]]; then
  FILES="$(largest "$REG" 'mod.rs') $(largest /usr/lib/python3* '*.py') $(largest /usr/lib/node_modules '*.ts')"
fi
if [[ -z $TREES ]]; then
  TREES="$(ls -d "$REG"tokio-1.* 2>/dev/null | tail -1) $(ls -d "$REG"serde-1.* 2>/dev/null | tail -1)"
fi
OUT=$(mktemp -d /tmp/agentread-bench-structure.XXXXXX)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "cpu: ${cpu:-unknown}, $(nproc) cores; $(ctags --version | head -1)"
echo
printf '%-30s %-8s %7s %10s %10s %12s %12s\n' file what lines agentread ctags "wall ratio" "cpu ratio"
row() { # row NAME WHAT LINES OURS THEIRS
  hyperfine -N --output=pipe --style none --warmup 3 --runs "$RUNS" --export-json "$OUT/r.json" "$4" "$5" > /dev/null
  python3 - "$OUT/r.json" "$1" "$2" "$3" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
name, what, lines = sys.argv[2:]
ours, theirs = results
cpu = lambda r: r["user"] + r["system"]  # means: hyperfine keeps no per-run CPU times
print(f"{name[-30:]:<30} {what:<8} {lines:>7} {ours['median']*1000:8.1f}ms {theirs['median']*1000:8.1f}ms "
      f"{ours['median']/theirs['median']:11.2f}x {cpu(ours)/max(cpu(theirs), 1e-9):11.2f}x")
PY
}
for f in $FILES; do
  dir=$(dirname "$f") name=$(basename "$f") lines=$(wc -l < "$f")
  row "$name" outline "$lines" "$BIN --root $dir $name --outline --limit 2000 --max-bytes 100000000" "ctags -x --fields=+ne -f - $f"
  # A function from the middle of the file, by its qualified name (one no other shares).
  symbol=$("$BIN" --root "$dir" "$name" --outline --limit 2000 --max-bytes 100000000 --format json | python3 -c '
import json, sys
import collections
all_symbols = json.load(sys.stdin)["data"]["symbols"]
count = collections.Counter(s["qualified_name"] for s in all_symbols)
# A unique name: overloads of one name are ambiguous (INVALID_PARAM), by design.
symbols = [s for s in all_symbols if s["kind"] in ("function", "method") and count[s["qualified_name"]] == 1]
print(symbols[len(symbols) // 2]["qualified_name"] if symbols else "")')
  [[ -n $symbol ]] && row "$name" "#symbol" "$lines" "$BIN --root $dir $name#$symbol" "ctags -x --fields=+ne -f - $f"
done
for d in $TREES; do
  files=$(find "$d" -name '*.rs' | wc -l)
  row "$(basename "$d")" map "$files f" "$BIN --root $d . --outline --limit 2000 --max-bytes 100000000" "ctags -R -x $d"
done
echo
echo "raw results in $OUT"
