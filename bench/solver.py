"""Double-dummy solver speed on 100 fixed full deals, against the pure-Python reference.

    python3 bench/solver.py                 # the benchmark (a few minutes on 2 cores)
    python3 bench/solver.py --generate      # rewrite bench/data/solver_deals.json

The deals (bench/data/solver_deals.json) come from ``skat.deal.game.deal(seed)`` for seeds 0, 1, 2, ...
The first seat (forehand, middlehand, rearhand) whose hand with the skat passes a rule of thumb
that club players use for a safe bid becomes the declarer; seeds where nobody qualifies are
skipped until 100 deals are found.  The declarer picks up the skat and discards, and the contract
is fixed:

* grand if the ten cards after the discard have 3+ jacks and 2+ aces, 4 jacks and an ace, or
  2 jacks with 3+ aces and 1+ ten guarded by its ace;
* else the suit with the most trumps (jacks included; ties: the higher suit) if it has 7+ trumps,
  6+ trumps with 2+ jacks and a side ace, or 5+ trumps with 2+ jacks and aces plus guarded tens
  at least 3;
* else null if every suit is safe: its k-th lowest card (k = 0, 1, ...) is at most the
  (2k+1)-th lowest rank (7 alone is safe, 8 alone is not, 7 9 J is safe).
The discard: for suit and grand the two non-trump, non-ace cards that maximise the card points
put away plus 12 per side suit made void; for null the pair that leaves the most safe suits
(then the lowest worst card).

Figures (one process, one core; times are the CPU time of the solving thread, so that other jobs
on a shared machine do not inflate them; each deal is solved ``--repeat`` times, default 3, and
its median time counts, which keeps a noisy machine's outliers out): milliseconds per deal for
the won/lost question (61 card
points; null: no trick) and for the exact card points (suit and grand deals), nodes per second,
random playouts per second, how late a 2 ms time limit stops the hardest deals' searches (wall clock, as
the limit is), the same questions on the same positions with the pure-Python
reference solver (time-capped per position: capped runs count at the cap, so the ratio is then a
lower bound), and the start: import and first calls in a fresh process, twice (the kernels are
compiled ahead of time by setup.py, so there is no cache to fill: both should take the same).
The last line is JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from skat.cards import JACKS, Card, iter_mask, mask_points, suit_mask
from skat.deal.game import deal
from skat.rules.ranking import TRUMP_MASK, GameType
from skat.solver import (
    Position,
    SearchLimitExceeded,
    declarer_reaches,
    last_node_count,
    move_values_array,
    null_declarer_wins,
    random_playouts,
    solve_points,
)
from skat.solver import reference as ref

DATA = Path(__file__).resolve().parent / "data" / "solver_deals.json"
ACES = sum(1 << (s * 8 + 7) for s in range(4))

CRITERION = (
    "skat.deal.game.deal(seed) for seeds 0,1,2,...; first seat (0,1,2) whose 12 cards pass the rule of thumb in "
    "bench/solver.py (grand: 3+ jacks and 2+ aces, 4 jacks and an ace, or 2 jacks, 3+ aces and a guarded ten; "
    "suit: most trumps with 7+, 6+ with 2 jacks and a side ace, or 5+ with 2 jacks and aces+guarded tens >= 3; "
    "null: every suit safe) declares it after picking up the skat; discard as documented there"
)


# --------------------------------------------------------------------------- the deal list
def _side_counts(hand: int, gt: int) -> tuple[int, int, int, int]:
    """(jacks, trumps, side aces, side tens guarded by their ace) of a hand for a game type."""
    trumps = TRUMP_MASK[gt]
    jacks = (hand & JACKS).bit_count()
    aces = tens = 0
    for s in range(4):
        if gt < 4 and s == gt:
            continue
        side = hand & suit_mask(s) & ~trumps
        if side >> (s * 8 + 7) & 1:
            aces += 1
            if side >> (s * 8 + 3) & 1:
                tens += 1
    return jacks, (hand & trumps).bit_count(), aces, tens


def _null_suit_safe(hand: int, suit: int) -> bool:
    ranks = sorted(c & 7 for c in iter_mask(hand & suit_mask(suit)))
    return all(r <= 2 * k for k, r in enumerate(ranks))


def _null_score(hand: int) -> tuple[int, int]:
    safe = sum(_null_suit_safe(hand, s) for s in range(4))
    worst = max((c & 7 for c in iter_mask(hand)), default=0)
    return safe, -worst


def choose_discard(twelve: int, gt: int) -> int:
    """The two cards the declarer puts away (see the module docstring)."""
    cards = list(iter_mask(twelve))
    if gt == GameType.NULL:
        pairs = itertools.combinations(cards, 2)
        return max(((1 << a) | (1 << b) for a, b in pairs), key=lambda d: _null_score(twelve & ~d))
    trumps = TRUMP_MASK[gt]
    candidates = [c for c in cards if not trumps >> c & 1 and c & 7 != 7]
    if len(candidates) < 2:
        candidates = [c for c in cards if not trumps >> c & 1] or cards
    if len(candidates) < 2:
        candidates = cards

    def score(d: int) -> int:
        rest = twelve & ~d
        voids = sum(1 for s in range(4) if (gt >= 4 or s != gt) and twelve & suit_mask(s) & ~trumps
                    and not rest & suit_mask(s) & ~trumps)
        return mask_points(d) + 12 * voids

    return max(((1 << a) | (1 << b) for a, b in itertools.combinations(candidates, 2)), key=score)


def bid_for(twelve: int) -> tuple[int, int] | None:
    """(game type, discard) that the rule of thumb bids with these 12 cards, or None."""
    d = choose_discard(twelve, GameType.GRAND)
    jacks, _, aces, tens = _side_counts(twelve & ~d, GameType.GRAND)
    if (jacks >= 3 and aces >= 2) or (jacks == 4 and aces >= 1) or (jacks == 2 and aces >= 3 and tens >= 1):
        return int(GameType.GRAND), d
    best = None
    for gt in (3, 2, 1, 0):
        d = choose_discard(twelve, gt)
        jacks, trumps, aces, tens = _side_counts(twelve & ~d, gt)
        ok = trumps >= 7 or (trumps >= 6 and jacks >= 2 and aces >= 1) or (
            trumps >= 5 and jacks >= 2 and aces + tens >= 3)
        if ok and (best is None or trumps > best[0]):
            best = (trumps, gt, d)
    if best is not None:
        return best[1], best[2]
    d = choose_discard(twelve, GameType.NULL)
    if _null_score(twelve & ~d)[0] == 4:
        return int(GameType.NULL), d
    return None


def generate(count: int = 100) -> dict:
    deals = []
    seed = 0
    while len(deals) < count:
        hands, skat = deal(seed)
        for seat in range(3):
            choice = bid_for(hands[seat] | skat)
            if choice is None:
                continue
            gt, discard = choice
            new_hands = list(hands)
            new_hands[seat] = (hands[seat] | skat) & ~discard
            deals.append({
                "seed": seed,
                "game": GameType(gt).label,
                "declarer": seat,
                "hands": [[Card(c).name for c in iter_mask(h)] for h in new_hands],
                "skat": [Card(c).name for c in iter_mask(skat)],
                "discard": [Card(c).name for c in iter_mask(discard)],
            })
            break
        seed += 1
    return {"criterion": CRITERION, "deals": deals}


def load_positions() -> list[Position]:
    data = json.loads(DATA.read_text())
    out = []
    for d in data["deals"]:
        discard = sum(1 << Card.parse(c) for c in d["discard"])
        out.append(Position.from_json({
            "game": d["game"], "declarer": d["declarer"], "hands": d["hands"], "trick": [], "leader": 0,
            "declarer_points": mask_points(discard) if d["game"] != "null" else 0,
            "defender_points": 0, "declarer_tricks": 0, "defender_tricks": 0,
        }))
    return out


# --------------------------------------------------------------------------- measurements
def _args(pos: Position) -> tuple:
    return int(pos.game_type), pos.hands, pos.trick, pos.leader, pos.declarer


def won_lost(pos: Position) -> bool:
    if pos.game_type == GameType.NULL:
        return null_declarer_wins(pos.hands, pos.trick, pos.leader, pos.declarer)
    return declarer_reaches(*_args(pos), 61, pos.declarer_points)


def ref_won_lost(pos: Position) -> bool:
    if pos.game_type == GameType.NULL:
        return ref.reference_null(pos)
    return ref.reference_reaches(pos, 61)


def timed(fn, *args) -> tuple[float, object]:
    """(CPU milliseconds of this thread, value): robust when other jobs share the machine."""
    t = time.thread_time()
    value = fn(*args)
    return (time.thread_time() - t) * 1000.0, value


class _Cap(Exception):
    pass


def capped(fn, cap_s: float, *args) -> tuple[float, object, bool]:
    """(ms, value, capped): run a pure-Python solver for at most ``cap_s`` seconds."""

    def alarm(signum, frame):
        raise _Cap

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, cap_s)
    t = time.thread_time()
    try:
        value = fn(*args)
        hit = False
    except _Cap:
        value, hit = None, True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return (time.thread_time() - t) * 1000.0, value, hit


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


def play_best(pos: Position, tricks: int) -> Position:
    """Follow the solver's optimal line for ``tricks`` tricks (lowest card among equal values)."""
    target = pos.tricks_left - tricks
    while pos.tricks_left > target:
        arr = move_values_array(*_args(pos), declarer_points=pos.declarer_points)
        legal = [c for c in range(32) if arr[c] >= 0]
        pick = max if pos.to_move == pos.declarer else min
        best = pick(int(arr[c]) for c in legal)
        pos = pos.play(next(c for c in legal if arr[c] == best))
    return pos


