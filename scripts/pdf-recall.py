#!/usr/bin/env python3
"""Word recall, speed, memory and verdicts of agentread's PDF text against pdftotext's.

    scripts/pdf-recall.py [options] DIR_OR_FILE...

Each PDF found (a file whose first KiB holds `%PDF-`, whatever its name) is read by
`pdftotext -q FILE -` (poppler-utils, default mode) and by `agentread --all --numbers
none FILE` (run in the file's folder, which is then its workspace root). Words are
whitespace-separated and NFKC-normalised (a ligature counts as its letters), counted as
a multiset; `--- page N ---` headers and direction marks (U+202A-U+202E, U+200E/F,
U+2066-U+2069, which pdftotext puts around right-to-left lines) are not words. A file's recall is the share of
pdftotext's words that agentread also prints (a word pdftotext prints twice must be
printed twice); a file agentread fails on (error exit, signal, timeout) scores 0; a file
pdftotext prints no word for has no recall.

Reported, overall and per producer family (from pdfinfo's Producer and Creator):
mean recall, files under 0.8, U+FFFD characters against pdftotext's, the time of both
tools over the corpus (each file read once by each, one after the other), crashes (a
signal or a panic message) and hangs (past --timeout); then the peak RSS of both (GNU
time) on the --rss biggest files; then the encryption verdicts of the files that name an
/Encrypt dictionary: one pdfinfo cannot open without a password must be refused as an
encrypted PDF, one it opens (the empty password: restrictions only, or only attachments
encrypted) must be read. The CPU model heads every table.

Options:
  --agentread PATH  the binary (default target/<host>/release/agentread)
  --jobs N          files read at once (default 1; timings are fairer with 1)
  --timeout S       per tool and file (default 60)
  --rss N           peak RSS measured on the N biggest files (default 10; 0: none)
  --cache DIR       keep pdftotext's and pdfinfo's answers here between runs (their
                    time too), so a rerun only runs agentread (default: none)
  --worst N         list the N worst files (default 25), each with the words it misses most
  --json FILE       write every file's figures to FILE
  --baseline FILE   a --json file of an earlier run: print its figures beside these

The corpus: scripts/pdf-corpus.sh gathers real-world PDFs from public repositories and
Debian documentation packages into a folder (default /tmp/pdfcorpus).
"""
import argparse, collections, concurrent.futures, hashlib, json, os, re, resource, subprocess
import sys, time, unicodedata

PAGE_HEADER = re.compile(r"^--- page \d+ ---$", re.M)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip() + f", {os.cpu_count()} cores"
    except OSError:
        pass
    return "unknown CPU"


# Invisible direction marks and embeddings (pdftotext wraps right-to-left lines in
# U+202B…U+202C): formatting, not part of any word.
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def words(text):
    return collections.Counter(unicodedata.normalize("NFKC", text).translate(BIDI_CONTROLS).split())


