#!/usr/bin/env bash
# Play (or resume) a long match of bench/players.py with the players' code of one commit, while main goes on.
#
#     bash bench/frozen_match.sh COMMIT MATCH DEALS DIR [WORKERS]
#     bash bench/frozen_match.sh dd72b54 strong-2026-12 1000 bench/data/arena/2026-12-05c 2
#
# A match's checkpoint resumes only on the players' code it was started with (its header keeps
# skat.players.arena.players_fingerprint), so a match of hours runs from a git worktree at COMMIT (in
# $SKAT_MATCH_TREE, default /tmp/skat-match-COMMIT), with this checkout's compiled modules copied there when the
# kernels' sources are the same (else it builds them) and this checkout's virtual environment (.venv, or
# $SKAT_VENV). The checkpoint DIR/MATCH-SEED.jsonl is copied from this checkout into the worktree first (when the
# worktree has fewer deals) and back after every finished chunk of deals, so `git add DIR` here commits what is done.
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
COMMIT="$1" MATCH="$2" DEALS="$3" DIR="$4" WORKERS="${5:-}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${SKAT_VENV:-$ROOT/.venv}/bin/python"
TREE="${SKAT_MATCH_TREE:-/tmp/skat-match-$COMMIT}"
[ -x "$PY" ] || { echo "no python at $PY: make the virtual environment first (README)" >&2; exit 1; }
git -C "$ROOT" rev-parse --verify -q "$COMMIT^{commit}" >/dev/null || { echo "no commit $COMMIT here" >&2; exit 1; }
if [ ! -d "$TREE" ]; then
    git -C "$ROOT" worktree add -q --detach "$TREE" "$COMMIT"
fi
for src in src/skat/deal/_core.py src/skat/rules/kernel.py src/skat/solver/kernels.py src/skat/players/dealing.py; do
    [ -f "$TREE/$src" ] || continue  # a commit from before that module was compiled
    so=$(ls "$ROOT/${src%.py}".cpython-*.so 2>/dev/null | head -n 1 || true)
    if [ -n "$so" ] && cmp -s "$ROOT/$src" "$TREE/$src"; then
        cp "$so" "$TREE/${so#"$ROOT"/}"
    else
        (cd "$TREE" && "$PY" -m pip install -q cython >/dev/null && "$PY" setup.py -q build_ext --inplace >/dev/null)
    fi
done
SEED=$(cd "$TREE" && PYTHONPATH="$TREE/src" "$PY" -c "
import sys; sys.path.insert(0, 'bench'); import players; print(players.MATCHES[sys.argv[1]][1])" "$MATCH")
FILE="$DIR/$MATCH-$SEED.jsonl"
mkdir -p "$TREE/$DIR" "$ROOT/$DIR"
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
if [ "$(lines "$ROOT/$FILE")" -gt "$(lines "$TREE/$FILE")" ]; then cp "$ROOT/$FILE" "$TREE/$FILE"; fi
copy_back() { [ -f "$TREE/$FILE" ] && cp "$TREE/$FILE" "$ROOT/$FILE"; }
(
    while sleep 60; do copy_back; done
) >/dev/null 2>&1 &
WATCH=$!
trap 'kill $WATCH 2>/dev/null; copy_back' EXIT
cd "$TREE"
PYTHONPATH="$TREE/src" "$PY" bench/players.py --matches "$MATCH" --deals "$DEALS" --timing-deals 0 \
    --data "$DIR" ${WORKERS:+--workers "$WORKERS"}
for out in "$DIR/$MATCH-$SEED.json" "$DIR/$MATCH-$SEED.png"; do
    [ -f "$out" ] && cp "$out" "$ROOT/$out"
done
