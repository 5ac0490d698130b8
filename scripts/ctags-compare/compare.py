#!/usr/bin/env python3
"""Compare agentread's outlines (`--outline --format json`) with Universal Ctags on real files.

For every tag ctags reports as a function, method, class, struct or interface (each
language's names for these), the outline should hold a symbol whose def_line is the
tag's line, or whose lines start at or above it and whose def_line is below it (a tag
on a decorator or template line). Prints the agreement rate per language and the
misses, grouped by ctags kind, with the source line, to explain the differences.

usage: compare.py AGENTREAD LANG:ROOT:EXTS [...] [--per-language N] [--show N]
  e.g. compare.py target/x86_64-unknown-linux-gnu/release/agentread rust:~/.cargo/registry/src:rs
"""

import collections
import json
import os
import random
import re
import subprocess
import sys

# ctags kinds (long names) that count as function, method, class, struct or interface,
# per ctags language. Python's methods are `member`; Go's interface methods `methodSpec`;
# JavaScript's accessors `getter`/`setter`, its generator functions `generator`.
KINDS = {
    "rust": {"function", "method", "struct", "interface"},
    "python": {"function", "member", "class"},
    "javascript": {"function", "method", "class", "generator", "getter", "setter"},
    "typescript": {"function", "method", "class", "interface", "generator"},
    "go": {"func", "struct", "interface", "methodSpec"},
    "java": {"method", "class", "interface"},
    "c": {"function", "struct"},
    "cpp": {"function", "method", "class", "struct"},
}
MAX_BYTES = 2 * 1024 * 1024

# ctags reads every `.h` as C++; SPEC §15 reads one as C++ only when it looks like C++
# (`namespace`, `template <`, `::` …). A `.h` is compared in the language agentread
# read it in (`data.language`): a "c" sample keeps the C headers, a "cpp" sample the C++
# ones.

# Differences that SPEC §15 makes on purpose, recognised by the tag's source line:
# (language, category, test(kind, line)). A miss in no category is counted as "other".
BY_DESIGN = [
    ("python", "lambda bound to a name (lambdas are no symbols)",
     lambda kind, line: "lambda" in line),
    ("javascript", "object literal that ctags calls a class",
     lambda kind, line: kind == "class" and not re.search(r"\bclass\b", line)),
    ("javascript", "function in an object literal (`key: function`, `key() {}`)",
     lambda kind, line: re.match(r"^(async\s+)?(get\s+|set\s+)?\*?[\w$'\"\[\]]+\s*(:\s*(async\s+)?function|\()", line) is not None),
    ("javascript", "function assigned to a variable declared elsewhere (`f = function`)",
     lambda kind, line: re.match(r"^[\w$]+\s*=\s*(async\s+)?function", line) is not None),
    ("javascript", "IIFE: the name holds what the function returns",
     lambda kind, line: re.search(r"=\s*\(\s*function", line) is not None),
    ("javascript", "a use of `.prototype.x`, not a definition (ctags reads it as one)",
     lambda kind, line: ".prototype." in line and "function" not in line and "=>" not in line),
    ("javascript", "named function expression (a closure)",
     lambda kind, line: re.search(r"[=(,:?]\s*function\s*\*?\s*[\w$]+\s*\(|return\s+function", line) is not None),
    ("typescript", "overload or construct signature without a body",
     lambda kind, line: line.rstrip().endswith((";", ",")) or line.lstrip().startswith("new (") or (kind == "function" and "{" not in line)),
    ("typescript", "class expression (like a lambda)",
     lambda kind, line: kind == "class" and re.search(r"[(,=]\s*class\b", line) is not None),
    ("java", "enum constant with a body (ctags: method)",
     lambda kind, line: re.match(r"^[A-Z][A-Z0-9_]*\s*(\(.*\))?\s*\{", line) is not None),
]


def read_as(binary, path):
    """The language agentread reads `path` in (its outline's `data.language`)."""
    run = subprocess.run([binary, "--root", "/", path, "--outline", "--limit", "1", "--format", "json"],
                         capture_output=True, text=True, errors="replace")
    try:
        return json.loads(run.stdout)["data"]["language"]
    except (ValueError, KeyError, TypeError):
        return None


def files_for(binary, language, root, exts, limit, rng):
    found = []
    for dirpath, dirnames, filenames in os.walk(os.path.expanduser(root)):
        dirnames.sort()
        for name in sorted(filenames):
            if name.rsplit(".", 1)[-1] in exts and not name.endswith(".d.ts"):
                path = os.path.join(dirpath, name)
                if not (os.path.isfile(path) and 0 < os.path.getsize(path) <= MAX_BYTES):
                    continue
                found.append(path)
    headers = [p for p in found if p.endswith(".h")]
    if headers and language in ("c", "cpp"):
        other = {p for p in headers if read_as(binary, p) != language}
        found = [p for p in found if p not in other]
    if len(found) > limit:
        found = rng.sample(found, limit)
    return sorted(found)


