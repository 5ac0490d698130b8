#!/usr/bin/env bash
# Builds what a user installs without Rust, installs it as they would, and checks that the
# installed `agentread --mcp` serves the official Python MCP client:
#   1. the release binary (`cargo build --release --locked`),
#   2. the wheel (`maturin build --release`), installed into a fresh venv,
#   3. the npm packages (scripts/npm-pack.sh: this machine's platform package and the
#      launcher), installed with `npm install` into an empty directory,
# and for each install, with a PATH that has no cargo or rustc, runs `agentread --version`
# and scripts/mcp_check.py (initialize, tools/list, tools/call read). Exits non-zero on
# the first failure.
#
# Usage: scripts/package-check.sh
# Environment: CARGO_TARGET_DIR (default target/), CARGO_BUILD_JOBS, and
#   AGENTREAD_CHECK_DIR  where to work (default: a new temporary directory, removed after)
#   MATURIN              a maturin to use (default: the one on PATH, else one installed
#                        into /tmp/agentread-maturin-venv)
# Needs: cargo, python3 (with venv), node and npm, and the package registries (PyPI for
# maturin and mcp; npm's registry is asked about the other platforms' packages).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target_dir=${CARGO_TARGET_DIR:-$root/target}
if [ -n "${AGENTREAD_CHECK_DIR:-}" ]; then
    work=$AGENTREAD_CHECK_DIR
    rm -rf "$work"
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
work=$(cd "$work" && pwd)

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'package-check: FAILED: %s\n' "$*" >&2; exit 1; }

step "release binary: cargo build --release --locked"
cargo build --release --locked
binary=$target_dir/$(rustc -vV | sed -n 's/^host: //p')/release/agentread
[ -x "$binary" ] || fail "no binary at $binary"
"$binary" --version

step "wheel: maturin build --release"
maturin=${MATURIN:-$(command -v maturin || true)}
if [ -z "$maturin" ]; then
    tools=/tmp/agentread-maturin-venv
    [ -x "$tools/bin/maturin" ] || {
        python3 -m venv "$tools"
        "$tools/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.9,<2'
    }
    maturin=$tools/bin/maturin
fi
"$maturin" --version
"$maturin" build --release --out "$work/wheels"
wheels=("$work"/wheels/agentread-*.whl)
if [ ${#wheels[@]} -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    fail "expected one wheel in $work/wheels"
fi
wheel=${wheels[0]}
echo "wheel: $(basename "$wheel")"

step "npm tarballs: scripts/npm-pack.sh"
scripts/npm-pack.sh --out "$work/npm-dist" "$binary"

step "a fresh venv: the wheel and the mcp client"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" 'mcp>=1.9'
"$work/venv/bin/pip" show --quiet mcp >/dev/null
echo "installed: $("$work/venv/bin/pip" list --disable-pip-version-check 2>/dev/null | grep -iE '^(agentread|mcp) ' | tr -s ' ' | paste -sd ',' -)"

step "an empty directory: npm install ./npm-dist/*.tgz"
mkdir "$work/npm-install"
(cd "$work/npm-install" && npm install --no-audit --no-fund --loglevel=error "$work"/npm-dist/*.tgz)
[ -L "$work/npm-install/node_modules/.bin/agentread" ] || fail "npm install made no .bin/agentread"

# A PATH for a machine without Rust: the system directories, and node (which the npm
# launcher runs on) by a link of its own, since its directory may hold other tools.
clean_bin=$work/clean-bin
mkdir "$clean_bin"
ln -s "$(command -v node)" "$clean_bin/node"
base_path=$clean_bin:/usr/bin:/bin

# check NAME DIR: with DIR first on the clean PATH, `agentread` must be DIR's, and pass.
check() {
    local name=$1 dir=$2
    step "$name: agentread from $dir, PATH without cargo"
    (
        export PATH=$dir:$base_path
        unset CARGO_HOME RUSTUP_HOME CARGO_TARGET_DIR
        if command -v cargo >/dev/null || command -v rustc >/dev/null; then
            fail "cargo or rustc is still on PATH ($PATH): $(command -v cargo rustc | paste -sd ' ' -)"
        fi
        echo "command -v cargo: none; command -v agentread: $(command -v agentread)"
        [ "$(command -v agentread)" = "$dir/agentread" ] || fail "agentread is $(command -v agentread), not $dir/agentread"
        version=$(agentread --version) || fail "$name: agentread --version"
        echo "agentread --version: $version"
        [ "$version" = "$("$binary" --version)" ] || fail "$name: version $version, built $("$binary" --version)"
        "$work/venv/bin/python" "$root/scripts/mcp_check.py" --expect-in "$dir" agentread ||
            fail "$name: the MCP check"
    )
}

check "pip (wheel)" "$work/venv/bin"
check "npm" "$work/npm-install/node_modules/.bin"

tarballs=("$work"/npm-dist/*.tgz)
step "package-check: passed (wheel $(basename "$wheel"); npm ${tarballs[*]##*/})"
