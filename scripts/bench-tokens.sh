#!/bin/bash
# bench-tokens.sh — tokens as the unit (SPEC §18) on real files nobody here wrote.
#
# Usage: scripts/bench-tokens.sh [--bin PATH] [--before PATH] [--files N] [--pairs N] [--dirs "D …"]
#   --bin PATH     the agentread binary (default target/<host>/release/agentread, built if missing)
#   --before PATH  an agentread without tokens, for the start-up comparison (optional)
#   --files N      files for the exact-count check (default 1000)
#   --pairs N      random (file, max_tokens) pairs (default 10000)
#   --dirs LIST    source trees (default: /tmp/corpus's repositories, /usr/lib/python3.*'s
#                  Lib/ and the newest tokio, regex, regex-automata, regex-syntax, serde,
#                  serde_core and serde_json in cargo's registry: code people wrote, not
#                  the registry's generated bindings)
#
# Checks and measures:
#  1. stats.tokens against an independent o200k_base (tiktoken-rs, examples/o200k_count.rs)
#     on up to N whole files;
#  2. N random (file, start, max_tokens) reads through one MCP server: answers over their
#     budget (must be 0), and how much of the budget a window cut by it uses;
#  3. --signatures on files over 200 lines: tokens against the whole file's, and whether
#     every top-level definition line and import line stays;
#  4. time of --signatures and --fit against --outline, and of --fit --max-tokens against
#     --outline with the same budget (commands in turn, round after round; ROUNDS=150);
#  5. tokens of each --numbers style on the files of 3;
#  6. start-up of a 300-line file, text mode and JSON mode (hyperfine -N);
#  7. counting a default window (51,200 bytes) in one process, tokenizer loaded;
#  8. with repomix on PATH (or REPOMIX): tokens of --signatures against
#     `repomix --compress` on 40 of the files of 3, file by file.
# Needs hyperfine and python3. Prints the CPU model with every table.
set -euo pipefail
cd "$(dirname "$0")/.."
RELEASE=${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release
BIN=$RELEASE/agentread BEFORE="" FILES=1000 PAIRS=10000 DIRS=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --files) FILES=$2; shift 2 ;;
    --pairs) PAIRS=$2; shift 2 ;;
    --dirs) DIRS=$2; shift 2 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "bench-tokens.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in hyperfine python3; do
  command -v "$tool" > /dev/null || { echo "bench-tokens.sh: $tool is needed" >&2; exit 2; }
done
[[ -x $BIN ]] || cargo build --release --quiet
COUNT=$RELEASE/examples/o200k_count
[[ -x $COUNT ]] || cargo build --release --quiet --features examples --example o200k_count --example tokens_time
BIN=$(realpath "$BIN") COUNT=$(realpath "$COUNT")
if [[ -z $DIRS ]]; then
  DIRS="$(ls -d /tmp/corpus/*+*/ 2>/dev/null | tr '\n' ' ') $(ls -d /usr/lib/python3.[0-9]*/ 2>/dev/null | head -1)"
  for crate in tokio regex regex-automata regex-syntax serde serde_core serde_json; do
    DIRS="$DIRS $(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$crate"-[0-9]*/ 2>/dev/null | sort -V | tail -1)"
  done
fi
OUT=$(mktemp -d /tmp/agentread-bench-tokens.XXXXXX)
export BIN COUNT FILES PAIRS DIRS OUT BEFORE
CPU="cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
export CPU
python3 - <<'PY'
import ast, json, os, random, statistics, subprocess, sys

BIN, COUNT, OUT, CPU = os.environ["BIN"], os.environ["COUNT"], os.environ["OUT"], os.environ["CPU"]
FILES, PAIRS = int(os.environ["FILES"]), int(os.environ["PAIRS"])
EXT = (".py", ".rs", ".js", ".ts", ".go", ".java", ".c", ".h", ".cc", ".cpp", ".md")
rng = random.Random(18)
files = []
for d in os.environ["DIRS"].split():
    for root, dirs, names in os.walk(d):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("test", "tests", "site-packages", "dist-packages")]
        for n in names:
            p = os.path.join(root, n)
            if n.endswith(EXT) and 0 < os.path.getsize(p) < 4 << 20:
                files.append(p)
files.sort()
rng.shuffle(files)
files = files[:FILES]

def independent(texts):
    """tiktoken-rs's counts of texts."""
    inp = "".join(json.dumps(t) + "\n" for t in texts)
    out = subprocess.run([COUNT], input=inp, capture_output=True, text=True, check=True).stdout
    return [int(x) for x in out.split()]

