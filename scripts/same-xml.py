#!/usr/bin/env python3
"""same-xml.py — runs two agentread binaries with --format xml over the files and
directories of DIR and compares the answers parsed: the same elements, the same text,
and every attribute of the old answer present in the new one with the same value
(attribute order carries no meaning in XML; new attributes are allowed).

Usage: scripts/same-xml.py OLD_BIN NEW_BIN DIR [MAX_RUNS]
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def answer(binary, path, root, options):
    out = subprocess.run([binary, path, "--format", "xml", "--root", root] + options,
                         capture_output=True, text=True, errors="replace").stdout
    return ET.fromstring(re.sub(r'time_ms="\d+"', 'time_ms="0"', out))


def same(old, new):
    if old.tag != new.tag or (old.text or "") != (new.text or "") or len(old) != len(new):
        return False
    if not set(old.attrib.items()) <= set(new.attrib.items()):
        return False
    return all(same(a, b) for a, b in zip(old, new))


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    old, new, root = (os.path.realpath(a) for a in sys.argv[1:4])
    most = int(sys.argv[4]) if len(sys.argv) > 4 else 800
    runs, different = 0, []
    for dirpath, dirs, names in os.walk(root):
        for name in names + dirs:
            path = os.path.relpath(os.path.join(dirpath, name), root)
            for options in [[], ["-n", "3", "--max-line-chars", "20"]]:
                runs += 1
                if not same(answer(old, path, root, options), answer(new, path, root, options)):
                    different.append((path, options))
        if runs >= most:
            break
    print(f"xml runs: {runs}, differences: {len(different)}")
    for path, options in different[:10]:
        print("DIFF:", path, " ".join(options))


if __name__ == "__main__":
    main()
