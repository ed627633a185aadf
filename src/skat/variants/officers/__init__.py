"""Officers' Skat (Offiziersskat): Skat for two players, in all its variants (docs/rules.md section 9).

>>> from skat.variants.officers import OfficersGame
>>> game = OfficersGame("classic", seed=1)
>>> game.phase
<Phase.CHOOSE: 'choose'>

This package's ``__init__`` re-exports the game itself (its actions, options, scoring and deal).
The computer player is :class:`skat.players.officers.OfficersBot`, the score sheet of a series
:class:`skat.table.officers.OfficersSeries`, and ``skat.commands.play_officers.play_text(variant=...,
seed=...)`` plays against the computer in the terminal.
"""

from skat.variants.officers.actions import ChooseRamsch, parse_officers_action
from skat.variants.officers.game import OfficersGame, OfficersResult, OfficersView, Phase
from skat.variants.officers.options import SCORINGS, VARIANTS, OfficersOptions
from skat.variants.officers.scoring import OfficersOutcome, score_admiral, score_game, score_ramsch

__all__ = [
    "OfficersGame", "OfficersResult", "OfficersView", "Phase", "OfficersOptions", "VARIANTS", "SCORINGS",
    "ChooseRamsch", "parse_officers_action",
    "OfficersOutcome", "score_game", "score_ramsch", "score_admiral",
]
