"""Players by name, for the command line, the arena and the server."""

from __future__ import annotations

from collections.abc import Callable

from skat.players.base import Player, RandomPlayer

__all__ = ["register", "make_player", "PLAYER_NAMES"]

_FACTORIES: dict[str, Callable[[int | None], Player]] = {"random": RandomPlayer}
PLAYER_NAMES = _FACTORIES.keys()


def register(name: str, factory: Callable[[int | None], Player]) -> None:
    """Make a player available by name."""
    _FACTORIES[name] = factory


def make_player(name: str, seed: int | None = None) -> Player:
    """A new player by name (``random``, ``heuristic``, ``pimc``, ``easy``, ``medium``, ``strong``...)."""
    _load_builtin()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose one of: {', '.join(sorted(_FACTORIES))}") from None
    return factory(seed)


def _load_builtin() -> None:
    """Import the modules that register the stronger players (if present)."""
    import importlib

    for module in ("skat.players.heuristic", "skat.players.pimc", "skat.players.levels"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
