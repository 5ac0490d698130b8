#!/usr/bin/env python3
"""mcp-bench.py — reads per second through one `agentread --mcp` session against one
`agentread` process per read, on the same file.

Usage: scripts/mcp-bench.py AGENTREAD_BIN FILE [--reads N] [--spawns N]

The session is driven with JSON-RPC lines written by hand (one request, then its
answer: sequential reads, as an agent makes them). Prints both rates and their ratio.
"""
import json
import os
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary, path = os.path.abspath(args[0]), os.path.abspath(args[1])
    reads = int(args[args.index("--reads") + 1]) if "--reads" in args else 20000
    spawns = int(args[args.index("--spawns") + 1]) if "--spawns" in args else 2000
    root = os.path.dirname(path)
    name = os.path.basename(path)

    server = subprocess.Popen(
        [binary, "--mcp", "--root", root],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    out = server.stdout

    def send(data):
        server.stdin.write(data)
        server.stdin.flush()

    def request(message):
        send((json.dumps(message) + "\n").encode())
        return json.loads(out.readline())

    request({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "mcp-bench", "version": "1"}}})
    send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "read", "arguments": {"path": name}}}
    first = request(call)
    assert first["result"]["isError"] is False, first
    line = (json.dumps(call) + "\n").encode()
    for _ in range(200):  # warm-up
        send(line)
        out.readline()
    started = time.perf_counter()
    for _ in range(reads):
        send(line)
        out.readline()
    session = reads / (time.perf_counter() - started)
    server.stdin.close()
    server.wait()

    command = [binary, "--root", root, "--call", json.dumps({"path": name})]
    for _ in range(50):  # warm-up
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    started = time.perf_counter()
    for _ in range(spawns):
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    spawned = spawns / (time.perf_counter() - started)

    print(f"one MCP session: {session:,.0f} reads/s ({1e6 / session:.0f} us a read, {reads} reads)")
    print(f"one process a read: {spawned:,.0f} reads/s ({1e6 / spawned:.0f} us a read, {spawns} reads)")
    print(f"ratio: {session / spawned:.1f}x")


if __name__ == "__main__":
    main()
