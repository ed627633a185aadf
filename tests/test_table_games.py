"""The variant owns its game at the server: a table asks its game (skat.server.games.TableGame), which each variant's
table part defines and the server loads by the name the variant gives (``Variant.table``).

A made-up variant, registered here with a table part written into a temporary folder (a few lines reusing standard
Skat's), is created and played as a server table through the table core and through the REST and WebSocket API,
with no change anywhere else; and the server's code has no branch on Officers' Skat left (docs/architecture.md,
"Adding a variant").
"""

from __future__ import annotations

import ast
import io
import random
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

from skat.deal.game import Game
from skat.deal.variant import Variant, skat_record_owner
from skat.rules.rulesets import ISKO
from skat.server.core import TableCore, TableError, hash_token
from skat.server.creation import build_seats, build_series, plan_table
from skat.server.games import table_games, table_variants
from skat.variants import registry
from test_server import hello, play_deal

SERVER = Path(__file__).resolve().parents[1] / "src" / "skat" / "server"

TABLE_PART = textwrap.dedent('''
    """A made-up game's table part: standard Skat at three only, without hints."""

    from skat.variants.standard_table import StandardTable


    class ThreeOnly(StandardTable):
        name = "madeup"
        title = "Skat at three, no advice"
        seat_counts = (3,)
        no_hints = "a made-up table gives no hints"

        def meta(self):
            return {"madeup_note": "three seats only"}


    TABLE = ThreeOnly()
''')


@pytest.fixture()
def madeup(tmp_path, monkeypatch):
    """The variant ``madeup``: the engine's standard game under another name, its table part a module written into
    ``tmp_path`` (importable as ``madeup_table``); registered for the test only."""
    (tmp_path / "madeup_table.py").write_text(TABLE_PART)
    monkeypatch.syspath_prepend(str(tmp_path))
    variant = registry.register(Variant(
        name="madeup", title="Made-up Skat", seats=3, game_class=Game, parse_action=Game.parse_action,
        start=lambda seed, rules, **options: Game(seed, ruleset=rules or ISKO, **options),
        load=Game.from_record, owns=skat_record_owner("madeup"), table="madeup_table"))
    yield variant
    registry._VARIANTS.pop(variant.name)
    sys.modules.pop("madeup_table", None)


def test_the_server_plays_the_registered_variants_in_their_order():
    assert table_variants() == ("standard", "officers")
    assert type(table_games()["officers"]).__module__ == "skat.variants.officers.table"
    assert type(table_games()["standard"]).__module__ == "skat.variants.standard_table"


def test_a_made_up_variant_is_a_table_of_the_core(madeup):
    assert table_variants() == ("standard", "officers", "madeup")
    plan = plan_table("made0001", seats=["human", "human", "random"], variant="madeup", claim=None, seed=5,
                      public=True)
    assert plan.settings["variant"] == "madeup" and plan.settings["ruleset"] == "isko2018"
    seats = build_seats("made0001", plan.settings, plan.rows)
    core = TableCore(id="made0001", name=plan.name, settings=plan.settings, seats=seats,
                     series=build_series(plan.settings, len(seats)))
    for seat in core.seats[:2]:
        seat.token_hash, seat.name = hash_token(f"token-{seat.position}"), f"Player {seat.position}"
    assert type(core.game_kind).__name__ == "ThreeOnly" and not core.hints_on
    info = core.public_info()
    assert (info["variant"], info["ruleset"], info["officers_variant"], info["hints"]) == (
        "madeup", "isko2018", None, False)
    assert core.deal_due()
    core.enter(core.series.start_deal(), 1)
    rng = random.Random(5)
    game = core.game
    assert game is not None
    while not game.is_over:  # the people's tokens checked by the core, the computer's moves as the runner makes them
        seat = game.to_move
        assert seat is not None
        position = core.positions[seat]
        if core.seats[position].kind == "human":
            token = rng.choice([str(a) for a in game.legal_actions(seat)])
            checked, action = core.check_action(position, token)
            assert checked == seat
        else:
            action = core.seats[position].bot_seat.choose(game.view(seat))
        core.play(seat, action)
    state = core.state_for(0)
    assert state["view"]["result"] is not None and state["dealt"] is not None and "sorted" in state["hints"]
    assert core.series.sheet()["rows"] and core.game_results()[0]["result"] == game.result.to_json()
    with pytest.raises(TableError, match="a made-up table gives no hints"):
        core.hint_point(0)
    with pytest.raises(TableError, match="seats 3 players, not 4"):  # the game's own seat counts
        plan_table("made0002", seats=["human"] * 4, variant="madeup")
    with pytest.raises(TableError, match="officers_variant is for a table of variant 'officers'"):
        plan_table("made0003", variant="madeup", officers_variant="classic")


