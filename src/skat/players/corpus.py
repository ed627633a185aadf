"""A self-play corpus of contracts played out with hidden cards: what bidding and contract choice learn from.

For every deal and seat the candidate contracts of the seat's ten cards (:func:`candidate_contracts`: the
game types the heuristic finds playable or nearly so, as a hand game and with the skat picked up, and Null)
are each played to the end: the seat becomes declarer at 18 (the others pass), takes the skat and discards
the heuristic's best pair for the contract, or plays hand; then all three seats play their cards with a
card-playing computer player (``medium`` by default: perfect-information Monte Carlo, each seat seeing only
what it may know). So an outcome is what real play with hidden cards makes of the contract, not what a
double-dummy solution of the open deal says.

A deal's record (:func:`corpus_deal`) lists every played contract with the declarer's ten cards, the skat,
the discard, the card points, whether it was won and the Seeger-Fabian score at a 3-table. Deals are seeded
from the corpus seed and numbered, so a corpus is reproducible and resumable
(:class:`skat.players.arena.Checkpoint`, ``tools/bidding_corpus.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skat.cards import CardSet
from skat.deal.game import Phase
from skat.players.arena import arena_player, derive_seed, new_game, players_fingerprint, seeger_fabian
from skat.players.bidding import NEAR_HOPELESS, NULL_RISK, best_discards, candidate_contracts
from skat.rules.actions import Bid, Declare, Discard, Hold, Pass, PickUp
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.rulesets import get_ruleset

__all__ = ["CorpusConfig", "candidate_contracts", "play_contract", "corpus_deal", "NEAR_HOPELESS", "NULL_RISK"]

@dataclass(frozen=True)
class CorpusConfig:
    """What a corpus is: its deals, seed, rule set and the card-playing player of all three seats (the
    attributes :class:`skat.players.arena.Checkpoint` keeps in its header)."""

    deals: int
    seed: int = 2029
    card_player: str = "medium"
    ruleset: str = "isko2018"

    @property
    def players(self) -> tuple[str, ...]:
        return (self.card_player,)

    def fingerprint(self) -> str:
        """The code the corpus depends on (:data:`CODE`): a corpus is resumed only on the same."""
        return players_fingerprint(self.players, CODE)


CODE = ("corpus", "pimc", "heuristic", "worlds", "budget", "levels", "bidding", "registry")
"""The modules of :mod:`skat.players` that make a corpus what it is (the card players, the discard); a
change elsewhere (a new bidder, the arena) keeps a corpus file resumable."""


def _contract(gt: int, hand_game: bool) -> Contract:
    return Contract(GameType(gt), hand=hand_game)


def play_contract(deal_seed: int, seat: int, gt: int, hand_game: bool, card_player: str, player_seed: int,
                  ruleset: str = "isko2018") -> dict[str, Any]:
    """Play deal ``deal_seed`` with ``seat`` declaring ``gt`` (a hand game or after the pickup) at 18, the
    cards by ``card_player`` in every seat; returns the record of one played contract."""
    game = new_game(deal_seed, get_ruleset(ruleset))
    hand = game.view(seat).hand.mask
    skat = game.initial_skat
    while game.phase is Phase.BIDDING:
        mover = game.to_move
        legal = game.legal_actions()
        if mover == seat:
            action: Hold | Bid | Pass = Hold() if Hold() in legal else min((a for a in legal if isinstance(a, Bid)),
                                                                           key=lambda a: a.value)
        else:
            action = Pass()
        game.apply(action, mover)
    assert game.declarer == seat, f"seat {seat} did not get the contract"
    discard = 0
    if hand_game:
        game.apply(Declare(_contract(gt, True)), seat)
    else:
        game.apply(PickUp(), seat)
        discard = best_discards(hand | skat, gt, 1)[0]
        game.apply(Discard(CardSet.from_mask(discard)), seat)
        game.apply(Declare(_contract(gt, False)), seat)
    players = [arena_player(card_player, derive_seed(player_seed, s)) for s in range(3)]
    while not game.is_over:
        mover = game.to_move
        game.apply(players[mover].choose(game.view(mover)), mover)
    result = game.result
    assert result is not None and result.declarer == seat
    return {"seat": seat, "hand": hand, "skat": skat, "gt": gt, "hand_game": hand_game, "discard": discard,
            "won": bool(result.won), "declarer_points": result.declarer_points, "score": result.score,
            "sf": seeger_fabian(seat, result.won, result.scores)[seat], "tricks": result.declarer_tricks}


def corpus_deal(config: CorpusConfig, deal: int) -> dict[str, Any]:
    """Every candidate contract of every seat of deal number ``deal`` (0-based), played out."""
    deal_seed = derive_seed("corpus-deal", config.seed, deal)
    game = new_game(deal_seed, get_ruleset(config.ruleset))
    contracts = []
    for seat in range(3):
        for gt, hand_game in candidate_contracts(game.view(seat).hand.mask):
            contracts.append(play_contract(deal_seed, seat, gt, hand_game, config.card_player,
                                           derive_seed("corpus-players", config.seed, deal, seat, gt, hand_game),
                                           config.ruleset))
    return {"deal": deal, "seed": deal_seed, "contracts": contracts}


def corpus_deals(config: CorpusConfig, deals: list[int]) -> list[dict[str, Any]]:
    """:func:`corpus_deal` for several deals (one task of a worker process or a Ray task)."""
    return [corpus_deal(config, d) for d in deals]
