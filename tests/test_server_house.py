"""Server tables under house rules (docs/protocol.md): Ramsch, Schieberamsch, Kontra/Re, Bock rounds,
Tournee games, and a restart that resumes the series; three people play over real sockets."""

from __future__ import annotations

import asyncio
import json
from contextlib import ExitStack

from fastapi.testclient import TestClient
from tests.test_server import visible_cards

from skat.deal.game import Game
from skat.server import create_app
from skat.server.manager import TableManager
from skat.server.store import Store, tables_t
from skat.variants.tournee import TourneeGame


class Trio:
    """Three people at one table, one socket each; every message is checked on the wire."""

    def __init__(self, client: TestClient, stack: ExitStack, table_id: str, tokens: list[str]) -> None:
        self.client, self.table_id = client, table_id
        self.sockets = [stack.enter_context(client.websocket_connect(f"/ws/{table_id}")) for _ in tokens]
        self.held: list[set[str]] = [set(), set(), set()]  # cards each position has had in its hand
        self.states: list[dict] = [{}, {}, {}]
        self.sheet: dict = {}
        for pos, (ws, token) in enumerate(zip(self.sockets, tokens)):
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            assert self._recv(pos)["type"] == "welcome"
        for pos in range(3):  # every hello broadcasts a state to everybody connected
            for _ in range(3 - pos):
                self._state(pos)

    @property
    def table(self):
        return self.client.app.state.manager.get(self.table_id)

    def _recv(self, pos: int) -> dict:
        m = json.loads(self.sockets[pos].receive_text())
        assert m["type"] != "error", m
        if m["type"] == "sheet":
            self.sheet = m["sheet"]
        return m

    def _state(self, pos: int) -> dict:
        while (m := self._recv(pos))["type"] != "state":
            pass
        v = m["view"]
        if v is not None:
            self.held[pos] |= set(v["hand"])
            allowed = set(self.held[pos]) | {c for _, c in v["trick"]} | {c for tr in v["tricks"] for c in tr[1]}
            allowed |= {c for cards in v["open_hands"].values() for c in cards}
            if v["phase"] == "play" and v["declarer"] == v["seat"]:
                allowed |= set(v["skat"] or [])  # a declarer who played a hand game sees the skat after the deal
            if v["ruleset"] == "tournee":
                allowed |= set(v["skat"] or [])  # Tournee: the turned skat cards are shown to everybody
            if v["result"]:
                allowed |= set(v["result"]["skat"]) | set(v["result"]["discard"] or [])
            if v["phase"] == "finished":  # every card as dealt (a skat pushed on included), only once it is over
                allowed |= {c for hand in m["dealt"]["hands"] for c in hand} | set(m["dealt"]["skat"])
            else:
                assert m["dealt"] is None, (pos, v["phase"])
            assert visible_cards(m) <= allowed, (pos, v["phase"], visible_cards(m) - allowed)
            if m["seq"] == len(self.table.game.history) and m["you"]["seat"] is not None:
                assert set(v["hand"]) == {c.name for c in self.table.game.hand(m["you"]["seat"])}
        self.states[pos] = m
        return m

    def send(self, pos: int, message: dict) -> None:
        """One message of a person: every socket then receives exactly one new state."""
        self.sockets[pos].send_text(json.dumps(message))
        for p in range(3):
            self._state(p)

    def act(self, pos: int, action: str) -> None:
        self.send(pos, {"type": "action", "action": action})

    def mover(self) -> int | None:
        for pos, st in enumerate(self.states):
            v = st["view"]
            if v and v["phase"] != "finished" and v["to_move"] == v["seat"] and v["legal_actions"]:
                return pos
        return None

    def view(self, pos: int) -> dict:
        return self.states[pos]["view"]

    def play_out(self, choose=lambda v: v["legal_actions"][0]) -> dict:
        while (pos := self.mover()) is not None:
            self.act(pos, choose(self.view(pos)))
        return self.view(0)

    def next_deal(self) -> None:
        for pos in range(3):
            self.send(pos, {"type": "next_deal"})


def three_people(client: TestClient, stack: ExitStack, **table) -> Trio:
    t = client.post("/api/tables", json={"seats": ["human"] * 3, "player_name": "Ada", "public": True, **table}).json()
    tokens = [t["token"]] + [client.post(f"/api/tables/{t['table_id']}/join", json={"name": n}).json()["token"]
                             for n in ("Bea", "Cem")]
    return Trio(client, stack, t["table_id"], tokens)


def all_pass(v: dict) -> str:
    return "pass" if "pass" in v["legal_actions"] else v["legal_actions"][0]


