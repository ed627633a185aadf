"""Issue 14: table seeds are 128 bits from the operating system, and no seed of an open secret table reaches a client.

A client may get the finished deals (hands, skat, actions: the cards are public once a deal is over), but neither
the table's seed nor any deal seed (:func:`skat.table.series.deal_seed`): from them every later deal follows.
"""

from __future__ import annotations

import asyncio
import json
import secrets

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from skat.deal.game import Game
from skat.server import create_app
from skat.server.manager import TableManager
from skat.server.store import Store, deals_t, tables_t
from skat.table.series import Table, deal_seed


def seed_texts(table_seed: int, deals: int) -> set[str]:
    """Decimal and hex forms of the table's seed and of every deal seed (redeal attempts too) it stands for."""
    seeds = {table_seed} | {deal_seed(table_seed, n, a) for n in range(1, deals + 2) for a in range(3)}
    return {str(s) for s in seeds} | {f"{s:x}" for s in seeds} | {f"{s:X}" for s in seeds}


def leaks(text: str, forms: set[str]) -> list[str]:
    return sorted(f for f in forms if f in text)


def recv_all_states(ws, texts: list[str]) -> dict:
    """Read messages (keeping their raw text) until a state arrives."""
    while True:
        raw = ws.receive_text()
        texts.append(raw)
        m = json.loads(raw)
        if m["type"] == "state":
            return m


def choose(view: dict) -> str:
    legal = view["legal_actions"]
    if view["phase"] == "bidding":
        return "hold" if "hold" in legal else ("18" if legal == ["18", "pass"] else "pass")
    return legal[0]


def play_deal(ws, state: dict, texts: list[str]) -> dict:
    while True:
        v = state["view"]
        if v["phase"] == "finished":
            return state
        if v["to_move"] == v["seat"] and v["legal_actions"]:
            ws.send_text(json.dumps({"type": "action", "action": choose(v), "seq": state["seq"]}))
        state = recv_all_states(ws, texts)


# ----------------------------------------------------------------- drawing
def test_table_seeds_are_128_bits_from_the_operating_system(tmp_path, monkeypatch):
    manager = TableManager(Store(f"sqlite:///{tmp_path / 'skat.sqlite'}"), bot_processes=False)
    try:
        seeds = []
        for _ in range(20):
            table, _seat = asyncio.run(manager.create_table(seats=["human", "human", "human"], public=True))
            seeds.append(table.series.table.seed)
            assert table.settings["seed"] == table.series.table.seed and not table.settings["seeded"]
        assert max(s.bit_length() for s in seeds) > 100 and len(set(seeds)) == 20
        assert max(Table(3).seed.bit_length() for _ in range(20)) > 100  # the library draws alike

        calls: list[int] = []

        def randbits(k: int) -> int:
            calls.append(k)
            return (1 << (k - 1)) | 12345

        monkeypatch.setattr(secrets, "randbits", randbits)
        table, _seat = asyncio.run(manager.create_table(seats=["human", "random", "random"], public=True))
        assert table.series.table.seed == (1 << 127) | 12345
        assert 128 in calls and all(k >= 64 for k in calls)  # the table's seed and the computer players' seeds
        assert all(s.bot_seat.seed.bit_length() == 64 for s in table.seats if s.bot_seat is not None)
        assert Table(3).seed == (1 << 127) | 12345
        # a seed given on purpose stays as given
        seeded, _seat = asyncio.run(manager.create_table(seats=["human", "human", "human"], seed=7, public=True))
        assert seeded.series.table.seed == 7 and seeded.settings["seeded"]
    finally:
        manager.shutdown()
        manager.store.close()


# ------------------------------------------------------------- nothing leaks
def test_no_seed_of_an_open_table_reaches_a_client(db_url):
    with TestClient(create_app(db_url)) as client:
        created = client.post("/api/tables", json={"seats": ["human", "random", "random"], "deals": 2, "public": True,
                                                   "player_name": "Ada"})
        assert created.status_code == 201
        texts = [created.text]
        t = created.json()
        tid = t["table_id"]
        table = client.app.state.manager.get(tid)
        forms = seed_texts(table.series.table.seed, 2)
        with client.websocket_connect(f"/ws/{tid}") as spectator, client.websocket_connect(f"/ws/{tid}") as ws:
            spectator.send_text(json.dumps({"type": "hello", "protocol": 1, "token": None}))
            recv_all_states(spectator, texts)
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
            state = recv_all_states(ws, texts)
            state = play_deal(ws, state, texts)
            ws.send_text(json.dumps({"type": "next_deal"}))
            while state["table"]["deal_no"] != 2 or state["view"]["phase"] == "finished":
                state = recv_all_states(ws, texts)
            play_deal(ws, state, texts)
            ws.send_text(json.dumps({"type": "sheet"}))
            while (m := json.loads(raw := ws.receive_text()))["type"] != "sheet":
                texts.append(raw)
            texts.append(raw)
            assert len(m["sheet"]["rows"]) == 2
            spectator.send_text(json.dumps({"type": "ping", "t": 1}))
            while json.loads(raw := spectator.receive_text())["type"] != "pong":
                texts.append(raw)
        records = []
        for path in ("/api/tables", f"/api/tables/{tid}", f"/api/tables/{tid}/sheet", f"/api/tables/{tid}/sheet.json",
                     f"/api/tables/{tid}/games",
                     f"/api/tables/{tid}/games/1.json", f"/api/tables/{tid}/games/2.json",
                     f"/api/tables/{tid}/games/1.iss", f"/api/tables/{tid}/games/2.iss"):
            r = client.get(path)
            if path.endswith(".json") and "/games/" in path:
                assert r.status_code == 200, r.text
                records.append(r.json())
            texts.append(r.text)
        assert len(texts) > 20
        found = [leak for text in texts for leak in leaks(text, forms)]
        assert found == [], found
        for record in records:
            assert record["seed"] is None and len(record["hands"]) == 3 and len(record["skat"]) == 2
        # the store keeps the seeds (a restart deals from them)
        with client.app.state.manager.store.engine.connect() as conn:
            starts = [json.loads(s) for s in conn.execute(select(deals_t.c.start).where(deals_t.c.table_id == tid))
                      .scalars()]
        assert [s["seed"] for s in starts] == [deal_seed(table.series.table.seed, n) for n in (1, 2)]
        assert client.post(f"/api/tables/{tid}/close", json={"token": t["token"]}).json()["closed"]
        assert client.get(f"/api/tables/{tid}/games/1.json").status_code == 404
    for record, start in zip(records, starts):
        game = Game.from_record(record)  # a record without its seed replays from its cards
        assert game.is_over and game.result.to_json() == record["result"]
        assert _hands(Game(seed=start["seed"])) == [record["hands"], record["skat"]]


