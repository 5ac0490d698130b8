#!/usr/bin/env bash
# Checks what `BINARY --mcp-config HOST` prints against the hosts themselves: each command
# is run, and each snippet is read, by the host's own command line where it is installed
# (npm install -g @anthropic-ai/claude-code @openai/codex @google/gemini-cli opencode-ai),
# and the server is started by the host where its command line can do that. Hosts
# without a command line here (VS Code, Cursor, Claude Desktop, Goose) get their
# documented shape checked; Cursor's and Claude Desktop's `mcpServers` snippet is also
# read by Claude Code as a project `.mcp.json`, which has the same shape, and started.
#
# Usage: scripts/check-hosts.sh BINARY
# Every host runs with HOME (and CODEX_HOME) in a new temporary directory: no real
# configuration is read or changed. The project directory's name needs shell quoting
# ("my project's dir ü"), so the quoting is checked too. A host whose command line is
# absent is SKIPPED; any FAIL makes the exit status 1. Needs python3 (3.11+, tomllib).
set -uo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: scripts/check-hosts.sh BINARY (an agentread with --mcp-config)" >&2
    exit 2
fi
agentread=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# The command every snippet names: the running binary's absolute path (symlinks resolved,
# so it may differ from BINARY), read back from the vscode snippet.
binary=$(cd "$tmp" && "$agentread" --mcp-config vscode |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["servers"]["agentread"]["command"])' 2>/dev/null) || {
    echo "check-hosts: $agentread --mcp-config vscode gave no command" >&2
    exit 1
}
if [[ $binary != /* ]] || [ ! -x "$binary" ] ||
    [ "$("$binary" --version)" != "$("$agentread" --version)" ]; then
    echo "check-hosts: the command $binary is not an absolute path to this agentread" >&2
    exit 1
fi
echo "check-hosts: the snippets' command is $binary"

pass() { printf 'PASS %-15s %s\n' "$1" "$2"; }
skip() { printf 'SKIP %-15s %s\n' "$1" "$2"; }
fail() { printf 'FAIL %-15s %s\n' "$1" "$2"; failures=$((failures + 1)); }
have() { command -v "$1" >/dev/null; }

# fresh NAME: a new HOME and project directory for one host; cd into the project.
fresh() {
    export HOME="$tmp/$1/home"
    export CODEX_HOME="$HOME/.codex"
    project="$tmp/$1/my project's dir ü"
    mkdir -p "$HOME" "$CODEX_HOME" "$project"
    printf 'one\ntwo\n' > "$project/a.txt"
    cd "$project" || exit 1
}

# Hosts' command lines: no update checks, no telemetry, and a bound on the time.
export DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1
export NO_UPDATE_NOTIFIER=1 CI=1
host_cli() { timeout 120 "$@" 2>&1; }

# py CODE ARGS…: a Python check; CODE's exit status is the check's.
py() { python3 - "$@"; }

# The entry every host gets: the binary, `--mcp --root <project>`.
expect_args() { printf '%s\n' "$binary" --mcp --root "$project"; }

mcp_servers_shape() {
    py "$1" "$binary" "$project" <<'EOF'
import json, sys
path, binary, root = sys.argv[1:]
want = {"mcpServers": {"agentread": {"command": binary, "args": ["--mcp", "--root", root]}}}
got = json.load(open(path, encoding="utf-8"))
sys.exit(0 if got == want else f"{got}\n!= {want}")
EOF
}

# --- the host names ---------------------------------------------------------------------
fresh names
if out=$("$agentread" --mcp-config no-such-host 2>&1); then
    fail names "--mcp-config no-such-host succeeded: $out"
else
    status=$?
    if [ "$status" -eq 2 ] && [[ $out == *INVALID_PARAM* ]] && [[ $out == *claude-desktop* ]]; then
        pass names "an unknown host is INVALID_PARAM (exit 2) naming the known ones"
    else
        fail names "exit $status: $out"
    fi
fi

# --- claude: the command, run; Claude Code starts the server ----------------------------
fresh claude
line=$("$agentread" --mcp-config claude)
if [[ $line != "claude mcp add agentread -- "* ]]; then
    fail claude "not a claude mcp add command: $line"
elif ! have claude; then
    skip claude "no claude (npm install -g @anthropic-ai/claude-code)"
elif ! out=$(host_cli sh -c "$line"); then
    fail claude "$line: $out"
else
    if py "$HOME/.claude.json" "$project" "$binary" <<'EOF'; then
import json, sys
path, root, binary = sys.argv[1:]
server = json.load(open(path, encoding="utf-8"))["projects"][root]["mcpServers"]["agentread"]
want = {"type": "stdio", "command": binary, "args": ["--mcp", "--root", root]}
sys.exit(0 if {k: server.get(k) for k in want} == want else f"{server} != {want}")
EOF
        out=$(host_cli claude mcp get agentread)
        if [[ $out == *Connected* ]]; then
            pass claude "claude mcp add wrote the local-scope server; claude mcp get: Connected"
        else
            fail claude "claude mcp get agentread: $out"
        fi
    else
        fail claude "$HOME/.claude.json does not hold the server as given"
    fi
fi

# --- claude-desktop, cursor: {"mcpServers": …}; Claude Code reads it as .mcp.json -------
for host in claude-desktop cursor; do
    fresh "$host"
    "$agentread" --mcp-config "$host" > .mcp.json
    if ! mcp_servers_shape .mcp.json; then
        fail "$host" "not the mcpServers shape"
    elif ! have claude; then
        pass "$host" "the mcpServers shape (no claude to read it)"
    else
        # Approved, as `claude` asks a person to do for a project's .mcp.json.
        py "$HOME/.claude.json" "$project" <<'EOF'
import json, sys
path, root = sys.argv[1:]
approved = {"enabledMcpjsonServers": ["agentread"], "hasTrustDialogAccepted": True}
json.dump({"projects": {root: approved}}, open(path, "w"))
EOF
        out=$(host_cli claude mcp get agentread)
        if [[ $out == *"Project config"* ]] && [[ $out == *Connected* ]]; then
            pass "$host" "the mcpServers shape; Claude Code, reading it as .mcp.json: Connected"
        else
            fail "$host" "claude mcp get agentread with it as .mcp.json: $out"
        fi
    fi
done

# --- codex: the command, run; codex-toml: the table codex writes -------------------------
fresh codex
line=$("$agentread" --mcp-config codex)
"$agentread" --mcp-config codex-toml > "$tmp/codex-snippet.toml"
toml_shape() {
    py "$1" "$binary" "$project" <<'EOF'
import sys, tomllib
path, binary, root = sys.argv[1:]
got = tomllib.load(open(path, "rb"))
want = {"mcp_servers": {"agentread": {"command": binary, "args": ["--mcp", "--root", root]}}}
sys.exit(0 if got == want else f"{got}\n!= {want}")
EOF
}
codex_get() {
    local out
    out=$(host_cli codex mcp get agentread --json)
    py "$binary" "$project" "$out" <<'EOF'
import json, sys
binary, root, text = sys.argv[1:]
got = json.loads(text[text.index("{"):])["transport"]
sys.exit(0 if (got["command"], got["args"]) == (binary, ["--mcp", "--root", root]) else f"{got}")
EOF
}
if [[ $line != "codex mcp add agentread -- "* ]]; then
    fail codex "not a codex mcp add command: $line"
elif ! toml_shape "$tmp/codex-snippet.toml"; then
    fail codex-toml "not the [mcp_servers.agentread] table"
elif ! have codex; then
    skip codex "no codex (npm install -g @openai/codex)"
    pass codex-toml "the [mcp_servers.agentread] table (no codex to read it)"
elif ! out=$(host_cli sh -c "$line"); then
    fail codex "$line: $out"
else
    if toml_shape "$CODEX_HOME/config.toml" && codex_get; then
        pass codex "codex mcp add wrote [mcp_servers.agentread]; codex mcp get shows it"
    else
        fail codex "$CODEX_HOME/config.toml: $(cat "$CODEX_HOME/config.toml")"
    fi
    fresh codex-toml
    cp "$tmp/codex-snippet.toml" "$CODEX_HOME/config.toml"
    # The snippet was made in the codex project; compare it there.
    project="$tmp/codex/my project's dir ü"
    if ! codex_get; then
        fail codex-toml "codex mcp get agentread with the snippet as ~/.codex/config.toml"
    else
        # And as a trusted project's own .codex/config.toml.
        cd "$project" && mkdir -p .codex && cp "$tmp/codex-snippet.toml" .codex/config.toml
        printf '[projects."%s"]\ntrust_level = "trusted"\n' "$project" > "$CODEX_HOME/config.toml"
        if codex_get; then
            pass codex-toml "codex reads the table from ~/.codex and from a trusted project's .codex"
        else
            fail codex-toml "codex mcp get agentread with the snippet as the project's .codex/config.toml"
        fi
    fi
fi

# --- gemini: the snippet is what gemini mcp add writes; gemini starts the server ---------
fresh gemini
"$agentread" --mcp-config gemini > "$tmp/gemini-snippet.json"
if ! mcp_servers_shape "$tmp/gemini-snippet.json"; then
    fail gemini "not the mcpServers shape"
elif ! have gemini; then
    skip gemini "no gemini (npm install -g @google/gemini-cli)"
elif ! out=$(host_cli gemini mcp add --scope project agentread "$binary" -- --mcp --root "$project"); then
    fail gemini "gemini mcp add: $out"
elif ! cmp -s <(py "$tmp/gemini-snippet.json" <<<'import json,sys; print(json.load(open(sys.argv[1])))') \
    <(py .gemini/settings.json <<<'import json,sys; print(json.load(open(sys.argv[1])))'); then
    fail gemini "gemini mcp add wrote $(cat .gemini/settings.json)"
else
    cp "$tmp/gemini-snippet.json" .gemini/settings.json
    # Gemini starts no server of a folder it does not trust.
    py "$HOME/.gemini/trustedFolders.json" "$project" <<<'import json,sys; json.dump({sys.argv[2]: "TRUST_FOLDER"}, open(sys.argv[1], "w"))'
    out=$(host_cli gemini mcp list)
    if [[ $out == *"agentread: $binary"*Connected* ]]; then
        pass gemini "the snippet is what gemini mcp add writes; gemini mcp list: Connected"
    else
        fail gemini "gemini mcp list: $out"
    fi
fi

# --- opencode: the snippet as opencode.json; opencode starts the server ------------------
fresh opencode
"$agentread" --mcp-config opencode > opencode.json
if ! py opencode.json "$binary" "$project" <<'EOF'; then
import json, sys
path, binary, root = sys.argv[1:]
server = json.load(open(path, encoding="utf-8"))["mcp"]["agentread"]
want = {"type": "local", "command": [binary, "--mcp", "--root", root], "enabled": True}
sys.exit(0 if server == want else f"{server} != {want}")
EOF
    fail opencode "not the mcp.agentread local shape"
elif ! have opencode; then
    skip opencode "no opencode (npm install -g opencode-ai)"
else
    out=$(host_cli opencode mcp list | sed 's/\x1b\[[0-9;]*m//g')
    if [[ $out == *"agentread connected"* ]]; then
        pass opencode "opencode.json with the snippet; opencode mcp list: connected"
    else
        fail opencode "opencode mcp list: $out"
    fi
fi

# --- vscode, goose: their documented shapes ----------------------------------------------
fresh vscode
"$agentread" --mcp-config vscode > mcp.json
if py mcp.json "$binary" "$project" <<'EOF'; then
import json, sys
path, binary, root = sys.argv[1:]
got = json.load(open(path, encoding="utf-8"))
want = {"servers": {"agentread": {"type": "stdio", "command": binary, "args": ["--mcp", "--root", root]}}}
sys.exit(0 if got == want else f"{got}\n!= {want}")
EOF
    pass vscode "the .vscode/mcp.json shape (no VS Code here)"
else
    fail vscode "not the servers shape"
fi

fresh goose
"$agentread" --mcp-config goose > config.yaml
if py config.yaml "$binary" "$project" <<'EOF'; then
import json, sys
path, binary, root = sys.argv[1:]
text = open(path, encoding="utf-8").read()
try:
    import yaml
    entry = yaml.safe_load(text)["extensions"]["agentread"]
except ImportError:
    # No PyYAML: the scalars are double-quoted, which JSON reads the same way.
    lines = text.splitlines()
    value = lambda line, key: json.loads(line.split(key, 1)[1])
    entry = {"type": "stdio", "enabled": True, "name": "agentread", "timeout": 300,
             "cmd": value(lines[6], "cmd: "), "args": [value(l, "- ") for l in lines[8:11]]}
want = {"type": "stdio", "enabled": True, "name": "agentread", "cmd": binary,
        "args": ["--mcp", "--root", root], "timeout": 300}
sys.exit(0 if {k: entry.get(k) for k in want} == want else f"{entry}\n!= {want}")
EOF
    pass goose "the extensions: stdio entry (no goose here)"
else
    fail goose "not the goose extension shape"
fi

echo
if [ "$failures" -gt 0 ]; then
    echo "check-hosts: $failures failed"
    exit 1
fi
echo "check-hosts: passed"
