"""bench/history.py at a tiny size (2,000 deals, 50 players, SQLite): it builds its database through the server's own
path, prints a figure per endpoint against its anchor, and the answers of a real ``skat serve`` on that database
agree with each other (its figures at the full size are measured by running it: bench/data/history/)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_history", ROOT / "bench" / "history.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_history"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_history_bench_builds_measures_and_the_answers_agree(tmp_path: Path, capsys) -> None:
    bench = _bench()
    args = ["--db", "sqlite", "--deals", "2000", "--players", "50", "--pool", "100", "--repeats", "10",
            "--warmup", "2", "--cache", str(tmp_path)]
    bench.main(args)  # exits 1 only past the goal (200 ms p95) or on a wrong answer: the lines below say which
    out = capsys.readouterr().out
    assert "WRONG ANSWERS" not in out, out
    assert "sqlite: checks: every answer was right" in out, out
    built = re.search(r"sqlite: 2,000 deals at [\d,]+ tables \(([\d,]+) actions, 6,000 history rows.*"
                      r"= (\d+) deals/s; one deal's history write median ([\d.]+) ms", out)
    assert built is not None, out
    assert int(built.group(1).replace(",", "")) > 2000 * 10 and int(built.group(2)) > 0
    for name in bench.ENDPOINTS:
        line = re.search(rf"sqlite: {re.escape(name)}\s+10\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x", out)
        assert line is not None, (name, out)
        median, p95, top = (float(line.group(i)) for i in (1, 2, 3))
        assert 0 < median <= p95 <= top
    assert re.search(r"anchor \(median of GET /api/health\) [\d.]+ ms; goal p95 <= 200 ms", out), out

    # the cached database (a second run builds nothing) behind a real server: one player's pages agree
    url, built_again, cached = bench.sqlite_db(bench.argparse.Namespace(
        deals=2000, players=50, pool=100, days=180.0, seed=1, cache=tmp_path, rebuild=False), lambda: [], print)
    assert cached and built_again.deals == 2000
    players = bench.players_of(url, built_again.accounts)
    assert len(players) > 25  # most accounts played (a few of the long tail did not)
    busiest = max(players, key=lambda p: len(p.rows))
    with bench.server(url) as base, httpx.Client(base_url=base) as client:
        client.cookies.set(bench.SESSION_COOKIE, bench.session_token(busiest.account_id))
        stats = client.get(f"/api/players/a-{busiest.account_id}").json()
        seen, cursor, total = [], None, None
        while True:
            page = client.get("/api/me/history", params={"limit": 200, **({"cursor": cursor} if cursor else {})})
            assert page.status_code == 200, page.text
            body = page.json()
            total = body["total"]
            seen += body["deals"]
            cursor = body["next"]
            if cursor is None:
                break
        assert stats["stats"]["games"] == total == len(seen) == len(busiest.rows)
        assert stats["stats"]["sf"] == sum(d["sf"] for d in seen)
        assert stats["stats"]["declarer"] == sum(d["role"] == "declarer" for d in seen)
        won = client.get("/api/me/history", params={"role": "declarer", "result": "won"}).json()["total"]
        assert won == stats["stats"]["declarer_won"]
        deal = seen[-1]
        replay = client.get(f"/api/replays/{deal['table_id']}/{deal['deal_no']}").json()
        assert replay["you"] == deal["position"] and len(replay["steps"]) == len(replay["record"]["actions"]) + 1
        board = client.get("/api/leaderboard", params={"kind": "person", "period": "all"}).json()["rows"]
        assert board and all(r["player"]["kind"] == "person" for r in board)