START_PROBE = (
    "import time; t = time.perf_counter(); from skat.solver import declarer_reaches, solve_points; "
    "from skat.deal.game import deal; h, s = deal(0); declarer_reaches(3, h, (), 0, 0, 61); solve_points(3, h, (), 0, 0); "
    "print(time.perf_counter() - t)"
)


def start_timing() -> tuple[float, float]:
    """Seconds for import + first calls in a fresh process, in two processes one after the other."""
    times = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", START_PROBE], capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generate", action="store_true", help="rewrite the deal list and exit")
    parser.add_argument("--ref-positions", type=int, default=10, help="positions given to the pure-Python reference")
    parser.add_argument("--ref-cap", type=float, default=10.0, help="seconds per reference position at most")
    parser.add_argument("--playouts", type=int, default=20000, help="random playouts per deal")
    parser.add_argument("--no-start", "--no-jit", dest="no_start", action="store_true",
                        help="skip the start timing (import + first calls in a fresh process)")
    parser.add_argument("--repeat", type=int, default=3, help="solve each deal this many times, count the median")
    parser.add_argument("--ramsch-deals", type=int, default=30, help="deals whose first Ramsch card is solved (once)")
    args = parser.parse_args()
    if args.generate:
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(generate(), indent=1) + "\n")
        print(f"wrote {DATA}")
        return

    positions = load_positions()
    kinds = {g: sum(1 for p in positions if p.game_type.label == g) for g in ("grand", "clubs", "spades", "hearts",
                                                                              "diamonds", "null")}
    print(f"{len(positions)} deals: " + ", ".join(f"{v} {k}" for k, v in kinds.items() if v))
    won_lost(positions[0])  # make this thread's table before timing
    solve_points(*_args(positions[0]), 0)

    repeat = max(1, args.repeat)
    wl_ms, wl_answers, wl_nodes = [], [], 0
    for pos in positions:
        runs = [timed(won_lost, pos) for _ in range(repeat)]
        wl_ms.append(statistics.median(ms for ms, _ in runs))
        wl_answers.append(runs[0][1])
        wl_nodes += last_node_count()
    points_ms, points, nodes = [], [], 0
    suit_grand = [p for p in positions if p.game_type != GameType.NULL]
    for pos in suit_grand:
        runs = [timed(solve_points, *_args(pos), pos.declarer_points) for _ in range(repeat)]
        points_ms.append(statistics.median(ms for ms, _ in runs))
        points.append(runs[0][1])
        nodes += last_node_count()
    nps = nodes / (sum(points_ms) / 1000.0)
    wl_nps = wl_nodes / (sum(wl_ms) / 1000.0)
    print(f"won/lost (61 / null): median {statistics.median(wl_ms):.2f} ms, p90 {pct(wl_ms, .9):.2f}, "
          f"p99 {pct(wl_ms, .99):.2f}, max {max(wl_ms):.2f}; declarer wins {sum(wl_answers)} of {len(positions)}; "
          f"{wl_nodes / len(positions) / 1000:.1f} k nodes per deal, {wl_nps / 1e6:.2f} M nodes per second")
    print(f"exact card points ({len(suit_grand)} suit/grand deals): median {statistics.median(points_ms):.2f} ms, "
          f"p90 {pct(points_ms, .9):.2f}, p99 {pct(points_ms, .99):.2f}, max {max(points_ms):.2f}; "
          f"unsolved 0; mean declarer points {statistics.mean(points):.1f}")
    print(f"search nodes per second (exact points): {nps / 1e6:.2f} M; {nodes / len(suit_grand) / 1000:.1f} k nodes "
          f"per deal")

    # a Ramsch (grand's tricks): forehand's first card, every legal card's exact value, the skat with the last trick
    ramsch_deals = positions[: args.ramsch_deals]
    ramsch_ms = []
    for pos in ramsch_deals:
        skat = 120 - mask_points(pos.hands[0] | pos.hands[1] | pos.hands[2])
        ms, _ = timed(lambda p=pos, k=skat: move_values_array(6, p.hands, (), 0, 0, question="ramsch", skat_points=k))
        ramsch_ms.append(ms)
    if ramsch_ms:
        print(f"a Ramsch's first card ({len(ramsch_ms)} deals, every legal card of forehand, the skat with the last "
              f"trick): median {statistics.median(ramsch_ms):.1f} ms, p90 {pct(ramsch_ms, .9):.1f}, "
              f"max {max(ramsch_ms):.1f}")

    # what a call costs besides the search: the same entry points on a one-trick position
    last = play_best(suit_grand[0], 9)
    t = time.thread_time()
    for _ in range(2000):
        declarer_reaches(*_args(last), 61, last.declarer_points)
    overhead_us = (time.thread_time() - t) / 2000 * 1e6
    print(f"call overhead (declarer_reaches on a one-trick position): {overhead_us:.1f} us per call, "
          f"{overhead_us / 1000 / statistics.median(wl_ms):.1%} of the median won/lost time")

    # how late a time limit stops a search (wall clock: the limit is; tests/test_solver.py counts the nodes)
    hard = [p for _, p in sorted(zip(points_ms, suit_grand), key=lambda x: -x[0])[:10]]
    late_ms = []
    for pos in hard:
        try:
            solve_points(*_args(pos), pos.declarer_points, time_limit=0.002)
        except SearchLimitExceeded as stopped:
            late_ms.append((stopped.seconds - 0.002) * 1000.0)
    if late_ms:
        print(f"a 2 ms time limit on the {len(hard)} hardest exact-points deals: stopped {len(late_ms)}, "
              f"{statistics.median(late_ms):.3f} ms late (median), {max(late_ms):.3f} ms at most")

    total = 0
    t = time.thread_time()
    for k, pos in enumerate(positions):
        pts, _ = random_playouts(*_args(pos), args.playouts, seed=k)
        total += len(pts)
    playouts_per_s = total / (time.thread_time() - t)
    print(f"random playouts (full deals, one core): {playouts_per_s / 1e6:.2f} M per second")

    # the pure-Python reference on the same positions (first N deals), time-capped
    sub = positions[: args.ref_positions]
    c_ms, r_ms, r_capped = [], [], 0
    for pos in sub:
        c, ok = timed(won_lost, pos)
        r, rok, hit = capped(ref_won_lost, args.ref_cap, pos)
        if not hit:
            assert rok == ok, f"reference disagrees on {pos.to_json()}"
        r_capped += hit
        c_ms.append(c)
        r_ms.append(r)
    ratio_wl = sum(r_ms) / sum(c_ms)
    print(f"reference won/lost on {len(sub)} full deals: {sum(r_ms) / 1000:.1f} s vs {sum(c_ms):.1f} ms "
          f"compiled: x{ratio_wl:,.0f}{' (lower bound: ' + str(r_capped) + ' capped at ' + str(args.ref_cap) + ' s)' if r_capped else ''}")
    mid = [play_best(p, 4) for p in suit_grand[: args.ref_positions]]
    c2, r2, r2_capped = [], [], 0
    for pos in mid:
        c, v = timed(solve_points, *_args(pos), pos.declarer_points)
        r, rv, hit = capped(ref.reference_points, args.ref_cap, pos)
        if not hit:
            assert rv == v, f"reference disagrees on {pos.to_json()}"
        r2_capped += hit
        c2.append(c)
        r2.append(r)
    ratio_pts = sum(r2) / sum(c2)
    print(f"reference exact points on {len(mid)} positions with 6 tricks left (the same deals after 4 optimal "
          f"tricks): {sum(r2) / 1000:.1f} s vs {sum(c2):.1f} ms compiled: x{ratio_pts:,.0f}"
          f"{' (lower bound: ' + str(r2_capped) + ' capped)' if r2_capped else ''}")

    start_first = start_again = None
    if not args.no_start:
        start_first, start_again = start_timing()
        print(f"start: import + first calls in a fresh process {start_first:.2f} s, in the next one "
              f"{start_again:.2f} s")

    goals = {"won_lost_median_ms<=5": statistics.median(wl_ms) <= 5,
             "points_median_ms<=50": statistics.median(points_ms) <= 50,
             "points_p99_ms<=1000": pct(points_ms, .99) <= 1000,
             "playouts_per_s>=1e6": playouts_per_s >= 1e6}
    print("goals: " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in goals.items()))
    print(json.dumps({
        "deals": len(positions),
        "repeat": repeat,
        "won_lost_ms": {"median": round(statistics.median(wl_ms), 3), "p90": round(pct(wl_ms, .9), 3),
                        "p99": round(pct(wl_ms, .99), 3), "max": round(max(wl_ms), 3)},
        "won_lost_nodes_per_deal": round(wl_nodes / len(positions)),
        "won_lost_nodes_per_s": round(wl_nps),
        "points_ms": {"median": round(statistics.median(points_ms), 3), "p90": round(pct(points_ms, .9), 3),
                      "p99": round(pct(points_ms, .99), 3), "max": round(max(points_ms), 3), "unsolved": 0},
        "nodes_per_s": round(nps),
        "ramsch_first_card_ms": {"median": round(statistics.median(ramsch_ms), 1), "p90": round(pct(ramsch_ms, .9), 1),
                                 "max": round(max(ramsch_ms), 1), "deals": len(ramsch_ms)} if ramsch_ms else None,
        "points_nodes_per_deal": round(nodes / len(suit_grand)),
        "playouts_per_s_per_core": round(playouts_per_s),
        "call_overhead_us": round(overhead_us, 2),
        "time_limit_late_ms": {"median": round(statistics.median(late_ms), 3), "max": round(max(late_ms), 3),
                               "stopped": len(late_ms)} if late_ms else None,
        "reference_ratio_won_lost": round(ratio_wl, 1), "reference_won_lost_capped": r_capped,
        "reference_ratio_points_6_tricks": round(ratio_pts, 1), "reference_points_capped": r2_capped,
        "start_first_call_s": None if start_first is None else round(start_first, 2),
        "start_first_call_again_s": None if start_again is None else round(start_again, 2),
        "goals": goals,
    }))


if __name__ == "__main__":
    main()
