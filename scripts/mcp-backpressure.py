#!/usr/bin/env python3
"""A client that writes tools/call requests to `agentread --mcp` and never reads the
answers, while the server's resident memory is sampled (SPEC §12: at most 64 calls in
flight; a server whose answers cannot be written stops reading requests).

    scripts/mcp-backpressure.py AGENTREAD_BIN [CALLS] [SECONDS] [FILE_KB]

Writes CALLS (20,000) reads of a FILE_KB (140) KB file on another thread, samples VmRSS
every 0.25 s for SECONDS (15), then prints how many calls the server took and its RSS.
"""

import os
import subprocess
import sys
import tempfile
import threading
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    binary = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 15.0
    file_kb = int(sys.argv[4]) if len(sys.argv) > 4 else 140
    with tempfile.TemporaryDirectory() as root:
        line = "a line of the file that is read again and again, 64 bytes long\n"
        with open(os.path.join(root, "file.txt"), "w") as f:
            f.write(line * (file_kb * 1024 // len(line)))
        server = subprocess.Popen(
            [binary, "--mcp", "--root", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,  # never read
            stderr=subprocess.DEVNULL,
        )
        written = [0]

        def write():
            init = (
                '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":'
                '"2025-06-18","capabilities":{},"clientInfo":{"name":"bp","version":"1"}}}\n'
                '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
            )
            try:
                server.stdin.write(init.encode())
                for i in range(1, calls + 1):
                    request = (
                        '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":'
                        '{"name":"read","arguments":{"path":"file.txt"}}}\n' % i
                    )
                    server.stdin.write(request.encode())
                    server.stdin.flush()
                    written[0] = i
            except (BrokenPipeError, ValueError):
                pass

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        samples = []
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            samples.append((time.monotonic() - started, rss_kib(server.pid), written[0]))
            time.sleep(0.25)
        peak = max(rss for _, rss, _ in samples)
        for at in (1, 5, 10, seconds):
            t, rss, sent = min(samples, key=lambda s: abs(s[0] - at))
            print(f"  {t:5.1f} s: RSS {rss / 1024:7.1f} MiB, {sent} calls taken by the server")
        print(
            f"{calls} calls of a {file_kb} KB file, answers never read: peak RSS "
            f"{peak / 1024:.1f} MiB, final {samples[-1][1] / 1024:.1f} MiB, "
            f"{written[0]} calls taken in {seconds:.0f} s"
        )
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
