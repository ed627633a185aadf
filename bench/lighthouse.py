"""Lighthouse's scores of the pages in its mobile profile (issue 32: performance at least 90 for the table, the
lobby and the keeper; accessibility and best practices 100). Not a test (it takes minutes and its timings are
simulated from a trace, so a busy machine moves them); prints figures.

    python bench/lighthouse.py                  # 3 runs of each page, the median
    python bench/lighthouse.py --runs 5 --pages table lobby

Needs Node.js and Debian's Chromium; Lighthouse itself comes from npm (``npx --yes lighthouse@12``, fetched once
into npm's cache). Starts ``skat serve`` on a temporary SQLite database, makes a table of one person and two
computer players (``strong``), and runs Lighthouse (mobile: a mid-range phone, slow 4G, 4x CPU slowdown) on the
person's table, the lobby, the score keeper, the tournament page, the Officers' Skat page and Learn Skat.

Anchor, measured in the same run: the API's documentation page (``/api/docs``, Swagger UI's own bundle of about
1.4 MB), a page the project ships but did not write; its score says how the machine's load moves the others.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import start_server  # noqa: E402  (bench/load.py: the server's harness)

GOAL = 0.9
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
                "--disable-component-update --disable-sync")
AUDITS = ("largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "total-byte-weight")


def lighthouse(url: str, out: str) -> dict:
    """One Lighthouse run on ``url``: the categories' scores and the main audits' values."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(["npx", "--yes", "lighthouse@12", url, "--quiet", f"--chrome-flags={CHROME_FLAGS}",
                    "--only-categories=performance,accessibility,best-practices", "--output=json",
                    f"--output-path={out}"], env=env, check=True, timeout=600, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(out) as report:
        data = json.load(report)
    figures = {name: category["score"] for name, category in data["categories"].items()}
    figures.update({name: data["audits"][name]["numericValue"] for name in AUDITS})
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", nargs="*", default=["table", "lobby", "keeper", "tournament", "officers", "learn"])
    args = parser.parse_args()
    if shutil.which("npx") is None or not os.path.exists("/usr/bin/chromium"):
        raise SystemExit("needs npx (Node.js) and /usr/bin/chromium")
    with tempfile.TemporaryDirectory() as folder:
        proc = start_server(f"sqlite:///{folder}/lighthouse.sqlite")
        try:
            base = proc.base  # type: ignore[attr-defined]
            made = httpx.post(f"{base}/api/tables", json={"seats": ["human", "strong", "strong"]}, timeout=30).json()
            urls = {"table": f"{base}{made['url']}#token={made['token']}", "lobby": f"{base}/",
                    "keeper": f"{base}/keeper", "tournament": f"{base}/tournament",
                    "officers": f"{base}/officers", "learn": f"{base}/learn", "anchor (/api/docs)": f"{base}/api/docs"}
            pages = [*args.pages, "anchor (/api/docs)"]
            rows = []
            for page in pages:
                runs = [lighthouse(urls[page], os.path.join(folder, f"{i}.json")) for i in range(args.runs)]
                median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
                rows.append((page, median, [run["performance"] for run in runs]))
        finally:
            proc.terminate()
            proc.wait(10)
    anchor = rows[-1][1]["performance"]
    print(f"Lighthouse 12, mobile profile, median of {args.runs} runs (goal: performance >= {GOAL:.2f})")
    print(f"{'page':20} {'perf':>5} {'a11y':>5} {'best':>5} {'LCP s':>6} {'TBT ms':>7} {'CLS':>6} {'KiB':>6} "
          f"{'perf/anchor':>11}  runs")
    for page, m, perfs in rows:
        print(f"{page:20} {m['performance']:5.2f} {m['accessibility']:5.2f} {m['best-practices']:5.2f} "
              f"{m['largest-contentful-paint'] / 1000:6.2f} {m['total-blocking-time']:7.0f} "
              f"{m['cumulative-layout-shift']:6.3f} {m['total-byte-weight'] / 1024:6.0f} "
              f"{m['performance'] / anchor if anchor else float('nan'):11.2f}  {perfs}")
    missed = [page for page, m, _ in rows[:-1] if m["performance"] < GOAL]
    print("every page meets the goal" if not missed else f"below the goal: {', '.join(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