def test_a_seeded_table_shows_its_seed(client):
    t = client.post("/api/tables", json={"seats": ["random", "random", "random"], "claim": None, "deals": 1, "public": True,
                                         "seed": 99}).json()
    for _ in range(400):
        games = client.get(f"/api/tables/{t['table_id']}/games").json()["games"]
        if games:
            break
        asyncio.run(asyncio.sleep(0.01))
    record = client.get(f"/api/tables/{t['table_id']}/games/1.json").json()
    assert record["seed"] == deal_seed(99, 1)


def test_officers_secret_deals_come_from_the_operating_system(client):
    """An Officers' Skat table without a seed deals from a 128-bit seed like every table, and neither it nor a
    game's seed reaches the person (the computer opponent's seed neither)."""
    r = client.post("/api/tables", json={"variant": "officers", "officers_variant": "classic"})
    assert r.status_code == 201, r.text
    t = r.json()
    table = client.app.state.manager.get(t["table_id"])
    seed = table.settings["seed"]
    assert not table.settings["seeded"] and seed.bit_length() > 64
    assert table.game.seed == deal_seed(seed, 1)
    bot_seeds = {s.bot_seat.seed for s in table.seats if s.bot_seat is not None}
    assert bot_seeds and all(b.bit_length() > 32 for b in bot_seeds)
    forms = seed_texts(seed, 2) | {str(b) for b in bot_seeds} | {f"{b:x}" for b in bot_seeds}
    texts = [r.text]
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
        recv_all_states(ws, texts)
    texts.append(client.get(f"/api/tables/{t['table_id']}", headers={"X-Seat-Token": t["token"]}).text)
    found = [leak for text in texts for leak in leaks(text, forms)]
    assert found == [], found


# ------------------------------------------------------------------- restore
def _play_out(table) -> None:
    while not table.game.is_over:
        seat = table.game.to_move
        action = table.game.legal_actions(seat)[0]
        asyncio.run(table.act(table.positions[seat], str(action)))


def _hands(game) -> list[list]:
    record = game.to_record()
    return [record["hands"], record["skat"]]


def test_a_128_bit_seed_restores(tmp_path):
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    manager = TableManager(Store(url), bot_processes=False)
    table, _seat = asyncio.run(manager.create_table(seats=["human", "human", "human"], public=True))
    for _ in range(2):
        asyncio.run(manager.join(table.id))
    asyncio.run(table.maybe_start())
    seed = table.series.table.seed
    _play_out(table)
    for p in range(3):
        asyncio.run(table.next_deal(p))
    assert table.deal_no == 2
    before = _hands(table.game)
    manager.shutdown()
    manager.store.close()

    again = TableManager(Store(url), bot_processes=False)
    try:
        assert again.restore() == 1
        restored = again.get(table.id)
        assert restored.series.table.seed == seed and restored.deal_no == 2
        assert _hands(restored.game) == before == _hands(Game(seed=deal_seed(seed, 2)))
        _play_out(restored)
        nxt = restored.series.next.game
        assert _hands(nxt) == _hands(Game(seed=deal_seed(seed, 3)))
    finally:
        again.shutdown()
        again.store.close()


def test_an_old_48_bit_seed_still_restores(tmp_path):
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    old_seed = (1 << 47) + 4242
    store = Store(url)
    settings = {"ruleset": "isko2018", "variant": "standard", "deals": None, "first_dealer": 2, "seed": old_seed,
                "seeded": False, "options": {}}
    rows = [{"position": p, "kind": "human", "name": f"P{p}", "bot": None, "token_hash": None} for p in range(3)]
    store.create_table("oldtable", "Old", settings, rows)
    with store.engine.begin() as conn:  # the settings exactly as an older server wrote them: the seed a JSON int
        conn.execute(update(tables_t).where(tables_t.c.id == "oldtable").values(settings=json.dumps(settings)))
    store.close()
    manager = TableManager(Store(url), bot_processes=False)
    try:
        assert manager.restore() == 1
        table = manager.get("oldtable")
        assert table.series.table.seed == old_seed
        nxt = table.series.next.game
        assert _hands(nxt) == _hands(Game(seed=deal_seed(old_seed, 1)))
    finally:
        manager.shutdown()
        manager.store.close()