def run(argv, timeout, cwd=None):
    """(returncode or None on timeout, stdout text, stderr text, wall seconds)."""
    start = time.perf_counter()
    try:
        out = subprocess.run(argv, capture_output=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, "", "", time.perf_counter() - start
    return (out.returncode, out.stdout.decode("utf-8", "replace"), out.stderr.decode("utf-8", "replace"),
            time.perf_counter() - start)


def family(producer, creator):
    """A producer family from pdfinfo's Producer and Creator."""
    p, c = producer.lower(), creator.lower()
    both = p + " | " + c
    rules = [
        ("LuaTeX", ["luatex"]), ("XeTeX", ["xetex", "xdvipdfmx"]), ("pdfTeX", ["pdftex"]),
        ("dvipdfm(x)", ["dvipdfm"]), ("TeX (other)", ["tex", "dvips"]),
        ("Word", ["microsoft® word", "microsoft word", "microsoft® office word", "word for", "microsoft® powerpoint", "microsoft® excel", "microsoft: print to pdf", "microsoft office"]),
        ("LibreOffice/OpenOffice", ["libreoffice", "openoffice", "staroffice"]),
        ("Chrome/Skia", ["skia", "chrom"]), ("reportlab", ["reportlab"]),
        ("Ghostscript", ["ghostscript", "gpl ghostscript", "afpl ghostscript", "ps2pdf"]),
        ("Acrobat Distiller", ["distiller"]), ("Acrobat/PDFMaker", ["acrobat", "pdfmaker", "adobe pdf library", "adobe indesign", "adobe illustrator", "adobe photoshop", "framemaker", "pagemaker"]),
        ("macOS Quartz", ["quartz", "mac os x", "macos"]),
        ("iText", ["itext", "lowagie"]), ("cairo", ["cairo"]), ("Qt/wkhtmltopdf", ["qt ", "wkhtmltopdf"]),
        ("PDFium/Google Docs", ["pdfium", "google docs"]),
        ("FPDF/TCPDF", ["fpdf", "tcpdf"]), ("PDFlib", ["pdflib"]), ("pypdf/PyPDF2", ["pypdf", "pdfrw"]),
        ("PyMuPDF/MuPDF", ["pymupdf", "mupdf", "fitz"]), ("qpdf", ["qpdf"]),
        ("scanner/OCR", ["scan", "canon", "xerox", "ricoh", "konica", "kyocera", "sharp", "epson", "hp ", "paper capture", "abbyy", "finereader", "tesseract", "ocr", "omnipage"]),
        ("pdf.js/Mozilla", ["pdf.js", "mozilla"]), ("Apache FOP", ["fop"]), ("PDFsharp", ["pdfsharp"]),
        ("Prince/WeasyPrint", ["prince", "weasyprint"]), ("groff", ["groff"]),
    ]
    for name, keys in rules:
        if any(k in both for k in keys):
            return name
    return "other" if both.strip(" |") else "none given"


class Cache:
    def __init__(self, folder):
        self.folder = folder
        if folder:
            os.makedirs(folder, exist_ok=True)

    def key(self, path, what):
        st = os.stat(path)
        raw = f"{os.path.abspath(path)}\0{st.st_size}\0{st.st_mtime_ns}\0{what}"
        return os.path.join(self.folder, hashlib.sha1(raw.encode()).hexdigest() + ".json")

    def get(self, path, what, compute):
        if not self.folder:
            return compute()
        file = self.key(path, what)
        try:
            with open(file) as f:
                return json.load(f)
        except (OSError, ValueError):
            pass
        value = compute()
        with open(file + ".tmp", "w") as f:
            json.dump(value, f)
        os.replace(file + ".tmp", file)
        return value


def declares_encryption(path):
    """Whether the file names an /Encrypt dictionary: pdfinfo says "Encrypted: no" of one
    whose attachments alone are encrypted, which must be read all the same."""
    with open(path, "rb") as f:
        return re.search(rb"/Encrypt[\s\d<]", f.read()) is not None


def pdfinfo(path, timeout):
    rc, out, err, _ = run(["pdfinfo", path], timeout)
    info = {}
    for line in out.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            info.setdefault(k.strip(), v.strip())
    return {
        "producer": info.get("Producer", ""),
        "creator": info.get("Creator", ""),
        "pages": int(info.get("Pages", "0") or 0) if info.get("Pages", "0").isdigit() else 0,
        "encrypted": info.get("Encrypted", "no").startswith("yes"),
        "needs_password": "incorrect password" in err.lower(),
        "ok": rc == 0,
    }


def pdftotext(path, timeout):
    rc, out, err, secs = run(["pdftotext", "-q", path, "-"], timeout)
    return {"rc": rc, "text": out, "secs": secs}


def agentread(binary, path, timeout):
    folder, name = os.path.split(os.path.abspath(path))
    rc, out, err, secs = run([binary, "--all", "--numbers", "none", name], timeout, cwd=folder)
    crashed = rc is not None and (rc < 0 or "panicked at" in err)
    verdict = "read" if rc == 0 else ("hang" if rc is None else "crash" if crashed else
                                      "encrypted" if "encrypted PDF" in err else
                                      "damaged" if "damaged PDF" in err else "error")
    return {"rc": rc, "text": PAGE_HEADER.sub("", out) if rc == 0 else "", "secs": secs, "verdict": verdict,
            "stderr": err.strip()[:300]}


def find_pdfs(arguments):
    """(path, source) of each distinct PDF; the source is the folder it was found in
    directly under a folder argument (a corpus keeps one folder per origin)."""
    seen = set()
    for argument in arguments:
        files = []
        if os.path.isdir(argument):
            for root, dirs, names in os.walk(argument):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                rel = os.path.relpath(root, argument)
                source = "." if rel == "." else rel.split(os.sep)[0]
                files += [(os.path.join(root, n), source) for n in sorted(names)]
        else:
            files.append((argument, "."))
        for file, source in files:
            try:
                with open(file, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            digest = hashlib.sha1(data).digest()  # the same file under two names counts once
            if b"%PDF-" in data[:1024] and digest not in seen:
                seen.add(digest)
                yield file, source


def peak_rss(argv, cwd, timeout):
    """Peak RSS in KiB of argv (GNU time's %M), or None."""
    try:
        out = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, capture_output=True, timeout=timeout, cwd=cwd)
        return int(out.stderr.decode().strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError, OSError):
        return None


def measure(path, source, args, cache):
    info = cache.get(path, "pdfinfo", lambda: pdfinfo(path, args.timeout))
    ref = cache.get(path, "pdftotext", lambda: pdftotext(path, args.timeout))
    ours = agentread(args.agentread, path, args.timeout)
    reference = words(ref["text"])
    total = sum(reference.values())
    mine = words(ours["text"])
    found = sum((reference & mine).values())
    missing = (reference - mine).most_common(8)
    return {
        "path": path, "source": source, "size": os.path.getsize(path), "family": family(info["producer"], info["creator"]),
        "producer": info["producer"], "creator": info["creator"], "pages": info["pages"],
        "encrypted": info["encrypted"] or declares_encryption(path), "needs_password": info["needs_password"],
        "ref_words": total, "found": found, "recall": found / total if total else None,
        "ref_fffd": ref["text"].count("\ufffd"), "fffd": ours["text"].count("\ufffd"),
        "ref_secs": ref["secs"], "ref_rc": ref["rc"], "secs": ours["secs"], "verdict": ours["verdict"],
        "stderr": ours["stderr"], "missing": missing,
    }


def summary(rows):
    scored = [r for r in rows if r["recall"] is not None]
    n = len(scored)
    mean = sum(r["recall"] for r in scored) / n if n else 0
    under = sum(1 for r in scored if r["recall"] < 0.8)
    return {
        "files": len(rows), "scored": n, "mean": mean, "under": under, "under_share": under / n if n else 0,
        "words": sum(r["found"] for r in scored) / max(1, sum(r["ref_words"] for r in scored)),
        "fffd": sum(r["fffd"] for r in rows), "ref_fffd": sum(r["ref_fffd"] for r in rows),
        "secs": sum(r["secs"] for r in rows), "ref_secs": sum(r["ref_secs"] for r in rows),
        "crashes": sum(1 for r in rows if r["verdict"] == "crash"),
        "hangs": sum(1 for r in rows if r["verdict"] == "hang"),
    }


def table(groups, baseline_groups, out):
    head = f"{'group':<24} {'files':>5} {'scored':>6} {'mean recall':>11} {'all words':>9} {'<0.8':>11} " \
           f"{'U+FFFD (poppler)':>18} {'time s (poppler)':>19} {'ratio':>5} {'crash':>5} {'hang':>4}"
    if baseline_groups is not None:
        head += f"  {'before: mean':>12} {'<0.8':>11}"
    print(head, file=out)
    for name, s in groups:
        ratio = s["secs"] / s["ref_secs"] if s["ref_secs"] else 0
        line = (f"{name:<24} {s['files']:>5} {s['scored']:>6} {s['mean']:>11.3f} {s['words']:>9.3f} "
                f"{s['under']:>4} ({s['under_share']:>4.0%}) {s['fffd']:>8} ({s['ref_fffd']:>7}) "
                f"{s['secs']:>8.1f} ({s['ref_secs']:>8.1f}) {ratio:>5.2f} {s['crashes']:>5} {s['hangs']:>4}")
        if baseline_groups is not None:
            b = baseline_groups.get(name)
            line += f"  {b['mean']:>12.3f} {b['under']:>4} ({b['under_share']:>4.0%})" if b else "  " + "-" * 12
        print(line, file=out)


def release_binary():
    """The release build's binary: the build names the host as its target (.cargo/config.toml)."""
    version = subprocess.run(["rustc", "-vV"], capture_output=True, text=True).stdout
    host = next(line.split(": ", 1)[1] for line in version.splitlines() if line.startswith("host: "))
    return os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), host, "release", "agentread")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], usage=__doc__.split("\n")[2].strip())
    parser.add_argument("--agentread")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--rss", type=int, default=10)
    parser.add_argument("--cache")
    parser.add_argument("--worst", type=int, default=25)
    parser.add_argument("--json")
    parser.add_argument("--baseline")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    args.agentread = os.path.abspath(args.agentread or release_binary())
    cache = Cache(args.cache)
    files = list(find_pdfs(args.paths))
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda f: measure(f[0], f[1], args, cache), files))
    elapsed = time.perf_counter() - started
    cpu = cpu_model()

    worst = sorted((r for r in rows if r["recall"] is not None), key=lambda r: r["recall"])[:args.worst]
    if worst:
        print(f"== the {len(worst)} worst files (cpu: {cpu})")
        for r in worst:
            miss = " ".join(f"{w}×{n}" for w, n in r["missing"][:6])
            print(f"{r['recall']:6.1%} {r['found']:>7}/{r['ref_words']:<7} [{r['family']}] {r['path']} "
                  f"{'(' + r['verdict'] + ') ' if r['verdict'] != 'read' else ''}missing: {miss[:120]}")
        print()

    baseline = None
    if args.baseline:
        with open(args.baseline) as f:
            old = {r["path"]: r for r in json.load(f)["files"]}
        baseline = old
    by_family = collections.defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)
    groups = [("all", summary(rows))] + sorted(((k, summary(v)) for k, v in by_family.items()),
                                               key=lambda kv: -kv[1]["files"])
    baseline_groups = None
    if baseline is not None:
        base_rows = [baseline[r["path"]] for r in rows if r["path"] in baseline]
        fam = collections.defaultdict(list)
        for r in base_rows:
            fam[r["family"]].append(r)
        baseline_groups = {"all": summary(base_rows)} | {k: summary(v) for k, v in fam.items()}
    print(f"== word recall against pdftotext, per producer (cpu: {cpu}; {len(files)} PDFs, "
          f"{args.jobs} at a time, {elapsed:.0f} s)")
    table(groups, baseline_groups, sys.stdout)
    by_source = collections.defaultdict(list)
    for r in rows:
        by_source[r.get("source", ".")].append(r)
    if len(by_source) > 1:
        print(f"\n== the same, per source folder (cpu: {cpu})")
        table(sorted(((k, summary(v)) for k, v in by_source.items()), key=lambda kv: kv[0]), None, sys.stdout)
    problems = [r for r in rows if r["verdict"] in ("crash", "hang")]
    for r in problems:
        print(f"  {r['verdict']}: {r['path']}: {r['stderr'][:200]}")

    if args.rss > 0:
        biggest = sorted((r for r in rows if r["verdict"] == "read"), key=lambda r: -r["size"])[:args.rss]
        print(f"\n== peak RSS on the {len(biggest)} biggest files read (GNU time; cpu: {cpu})")
        print(f"{'file':<60} {'MiB':>6} {'agentread':>10} {'pdftotext':>10} {'ratio':>6}")
        worst_ratio = 0
        for r in biggest:
            folder, name = os.path.split(os.path.abspath(r["path"]))
            ours = peak_rss([args.agentread, "--all", "--numbers", "none", name], folder, args.timeout)
            theirs = peak_rss(["pdftotext", "-q", r["path"], "/dev/null"], None, args.timeout)
            ratio = ours / theirs if ours and theirs else float("nan")
            worst_ratio = max(worst_ratio, ratio) if ratio == ratio else worst_ratio
            r["rss"], r["ref_rss"] = ours, theirs
            print(f"{os.path.basename(r['path'])[:60]:<60} {r['size'] / 2**20:>6.1f} "
                  f"{(ours or 0) / 1024:>8.1f}Mi {(theirs or 0) / 1024:>8.1f}Mi {ratio:>6.2f}")
        print(f"highest ratio: {worst_ratio:.2f}")

    print(f"\n== encryption verdicts (cpu: {cpu})")
    wrong = 0
    for r in rows:
        if not (r["encrypted"] or r["needs_password"]):
            continue
        expected = "encrypted" if r["needs_password"] else "read"
        ok = r["verdict"] == expected or (expected == "read" and r["verdict"] == "damaged" and not r["ref_words"])
        wrong += not ok
        print(f"{'ok   ' if ok else 'WRONG'} expected {expected:<9} got {r['verdict']:<9} {r['path']}")
    print(f"wrong verdicts: {wrong}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu, "agentread": args.agentread, "files": rows}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
