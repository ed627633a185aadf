"""The learned bidder: the shipped model loads, ranks hands sensibly, and bids, holds and declares legally."""

from __future__ import annotations

import random

import numpy as np
import pytest

from skat.cards import Card
from skat.deal.game import Game
from skat.players.learned import (
    FAMILIES,
    SKAT_FAMILIES,
    LearnedBidder,
    WinModel,
    bids_heard,
    contract_features,
    shipped_model,
    skat_features,
)
from skat.players.pimc import PIMCPlayer
from skat.rules.actions import Bid, Discard, Hold, Pass, PickUp
from skat.rules.ranking import GameType


def mask(text: str) -> int:
    return sum(1 << int(Card.parse(name)) for name in text.split())


STRONG = "CJ SJ HJ CA CT CK CQ HA HT SA"
HOPELESS = "D7 D8 H9 HQ S7 S8 SK C7 C9 DQ"


def test_the_shipped_model_is_small_and_loads_with_every_family():
    """A small file (about a thousand numbers), read once a process: it loads in well under a second (the
    figure is bench/players.py's, beside the decision times)."""
    from importlib import resources

    from skat.players.learned import MODEL_FILE

    size = len((resources.files("skat") / "data" / MODEL_FILE).read_bytes())
    assert size < 100_000, f"the shipped model is {size} bytes"
    shipped_model.cache_clear()
    model = shipped_model()
    assert shipped_model() is model  # loaded once, kept
    numbers = sum(a.size if isinstance(a, np.ndarray) else 1 for m in (*model.weights.values(), *model.scores.values())
                  for a in m)
    assert numbers < 10_000, numbers
    assert set(model.weights) == set(FAMILIES + SKAT_FAMILIES)
    strong = model.win_probability(mask(STRONG), int(GameType.CLUBS), False, 0)
    weaker = model.win_probability(mask("CJ C7 C8 CK HA H7 S8 S9 D7 D8"), int(GameType.CLUBS), False, 0)
    assert 0 < weaker < strong < 1
    middling = mask("CJ C7 C8 CK HA H7 S8 S9 D7 D8")
    assert model.win_probability(middling, int(GameType.CLUBS), True, 0) < weaker  # the skat helps


def test_the_learned_bidder_bids_a_strong_hand_and_passes_a_hopeless_one():
    bidder = LearnedBidder(random.Random(0))
    game = Game(hands=[STRONG, "DJ C9 C8 C7 HK HQ H9 SK SQ S9", "DA DT DK DQ D9 D8 D7 H8 H7 ST"], skat="S8 S7")
    assert bidder.bid_limit(game.view(0)) >= 18
    best = max(bidder.estimates(game.view(0)), key=lambda e: e.score)
    assert best.contract.game_type in (GameType.CLUBS, GameType.GRAND) and best.score > 0
    game = Game(hands=[HOPELESS, "CJ SJ HJ DJ CA CT CK HA SA ST", "CQ C8 HT HK H7 H8 S9 SQ DA DT"], skat="DK D9")
    assert bidder.bid_limit(game.view(0)) == 0


def test_a_player_with_the_learned_bidder_makes_only_legal_decisions():
    for seed in (3, 8):
        players = []
        for s in range(3):
            p = PIMCPlayer(seed * 3 + s, worlds=4, min_worlds=1, time_budget=0.05, bid_worlds=4, bid_time=0.1,
                           search_from_trick=2)
            p.bidder = LearnedBidder(p.rng, worlds=4, time_budget=0.1)
            players.append(p)
        game = Game(seed=seed)
        while not game.is_over:
            view = game.view(game.to_move)
            action = players[game.to_move].choose(view)
            assert action in view.legal_actions
            game.apply(action, game.to_move)
    from skat.players.ablation import strong_simulated_bidding
    from skat.players.bidding import SimulationBidder
    from skat.players.levels import make_level

    assert type(make_level("strong", 1).bidder) is LearnedBidder
    assert type(strong_simulated_bidding(1).bidder) is SimulationBidder


def test_the_bids_heard_are_the_highest_an_opponent_made_or_held():
    game = Game(hands=[STRONG, "DJ C9 C8 C7 HK HQ H9 SK SQ S9", "DA DT DK DQ D9 D8 D7 H8 H7 ST"], skat="S8 S7")
    assert bids_heard(game.view(2)) == 0
    game.apply(Bid(18), 1)
    game.apply(Hold(), 0)
    game.apply(Bid(20), 1)
    assert bids_heard(game.view(0)) == 20  # middlehand's bid
    assert bids_heard(game.view(1)) == 18  # forehand held 18
    game.apply(Pass(), 0)
    assert bids_heard(game.view(2)) == 20  # both are opponents of rearhand
    x = contract_features(mask(STRONG), int(GameType.CLUBS), 2, 20)
    assert list(x[-2:]) == [20 / 24, 1.0] and list(contract_features(mask(STRONG), 0, 2)[-2:]) == [0.0, 0.0]


