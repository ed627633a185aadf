"""The few names of Cython's pure-Python mode that :mod:`skat.deal._core` uses, for running it uncompiled
where Cython is not installed: the types are placeholders and the decorators change nothing."""

from __future__ import annotations

from typing import Any

compiled = False

int = bint = uint = ulonglong = void = object  # noqa: A001  (placeholders for C types)


def declare(kind: Any = None, value: Any = None, **_options: Any) -> Any:
    """A module constant keeps its value; a class attribute declaration is only a placeholder."""
    return value


def cast(kind: Any, value: Any) -> Any:
    return value


def _unchanged(func: Any) -> Any:
    return func


cclass = cfunc = ccall = inline = final = _unchanged