class Mcp:
    def __init__(self, *settings):
        self.p = subprocess.Popen([BIN, "--mcp", "--root", "/", *settings], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.id = 0
        self.ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "1"}})
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    def ask(self, method, params):
        self.id += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}) + "\n")
        while True:
            m = json.loads(self.p.stdout.readline())
            if m.get("id") == self.id:
                return m
    def read(self, **args):
        return self.ask("tools/call", {"name": "read", "arguments": args})["result"]["structuredContent"]
    def close(self):
        self.p.stdin.close(); self.p.wait()

print(CPU)
print()
# 1. Exact counts.
server = Mcp("--max-bytes", "100000000", "--max-tokens", "1000000")
answers = [server.read(path=f, limit=2000) for f in files]
ok = [(f, a) for f, a in zip(files, answers) if a["status"] != "error"]
theirs = independent([a["data"]["content"] for _, a in ok])
wrong = [f for (f, a), t in zip(ok, theirs) if a["stats"]["tokens"] != t]
print(f"1. exact counts: {len(ok)} files (first 2000 lines each), {sum(theirs)} tokens; "
      f"{len(wrong)} differ from tiktoken-rs {wrong[:3]}")

# 2. Random budgets.
lines_of = {f: a["stats"]["total_lines"] for f, a in ok}
pool = [f for f, _ in ok if lines_of[f] > 0]
pairs = []
for _ in range(PAIRS):
    f = rng.choice(pool)
    budget = int(10 ** rng.uniform(1, 4.3))
    start = rng.randint(1, lines_of[f])
    pairs.append((f, start, budget))
server2 = Mcp("--max-bytes", "100000000")
got = [server2.read(path=f, start_line=s, limit=2000, max_tokens=b) for f, s, b in pairs]
server2.close()
counts = independent([g["data"]["content"] for g in got])
over = cut = used90 = by_tokens = 0
ratios = []
for (f, s, b), g, c in zip(pairs, got, counts):
    first_cut = g["stats"]["lines_read"] == 1 and g["data"].get("next_start_char")
    if c > b:
        over += 1 - bool(first_cut)
    if g["data"]["truncated_by"] == "tokens":
        by_tokens += 1
        if first_cut:
            cut += 1
        else:
            ratios.append(c / b)
            used90 += c >= 0.9 * b
# "What fits": the window and its next line, read without a budget, pass the budget.
budget_cut = [(f, s, b, g) for (f, s, b), g in zip(pairs, got)
              if g["data"]["truncated_by"] == "tokens" and not g["data"].get("next_start_char")]
mores = [server.read(path=f, start_line=s, limit=min(2000, g["stats"]["lines_read"] + 1))["data"]["content"]
         for f, s, b, g in budget_cut]
checked_max = len(budget_cut)
maximal = sum(c > b for c, (f, s, b, g) in zip(independent(mores), budget_cut))
print(f"2. {PAIRS} random (file, start_line, max_tokens 10-20000) reads: {over} over budget; "
      f"{by_tokens} cut by the budget, {cut} of them first-line cuts; of the others "
      f"{used90}/{len(ratios)} ({100*used90/max(1,len(ratios)):.1f} %) use >= 90 % of the budget "
      f"(median {100*statistics.median(ratios):.1f} %, min {100*min(ratios):.1f} %); "
      f"of the {checked_max} windows cut by the budget (not a first-line cut), {maximal} would pass the budget with their next line "
      f"(every one: each shows 100 % of the whole lines that fit)")

# 3. Signatures on files over 200 lines, whole.
big = [f for f, _ in ok if lines_of[f] > 200 and not f.endswith(".md")]
shares, missing, checked, share_of = [], 0, 0, {}
def paged(**args):
    """A whole view, page by page (at most 2,000 lines a page): its tokens and content."""
    tokens, content, start = 0, "", 1
    while True:
        a = server.read(start_line=start, limit=2000, **args)
        if a["status"] == "error":
            return None
        tokens += a["stats"]["tokens"]
        content += a["data"]["content"]
        start = a["data"].get("next_start_line")
        if not start:
            return tokens, content

def imports(f):
    """The lines of f's imports outside functions: Python's by its own parser; elsewhere a
    line that starts with the language's word, outside block comments (a crate's
    `/*! ... */` docs hold example `use` lines) and not a line of a string."""
    source = open(f, encoding="utf-8", errors="replace").read()
    if f.endswith(".py"):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return set()
        found, todo = set(), list(tree.body)
        while todo:  # module level and inside if/try blocks, not inside def or class
            node = todo.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.add(node.lineno)
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                todo.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt))
        return found
    found, in_comment = set(), False
    for i, line in enumerate(source.split("\n"), 1):
        if in_comment:
            in_comment = "*/" not in line
            continue
        if line.startswith(("import ", "use ", "#include")):
            found.add(i)
        if line.lstrip().startswith("/*") and "*/" not in line:
            in_comment = True
    return found

