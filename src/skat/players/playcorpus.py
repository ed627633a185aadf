"""A corpus of card-play positions labelled by the search: what the learned card-play model is trained on.

Each deal is played to the end by one player in all three seats (``strong`` by default: the learned bidding, then
perfect-information Monte Carlo card play with the inference), each seat seeing only what it may know. At every
card decision with more than one legal card the player's search (:meth:`skat.players.pimc.PIMCPlayer.rank_cards`)
both decides and labels the position: for each legal card its mean value over the worlds searched, for the
declarer (the chance that he reaches his goal; in the last five tricks the exact score's value, see
:func:`skat.players.pimc.card_values`). The deal's outcome (declarer, won, card points, Seeger-Fabian points)
labels every position of it too.

A corpus of ``start="null"`` plays only deals with a Null hand, its best seat declaring Null Hand (the card play of
Null, about one bid deal in a hundred otherwise). A deal's record holds the deal's seed and every action in order
(a Null Hand deal's scripted auction too), so a position is rebuilt by replaying the
actions up to its index (:func:`positions`): a record is a few hundred bytes, not a vector per position. Deals are
seeded and numbered (:class:`PlayCorpusConfig`), so a corpus is reproducible and resumable
(:class:`skat.players.arena.Checkpoint`, ``tools/cardplay_corpus.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from skat.cards import Card
from skat.deal.game import Phase
from skat.players.arena import arena_player, derive_seed, new_game, null_deal_seed, players_fingerprint, seeger_fabian
from skat.rules.actions import Play, parse_action
from skat.rules.rulesets import get_ruleset

__all__ = ["PlayCorpusConfig", "labelled_deal", "labelled_deals", "positions", "Position", "CODE"]


@dataclass(frozen=True)
class PlayCorpusConfig:
    """What a corpus is: its deals, seed, rule set and the player of all three seats (the attributes
    :class:`skat.players.arena.Checkpoint` keeps in its header)."""

    deals: int
    seed: int = 2041
    player: str = "strong"
    ruleset: str = "isko2018"
    start: str = "auction"
    """``auction`` (every deal bid for) or ``null`` (deals with a Null hand, declared Null Hand: the card play of Null,
    rare in bid deals; :func:`skat.players.arena.null_hand_game`)."""

    def __post_init__(self) -> None:
        if self.start not in ("auction", "null"):
            raise ValueError(f"a corpus's deals start with the 'auction' or as 'null', not {self.start!r}")

    @property
    def players(self) -> tuple[str, ...]:
        return (self.player,)

    def fingerprint(self) -> str:
        """The code the corpus depends on (:data:`CODE`): a corpus is resumed only on the same."""
        return players_fingerprint(self.players, CODE)


CODE = ("playcorpus", "pimc", "heuristic", "worlds", "budget", "levels", "inference", "learned", "bidding",
        "registry", "arena")
"""The modules of :mod:`skat.players` that make a corpus what it is (the player, its search and its bidding, and the
arena's deals: the seeds and the scripted Null Hand auction; not its counting, :data:`arena.ARENA_REPORTING`)."""


def labelled_deal(config: PlayCorpusConfig, deal: int) -> dict[str, Any]:
    """Deal number ``deal`` (0-based) played to the end, with the search's values of every card decision."""
    if config.start == "null":
        deal_seed = null_deal_seed(config.seed, deal, "play-corpus-deal")
    else:
        deal_seed = derive_seed("play-corpus-deal", config.seed, deal)
    game = new_game(deal_seed, get_ruleset(config.ruleset), config.start)
    players = [arena_player(config.player, derive_seed("play-corpus-player", config.seed, deal, s)) for s in range(3)]
    labels: list[dict[str, Any]] = []
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        player = players[seat]
        action = None
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        if (view.phase is Phase.PLAY and view.contract is not None and view.declarer is not None
                and len(plays) > 1 and len(plays) == len(view.legal_actions) and hasattr(player, "rank_cards")):
            try:
                action, totals, solved = player.rank_cards(view)
            except Exception:  # search trouble: the player's own fallback decides, nothing is labelled
                action = None
            else:
                if solved:
                    labels.append({"i": len(game.history), "seat": seat, "n": solved,
                                   "v": {Card(c).name: round(t / solved, 4) for c, t in sorted(totals.items())}})
        if action is None or action not in view.legal_actions:
            action = player.choose(view)
        game.apply(action, seat)
    result = game.result
    assert result is not None
    sf = seeger_fabian(result.declarer, result.won, result.scores)
    return {"deal": deal, "seed": deal_seed, "actions": [[s, str(a)] for s, a in game.history], "labels": labels,
            "declarer": result.declarer, "won": result.won,
            "contract": None if result.contract is None else str(result.contract),
            "declarer_points": result.declarer_points, "sf": sf}


def labelled_deals(config: PlayCorpusConfig, deals: list[int]) -> list[dict[str, Any]]:
    """:func:`labelled_deal` for several deals (one task of a worker process or a Ray task)."""
    return [labelled_deal(config, d) for d in deals]


@dataclass(frozen=True)
class Position:
    """One labelled card decision, rebuilt: the seat's view then, the search's mean value of each legal card (for
    the declarer, by card number), the card played and the deal's outcome."""

    view: Any
    values: dict[int, float]
    played: int
    worlds: int
    declarer: int
    won: bool
    declarer_points: int


def positions(record: dict[str, Any], ruleset: str = "isko2018") -> Iterator[Position]:
    """The labelled positions of a deal's record, in order, by replaying its actions (the seat's view at each)."""
    variant_rules = get_ruleset(ruleset)
    game = new_game(record["seed"], variant_rules)
    labels = {lab["i"]: lab for lab in record["labels"]}
    for i, (seat, token) in enumerate(record["actions"]):
        label = labels.get(i)
        action = parse_action(token)
        if label is not None:
            assert label["seat"] == seat == game.to_move, f"deal {record['deal']}: the record does not replay at {i}"
            assert isinstance(action, Play), f"deal {record['deal']}: action {i} is labelled but plays no card"
            yield Position(view=game.view(seat), values={int(Card.parse(c)): v for c, v in label["v"].items()},
                           played=int(action.card), worlds=label["n"], declarer=record["declarer"],
                           won=bool(record["won"]), declarer_points=record["declarer_points"])
        game.apply(action, seat)

