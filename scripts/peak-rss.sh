#!/usr/bin/env bash
# peak-rss.sh — peak resident memory of agentread on a 1 GiB log, a 100 MB one-line file
# and a tail of long lines.
#
# Usage: scripts/peak-rss.sh [AGENTREAD_BIN] [WORKDIR]
#   AGENTREAD_BIN  default: target/<host>/release/agentread (built if missing)
#   WORKDIR        where the two test files are made (default: /tmp/agentread-rss)
# Needs GNU time at /usr/bin/time (Debian: apt-get install time).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release/agentread}
WORK=${2:-/tmp/agentread-rss}
[[ -x $BIN ]] || cargo build --release --quiet
[[ -x /usr/bin/time ]] || { echo "peak-rss.sh: GNU time is needed at /usr/bin/time" >&2; exit 2; }
mkdir -p "$WORK"
LOG=$WORK/1gib.log
ONE=$WORK/100mb-one-line.txt
WIDE=$WORK/40mb-wide-lines.txt
if [[ ! -f $LOG || $(stat -c %s "$LOG") -ne 1073741824 ]]; then
  yes '2026-11-22T06:00:00.000Z INFO [api] req=4f2a01 user=café GET /v1/items?id=123456 status=200 took=12ms' \
    | head -c 1073741824 > "$LOG" || true   # yes ends on SIGPIPE
fi
if [[ ! -f $ONE || $(stat -c %s "$ONE") -ne 100000000 ]]; then
  head -c 100000000 /dev/zero | tr '\0' 'x' > "$ONE" || true
fi

if [[ ! -f $WIDE || $(stat -c %s "$WIDE") -ne 40000000 ]]; then
  # 20,000 lines of 1,999 characters: a tail of 2000 such lines is far over the budget.
  yes "$(head -c 1999 /dev/zero | tr '\0' 'w')" | head -n 20000 > "$WIDE" || true
fi

printf '%-52s %12s %9s\n' "scenario" "peak RSS" "seconds"
measure() {
  local name=$1; shift
  local stats
  /usr/bin/time -f '%M %e' -o "$WORK/time.out" "$BIN" "$@" > /dev/null 2>&1 || true
  stats=$(tail -1 "$WORK/time.out")
  printf '%-52s %9s KiB %9s\n' "$name" "${stats% *}" "${stats#* }"
}
measure "1 GiB log: first page"                      --root "$WORK" 1gib.log
measure "1 GiB log: page in the middle (json)"       --root "$WORK" 1gib.log --start-line 5000000 -f json
measure "1 GiB log: --tail 2000"                     --root "$WORK" 1gib.log --tail 2000
measure "1 GiB log: --hash"                          --root "$WORK" 1gib.log --hash
measure "100 MB one-line file: line 1, cut"          --root "$WORK" 100mb-one-line.txt
measure "100 MB one-line file: --start-char 99999001" --root "$WORK" 100mb-one-line.txt --start-char 99999001
measure "100 MB one-line file: from stdin"           - < "$ONE"
measure "40 MB of 2000-char lines: --tail 2000"      --root "$WORK" 40mb-wide-lines.txt --tail 2000
measure "the same from stdin"                        - --tail 2000 < "$WIDE"
