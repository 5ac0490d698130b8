#!/usr/bin/env bash
# Packs the npm packages around one agentread binary, ready for `npm install` or
# `npm publish`:
#   - the platform package @agentread/<platform> with BINARY as its bin/agentread,
#   - the launcher package `agentread` (npm/agentread: bin/agentread.js, which runs the
#     platform package's binary).
# Both get the version of Cargo.toml, the licenses, and (in GitHub Actions) the
# repository field npm's provenance checks.
#
# Usage: scripts/npm-pack.sh [--platform NAME] [--out DIR] [--no-launcher] BINARY
#        scripts/npm-pack.sh [--out DIR] --launcher-only
#   --platform       one of npm/platforms/* (default: this machine's, as the launcher sees it)
#   --out            where the .tgz files go (default: dist)
#   --no-launcher    only the platform package
#   --launcher-only  only the launcher (the release packs it once, beside every platform's)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
platform=
out=dist
launcher=1
while [ $# -gt 0 ]; do
    case $1 in
        --platform) platform=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-launcher) launcher=; shift ;;
        --launcher-only) launcher=only; shift ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) echo "npm-pack.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [ "$launcher" = only ] && [ $# -eq 0 ]; then
    binary=
elif [ "$launcher" != only ] && [ $# -eq 1 ]; then
    binary=$1
    [ -f "$binary" ] || { echo "npm-pack.sh: no binary at $binary" >&2; exit 2; }
else
    echo "usage: scripts/npm-pack.sh [--platform NAME] [--out DIR] [--no-launcher] BINARY" >&2
    echo "       scripts/npm-pack.sh [--out DIR] --launcher-only" >&2
    exit 2
fi

if [ -n "$binary" ] && [ -z "$platform" ]; then
    # The launcher's own choice, so that what is packed here is what it will look for.
    platform=$(node -e 'console.log(require(process.argv[1]).candidates()[0] ?? "")' \
        "$root/npm/agentread/bin/agentread.js")
    [ -n "$platform" ] || { echo "npm-pack.sh: the npm package has no binary for this machine" >&2; exit 2; }
fi
if [ -n "$binary" ] && [ ! -f "$root/npm/platforms/$platform/package.json" ]; then
    echo "npm-pack.sh: no npm/platforms/$platform" >&2
    exit 2
fi

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
[ -n "$version" ] || { echo "npm-pack.sh: no version in Cargo.toml" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# Sets the version (of the package and of its @agentread/* optional dependencies) and,
# where known, the repository.
stamp() {
    node - "$1/package.json" "$version" "${GITHUB_SERVER_URL:-}" "${GITHUB_REPOSITORY:-}" <<'EOF'
const fs = require("node:fs");
const [file, version, server, repo] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
pkg.version = version;
for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
  if (name.startsWith("@agentread/")) pkg.optionalDependencies[name] = version;
}
if (server && repo) pkg.repository = { type: "git", url: `git+${server}/${repo}.git` };
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
EOF
}

pack() {
    (cd "$1" && npm pack --silent --pack-destination "$out") | sed "s|^|$out/|"
}

if [ -n "$binary" ]; then
    exe=agentread
    case $platform in win32-*) exe=agentread.exe ;; esac
    dir="$stage/platform"
    mkdir -p "$dir/bin"
    cp "$root/npm/platforms/$platform/package.json" "$dir/"
    cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$dir/"
    cp "$binary" "$dir/bin/$exe"
    chmod 755 "$dir/bin/$exe"
    cat > "$dir/README.md" <<EOF
# @agentread/$platform

The agentread binary for $platform. Install \`agentread\`, which picks this package
when it matches the machine.
EOF
    stamp "$dir"
    pack "$dir"
fi

if [ -n "$launcher" ]; then
    dir="$stage/launcher"
    mkdir -p "$dir"
    cp -R "$root/npm/agentread/." "$dir/"
    cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/README.md" "$dir/"
    chmod 755 "$dir/bin/agentread.js"
    stamp "$dir"
    pack "$dir"
fi