def test_estimates_follow_the_bids_heard_unless_told_to_ignore_them():
    hand = mask("CJ C7 C8 CK CA H7 HA S8 S9 D7")
    model = shipped_model()
    clubs_gt = int(GameType.CLUBS)
    assert model.win_probability(hand, clubs_gt, False, 2, 30) != model.win_probability(hand, clubs_gt, False, 2, 0)
    game = Game(hands=["DJ C9 HT D8 HK HQ H9 SK SQ SA", "SJ HJ DA DT DK DQ D9 H8 ST CQ",
                       "CJ C7 C8 CK CA H7 HA S8 S9 D7"], skat="S7 CT")
    game.apply(Bid(18), 1)
    game.apply(Hold(), 0)
    game.apply(Bid(30), 1)
    game.apply(Pass(), 0)
    heard, deaf = LearnedBidder(random.Random(0)), LearnedBidder(random.Random(0), use_heard=False)
    clubs = [e for e in heard.estimates(game.view(2)) if e.contract.game_type == GameType.CLUBS]
    quiet = [e for e in deaf.estimates(game.view(2)) if e.contract.game_type == GameType.CLUBS]
    assert clubs and quiet and [e.p for e in clubs] != [e.p for e in quiet]
    assert quiet[0].p == model.win_probability(hand, clubs_gt, quiet[0].contract.hand, 2, 0)


def test_a_model_fitted_on_fewer_features_reads_only_the_leading_ones():
    x = contract_features(mask(STRONG), int(GameType.CLUBS), 0, 27)
    n = len(x) - 2
    rng = np.random.default_rng(1)
    coef = rng.normal(size=n)
    model = WinModel({"suit": (np.zeros(n), np.ones(n), coef, 0.5)})
    z = float(x[:n] @ coef + 0.5)
    assert abs(model.win_probability(mask(STRONG), int(GameType.CLUBS), False, 0, 27) - 1 / (1 + np.exp(-z))) < 1e-12


def test_after_the_pickup_the_model_discards_and_declares_a_game_that_reaches_the_bid():
    bidder = LearnedBidder(random.Random(0))
    twelve = mask(STRONG + " S8 S7")
    score, discard, contract = bidder.skat_choice(twelve, 0, 18)
    assert discard.bit_count() == 2 and discard & twelve == discard
    assert contract.game_type in (GameType.CLUBS, GameType.GRAND) and score > 0
    assert len(skat_features(twelve & ~discard, discard, int(contract.game_type), 0)) == len(
        contract_features(twelve, 0, 0)) + 1
    # a bid that only grand reaches (clubs with 3 is worth 48): grand, or a loss counted as overbid
    score60, _, high = bidder.skat_choice(twelve, 0, 60)
    assert high.game_type == GameType.GRAND or score60 < 0
    game = Game(hands=[STRONG, "DJ C9 C8 C7 HK HQ H9 SK SQ S9", "DA DT DK DQ D9 D8 D7 H8 H7 ST"], skat="S8 S7")
    game.apply(Pass(), 1)
    game.apply(Pass(), 2)
    game.apply(Bid(18), 0)
    game.apply(PickUp(), 0)
    action = bidder.discard(game.view(0))
    assert isinstance(action, Discard) and action in game.view(0).legal_actions
    game.apply(action, 0)
    declared = bidder.decide(game.view(0), None)
    assert declared in game.view(0).legal_actions and declared.contract.game_type in (GameType.CLUBS, GameType.GRAND)


def test_the_players_fingerprint_covers_the_shipped_model(monkeypatch):
    from skat.players import arena

    with_model = arena.players_fingerprint()
    monkeypatch.setattr(arena, "PLAYER_DATA", ())
    assert arena.players_fingerprint() != with_model
    assert arena.players_fingerprint(modules=["corpus"]) == arena.players_fingerprint(modules=["corpus"])


def test_the_players_fingerprint_ignores_docstrings_and_comments(tmp_path):
    from pathlib import Path

    from skat.players import arena

    here = Path(arena.__file__).parent
    original = (here / "levels.py").read_text()
    copy = tmp_path / "levels.py"
    copy.write_text(original)
    before = arena._code_bytes(copy)
    copy.write_text('"""Another module docstring."""\n# a comment\n' + original.replace("\n", "\n\n", 3))
    assert arena._code_bytes(copy) == before
    copy.write_text(original.replace("worlds=40", "worlds=41"))
    assert arena._code_bytes(copy) != before


