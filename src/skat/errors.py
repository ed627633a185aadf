"""Exceptions with messages a person can act on."""

from __future__ import annotations

__all__ = ["SkatError", "IllegalActionError", "OutOfTurnError", "WrongPhaseError", "RecordError"]


class SkatError(Exception):
    """Base class of the errors raised by this package."""


class IllegalActionError(SkatError, ValueError):
    """An action the rules do not allow in the current state; the state is unchanged."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""


class WrongPhaseError(IllegalActionError):
    """An action that belongs to another phase of the game (a card during the auction...)."""


class RecordError(SkatError, ValueError):
    """A game record that cannot be read or does not replay."""