def test_pub_table_ramsch_when_all_pass_then_kontra_and_re_queue_a_bock_round(db_url):
    with TestClient(create_app(db_url)) as client, ExitStack() as stack:
        trio = three_people(client, stack, ruleset="pub")
        assert trio.states[0]["table"]["ruleset"] == "pub"
        # deal 1: everybody passes the auction and the Grand Hand offer: Ramsch without a declarer
        while trio.view(0)["phase"] in ("bidding", "grand_hand"):
            trio.act(trio.mover(), "pass")
        v = trio.view(0)
        assert v["phase"] == "play" and v["declarer"] is None and v["contract"] is None
        assert all(trio.view(p)["side_actions"] == [] for p in range(3))  # no Kontra, no claim in a Ramsch
        v = trio.play_out()
        r = v["result"]
        assert r["kind"] == "ramsch" and r["declarer"] is None and r["explanation"]
        losers = r["ramsch"]["losers"]
        row = trio.sheet["rows"][-1]
        assert row["game"] == "ramsch" and row["declarer"] is None
        assert sum(row["scores"]) < 0 and all(row["scores"][trio.table.positions[s]] < 0 for s in losers)
        # deal 2: middlehand plays 18, a defender says Kontra and the declarer Re (said out of turn)
        trio.next_deal()
        assert trio.states[0]["table"]["deal_no"] == 2

        def bid_18(v: dict) -> str:
            legal = v["legal_actions"]
            if v["phase"] == "bidding":
                return "18" if "18" in legal and v["bid"] == 0 else "pass"
            if v["phase"] == "declare":
                return next(a for a in legal if a.startswith("declare grand"))
            return "pickup" if "pickup" in legal else legal[0]

        while trio.view(0)["phase"] != "play":
            pos = trio.mover()
            trio.act(pos, bid_18(trio.view(pos)))
        declarer = trio.table.positions[trio.view(0)["declarer"]]
        defender = next(p for p in range(3) if p != declarer and "kontra" in trio.view(p)["side_actions"])
        assert "re" not in trio.view(declarer)["side_actions"]
        trio.act(defender, "kontra")
        assert "re" in trio.view(declarer)["side_actions"] and "kontra" not in trio.view(defender)["side_actions"]
        trio.act(declarer, "re")
        v = trio.play_out()
        assert v["result"]["kontra_level"] == 2
        row = trio.sheet["rows"][-1]
        assert row["kontra"] == 2 and "re" in row["events"]
        assert trio.sheet["upcoming"]["round"] == "bock"  # Re calls a Bock round in the pub rules
        assert len(trio.sheet["rows"]) == 2


def test_schieberamsch_skat_is_seen_only_by_who_picked_it_up(db_url):
    with TestClient(create_app(db_url)) as client, ExitStack() as stack:
        trio = three_people(client, stack, ruleset="pub",
                            options={"ramsch_grand_hand": False, "schieberamsch": True})
        while trio.view(0)["phase"] == "bidding":
            trio.act(trio.mover(), "pass")
        assert trio.view(0)["phase"] == "push"
        first = trio.mover()
        trio.act(first, "pickup")  # the checks in Trio: nobody else sees these two cards
        picked = set(trio.view(first)["skat"])
        assert len(picked) == 2 and picked <= set(trio.view(first)["hand"])
        for p in range(3):
            if p != first:
                assert not picked & visible_cards(trio.states[p]), p
        trio.act(first, trio.view(first)["legal_actions"][0])  # push two cards on
        second = trio.mover()
        trio.act(second, "push")  # pushed on unseen: he never sees them
        assert trio.view(second)["skat"] is None
        v = trio.play_out()
        assert v["result"]["kind"] == "ramsch" and v["result"]["ramsch"]["pushes"] >= 1


def test_tournee_table_plays_its_games(db_url):
    with TestClient(create_app(db_url)) as client, ExitStack() as stack:
        trio = three_people(client, stack, ruleset="tournee")
        assert isinstance(trio.table.game, TourneeGame)

        def tournee(v: dict) -> str:
            legal = v["legal_actions"]
            if v["phase"] == "bidding":
                return "10" if "10" in legal and v["bid"] == 0 else "pass"
            for choice in ("turn", "accept"):
                if choice in legal:
                    return choice
            return legal[0]

        while trio.view(0)["phase"] == "bidding":
            trio.act(trio.mover(), tournee(trio.view(trio.mover())))
        pos = trio.mover()
        assert "turn" in trio.view(pos)["legal_actions"]
        trio.act(pos, "turn")
        turned = trio.view((pos + 1) % 3)["skat"]
        assert turned and len(turned) == 1  # the turned card is shown to everybody
        watcher = trio.table.state_for(None)["view"]
        assert watcher["skat"] == turned and watcher["hand"] == []  # spectators too, and nothing more
        v = trio.play_out(tournee)
        assert v["result"]["explanation"]
        row = trio.sheet["rows"][-1]
        assert row["game"].startswith("tournee") or row["game"].startswith("grand")
        record = client.get(f"/api/tables/{trio.table_id}/games/1.json").json()
        assert record["variant"] == "tournee"


