"""Players by name, for the command line, the arena and the server."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from skat.players.base import Player, RandomPlayer

__all__ = ["register", "make_player", "check_player_name", "LEVELS", "PLAYER_NAMES", "OWN_BOT_FORMS"]

LEVELS: tuple[str, ...] = ("easy", "medium", "strong", "expert")
"""The levels for people, weakest first (``strong`` is the web table's default; ``expert`` is meant to be stronger and
is slower, about 2 s a card: :mod:`skat.players.levels`)."""

PLAYER_NAMES: tuple[str, ...] = (*LEVELS, "learned", "heuristic", "random")
"""Every built-in player by name: the levels, then ``learned`` (the card-play model's policy alone, no search),
``heuristic`` and ``random`` for bot authors.
The command line, the lobby, ``skat bot``, ``skat arena`` and the README use these names."""

OWN_BOT_FORMS = "FILE.py:Factory or package.module:Factory"
"""How a bot of one's own is named where a command takes one (``skat arena``, ``skat bot``)."""

_FACTORIES: dict[str, Callable[[int | None], Player]] = {"random": RandomPlayer}


def register(name: str, factory: Callable[[int | None], Player]) -> None:
    """Make a player available by name."""
    _FACTORIES[name] = factory


def check_player_name(name: str, *, own_bots: bool = False) -> str:
    """``name`` if it is a built-in player, else ValueError listing the known names.

    With ``own_bots`` a bot of one's own (:data:`OWN_BOT_FORMS`) passes too; it is loaded later.
    """
    if isinstance(name, str) and (name in PLAYER_NAMES or (own_bots and ":" in name)):
        return name
    known = ", ".join(PLAYER_NAMES)
    extra = f", or a bot of your own ({OWN_BOT_FORMS})" if own_bots else ""
    raise ValueError(f"unknown player {name!r}; choose one of: {known}{extra}")


def make_player(name: str, seed: int | None = None) -> Player:
    """A new player by name: one of :data:`PLAYER_NAMES` or a name given to :func:`register`."""
    _load_builtin()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        check_player_name(name)
        raise ValueError(f"player {name!r} is not available here (its module could not be loaded)") from None
    return factory(seed)


_BUILTIN: tuple[tuple[str, str], ...] = (("skat.players.heuristic", "FACTORIES"), ("skat.players.levels", "LEVELS"),
                                         ("skat.players.policy", "FACTORIES"))
"""The modules of the stronger players and their tables of factories by name, imported on first use (the
players import the solver); a name given to :func:`register` is kept over a built-in one."""


def _load_builtin() -> None:
    """Import the modules of the stronger players (if present) and take their factories."""
    for module, table in _BUILTIN:
        try:
            factories = getattr(importlib.import_module(module), table)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        for name, factory in factories.items():
            _FACTORIES.setdefault(name, factory)