def test_a_made_up_variant_is_played_over_the_api(madeup, client):
    meta = client.get("/api/meta").json()
    assert meta["variants"] == ["standard", "officers", "madeup"] and meta["madeup_note"] == "three seats only"
    assert "isko2018" in meta["rulesets"] and "classic" in meta["officers_variants"]
    r = client.post("/api/tables", json={"variant": "madeup", "seats": ["human", "random", "random"],
                                         "player_name": "Ada", "public": True})
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["table"]["variant"] == "madeup" and created["table"]["hints"] is False
    assert [t["variant"] for t in client.get("/api/tables").json()["tables"]] == ["madeup"]
    with client.websocket_connect(f"/ws/{created['table_id']}") as ws:
        welcome, sheet, state = hello(ws, created["token"])
        assert welcome["position"] == 0 and len(state["view"]["hand"]) == 10
        assert "bid_estimate" not in state["hints"]  # no advice at this game's tables
        final = play_deal(ws, state)
        assert final["view"]["result"]["explanation"] and final["dealt"] is not None
    tid = created["table_id"]
    assert client.get(f"/api/tables/{tid}/sheet.csv").text.startswith("\ufeffNo.,Dealer,Declarer")
    record = client.get(f"/api/tables/{tid}/games/1.json").json()
    assert Game.from_record(record).result.to_json() == final["view"]["result"]
    assert client.get(f"/api/tables/{tid}/games/1.iss").status_code == 200
    refused = client.post("/api/tables", json={"variant": "madeup", "seats": ["human", "random", "random", "random"]})
    assert refused.status_code == 400 and refused.json()["error"] == "bad_seats"


# ------------------------------------------------------- no variant's branch in the server
ALLOWED: dict[tuple[str, str], str] = {
    ("games.py", "'officers_variant'"): "a key of the protocol's TableInfo (INFO_KEYS), null where a game has none",
    ("app.py", "officers"): "imports skat.server.officers' router: the Officers' Skat page and the retired API",
}
"""Code (not docstrings or comments) of src/skat/server/ that may say ``officers``: (file, token) -> why."""

LEGACY = {
    "officers.py": "the Officers' Skat page (/officers) and the retired REST API's stored tables, read-only",
    "store.py": "reads the retired Officers' Skat API's own database tables (officers_tables, ...)",
    "database.py": "declares the retired Officers' Skat API's database tables, kept and never dropped",
    "0001_baseline.py": "the migrations' baseline: the schema that had the retired API's tables",
}
"""Whole modules about the retired Officers' Skat REST API and its stored data, not about a table's game."""

PROTOCOL = {
    "messages.py": "the protocol's models: the wire shape of each game's views, results and sheets (a game whose "
                   "views are Skat's needs none of its own), generated into docs/protocol.schema.json",
    "models.py": "the REST models of the protocol: a table request's fields and /api/meta's lists of every game, "
                 "and the retired Officers' Skat API's answers",
}
"""The protocol's description (pydantic models): it names what each game sends, and asks no game anything."""


def code_words(path: Path) -> list[tuple[int, str]]:
    """(line, token) of every name and string of a module that says ``officers``, docstrings and comments left
    out (a bare string statement is documentation: a module's, a class's, a function's or an attribute's)."""
    source = path.read_text(encoding="utf-8")
    docs = {(node.value.lineno, node.value.col_offset) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.NAME, tokenize.STRING) and tok.start not in docs and "officers" in tok.string.lower():
            found.append((tok.start[0], tok.string.replace('"', "'")))
    return found


def test_the_server_has_no_branch_on_a_variant():
    found = []
    used = set()
    for path in sorted(SERVER.rglob("*.py")):
        if path.name in LEGACY or path.name in PROTOCOL:
            continue
        for line, word in code_words(path):
            if (path.name, word) in ALLOWED:
                used.add((path.name, word))
            else:
                found.append(f"{path.relative_to(SERVER)} line {line}: {word}")
    assert not found, "the server names Officers' Skat; ask the table's game (skat.server.games) instead:\n" + \
        "\n".join(found)
    assert used == set(ALLOWED), f"allowed words no longer used: {set(ALLOWED) - used}"


def test_the_check_finds_a_branch_and_skips_documentation(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Officers\' Skat tables."""\n\n'
                     'from skat.variants.officers.game import OfficersGame  # officers\n'
                     'X = 1\n"""officers, documented."""\n\n\n'
                     'def f(table):\n    """Officers."""\n    return table.settings.get("variant") == "officers"\n')
    assert code_words(probe) == [(3, "officers"), (3, "OfficersGame"), (10, "'officers'")]
    assert all(any(SERVER.rglob(name)) for name in LEGACY)  # the legacy modules are there to be skipped