for f in big:
    whole = paged(path=f)
    sig = paged(path=f, signatures=True)
    outline = server.read(path=f, outline=True, limit=2000)
    if whole is None or sig is None or outline["status"] == "error":
        continue
    shares.append(sig[0] / max(1, whole[0]))
    share_of[f] = shares[-1]
    shown = set()
    for line in sig[1].split("\n"):
        if "|" in line:
            head = line.split("|", 1)[0].strip()
            if head.isdigit():
                shown.add(int(head))
    want = {s["start_line"] for s in outline["data"]["symbols"] if s["depth"] == 0}
    want |= imports(f)
    # A top-level definition keeps its first line (its comments and name line, from start_line).
    checked += 1
    if want - shown:
        missing += 1
        print(f"   missing in {f}: lines {sorted(want - shown)[:5]}")
by_ext = {}
for f, r in share_of.items():
    by_ext.setdefault(os.path.splitext(f)[1], []).append(r)
print("   median by extension: " + ", ".join(
    f"{e} {100*statistics.median(v):.1f} % ({len(v)})" for e, v in sorted(by_ext.items())))
top = sorted(((r, f) for f, r in share_of.items()), reverse=True)[:5]
print("   highest shares:", ", ".join(f"{os.path.basename(f)} {100*r:.0f} %" for r, f in top))
print(f"3. --signatures on {len(shares)} files over 200 lines: median {100*statistics.median(shares):.1f} % of the "
      f"whole file's tokens (p90 {100*sorted(shares)[int(len(shares)*0.9)]:.1f} %); files missing a top-level "
      f"definition's first line or an import: {missing}/{checked}")
server.close()
json.dump({"big": big[:200]}, open(os.path.join(OUT, "big.json"), "w"))

# 5. Numbering styles, on the files of 3 (real source files over 200 lines): each
# file's tokens in each style, and each style against pipe, file by file (median) and
# over all the files together (a sum, which the biggest files weigh most).
styles = {}
sample = [f for f in big if f in share_of]
for style in ["pipe", "tab", "colon", "compact", "none"]:
    s = Mcp("--max-bytes", "100000000", "--max-tokens", "1000000", "--numbers", style)
    styles[style] = [s.read(path=f, limit=2000)["stats"]["tokens"] for f in sample]
    s.close()
print(f"5. tokens of the {len(sample)} files of 3 by --numbers style (first 2,000 lines of each):")
for style, counts in styles.items():
    median = statistics.median(c / max(1, p) for c, p in zip(counts, styles["pipe"]))
    print(f"   {style:<8} {sum(counts):>9}  {100*sum(counts)/sum(styles['pipe']):6.1f} % of pipe in all, "
          f"median {100*median:5.1f} % of a file's pipe tokens")
PY
echo
echo "4. time of the leaner views against --outline ($CPU)"
BIG=$(python3 -c "import json;b=json.load(open('$OUT/big.json'))['big'];import os;b.sort(key=os.path.getsize);print(' '.join(b[-3:]))")
# The commands of a file run in turn, round after round (the order turned each round),
# so that the machine's drift hits each alike: run one after another in blocks, as
# hyperfine runs them, a block that met a busy moment moved a ratio by 20 points.
python3 - "$BIN" "${ROUNDS:-150}" $BIG <<'PY'
import os, statistics, sys, time
binary, rounds, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
views = [("outline", ["--outline"]), ("signatures", ["--signatures"]), ("fit", ["--fit"]),
         ("outline --max-tokens 2000", ["--outline", "--max-tokens", "2000"]),
         ("fit --max-tokens 2000", ["--fit", "--max-tokens", "2000"])]
null = os.open(os.devnull, os.O_WRONLY)
def run(argv):
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
    os.waitpid(pid, 0)
    return time.perf_counter() - start
for f in files:
    argvs = [[binary, "--root", "/", f] + extra for _, extra in views]
    times = [[] for _ in views]
    for r in range(rounds + 5):
        for k in range(len(views)):
            i = (k + r) % len(views)
            t = run(argvs[i])
            if r >= 5:  # the first rounds warm the cache and the page cache
                times[i].append(t)
    m = [statistics.median(t) * 1000 for t in times]
    rel = lambda a, b: f"{100 * a / b - 100:+.0f} %"
    print(f"   {f[-40:]:<40} outline {m[0]:.2f} ms, signatures {m[1]:.2f} ({rel(m[1], m[0])}), "
          f"fit {m[2]:.2f} ({rel(m[2], m[0])}); with --max-tokens 2000: outline {m[3]:.2f}, "
          f"fit {m[4]:.2f} ({rel(m[4], m[3])} against that outline, {rel(m[4], m[0])} against the plain one)")
