#!/usr/bin/env bash
# bench.sh — agentread against the Unix pipelines a user would write instead.
#
# Usage: scripts/bench.sh [--quick] [--rounds N] [--runs N] [--corpus DIR] [--bin PATH]
#                         [--only a,b]
#   --quick       one round, fewer runs (rough numbers in about a minute)
#   --rounds N    rounds per scenario, command order reversed every other round (default 3)
#   --runs N      runs per command and round for the big-file scenarios (default 15)
#   --corpus DIR  where the corpus is made (default /tmp/agentread-bench-corpus; kept)
#   --bin PATH    the agentread binary (default target/<host>/release/agentread, built if
#                 missing)
#   --only LIST   scenarios to run: deep-big, tail-big, start-big, oneline, wide-csv,
#                 crlf-deep, tiny, start-medium, mcp
#
# Each round of a scenario is one hyperfine run (-N, --output=pipe) holding agentread and
# its baseline, so machine noise hits both alike. The ratio shown is the median over the
# rounds of agentread's median over the baseline's, with its range: on a shared machine
# only ratios mean anything. Peak RSS comes from GNU time. Needs hyperfine, GNU time,
# python3 and mawk.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)

QUICK=0 ROUNDS=3 RUNS=15 CORPUS=/tmp/agentread-bench-corpus BIN="" ONLY=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; ROUNDS=1; RUNS=5; shift ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in hyperfine python3 mawk; do
  command -v "$tool" > /dev/null || { echo "bench.sh: $tool is needed (apt-get install hyperfine python3 mawk time)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "bench.sh: GNU time is needed at /usr/bin/time" >&2; exit 2; }
# The build names the host as its target (.cargo/config.toml), so its outputs are here.
RELEASE=${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release
BIN=${BIN:-$RELEASE/agentread}
[[ -x $BIN ]] || cargo build --release --quiet
BIN=$(realpath "$BIN")

# ---------------------------------------------------------------- corpus (deterministic)
mkdir -p "$CORPUS"
CORPUS=$CORPUS python3 - <<'PY'
import os
out = os.environ["CORPUS"]
WORDS = ("alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega request "
         "response buffer cache index token parser reader writer stream window offset "
         "length count handle socket worker thread queue shard replica leader commit").split()
UTF8 = ["café", "naïve", "日本語", "Grüße", "→", "✓"]
class Rng:
    def __init__(self, seed): self.s = seed
    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return self.s >> 33
def made(name, size):
    p = os.path.join(out, name)
    return os.path.exists(p) and os.path.getsize(p) >= size
def source(n, seed):
    r, lines = Rng(seed), []
    while len(lines) < n:
        x = r.next()
        w = lambda k: WORDS[(x >> k) % len(WORDS)]
        lines.append(f"    let {w(1)}_{x % 97} = {w(7)}({w(13)}, {x % 65536}).map_err(Error::{w(19).title()})?; // {UTF8[x % 6]}")
        if x % 5 == 0: lines.append("")
        if x % 7 == 0: lines.append(f"pub fn {w(3)}_{w(11)}(input: &[u8]) -> Result<usize, Error> {{")
    return "\n".join(lines[:n]) + "\n"
for name, n, seed in (("small.rs", 300, 1), ("medium.rs", 20000, 2)):
    if not made(name, 1):
        open(os.path.join(out, name), "w", encoding="utf-8").write(source(n, seed))
if not made("big.log", 1_000_000_000):
    r = Rng(3)
    with open(os.path.join(out, "big.log"), "wb") as f:
        for block in range(100):
            rows = []
            for i in range(block * 100_000, (block + 1) * 100_000):
                x = r.next()
                words = " ".join(WORDS[(x >> k) % len(WORDS)] for k in range(0, 3 * (x % 11) + 6, 3))
                rows.append(f"2026-11-{1 + i // 400_000:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{x % 1000:03d}Z "
                            f"{['INFO', 'DEBUG', 'WARN', 'ERROR'][x % 4]:<5} [{WORDS[x % 8]}] seq={i} {words} {UTF8[x % 6] if x % 9 == 0 else ''}")
            f.write(("\n".join(rows) + "\n").encode())
if not made("wide.csv", 90_000_000):
    r = Rng(5)
    cells = [",".join(WORDS[(r.next() >> 7) % len(WORDS)] + str(r.next() % 1000) for _ in range(12)) for _ in range(256)]
    with open(os.path.join(out, "wide.csv"), "wb") as f:
        for row in range(20000):
            x = r.next()
            f.write((f"{row}," + ",".join(cells[(x >> k) % 256] for k in range(0, 50)) + "\n").encode())
if not made("crlf.txt", 90_000_000):
    r = Rng(6)
    with open(os.path.join(out, "crlf.txt"), "wb") as f:
        for block in range(155):
            rows = []
            for i in range(block * 10_000, (block + 1) * 10_000):
                x = r.next()
                rows.append(f"{i}\t" + " ".join(WORDS[(x >> k) % len(WORDS)] for k in range(0, 3 * (x % 13) + 9, 3)))
            f.write(("\r\n".join(rows) + "\r\n").encode())
if not made("oneline.min.js", 50_000_000):
    r, parts, size = Rng(4), [], 0
    while size < 50_000_000:
        x = r.next()
        s = f"function {WORDS[x % len(WORDS)]}{x % 9999}(e,t){{return e.{WORDS[(x >> 5) % len(WORDS)]}||\"{UTF8[x % 6]}\"}};"
        parts.append(s); size += len(s.encode())
    open(os.path.join(out, "oneline.min.js"), "wb").write("".join(parts).encode())
PY

# The floor of the big-file scenarios: the file read on every core into page-aligned
# buffers and its newlines counted, nothing else (examples/read_floor.rs).
(cd "$REPO" && cargo build --release --quiet --features examples --example read_floor)
FLOOR=$REPO/$RELEASE/examples/read_floor

# ---------------------------------------------------------------- scenarios
# name @ agentread arguments @ baseline label @ baseline command @ target ratio ("-": none,
# the row says how far the floor is)
SCENARIOS=(
  "deep-big@big.log --start-line 5000001 --limit 500@wc -l alone@wc -l big.log@0.45"
  "deep-big@big.log --start-line 5000001 --limit 500@tail|head|cat -n; wc -l@sh -c 'tail -n +5000001 big.log | head -n 500 | cat -n; wc -l big.log'@0.25"
  "deep-big@big.log --start-line 5000001 --limit 500@read floor (all cores)@$FLOOR big.log@-"
  "tail-big@big.log --tail 500@wc -l alone@wc -l big.log@0.45"
  "tail-big@big.log --tail 500@read floor (all cores)@$FLOOR big.log@-"
  "start-big@big.log --limit 500@head|cat -n; wc -l@sh -c 'head -n 500 big.log | cat -n; wc -l big.log'@0.5"
  "oneline@oneline.min.js --limit 500@head -c 2000; wc -l@sh -c 'head -c 2000 oneline.min.js; wc -l oneline.min.js'@1.0"
  "wide-csv@wide.csv --limit 500@head|cut|cat -n; wc -l@sh -c 'head -n 500 wide.csv | cut -c1-2000 | cat -n; wc -l wide.csv'@0.5"
  "crlf-deep@crlf.txt --start-line 700001 --limit 500@tail|head|cat -n; wc -l@sh -c 'tail -n +700001 crlf.txt | head -n 500 | cat -n; wc -l crlf.txt'@0.5"
  "tiny@small.rs --limit 2000@cat -n@cat -n small.rs@1.25"
  "start-medium@medium.rs --limit 500@mawk window + END{NR}@mawk 'NR<=500{printf \"%6d\\t%s\\n\",NR,\$0} END{print NR}' medium.rs@1.0"
)

OUT=$(mktemp -d /tmp/agentread-bench.XXXXXX)
cd "$CORPUS"
# Results depend on the CPU (a misaligned read buffer cost 5x on one and nothing on
# another): every table says where it was measured.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
caches=$(lscpu 2>/dev/null | sed -n 's/^\(L[123][di]* cache\):[[:space:]]*/\1 /p' | paste -sd ';' - | sed 's/;/; /g')
echo "cpu: ${cpu:-unknown}, $(nproc) cores; ${caches:-caches unknown}"
echo
printf '%-13s %-26s %10s %10s %18s %7s %s\n' scenario baseline "agentread" baseline "ratio [range]" target verdict
i=0
for row in "${SCENARIOS[@]}"; do
  IFS='@' read -r name args label base target <<< "$row"
  [[ -n $ONLY && ",$ONLY," != *",$name,"* ]] && continue
  i=$((i + 1))
  runs=$RUNS warm=3
  case $name in tiny|start-medium) runs=$((RUNS * 20)); warm=20 ;; oneline) runs=$((RUNS * 2)) ;; esac
  for round in $(seq 1 "$ROUNDS"); do
    if (( round % 2 == 1 )); then first="$BIN $args" second=$base; else first=$base second="$BIN $args"; fi
    # shellcheck disable=SC2086  # the argument lists are meant to split
    hyperfine -N --output=pipe --style none --warmup "$warm" --runs "$runs" \
      --export-json "$OUT/$i.$round.json" "$first" "$second" > /dev/null 2>&1
  done
  python3 - "$OUT" "$i" "$ROUNDS" "$BIN $args" "$name" "$label" "$target" <<'PY'