def ctags_tags(path, kinds):
    out = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+nKe", "-f", "-", path],
        capture_output=True, text=True, errors="replace",
    ).stdout
    tags = []
    for line in out.splitlines():
        try:
            tag = json.loads(line)
        except json.JSONDecodeError:
            continue
        if tag.get("_type") != "tag" or tag.get("kind") not in kinds:
            continue
        # ctags names lambdas and anonymous classes (`AnonymousFunction1a2b`, `__anon1a2b`);
        # SPEC §15 makes closures and lambdas no symbols.
        if tag["name"].startswith(("AnonymousFunction", "AnonymousClass", "__anon")):
            continue
        tags.append(tag)
    return tags


def outline_rows(binary, path):
    """agentread's outline of `path` as (kind, start, def_line, end, qualified) rows. The
    line a definition starts on is the one line of the symbol whose text the outline
    prints."""
    lines = open(path, "rb").read().decode("utf-8", "replace").split("\n")
    rows, start = [], 1
    while start:
        run = subprocess.run(
            [binary, "--root", "/", path, "--outline", "--start-line", str(start), "--limit", "2000",
             "--max-bytes", "100000000", "--max-line-chars", "1000000", "--format", "json"],
            capture_output=True, text=True, errors="replace")
        if run.returncode != 0:
            return None
        data = json.loads(run.stdout)["data"]
        shown = data["content"].split("\n")
        for symbol, row in zip(data["symbols"], shown):
            text = row.split(" | ", 1)[1] if " | " in row else ""
            first, last = symbol["start_line"], symbol["end_line"]
            definition = next((n for n in range(first, last + 1)
                               if n <= len(lines) and lines[n - 1].rstrip("\r") == text), first)
            rows.append((symbol["kind"], first, definition, last, symbol["qualified_name"]))
        start = data["next_start_line"]
    return rows


def main():
    args = sys.argv[1:]
    per_language, show = 150, 12
    if "--per-language" in args:
        i = args.index("--per-language")
        per_language = int(args[i + 1])
        del args[i:i + 2]
    if "--show" in args:
        i = args.index("--show")
        show = int(args[i + 1])
        del args[i:i + 2]
    binary, specs = args[0], args[1:]
    rng = random.Random(1)
    by_language = collections.OrderedDict()
    for spec in specs:
        language, root, exts = spec.split(":")
        by_language.setdefault(language, []).extend(
            files_for(binary, language, root, set(exts.split(",")), per_language, rng))
    summary = []
    for language, files in by_language.items():
        files = sorted(set(files))
        if len(files) > per_language:
            files = sorted(rng.sample(files, per_language))
        total = matched = failed = 0
        misses = collections.defaultdict(list)
        by_design = collections.Counter()
        for path in files:
            rows = outline_rows(binary, path)
            if rows is None:
                failed += 1
                continue
            defs = {r[2] for r in rows}
            spans = [(r[1], r[2]) for r in rows]
            lines = open(path, "rb").read().decode("utf-8", "replace").split("\n")
            for tag in ctags_tags(path, KINDS[language]):
                total += 1
                line = tag["line"]
                if line in defs or any(s <= line <= d for s, d in spans):
                    matched += 1
                else:
                    text = lines[line - 1].strip() if line <= len(lines) else ""
                    category = next((c for l, c, test in BY_DESIGN
                                     if l == language and test(tag["kind"], text)), None)
                    if category:
                        by_design[category] += 1
                    else:
                        misses[tag["kind"]].append(f"{path}:{line}: {tag['name']}: {text[:100]}")
        rate = 100.0 * matched / total if total else 100.0
        designed = sum(by_design.values())
        counted = total - designed
        adjusted = 100.0 * matched / counted if counted else 100.0
        summary.append((language, len(files), total, matched, rate, designed, adjusted))
        print(f"== {language}: {len(files)} files, {total} ctags tags, {matched} found ({rate:.1f}%), {failed} files failed")
        for category, count in by_design.most_common():
            print(f"   by design: {category}: {count}")
        for kind, items in sorted(misses.items(), key=lambda kv: -len(kv[1])):
            print(f"   missed {kind}: {len(items)}")
            for item in items[:show]:
                print(f"      {item}")
    print()
    print(f"{'language':12} {'files':>6} {'tags':>7} {'found':>7} {'rate':>7} {'by design':>10} {'rate w/o':>9}")
    for language, files, total, matched, rate, designed, adjusted in summary:
        print(f"{language:12} {files:6} {total:7} {matched:7} {rate:6.1f}% {designed:10} {adjusted:8.1f}%")


if __name__ == "__main__":
    main()
