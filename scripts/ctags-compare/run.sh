#!/usr/bin/env bash
# Runs compare.py on real source trees: up to 150 files a language, sampled with a fixed
# seed. Rust and C come from ~/.cargo/registry/src, Python from its standard library; the
# others from CORPUS (default /tmp/corpus): npm/node_modules (JavaScript, TypeScript),
# expressjs+express (CommonJS), any Go sources, google+gson (Java), cinc (C headers),
# google+leveldb and fmtlib+fmt (C++, with their `.h` headers).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release >&2
REG=$(echo "$HOME"/.cargo/registry/src/index.crates.io-*)
PY=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
C=${CORPUS:-/tmp/corpus}
exec python3 scripts/ctags-compare/compare.py "${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release/agentread" --per-language "${PER_LANGUAGE:-150}" --show "${SHOW:-8}" \
  "rust:$REG:rs" \
  "python:$PY:py" \
  "javascript:$C/npm/node_modules:js,mjs,cjs" "javascript:$C/expressjs+express:js" \
  "typescript:$C/npm/node_modules:ts" \
  "go:$C:go" \
  "java:$C/google+gson:java" \
  "c:$REG:c" "c:$C/cinc:h" \
  "cpp:$C/google+leveldb:cc,cpp,hpp,h" "cpp:$C/fmtlib+fmt:cc,cpp,hpp,h"
