#!/bin/bash
# bench-structure.sh — reading by structure (SPEC §15) against universal-ctags, the
# standard outline tool, on real trees nobody here wrote.
#
# Usage: scripts/bench-structure.sh [--bin PATH] [--runs N] [--files "A B …"] [--trees "D …"]
#   --bin PATH    the agentread binary (default target/<host>/release/agentread, built if missing)
#   --runs N      runs per command (default 10)
#   --files LIST  source files to outline (default: the largest file of each language in
#                 the default trees, npm's JavaScript, libstdc++'s C++ headers, and
#                 Go and Java trees named by $GO_TREE and $JAVA_TREE when set)
#   --trees LIST  source trees to map (default: tokio, regex and serde from
#                 ~/.cargo/registry/src, CPython's Lib/, and jq and zod in /tmp/corpus)
#
# Each row is one hyperfine run holding agentread and ctags, so noise hits both; the
# ratio is agentread's median over ctags'. ctags runs as `ctags -x --fields=+ne -f - FILE`
# for a file and `ctags -R -x DIR` for a tree. The outline cache lives in a temporary
# $XDG_CACHE_HOME: "cold" empties it before each run, "warm" runs after it is filled.
# A map is read as an agent pages it: every page in turn at the default `-n 500`
# ("all pages"), or its first page only. Needs hyperfine, ctags (universal-ctags), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release/agentread RUNS=10 FILES="" TREES=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --files) FILES=$2; shift 2 ;;
    --trees) TREES=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench-structure.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in hyperfine ctags python3; do
  command -v "$tool" > /dev/null || { echo "bench-structure.sh: $tool is needed (apt-get install hyperfine universal-ctags python3)" >&2; exit 2; }
done
[[ -x $BIN ]] || cargo build --release --quiet
BIN=$(realpath "$BIN")
REG=$(ls -d ~/.cargo/registry/src/*/ 2>/dev/null | head -1)
newest() { ls -d "$REG$1"-[0-9]* 2>/dev/null | sort -V | tail -1; }
if [[ -z $TREES ]]; then
  for t in "$(newest tokio)" "$(newest regex)" "$(newest serde)" "$(ls -d /usr/lib/python3.* 2>/dev/null | sort -V | tail -1)" \
    /tmp/corpus/jqlang+jq /tmp/corpus/colinhacks+zod; do
    [[ -n $t && -d $t ]] && TREES="$TREES $t"
  done
fi
largest() { # largest PATTERN DIR…: the largest file by bytes
  local pattern=$1; shift
  find "$@" -type f -name "$pattern" ! -name '*.min.*' -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-
}
if [[ -z $FILES ]]; then
  for pick in "*.rs" "*.py" "*.ts" "*.c" "*.md"; do FILES="$FILES $(largest "$pick" $TREES)"; done
  FILES="$FILES $(largest '*.js' /usr/lib/node_modules) $(largest '*.h' /usr/include/c++/*/bits)"
  [[ -n ${GO_TREE:-} ]] && FILES="$FILES $(largest '*.go' "$GO_TREE")"
  [[ -n ${JAVA_TREE:-} ]] && FILES="$FILES $(largest '*.java' "$JAVA_TREE")"
fi
OUT=$(mktemp -d /tmp/agentread-bench-structure.XXXXXX)
export XDG_CACHE_HOME=$OUT/cache
mkdir -p "$XDG_CACHE_HOME"
COLD="rm -rf $XDG_CACHE_HOME/agentread"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "cpu: ${cpu:-unknown}, $(nproc) cores; $(ctags --version | head -1)"
echo
printf '%-28s %-16s %8s %10s %10s %8s %9s\n' file what size agentread ctags "ratio" "cpu ratio"
row() { # row NAME WHAT SIZE PREPARE OURS THEIRS
  local prepare=(--prepare "$4")
  [[ -z $4 ]] && prepare=()
  hyperfine -N --output=pipe --style none --warmup 2 --runs "$RUNS" "${prepare[@]}" --export-json "$OUT/r.json" "$5" "$6" > /dev/null
  python3 - "$OUT/r.json" "$1" "$2" "$3" <<'PY' | tee -a "$OUT/table"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
name, what, size = sys.argv[2:]
ours, theirs = results
cpu = lambda r: r["user"] + r["system"]  # means: hyperfine keeps no per-run CPU times
print(f"{name[-28:]:<28} {what:<16} {size:>8} {ours['median']*1000:8.1f}ms {theirs['median']*1000:8.1f}ms "
      f"{ours['median']/theirs['median']:7.2f}x {cpu(ours)/max(cpu(theirs), 1e-9):8.2f}x")
PY
}
for f in $FILES; do
  dir=$(dirname "$f") name=$(basename "$f") size="$(( $(stat -c %s "$f") / 1024 ))K"
  ours="$BIN --root $dir $name --outline --limit 2000 --max-bytes 100000000"
  theirs="ctags -x --fields=+ne -f - $f"
  row "$name" "outline cold" "$size" "$COLD" "$ours" "$theirs"
  row "$name" "outline warm" "$size" "" "$ours" "$theirs"
done
for d in $TREES; do
  # Every page in turn, as an agent pages: a script that reads them one after another.
  total=$("$BIN" --root "$d" . --outline --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["stats"]["total_lines"])' 2>/dev/null || echo 0)
  pages=$(( (total + 499) / 500 ))
  script="$OUT/pages-$(basename "$d").sh"
  { echo '#!/bin/sh'; for ((p = 0; p < pages; p++)); do echo "$BIN --root $d . --outline --start-line $((p * 500 + 1)) > /dev/null"; done; } > "$script"
  chmod +x "$script"
  files=$(find "$d" -type f | wc -l)
  row "$(basename "$d")" "map 1st cold" "${files}f" "$COLD" "$BIN --root $d . --outline" "ctags -R -x $d"
  row "$(basename "$d")" "map ${pages}p cold" "${files}f" "$COLD" "$script" "ctags -R -x $d"
  row "$(basename "$d")" "map ${pages}p warm" "${files}f" "" "$script" "ctags -R -x $d"
done
echo
python3 - "$OUT/table" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
ratio = lambda r: float(r[-2].rstrip("x"))
for what in ("outline cold", "outline warm"):
    rs = [ratio(r) for r in rows if " ".join(r[1:3]) == what]
    if rs:
        print(f"{what}: median {statistics.median(rs):.2f}x, worst {max(rs):.2f}x over {len(rs)} files")
PY
echo "raw results in $OUT"