import json, statistics, sys
out, i, rounds, ours, name, label, target = sys.argv[1:]
ratios, mine, theirs = [], [], []
for r in range(1, int(rounds) + 1):
    results = json.load(open(f"{out}/{i}.{r}.json"))["results"]
    a = next(x["median"] for x in results if x["command"] == ours)
    b = next(x["median"] for x in results if x["command"] != ours)
    ratios.append(a / b); mine.append(a); theirs.append(b)
ratio = statistics.median(ratios)
spread = f"{ratio:.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"
verdict = "      -" if target == "-" else f"{float(target):6.2f}x {'ok' if ratio <= float(target) else 'MISSED'}"
print(f"{name:<13} {label:<26} {statistics.median(mine)*1000:8.1f}ms {statistics.median(theirs)*1000:8.1f}ms "
      f"{spread:>18} {verdict}")
PY
done

echo
printf '%-13s %12s\n' scenario "peak RSS"
declare -A seen
for row in "${SCENARIOS[@]}"; do
  IFS='@' read -r name args _ _ _ <<< "$row"
  [[ -n $ONLY && ",$ONLY," != *",$name,"* ]] && continue
  [[ -n ${seen[$name]:-} ]] && continue
  seen[$name]=1
  # shellcheck disable=SC2086
  /usr/bin/time -f '%M' -o "$OUT/rss" "$BIN" $args > /dev/null 2>&1 || true
  printf '%-13s %8s KiB\n' "$name" "$(tail -1 "$OUT/rss")"
done
if [[ -z $ONLY || ",$ONLY," == *",mcp,"* ]]; then
  echo
  reads=20000 spawns=1000
  (( QUICK )) && reads=5000 spawns=300
  # The client is compiled: it only writes a request and reads its answer, so that the
  # rate is the server's.
  (cd "$REPO" && cargo build --release --quiet --features examples --example mcp_bench)
  "$REPO/$RELEASE/examples/mcp_bench" "$BIN" "$CORPUS/small.rs" "$reads" "$spawns"
fi
echo
echo "machine: cpu ${cpu:-unknown}, $(nproc) cores, $(uname -sr); $(hyperfine --version); raw results in $OUT"