PY
echo
echo "6. start-up, a 300-line file ($CPU)"
python3 -c "print(''.join(f'    let value_{i} = compute(\"{i}\", &mut state)?; // {i}\n' for i in range(300)))" > "$OUT/small.rs"
cmds=("$BIN --root $OUT $OUT/small.rs" "$BIN --root $OUT $OUT/small.rs --format json")
[[ -n $BEFORE ]] && cmds+=("$BEFORE --root $OUT $OUT/small.rs" "$BEFORE --root $OUT $OUT/small.rs --format json")
hyperfine -N --output=pipe --style none --warmup 10 --runs 100 --export-json "$OUT/s.json" "${cmds[@]}" > /dev/null
python3 - "$OUT/s.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    words = r["command"].split()
    mode = "json" if "json" in words else "text"
    print(f"   {r['median']*1000:6.2f} ms median ({r['min']*1000:.2f} min)  {words[0]} ({mode})")
PY
echo
echo "7. counting a default window in one process ($CPU)"
TIME=$RELEASE/examples/tokens_time
[[ -x $TIME ]] || cargo build --release --quiet --features examples --example tokens_time
python3 -c "print(''.join(f'{i:4d} | let value_{i} = compute(\"{i}\", &mut state)?;\n' for i in range(1, 1400)), end='')" > "$OUT/window.txt"
"$TIME" "$OUT/window.txt"
BIGGEST=$(python3 -c "import json,os;b=json.load(open('$OUT/big.json'))['big'];b.sort(key=os.path.getsize);print(b[-1])")
"$TIME" "$BIGGEST"
echo
REPOMIX=${REPOMIX:-$(command -v repomix || true)}
if [[ -n $REPOMIX ]]; then
  echo "8. against repomix --compress on the same files over 200 lines ($CPU)"
  export REPOMIX
  python3 - <<'PY'
import json, os, shutil, statistics, subprocess, tempfile, time
BIN, COUNT, OUT, REPOMIX = (os.environ[k] for k in ("BIN", "COUNT", "OUT", "REPOMIX"))
big = json.load(open(os.path.join(OUT, "big.json")))["big"][:40]
def count(text):
    return int(subprocess.run([COUNT], input=json.dumps(text) + "\n", capture_output=True, text=True).stdout)
rows = []
for f in big:
    d = tempfile.mkdtemp(dir=OUT)
    shutil.copy(f, d)
    name = os.path.basename(f)
    t = time.perf_counter()
    subprocess.run([REPOMIX, "--compress", "--style", "plain", "--no-file-summary", "--no-directory-structure",
                    "--no-security-check", "-o", os.path.join(OUT, "packed.txt"), "."], cwd=d, capture_output=True)
    rt = time.perf_counter() - t
    try:
        packed = open(os.path.join(OUT, "packed.txt"), encoding="utf-8").read()
        os.remove(os.path.join(OUT, "packed.txt"))
    except FileNotFoundError:
        continue
    def signatures(*extra):
        """The whole signatures view's tokens, page by page (2,000 lines a page), and the
        first page's time."""
        tokens, start, first = 0, 1, None
        while start:
            t = time.perf_counter()
            page = json.loads(subprocess.run([BIN, "--root", d, name, "--signatures", "-n", "2000", "--max-bytes",
                                              "100000000", "--start-line", str(start), "--format", "json", *extra],
                                             cwd=d, capture_output=True, text=True).stdout)
            first = first or time.perf_counter() - t
            tokens += page["stats"]["tokens"]
            start = page["data"].get("next_start_line")
        return tokens, first
    (sig, at), (compact, _) = signatures(), signatures("--numbers", "compact")
    whole = count(open(f, encoding="utf-8", errors="replace").read())
    rows.append((whole, count(packed), sig, compact, rt, at, f))
    shutil.rmtree(d)
med = lambda i: statistics.median(r[i] / r[0] for r in rows)
print(f"   {len(rows)} files; share of the whole file's tokens (median): repomix --compress {100*med(1):.1f} % "
      f"(no line numbers), agentread --signatures {100*med(2):.1f} % (pipe numbers), {100*med(3):.1f} % (compact numbers)")
print(f"   time per file (median): repomix {1000*statistics.median(r[4] for r in rows):.0f} ms, "
      f"agentread {1000*statistics.median(r[5] for r in rows):.1f} ms (its first page)")
print("   tokens per file (share of the whole file's): | file | whole | repomix --compress | --signatures | "
      "--signatures --numbers compact |")
for r in sorted(rows, key=lambda r: r[6]):
    name = "/".join(r[6].rstrip("/").split("/")[-2:])
    print(f"   | {name} | {r[0]} | {r[1]} ({100*r[1]/r[0]:.0f} %) | {r[2]} ({100*r[2]/r[0]:.0f} %) | "
          f"{r[3]} ({100*r[3]/r[0]:.0f} %) |")
PY
fi
rm -rf "$OUT"
