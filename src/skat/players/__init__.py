"""Computer players and the seat protocol."""

from skat.players.base import Player, RandomPlayer

__all__ = ["Player", "RandomPlayer"]
