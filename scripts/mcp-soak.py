#!/usr/bin/env python3
"""A soak of one `agentread --mcp` session: 100,000 mixed calls (reads of several sizes
and windows, errors, listings, images, heavy reads: hostile PDFs and images, outlines
(one function of 2 MiB, Python nested 600 levels), signatures, maps and `paths`, calls
cancelled with notifications/cancelled),
pipelined as a busy host sends them, with the server's resident memory sampled all
along. Checks that every call is answered exactly once (a cancelled one at most once),
that the session still answers a ping, and that it ends with exit 0.

    scripts/mcp-soak.py AGENTREAD_BIN [CALLS] [IN_FLIGHT] [SEED]
"""

import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def png(width, height):
    """A valid RGB PNG of the given size (a gradient)."""
    rows = b"".join(
        b"\x00" + bytes((x * 7 + y * 3) & 0xFF for x in range(width * 3))
        for y in range(height)
    )

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def pdf(content, pages=1):
    """A PDF of `pages` pages that all draw `content`, deflated."""
    data = zlib.compress(content)
    kids = " ".join(["3 0 R"] * pages)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
        b" /Resources << /Font << /F1 4 0 R >> >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode() + data + b"\nendstream",
    ]
    out = b"%PDF-1.5\n"
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def png_header(width, height, depth, colour):
    """A PNG that declares its size and holds no real pixels: refused from its header."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND", b"")


def workspace(root):
    os.makedirs(os.path.join(root, "src/nested"), exist_ok=True)
    os.makedirs(os.path.join(root, "many"), exist_ok=True)
    for i in range(50):
        with open(os.path.join(root, f"src/mod{i}.rs"), "w") as f:
            f.write("".join(f"pub fn f{i}_{n}() -> u32 {{ {n} }}\n" for n in range(300)))
    with open(os.path.join(root, "big.log"), "w") as f:
        f.write("".join(f"2025-11-23 12:00:{n % 60:02} line {n} of the log\n" for n in range(200_000)))
    with open(os.path.join(root, "long-line.min.js"), "w") as f:
        f.write("var x=" + "1234567890," * 300_000 + "0;\n")
    with open(os.path.join(root, "latin1.txt"), "wb") as f:
        f.write(b"caf\xe9 cr\xe8me\n" * 100)
    with open(os.path.join(root, "bin.dat"), "wb") as f:
        f.write(bytes(range(256)) * 100)
    for i in range(2000):
        open(os.path.join(root, f"many/file-{i:04}.txt"), "w").close()
    with open(os.path.join(root, "small.png"), "wb") as f:
        f.write(png(64, 48))
    with open(os.path.join(root, "large.png"), "wb") as f:
        f.write(png(800, 600))
    # The heavy kinds, each a few dozen KB.
    hostile = {
        "arrays.pdf": pdf(b"[" + b"[]" * 15_000_000 + b"] TJ"),
        "numbers.pdf": pdf(b"0 " * 16_000_000 + b"Tj"),
        "slow.pdf": pdf(b"q Q\n" * 6_000_000, pages=40),
        "text.pdf": pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET" * 50),
        "column.png": png_header(1, 100_000_000, 8, 0),
        "deep.png": png_header(5_000, 5_000, 16, 6),
    }
    for name, data in hostile.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with open(os.path.join(root, "doc.md"), "w") as f:
        f.write("".join(f"# H{n}\n[a]\n[\ntext\n" for n in range(20_000)))
    # Sources whose outline is work: one function of 2 MiB (parsed a piece at a time,
    # inside it), Python nested 600 levels, and a file a map lists as not parsed.
    os.makedirs(os.path.join(root, "gen"), exist_ok=True)
    with open(os.path.join(root, "gen/one_fn.rs"), "w") as f:
        f.write("fn main() {\n" + "".join(f"    let x{n} = f(a, b + {n});\n" for n in range(70_000)) + "}\n")
    with open(os.path.join(root, "gen/deep.py"), "w") as f:
        f.write("class C:\n    def f(self):\n")
        f.write("".join(" " * (8 + n) + "if True:\n" for n in range(600)) + " " * 608 + "pass\n")
    with open(os.path.join(root, "gen/blob.rs"), "wb") as f:
        f.write(b"fn x() {}\0\1\2\n")


def call(rng):
    """One call's arguments, and its kind."""
    roll = rng.random()
    if roll < 0.35:
        path = f"src/mod{rng.randrange(50)}.rs"
        args = {"path": path, "start_line": rng.randrange(1, 300), "limit": rng.choice([10, 50, 200])}
        return args, "read"
    if roll < 0.45:
        args = rng.choice(
            [
                {"path": "big.log", "start_line": rng.randrange(1, 200_000), "limit": 100},
                {"path": "big.log", "tail": 50},
                {"path": "long-line.min.js", "start_char": rng.randrange(1, 3_000_000)},
                {"path": "latin1.txt", "encoding": "auto"} if rng.random() < 0.5 else {"path": "latin1.txt"},
                {"path": f"src/mod{rng.randrange(50)}.rs:{rng.randrange(1, 300)}", "hash": True},
            ]
        )
        return args, "read"
    if roll < 0.60:
        args = rng.choice(
            [
                {"path": "missing.txt"},
                {"path": "src/mod1.rss"},
                {"path": "bin.dat"},
                {"path": "../outside"},
                {"path": "src/mod1.rs", "start_line": 100_000},
                {"path": "src/mod1.rs", "limit": 0},
                {"path": "src/mod1.rs", "bogus": 1},
                {"path": 5},
            ]
        )
        return args, "error"
    if roll < 0.75:
        args = rng.choice(
            [
                {"path": "many", "start_line": rng.randrange(1, 2000), "limit": 100},
                {"path": "src"},
                {"path": "."},
            ]
        )
        return args, "listing"
    if roll < 0.82:
        return {"path": rng.choice(["small.png", "large.png"])}, "image"
    if roll < 0.90:
        args = rng.choice(
            [
                {"path": rng.choice(["arrays.pdf", "numbers.pdf", "column.png", "deep.png"])},
                {"path": "text.pdf"},
                {"path": f"src/mod{rng.randrange(50)}.rs", "outline": True},
                {"path": "doc.md", "outline": True},
                {"path": "src", "outline": True},
                {"path": f"src/mod{rng.randrange(50)}.rs#f{rng.randrange(50)}_{rng.randrange(300)}"},
                {"paths": [f"src/mod{rng.randrange(50)}.rs" for _ in range(5)] + ["text.pdf"]},
                {"path": "gen/one_fn.rs", "outline": True},
                {"path": "gen/one_fn.rs", "signatures": True},
                {"path": "gen/one_fn.rs#main", "limit": 20},
                {"path": "gen/deep.py", "outline": True},
                {"path": "gen", "outline": True},
            ]
        )
        return args, "heavy"
    if roll < 0.92:
        return {"path": "slow.pdf"}, "cancelled"
    return {"path": "big.log", "start_line": rng.randrange(1, 200_000), "limit": 2000}, "cancelled"


