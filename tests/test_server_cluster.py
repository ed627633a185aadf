"""Several real ``skat serve`` processes on one real PostgreSQL serve the same tables (docs/deployment.md):
a table made on one is served by the other, a seat may be open on both, two actions for one table on two
processes are serialized (one wins, the other is answered ``stale``), computer players move once, and
``kill -9`` of a process loses nothing acknowledged while its clients go on at another."""

from __future__ import annotations

import json
import re
import threading
import time

import httpx
import pytest
from websockets.sync.client import connect

from skat.server.store import Store
from test_server_support import ServerProcess, postgres  # noqa: F401 - the fixture

pytestmark = pytest.mark.timeout(240)


class Seat:
    """One WebSocket of a seat (or a spectator) at one server process."""

    def __init__(self, server: ServerProcess, table_id: str, token: str | None) -> None:
        self.ws = connect(server.url.replace("http", "ws") + f"/ws/{table_id}", open_timeout=30, legacy=True)
        self.ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        self.state = self.next_state()
        self.errors: list[dict] = []

    def poll(self, timeout: float) -> dict:
        """Take one message (a state or an error is kept)."""
        message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def next_state(self, timeout: float = 20) -> dict:
        deadline = time.time() + timeout
        while self.poll(max(0.1, deadline - time.time()))["type"] != "state":
            pass
        return self.state

    def wait_for(self, seq: int, timeout: float = 20) -> dict:
        """The state once the table has at least ``seq`` actions in the current deal (or a later deal)."""
        deal = self.state["table"]["deal_no"]
        while self.state["seq"] < seq and self.state["table"]["deal_no"] == deal:
            try:
                self.next_state(timeout)
            except TimeoutError:
                view = self.state["view"] or {}
                raise AssertionError(f"action {seq} never came: the last state has seq {self.state['seq']}, "
                                     f"phase {view.get('phase')}, to move {view.get('to_move')}, errors "
                                     f"{self.errors}") from None
        return self.state

    def act(self, action: str, seq: int) -> None:
        self.ws.send(json.dumps({"type": "action", "action": action, "seq": seq}))

    def close(self) -> None:
        self.ws.close()


def choose(view: dict) -> str:
    legal = view["legal_actions"]
    for preferred in ("pass", "hold"):
        if preferred in legal:
            return preferred
    return legal[0]


def stored_actions(url: str, table_id: str) -> list[tuple[int, int, str]]:
    store = Store(url)
    try:
        stored = store.load_table(table_id)
        assert stored is not None
        return [(d.deal_no, seat, token) for d in stored.deals for seat, token in d.actions]
    finally:
        store.close()


@pytest.fixture()
def two_servers(postgres):  # noqa: F811 - the fixture
    url = postgres.new_database()
    Store(url).close()  # migrated once, before both start
    servers = [ServerProcess(url).start(), ServerProcess(url).start()]
    yield url, servers
    for server in servers:
        server.stop()