def test_the_players_fingerprint_leaves_out_the_arenas_reporting_and_what_never_plays(tmp_path):
    """A change to how a match is counted, stored or printed keeps its checkpoint resumable; a change to how a
    deal is played does not. The corpus generators and the environment are no player's code."""
    from pathlib import Path

    from skat.players import arena

    here = Path(arena.__file__).parent
    assert all((here / f"{name}.py").is_file() for name in arena.NOT_PLAYING)
    original = (here / "arena.py").read_text()
    copy = tmp_path / "arena.py"

    def code(source: str) -> bytes:
        copy.write_text(source)
        return arena._code_bytes(copy, arena.ARENA_REPORTING)

    before = code(original)
    assert code(original.replace("def summarize(", "def summarize(unused=None, *, ")) == before
    assert code(original.replace("half = ", "half = 0 * ", 1)) == before  # inside summarize
    assert code(original + "\ndef helper():\n    return 1\n") != before  # new code counts unless named reporting
    assert code(original.replace("NULL_RISK = 0.5", "NULL_RISK = 0.4")) != before
    assert code(original.replace('"""The six games of deal number', 'x = 1\n    """The six games of deal number')) != before
    assert arena._code_bytes(copy) != code(original)  # without leave_out the whole file counts


def test_the_players_fingerprint_ignores_type_annotations(tmp_path):
    """Adding, changing or dropping annotations (and imports only for them, under ``if TYPE_CHECKING:``)
    leaves a file's code bytes alone; a change of what runs does not, a dataclass field's kind included."""
    from pathlib import Path

    from skat.players import arena

    def code(source: str) -> bytes:
        path = tmp_path / "bot.py"
        path.write_text(source)
        return arena._code_bytes(path)

    plain = """
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

LIMIT = 3


@dataclass
class Memory:
    seen: int = 0
    cards: list = field(default_factory=list)


def choose(view, legal, *rest, depth=2, **options):
    best = None
    for action in legal:
        best = action
    return best
"""
    typed = """
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skat.deal.game import SeatView
    from skat.rules.actions import Action

LIMIT: int = 3


@dataclass
class Memory:
    seen: float = 0
    cards: list[int] = field(default_factory=list)


def choose(view: SeatView, legal: list[Action], *rest: object, depth: int = 2, **options: str) -> Action | None:
    best: Action | None = None
    action: Action
    for action in legal:
        best = action
    return best
"""
    base = code(plain)
    assert code(typed) == base
    # what runs counts: a value, a default, an import, a dataclass field's kind, an attribute becoming a field
    assert code(plain.replace("LIMIT = 3", "LIMIT = 4")) != base
    assert code(plain.replace("depth=2", "depth=3")) != base
    assert code(plain.replace("best = None", "best = legal[0]")) != base
    assert code(plain.replace("from typing import TYPE_CHECKING\n", "")) != base
    assert code(typed.replace("if TYPE_CHECKING:\n    from", "if True:\n    from")) != base
    assert code(plain.replace("seen: int = 0", "seen: ClassVar[int] = 0")) != base
    assert code(plain.replace("seen: int = 0", "seen = 0")) != base
    # a shipped player with an annotation less: the same code
    original = (Path(arena.__file__).parent / "levels.py").read_text()
    stripped = original.replace("def _medium(seed: int | None) -> PIMCPlayer:", "def _medium(seed):")
    assert stripped != original
    assert code(stripped) == code(original)


def test_the_searched_discard_lays_away_what_double_dummy_play_loses_and_keeps_the_models_game():
    game = Game(hands=["CJ SJ HJ DJ CA CT CK CQ HT ST", "C9 C8 HA HK HQ H9 SA SK SQ S9",
                       "C7 H8 H7 S8 S7 DA DT DK DQ D9"], skat="D8 D7")
    for action, seat in ((Pass(), 1), (Pass(), 2), (Bid(18), 0), (PickUp(), 0)):
        game.apply(action, seat)
    view = game.view(0)
    model_only = LearnedBidder(random.Random(0))
    _score, chosen, contract = model_only.skat_choice(view.hand.mask, 0, 18)
    searched = LearnedBidder(random.Random(0), discard_worlds=12, discard_time=5.0)
    pair = searched.searched_discard(view, int(contract.game_type), chosen)
    assert pair == mask("HT ST")  # the two blank tens would fall to the aces: twenty points in the skat instead
    out_of_time = LearnedBidder(random.Random(0), discard_worlds=12, discard_time=1e-9)
    assert out_of_time.searched_discard(view, int(contract.game_type), mask("D8 D7")) == mask("D8 D7")
    action = searched.discard(view)
    assert isinstance(action, Discard) and action in view.legal_actions
    game.apply(action, 0)
    declared = searched.decide(game.view(0), None)
    assert declared in game.view(0).legal_actions and declared.contract == contract  # the model's game
    with pytest.raises(ValueError, match="positive time"):
        LearnedBidder(random.Random(0), discard_time=0)
