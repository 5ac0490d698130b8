#!/usr/bin/env bash
# check-layers.sh — the rule of direction (ARCHITECTURE.md): every module imports only
# from the layers below its own, the engines import nothing from the crate (not even by
# `crate::` paths to themselves, so that each could be lifted out as a crate), and no two
# files import each other, directly or around a cycle. Reads the `crate::`, `super::`
# and `self::` paths of every file under src/ (tests included), so it needs no build.
#
# Usage: scripts/check-layers.sh   (exit 1 and one line per fault when the rule is broken)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - <<'PY'
import os, re, sys

# The layers, top first. A module of a layer may import from any layer below it, never
# from its own layer's other modules or from above. `lib` is the crate root (lib.rs).
LAYERS = [
    ["lib"],
    ["mcp", "setup"],
    ["render"],
    ["answer"],
    ["target"],
    ["args"],
    ["workspace"],
    ["outcome"],
    ["error"],
    # The engines.
    ["formats", "names", "read", "structure"],
]
ENGINES = set(LAYERS[-1])
RANK = {m: len(LAYERS) - i for i, layer in enumerate(LAYERS) for m in layer}

files = {}  # module path (tuple) -> file
for dirpath, _, names in os.walk("src"):
    for name in names:
        if not name.endswith(".rs") or (dirpath == "src" and name == "main.rs"):
            continue
        path = os.path.join(dirpath, name)
        parts = path[len("src/"):-len(".rs")].split("/")
        if parts[-1] == "mod":
            parts = parts[:-1]
        if parts == ["lib"]:
            parts = []
        files[tuple(parts)] = path

def strip(src):
    src = re.sub(r"'(?:\\.|[^'\\\n])'", "''", src)  # characters first: '"' opens no string
    src = re.sub(r'"(?:\\.|[^"\\])*"', '""', src)  # strings (a path in a message)
    return re.sub(r"//[^\n]*", "", src)

def expand(prefix, body):
    """`a::{b, c::{d}}` -> [a::b, a::c::d]."""
    body = body.strip()
    if not body.startswith("{"):
        return [prefix + body]
    out, depth, item = [], 0, ""
    for ch in body[1:-1] + ",":
        if ch == "," and depth == 0:
            if item.strip():
                item = item.strip()
                m = re.match(r"([\w:]*?)(::)?(\{.*\})$", item, re.S)
                if m and m.group(3):
                    out += expand(prefix + (m.group(1) + "::" if m.group(1) else ""), m.group(3))
                else:
                    out.append(prefix + item)
            item = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        item += ch
    return out

faults = []
edges = {}
for module, path in files.items():
    src = strip(open(path).read())
    targets = set()
    # Inline modules (`mod tests { … }`): a path inside one starts from it.
    blocks = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", src):
        depth, i = 1, m.end()
        while depth and i < len(src):
            depth += {"{": 1, "}": -1}.get(src[i], 0)
            i += 1
        blocks.append((m.end(), i, m.group(1)))
    def base_at(pos):
        return list(module) + [name for start, end, name in blocks if start <= pos < end]
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", src):
        u = re.match(r"((?:crate|super|self)(?:::(?:super|[a-z_][a-z0-9_]*))*)::(.*)$", m.group(1).strip(), re.S)
        if u:
            paths += [(m.start(), p) for p in expand(u.group(1) + "::", u.group(2))]
    paths += [(m.start(), m.group(1)) for m in re.finditer(r"(?<![\w:])((?:crate|super)(?:::\w+)+)", src)]
    for pos, p in paths:
        segs = [s.strip() for s in p.split(" as ")[0].split("::") if s.strip()]
        if segs[0] == "crate":
            if module and module[0] in ENGINES:
                faults.append(f"{path}: an engine names the crate: {p}")
            absolute = []
            segs = segs[1:]
        else:
            absolute = base_at(pos)
            if segs[0] == "self":
                segs = segs[1:]
            while segs and segs[0] == "super":
                absolute = absolute[:-1]
                segs = segs[1:]
        full = tuple(absolute + segs)
        # The longest prefix that is a file of the crate.
        for n in range(len(full), -1, -1):
            if full[:n] in files:
                target = full[:n]
                break
        if target != module and not (target == () and not full):
            targets.add(target)
    edges[module] = targets

def top(module):
    return module[0] if module else "lib"

for module, targets in edges.items():
    for target in targets:
        a, b = top(module), top(target)
        if a == b:
            continue
        if a not in RANK or b not in RANK:
            faults.append(f"{files[module]}: a module the layer table does not name: {a if a not in RANK else b}")
        elif RANK[b] >= RANK[a]:
            faults.append(f"{files[module]} -> {files[target]}: {a} may not import {b} (same layer or above)")
        if a in ENGINES:
            faults.append(f"{files[module]} -> {files[target]}: an engine imports from the crate")

# Cycles between files (Tarjan's strongly connected components).
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(comp)
for v in list(edges):
    if v not in index:
        visit(v)
for comp in comps:
    faults.append("an import cycle: " + " <-> ".join(sorted(files[m] for m in comp)))

for fault in sorted(set(faults)):
    print(fault)
if faults:
    print(f"check-layers: {len(set(faults))} faults", file=sys.stderr)
    sys.exit(1)
print(f"check-layers: {len(files)} files, {sum(map(len, edges.values()))} imports, no fault")
PY