def test_two_processes_serve_one_table_and_serialize_its_actions(two_servers):
    url, (a, b) = two_servers
    t = httpx.post(a.url + "/api/tables", json={"seats": ["human", "human", "random"], "public": True}).json()
    table_id = t["table_id"]
    # made on A after B started: B serves it, lists it and lets a person join there
    assert httpx.get(b.url + f"/api/tables/{table_id}").status_code == 200
    joined = httpx.post(b.url + f"/api/tables/{table_id}/join", json={"name": "Bea"})
    assert joined.status_code == 200, joined.text
    deadline = time.time() + 30
    while table_id not in [x["id"] for x in httpx.get(b.url + "/api/tables").json()["tables"]]:
        assert time.time() < deadline, "the table never reached B's lobby"
        time.sleep(0.1)
    tokens = {0: t["token"], 1: joined.json()["token"]}
    seat0_a = Seat(a, table_id, tokens[0])
    seat1_b = Seat(b, table_id, tokens[1])
    seat0_b = Seat(b, table_id, tokens[0])  # the same seat in a second tab, on the other process
    watcher_a = Seat(a, table_id, None)
    sockets = {0: [seat0_a, seat0_b], 1: [seat1_b]}
    raced = False
    seq = 0
    while True:
        state = seat0_a.wait_for(seq)
        if state["view"]["phase"] == "finished":
            break
        seq = state["seq"]
        mover = state["view"]["to_move"]
        position = state["table"]["positions"][mover]
        if position == 2:  # the computer player: whichever process holds the lease moves it, once
            seq += 1
            continue
        own = sockets[position][0]
        view = own.wait_for(seq)["view"]
        legal = view["legal_actions"]
        if position == 0 and not raced and len(legal) > 1:
            # one seat, two tabs on two processes, two different actions for the same seq at once
            seat0_b.wait_for(seq)
            go = threading.Barrier(2)

            def send(seat: Seat, action: str, at: int, barrier: threading.Barrier) -> None:
                barrier.wait()
                seat.act(action, at)

            threads = [threading.Thread(target=send, args=(seat0_a, legal[0], seq, go)),
                       threading.Thread(target=send, args=(seat0_b, legal[1], seq, go))]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            raced = True
            after = seat0_a.wait_for(seq + 1)
            seat0_b.wait_for(seq + 1)
            deadline = time.time() + 30
            while not (seat0_a.errors or seat0_b.errors):
                assert time.time() < deadline, "neither process answered the losing action"
                for sock in (seat0_a, seat0_b):
                    try:
                        sock.poll(0.2)
                    except TimeoutError:
                        pass
            errors = seat0_a.errors + seat0_b.errors
            assert [e["code"] for e in errors] == ["stale"], errors
            assert after["seq"] >= seq + 1
            seq += 1
            continue
        own.act(choose(view), seq)
        seq += 1
    assert raced
    final = {s: sock.wait_for(seq) for s, sock in (("a", seat0_a), ("b", seat0_b))}
    # both tabs of seat 0 see the same deal, on two processes
    assert final["a"]["view"] == final["b"]["view"] and final["a"]["seq"] == final["b"]["seq"]
    assert watcher_a.wait_for(seq)["view"]["phase"] == "finished"
    stored = stored_actions(url, table_id)
    assert len(stored) == final["a"]["seq"]  # every action once: the computer's too, whatever process held it
    assert {deal_no for deal_no, _, _ in stored} == {1}
    played = [[seat, token] for _, seat, token in stored]
    # stored as played: the finished deal's record at each process (each from its own game, as a player
    # downloads it) holds exactly the stored actions, seat and word, in order
    for server in (a, b):
        record = httpx.get(server.url + f"/api/tables/{table_id}/games/1.json")
        assert record.status_code == 200, record.text
        assert record.json()["actions"] == played, (server.url, record.json()["actions"], played)
    # and as both tabs saw it: the auction's words and the cards of the tricks, seat by seat
    view = final["a"]["view"]
    cards = [[(leader + i) % 3, card] for leader, trick, _ in view["tricks"] for i, card in enumerate(trick)]
    assert view["auction"] == played[: len(view["auction"])]
    assert cards == [[seat, token] for seat, token in played if re.fullmatch("[CSHD][789TJQKA]", token)]
    for sock in (seat0_a, seat1_b, seat0_b, watcher_a):
        sock.close()


def test_kill_9_of_a_process_loses_nothing_and_its_clients_go_on_at_another(two_servers):
    url, (a, b) = two_servers
    t = httpx.post(a.url + "/api/tables", json={"seats": ["human", "random", "random"], "deals": 2,
                                                "public": True}).json()
    table_id = t["table_id"]
    assert httpx.get(b.url + f"/api/tables/{table_id}").status_code == 200  # B holds it too
    seat = Seat(a, table_id, t["token"])
    acknowledged = 0
    for _ in range(6):  # play a few of the person's actions at A (the computers move between them)
        state = seat.state
        while state["view"]["to_move"] != state["view"]["seat"] and state["view"]["phase"] != "finished":
            state = seat.next_state()
        if state["view"]["phase"] == "finished":
            break
        seat.act(choose(state["view"]), state["seq"])
        acknowledged = seat.wait_for(state["seq"] + 1)["seq"]
    a.kill()  # kill -9, mid-deal
    before = stored_actions(url, table_id)
    assert len(before) >= acknowledged
    seat.close()
    seat = Seat(b, table_id, t["token"])  # the person reconnects to B and goes on
    assert seat.state["seq"] >= acknowledged
    while seat.state["view"]["phase"] != "finished":
        state = seat.state
        if state["view"]["to_move"] == state["view"]["seat"]:
            seat.act(choose(state["view"]), state["seq"])
        seat.next_state(timeout=30)  # the computer players move at B now (it took their lease)
    after = stored_actions(url, table_id)
    assert after[: len(before)] == before and len(after) == seat.state["seq"]
    seat.close()
