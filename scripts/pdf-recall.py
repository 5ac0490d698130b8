#!/usr/bin/env python3
"""Word recall of agentread's PDF text against pdftotext's, per file and overall.

    scripts/pdf-recall.py [--agentread PATH] DIR_OR_FILE...

For each PDF: the words (whitespace-separated, NFKC-normalised so a ligature counts as
its letters) of `pdftotext FILE -` form a multiset; recall is the share of them that
`agentread --all --numbers none FILE` also prints (as a multiset: a word printed twice
by pdftotext must be printed twice). Page headers (`--- page N ---`) are not words. A
file agentread fails on scores 0; a file pdftotext prints no words for is skipped.
Prints one line per file, worst first, then the mean recall and the recall over all
words.
"""
import argparse, collections, os, re, subprocess, sys, unicodedata

PAGE_HEADER = re.compile(r"^--- page \d+ ---$")


def words(text):
    text = unicodedata.normalize("NFKC", text)
    return collections.Counter(text.split())


def pdftotext(path):
    out = subprocess.run(["pdftotext", "-q", path, "-"], capture_output=True, timeout=120)
    return out.stdout.decode("utf-8", "replace")


def agentread(binary, path):
    # Run in the file's folder: agentread reads only under its workspace root (the cwd).
    folder, name = os.path.split(os.path.abspath(path))
    out = subprocess.run([binary, "--all", "--numbers", "none", name], capture_output=True, timeout=120,
                         cwd=folder)
    if out.returncode != 0:
        return None
    lines = out.stdout.decode("utf-8", "replace").split("\n")
    return "\n".join(line for line in lines if not PAGE_HEADER.match(line))


def pdfs(arguments):
    for argument in arguments:
        if os.path.isdir(argument):
            for root, _, files in os.walk(argument):
                for name in sorted(files):
                    if name.lower().endswith(".pdf"):
                        yield os.path.join(root, name)
        else:
            yield argument


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agentread", default="target/release/agentread")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    args.agentread = os.path.abspath(args.agentread)
    results = []
    for path in pdfs(args.paths):
        reference = words(pdftotext(path))
        total = sum(reference.values())
        if total == 0:
            continue
        ours = agentread(args.agentread, path)
        found = 0 if ours is None else sum((reference & words(ours)).values())
        results.append((found / total, found, total, path, ours is None))
    results.sort()
    for recall, found, total, path, failed in results:
        print(f"{recall:7.2%} {found:8d}/{total:<8d} {path}{'  (failed)' if failed else ''}")
    if results:
        mean = sum(r[0] for r in results) / len(results)
        found = sum(r[1] for r in results)
        total = sum(r[2] for r in results)
        print(f"files: {len(results)}  mean recall: {mean:.2%}  all words: {found / total:.2%} ({found}/{total})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
