"""Computer players and the seat protocol.

``make_player(name, seed)`` builds a player by name: ``random``, and the levels
``easy``, ``medium``, ``strong`` once the stronger players are registered in
``skat.players.registry``.
"""

from skat.players.base import Player, RandomPlayer
from skat.players.registry import PLAYER_NAMES, make_player

__all__ = ["Player", "RandomPlayer", "make_player", "PLAYER_NAMES"]
