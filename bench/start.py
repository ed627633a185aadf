"""How long `skat --help` and each command's `--help` take as whole processes (issue 32: at most 0.3 s), and
how long a fresh process takes to its first search (the solver's import and ``warm_up()``).

    python3 bench/start.py              # 7 runs of each, the median
    python3 bench/start.py --runs 15

Anchor, measured in the same run: the same Python starting and doing nothing (``python -c pass``), and
``import skat`` alone; the ratio says how much of a command's time is its own. Only the command's own module is
imported to build its help (skat.cli.build_parser): the server, the solver and matplotlib load where they are used.
The solver's kernels are compiled ahead of time (setup.py, Cython), so its first search costs the same in the
first process after an install as in any later one (issue 32: a computer player's first decision in at most 3 s).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from skat.cli import COMMANDS

GOAL_SECONDS = 0.3
SOLVER_START = "from skat.solver import warm_up; warm_up()"


def timed(args: list[str], runs: int) -> float:
    """The median wall time of ``python ARGS`` over ``runs`` runs (after one run to warm the file cache)."""
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if i:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    anchor = timed(["-c", "pass"], args.runs)
    package = timed(["-c", "import skat"], args.runs)
    print(f"anchor: python -c pass {anchor * 1000:.0f} ms, import skat {package * 1000:.0f} ms "
          f"(medians of {args.runs})")
    worst = 0.0
    for words in [[]] + [[name] for name in COMMANDS]:
        seconds = timed(["-m", "skat", *words, "--help"], args.runs)
        worst = max(worst, seconds)
        print(f"  skat {' '.join(words + ['--help']):<22} {seconds * 1000:5.0f} ms  {seconds / anchor:4.1f}x the anchor"
              f"{'' if seconds <= GOAL_SECONDS else '  OVER THE GOAL'}")
    print(f"slowest {worst * 1000:.0f} ms; goal at most {GOAL_SECONDS * 1000:.0f} ms: "
          f"{'met' if worst <= GOAL_SECONDS else 'NOT met'}")
    solver = timed(["-c", SOLVER_START], args.runs)
    print(f"the solver's first search (python -c {SOLVER_START!r}): {solver * 1000:.0f} ms")
    return 0 if worst <= GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
