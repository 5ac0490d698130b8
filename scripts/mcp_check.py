#!/usr/bin/env python3
"""Drives an installed `agentread --mcp` through the official Python MCP client (the `mcp`
package) over stdio, and fails unless its answers are a working `read` tool's.

Usage: mcp_check.py [--expect-in DIR] [COMMAND]

COMMAND (default `agentread`) is looked up on PATH, as a host would; with --expect-in
it must be found in DIR (the install under test, not another agentread on PATH).
Exit 0 when every check passes, 1 with the failed check on stderr otherwise.
"""

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

# Lines with non-ASCII text, so that a broken decoding shows.
SAMPLE = "alpha\nbéta ✓\ngamma\ndelta\n"


def field(obj, name: str):
    """A result's field: snake_case in mcp 2, camelCase in mcp 1."""
    if hasattr(obj, name):
        return getattr(obj, name)
    head, *rest = name.split("_")
    return getattr(obj, head + "".join(part.title() for part in rest))


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


async def drive(command: str, root: Path) -> list[str]:
    done = []
    params = StdioServerParameters(
        command=command,
        args=["--mcp", "--root", str(root)],
        env=dict(os.environ),
    )
    async with stdio_client(params) as (read_stream, write_stream):
        async with ClientSession(read_stream, write_stream) as session:
            init = await asyncio.wait_for(session.initialize(), 30)
            server = field(init, "server_info")
            check(server.name == "agentread", f"initialize: server name {server.name!r}")
            done.append(f"initialize: {server.name} {server.version}")

            listed = await asyncio.wait_for(session.list_tools(), 30)
            names = [tool.name for tool in listed.tools]
            check(names == ["read"], f"tools/list: {names}, expected ['read']")
            schema = field(listed.tools[0], "input_schema")
            check("path" in schema.get("properties", {}), f"read's input schema has no path: {schema}")
            done.append("tools/list: read")

            result = await asyncio.wait_for(
                session.call_tool("read", {"path": "sample.txt", "start_line": 2, "limit": 2}), 30
            )
            check(not field(result, "is_error"), f"read sample.txt: isError, {result}")
            text = result.content[0].text
            check(re.search(r"^\s*2 \| béta ✓$", text, re.M) is not None, f"line 2 missing from {text!r}")
            check(re.search(r"^\s*3 \| gamma$", text, re.M) is not None, f"line 3 missing from {text!r}")
            check("alpha" not in text and "delta" not in text, f"lines outside the window in {text!r}")
            structured = field(result, "structured_content")
            check(structured is not None, "read sample.txt: no structuredContent")
            data, stats = structured["data"], structured["stats"]
            check(structured["status"] == "partial", f"status {structured['status']!r}, expected 'partial'")
            check((data["start_line"], data["end_line"]) == (2, 3), f"window {data['start_line']}-{data['end_line']}")
            check(data["next_start_line"] == 4, f"next_start_line {data['next_start_line']}")
            check(stats["total_lines"] == 4, f"total_lines {stats['total_lines']}")
            done.append("tools/call read sample.txt 2-3: the window, partial, next_start_line 4")

            missing = await asyncio.wait_for(session.call_tool("read", {"path": "no-such-file.txt"}), 30)
            structured = field(missing, "structured_content")
            check(field(missing, "is_error"), "read no-such-file.txt: not an error")
            check(structured["error"]["code"] == "NOT_FOUND", f"error {structured['error']}")
            done.append("tools/call read no-such-file.txt: NOT_FOUND")

            outside = await asyncio.wait_for(session.call_tool("read", {"path": "../outside.txt"}), 30)
            structured = field(outside, "structured_content")
            check(structured["error"]["code"] == "ACCESS_DENIED", f"error {structured.get('error')}")
            done.append("tools/call read ../outside.txt: ACCESS_DENIED")
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", default="agentread")
    parser.add_argument("--expect-in", help="the directory the command must be found in")
    args = parser.parse_args()

    found = shutil.which(args.command)
    if found is None:
        print(f"mcp_check: {args.command} is not on PATH ({os.environ.get('PATH')})", file=sys.stderr)
        return 1
    if args.expect_in and Path(found).parent.resolve() != Path(args.expect_in).resolve():
        print(f"mcp_check: {args.command} is {found}, not the one in {args.expect_in}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "workspace"
        root.mkdir()
        (root / "sample.txt").write_text(SAMPLE, encoding="utf-8")
        (Path(tmp) / "outside.txt").write_text("secret\n", encoding="utf-8")
        try:
            done = asyncio.run(drive(found, root))
        except Exception as error:  # noqa: BLE001 - any failure is the check's failure
            print(f"mcp_check: {found}: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
    for line in done:
        print(f"mcp_check: {line}")
    print(f"mcp_check: {found}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
