#!/bin/bash
# bench-docs.sh — notebooks, PDFs and images (SPEC §16) against the tools a user would
# reach for instead: pdftotext, jq, and the image's own decode.
#
# Usage: scripts/bench-docs.sh [--bin PATH] [--runs N] [--pdfs "A.pdf B.pdf …"]
#   --bin PATH   the agentread binary (default target/<host>/release/agentread, built if missing)
#   --runs N     runs per command (default 15)
#   --pdfs LIST  the PDFs to read (default: up to 6 PDFs of 20-400 pages found under
#                /usr/share/doc, e.g. from texlive-doc or debian-reference)
#
# PDF: agentread's first window (which extracts every page first) against `pdftotext F -`
# (all pages), medians from one hyperfine run holding both; words: the share of
# pdftotext's words (a multiset, whitespace-split, NFKC) found in agentread's whole view.
# (Word recall over a corpus of real-world PDFs, per producer: scripts/pdf-recall.py.)
# Notebook: a 20 MB notebook of plots and text (examples/gen_notebook.rs), the first
# window against `jq '.cells | length'` parsing the same file; peak RSS by GNU time.
# Image: a 4000x3000 PNG (examples/gen_image.rs) read through `--mcp`: the time from the
# call to its answer, scaled to 1568x1176, median over the runs.
# Needs hyperfine, jq, pdftotext, pdfinfo, python3 and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
RELEASE=${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release
BIN=$RELEASE/agentread RUNS=15 PDFS=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --pdfs) PDFS=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench-docs.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in hyperfine jq pdftotext pdfinfo python3; do
  command -v "$tool" > /dev/null || { echo "bench-docs.sh: $tool is needed (apt-get install hyperfine jq poppler-utils python3 time)" >&2; exit 2; }
done
[[ -x $BIN ]] || cargo build --release --quiet
BIN=$(realpath "$BIN")
cargo build --release --quiet --features examples --example gen_image --example gen_notebook
OUT=$(mktemp -d /tmp/agentread-bench-docs.XXXXXX)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "cpu: ${cpu:-unknown}, $(nproc) cores"

if [[ -z $PDFS ]]; then
  PDFS=$(find /usr/share/doc -name '*.pdf' -size +100k 2>/dev/null | sort | while read -r f; do
    n=$(pdfinfo "$f" 2>/dev/null | sed -n 's/^Pages: *//p')
    [[ -n $n && $n -ge 20 && $n -le 400 ]] && echo "$f"
  done | head -6 | tr '\n' ' ')
fi
echo
printf '%-34s %6s %11s %11s %7s %8s\n' pdf pages agentread pdftotext ratio words
for f in $PDFS; do
  f=$(realpath "$f")
  pages=$(pdfinfo "$f" | sed -n 's/^Pages: *//p')
  dir=$(dirname "$f") name=$(basename "$f")
  hyperfine -N --output=pipe --style none --warmup 2 --runs "$RUNS" --export-json "$OUT/pdf.json" \
    "$BIN --root $dir $name" "pdftotext $f -" > /dev/null
  python3 - "$OUT/pdf.json" "$BIN" "$f" "$name" "$pages" <<'PY'
import collections, json, subprocess, sys, unicodedata
out, bin, path, name, pages = sys.argv[1:]
results = json.load(open(out))["results"]
ours, theirs = results[0]["median"], results[1]["median"]
def words(text):
    return collections.Counter(unicodedata.normalize("NFKC", text).split())
ref = words(subprocess.run(["pdftotext", path, "-"], capture_output=True).stdout.decode("utf-8", "replace"))
view, start = [], 1
while start:
    call = json.dumps({"path": path, "start_line": start, "limit": 2000})
    done = subprocess.run([bin, "--root", "/", "--numbers", "none", "--max-bytes", "100000000", "--call", call],
                          capture_output=True)
    answer = json.loads(done.stdout)
    if answer["status"] == "error":
        print(f"{name[:34]:<34} {answer['error']['message']}"); sys.exit()
    view.append(answer["data"]["content"]); start = answer["data"]["next_start_line"]
got = words("".join(view))
found = sum(min(n, got[w]) for w, n in ref.items()) / max(1, sum(ref.values()))
print(f"{name[:34]:<34} {pages:>6} {ours*1000:9.1f}ms {theirs*1000:9.1f}ms {ours/theirs:6.2f}x {found*100:7.1f}%")
PY
done

echo
"$REPO/$RELEASE/examples/gen_notebook" "$OUT/big.ipynb" 20 > /dev/null
size=$(stat -c %s "$OUT/big.ipynb")
hyperfine -N --output=pipe --style none --warmup 2 --runs "$RUNS" --export-json "$OUT/nb.json" \
  "$BIN --root $OUT big.ipynb" "jq '.cells | length' $OUT/big.ipynb" > /dev/null
/usr/bin/time -f '%M' -o "$OUT/rss" "$BIN" --root "$OUT" big.ipynb > /dev/null
python3 - "$OUT/nb.json" "$size" "$(tail -1 "$OUT/rss")" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
size, rss = int(sys.argv[2]), int(sys.argv[3]) * 1024
ours, theirs = results[0]["median"], results[1]["median"]
print(f"notebook {size/1e6:.1f} MB, first window: agentread {ours*1000:.1f}ms, jq {theirs*1000:.1f}ms, "
      f"ratio {ours/theirs:.2f}x (target 3x); peak RSS {rss/2**20:.1f} MiB = {rss/size:.2f}x the file (target 2x)")
PY

echo
"$REPO/$RELEASE/examples/gen_image" "$OUT/shot.png" 4000 3000 photo > /dev/null
python3 - "$BIN" "$OUT" "$RUNS" <<'PY'
import json, statistics, subprocess, sys, time
bin, root, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
server = subprocess.Popen([bin, "--mcp", "--root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(message):
    server.stdin.write((json.dumps(message) + "\n").encode()); server.stdin.flush()
def answer(id):
    while True:
        message = json.loads(server.stdout.readline())
        if message.get("id") == id: return message
send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
answer(0)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
times = []
for i in range(1, runs + 1):
    started = time.perf_counter()
    send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "shot.png"}}})
    result = answer(i)["result"]
    times.append(time.perf_counter() - started)
server.stdin.close(); server.wait()
print(f"image 4000x3000 PNG: {result['content'][0]['text']}")
print(f"  call to answer: median {statistics.median(times)*1000:.0f}ms, min {min(times)*1000:.0f}ms over {runs} calls (target 150ms)")
PY
echo
echo "raw results in $OUT"
