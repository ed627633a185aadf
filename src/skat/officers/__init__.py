"""Officers' Skat (Offiziersskat): Skat for two players, in all its variants (docs/rules.md section 9).

>>> from skat.officers import OfficersGame
>>> game = OfficersGame("classic", seed=1)
>>> game.phase
<Phase.CHOOSE: 'choose'>

``play_text(variant=..., seed=...)`` plays against the computer (:class:`OfficersBot`) in the
terminal; :class:`OfficersSeries` keeps the score sheet of a series.
"""

from skat.officers.actions import ChooseRamsch, Kontra, Re, parse_officers_action
from skat.officers.bot import OfficersBot, choose_game
from skat.officers.game import OfficersGame, OfficersResult, OfficersView, Phase
from skat.officers.options import SCORINGS, VARIANTS, OfficersOptions
from skat.officers.scoring import OfficersOutcome, score_admiral, score_game, score_ramsch
from skat.officers.series import OfficersSeries, SheetRow
from skat.officers.text import play_text, render_view

__all__ = [
    "OfficersGame", "OfficersResult", "OfficersView", "Phase", "OfficersOptions", "VARIANTS", "SCORINGS",
    "ChooseRamsch", "Kontra", "Re", "parse_officers_action",
    "OfficersOutcome", "score_game", "score_ramsch", "score_admiral",
    "OfficersBot", "choose_game", "OfficersSeries", "SheetRow", "play_text", "render_view",
]