def main():
    binary = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    in_flight = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as root:
        workspace(root)
        server = subprocess.Popen(
            [binary, "--mcp", "--root", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        answers = {}
        kinds = {}
        statuses = {}
        lock = threading.Condition()
        bad = []
        cancelled = set()
        # Calls sent and answered, cancelled ones left out, for the in-flight window.
        counts = {"sent": 0, "answered": 0}

        def read():
            for line in server.stdout:
                message = json.loads(line)
                with lock:
                    if "id" not in message or message.get("jsonrpc") != "2.0":
                        bad.append(line[:200])
                    else:
                        answers[message["id"]] = answers.get(message["id"], 0) + 1
                        if isinstance(message["id"], int) and message["id"] not in cancelled:
                            counts["answered"] += 1
                        result = message.get("result", {})
                        status = (result.get("structuredContent") or {}).get("status")
                        if status is None and "content" in result:
                            status = "image" if any(c.get("type") == "image" for c in result["content"]) else None
                        statuses[status] = statuses.get(status, 0) + 1
                    lock.notify_all()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        def send(message):
            server.stdin.write((json.dumps(message) + "\n").encode())

        send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "soak", "version": "1"}}})
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.stdin.flush()
        samples = []
        started = time.monotonic()
        for n in range(1, calls + 1):
            args, kind = call(rng)
            kinds[n] = kind
            with lock:
                if kind == "cancelled":
                    cancelled.add(n)
                else:
                    counts["sent"] += 1
            send({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                  "params": {"name": "read", "arguments": args}})
            if kind == "cancelled":
                send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                      "params": {"requestId": n, "reason": "soak"}})
            server.stdin.flush()
            with lock:
                # Keep at most `in_flight` calls unanswered (cancelled ones excepted).
                while counts["sent"] - counts["answered"] > in_flight:
                    if not lock.wait(timeout=60):
                        print("no answer for 60 s", file=sys.stderr)
                        break
            if n % 1000 == 0:
                samples.append((n, time.monotonic() - started, rss_kib(server.pid)))
        send({"jsonrpc": "2.0", "id": "final-ping", "method": "ping"})
        server.stdin.flush()
        deadline = time.monotonic() + 120
        with lock:
            while "final-ping" not in answers or any(
                answers.get(n, 0) == 0 for n in range(1, calls + 1) if n not in cancelled
            ):
                if time.monotonic() > deadline or not lock.wait(timeout=5):
                    break
        elapsed = time.monotonic() - started
        time.sleep(0.5)
        final_rss = rss_kib(server.pid)
        peak = peak_kib(server.pid)
        server.stdin.close()
        code = server.wait(timeout=30)
        reader.join(timeout=10)
        stderr = server.stderr.read().decode(errors="replace")

        missing = [n for n in range(1, calls + 1) if n not in cancelled and answers.get(n, 0) != 1]
        twice = [n for n in range(1, calls + 1) if answers.get(n, 0) > 1]
        by_kind = {}
        for n, kind in kinds.items():
            by_kind[kind] = by_kind.get(kind, 0) + 1
        answered_cancelled = sum(1 for n in cancelled if answers.get(n, 0) == 1)
        print(f"{calls} calls in {elapsed:.1f} s ({calls / elapsed:.0f}/s), {in_flight} in flight at most, seed {seed}")
        print(f"  kinds sent: {by_kind}")
        print(f"  answer statuses: {statuses}")
        print(f"  cancelled {len(cancelled)}, of which answered anyway {answered_cancelled}")
        for label, at in (("start", 1000), ("middle", calls // 2), ("end", calls)):
            n, t, rss = min(samples, key=lambda s: abs(s[0] - at))
            print(f"  RSS at {label} (call {n}, {t:.0f} s): {rss / 1024:.1f} MiB")
        tenths = [min(samples, key=lambda s: abs(s[0] - calls * k // 10)) for k in range(1, 11)]
        print("  RSS every tenth (MiB): " + ", ".join(f"{rss / 1024:.0f}" for _, _, rss in tenths))
        print(f"  RSS max {max(s[2] for s in samples) / 1024:.1f} MiB, after the last answer {final_rss / 1024:.1f} MiB, "
              f"peak (VmHWM) {peak / 1024:.1f} MiB")
        print(f"  final ping answered: {answers.get('final-ping') == 1}, exit code {code}")
        print(f"  failures: {len(missing)} unanswered or answered twice, {len(twice)} answered twice, "
              f"{len(bad)} bad lines, panic: {'panicked' in stderr}")
        if missing[:5]:
            print("  e.g.", missing[:5], [kinds[n] for n in missing[:5]])
        return 0 if not (missing or twice or bad or code != 0 or peak > 1 << 20) else 1


if __name__ == "__main__":
    sys.exit(main())
