"""skat: the German card game Skat, exact rules, computer players and a table in the browser.

>>> import skat
>>> game = skat.Game(seed=1)
>>> game.phase
<Phase.BIDDING: 'bidding'>
"""

from skat._version import __version__ as __version__
from skat.cards import Card, CardNotationError, CardSet, Rank, Suit, card_points, cards
from skat.deal.game import Game, GameResult, Phase, SeatView
from skat.errors import IllegalActionError, OutOfTurnError, RecordError, SkatError, WrongPhaseError
from skat.rules.actions import (
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
from skat.rules.bidding import BID_VALUES
from skat.rules.contract import Contract
from skat.rules.ranking import GameType, legal_cards, trick_winner
from skat.rules.rulesets import ISKO, PIRATE, PUB, TOURNEE, RuleSet
from skat.rules.value import Outcome, evaluate, matadors
from skat.table.scoresheet import ScoreSheet
from skat.table.series import Table

__all__ = [
    "Action", "Bid", "Claim", "Concede", "Declare", "Discard", "Hold", "Pass", "PickUp", "Play",
    "Resign", "parse_action",
    "Card", "CardNotationError", "CardSet", "Rank", "Suit", "card_points", "cards",
    "IllegalActionError", "OutOfTurnError", "RecordError", "SkatError", "WrongPhaseError",
    "Game", "GameResult", "Phase", "SeatView",
    "BID_VALUES", "Contract", "GameType", "Outcome", "evaluate", "legal_cards", "matadors",
    "trick_winner", "ISKO", "PUB", "PIRATE", "TOURNEE", "RuleSet", "ScoreSheet", "Table",
]
