"""skat: the German card game Skat, exact rules, computer players and a table in the browser.

>>> import skat
>>> game = skat.Game(seed=1)
>>> game.phase
<Phase.BIDDING: 'bidding'>
"""

from skat.actions import (
    Action,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Pass,
    PickUp,
    Play,
    Resign,
    parse_action,
)
from skat.cards import Card, CardNotationError, CardSet, Rank, Suit, card_points, cards
from skat.errors import IllegalActionError, OutOfTurnError, RecordError, SkatError, WrongPhaseError
from skat.game import Game, GameResult, Phase, SeatView
from skat.rules import (
    BID_VALUES,
    Contract,
    GameType,
    Outcome,
    evaluate,
    legal_cards,
    matadors,
    trick_winner,
)
from skat.rulesets import ISKO, PIRATE, PUB, TOURNEE, RuleSet
from skat.scoresheet import ScoreSheet
from skat.table import Table

__version__ = "0.1.0"

__all__ = [
    "Action", "Bid", "Claim", "Concede", "Declare", "Discard", "Hold", "Pass", "PickUp", "Play",
    "Resign", "parse_action",
    "Card", "CardNotationError", "CardSet", "Rank", "Suit", "card_points", "cards",
    "IllegalActionError", "OutOfTurnError", "RecordError", "SkatError", "WrongPhaseError",
    "Game", "GameResult", "Phase", "SeatView",
    "BID_VALUES", "Contract", "GameType", "Outcome", "evaluate", "legal_cards", "matadors",
    "trick_winner", "ISKO", "PUB", "PIRATE", "TOURNEE", "RuleSet", "ScoreSheet", "Table",
]
