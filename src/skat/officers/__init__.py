"""Officers' Skat (Offiziersskat): Skat for two players, in all its variants (docs/rules.md section 9).

>>> from skat.officers import OfficersGame
>>> game = OfficersGame("classic", seed=1)
>>> game.phase
<Phase.CHOOSE: 'choose'>

This package's ``__init__`` re-exports the game itself (its actions, options, scoring and deal).
The computer player is :class:`skat.officers.bot.OfficersBot`, the score sheet of a series
:class:`skat.officers.series.OfficersSeries`, and ``skat.officers.text.play_text(variant=...,
seed=...)`` plays against the computer in the terminal.
"""

from skat.officers.actions import ChooseRamsch, Kontra, Re, parse_officers_action
from skat.officers.game import OfficersGame, OfficersResult, OfficersView, Phase
from skat.officers.options import SCORINGS, VARIANTS, OfficersOptions
from skat.officers.scoring import OfficersOutcome, score_admiral, score_game, score_ramsch

__all__ = [
    "OfficersGame", "OfficersResult", "OfficersView", "Phase", "OfficersOptions", "VARIANTS", "SCORINGS",
    "ChooseRamsch", "Kontra", "Re", "parse_officers_action",
    "OfficersOutcome", "score_game", "score_ramsch", "score_admiral",
]