def test_restart_resumes_a_pub_series_with_a_bock_round_pending(db_url):
    with TestClient(create_app(db_url)) as client, ExitStack() as stack:
        trio = three_people(client, stack, ruleset="pub")
        table_id = trio.table_id
        tokens = None

        def kontra_game(v: dict) -> str:
            legal = v["legal_actions"]
            if v["phase"] == "bidding":
                return "18" if "18" in legal and v["bid"] == 0 else "pass"
            return "pickup" if "pickup" in legal else legal[0]

        while trio.view(0)["phase"] != "play":
            pos = trio.mover()
            trio.act(pos, kontra_game(trio.view(pos)))
        declarer = trio.table.positions[trio.view(0)["declarer"]]
        defender = next(p for p in range(3) if p != declarer)
        trio.act(defender, "kontra")
        trio.act(declarer, "re")
        trio.play_out()
        sheet = trio.sheet
        assert sheet["upcoming"]["round"] == "bock"
        old = trio.table
        tokens = [s.token_hash for s in old.seats]
    app = create_app(db_url)  # a new server on the same database
    table = app.state.manager.get(table_id)
    assert [s.token_hash for s in table.seats] == tokens
    assert table.series.sheet() == sheet and table.series.next.round == "bock"
    # the rebuilt rows carry the Skatliste's columns too (they come from the replayed deals' results)
    row, result = sheet["rows"][-1], table.deal_result(table.deal_no)["result"]
    assert row["kontra"] == 2 and row["bid"] == result["bid"] >= 18 and row["value"] == result["outcome"]["game_value"]
    assert row["matadors"] == result["outcome"]["matadors"] and row["hand"] is False
    assert table.deal_result(table.deal_no)["sheet_row"] == row
    assert table.series.table.queued_rounds == old.series.table.queued_rounds
    assert table.game.is_over and [str(a) for _, a in table.game.history] == [str(a) for _, a in old.game.history]
    nxt = table.series.next.game
    assert nxt.to_record()["hands"] == old.series.next.game.to_record()["hands"]  # the same next deal
    assert isinstance(nxt, Game)


async def _play_series(manager, **table) -> object:
    t, _ = await manager.create_table(claim=None, **table, public=True)
    await t.after_change()
    for _ in range(2000):
        if t.series.is_over:
            return t
        await asyncio.sleep(0.01)
    raise AssertionError("the computer players' series did not end")


def test_four_player_pub_series_of_computer_players_the_dealer_sits_out(tmp_path):
    async def main():
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'four.sqlite'}"), bot_processes=False)
        try:
            t = await _play_series(manager, seats=["random"] * 4, ruleset="pub", deals=12, seed=4)
        finally:
            manager.shutdown()
        return t

    t = asyncio.run(main())
    sheet = t.series.sheet()
    assert [r["deal_no"] for r in sheet["rows"]] == list(range(1, 13))
    assert [r["dealer"] for r in sheet["rows"]] == [3, 0, 1, 2] * 3  # the first dealer sits at the last position
    for r in sheet["rows"]:
        assert r["scores"][r["dealer"]] == 0  # the dealer sits out: he never scores
    assert sheet["classic"] == [sum(r["scores"][p] for r in sheet["rows"]) for p in range(4)]
    assert t.status == "finished" and t.series.next is None  # the series of 12 deals is over


def test_a_table_stored_without_its_series_seed_is_restored_from_its_stored_cards(tmp_path):
    """Tables stored before the series seed was kept: each stored deal is replayed from its cards."""
    url = f"sqlite:///{tmp_path / 'legacy.sqlite'}"

    async def main():
        manager = TableManager(Store(url), bot_processes=False)
        try:
            return await _play_series(manager, seats=["random"] * 3, deals=3)
        finally:
            manager.shutdown()

    old = asyncio.run(main())
    store = Store(url)
    settings = dict(old.settings)
    settings.pop("seed")
    with store.engine.begin() as conn:
        conn.execute(tables_t.update().where(tables_t.c.id == old.id).values(settings=json.dumps(settings)))
    manager = TableManager(store, bot_processes=False)
    assert manager.restore() == 1
    table = manager.get(old.id)
    assert table.series.sheet()["rows"] == old.series.sheet()["rows"]
    assert [r["result"] for r in table.game_results()] == [r["result"] for r in old.game_results()]
    manager.shutdown()
