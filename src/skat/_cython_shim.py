"""The few names of Cython's pure-Python mode that :mod:`skat.deal._core` and :mod:`skat.rules.kernel`
use, for running them uncompiled where Cython is not installed: the types are placeholders, a C
array is a list and the decorators change nothing."""

from __future__ import annotations

import builtins
from typing import Any

compiled = False


class _CType:
    """A placeholder for a C type; ``T[n]`` stands for an array of ``n`` of them."""

    def __getitem__(self, length: builtins.int) -> _CArray:
        return _CArray(length)


class _CArray:
    """A placeholder for a C array type of a length."""

    def __init__(self, length: builtins.int) -> None:
        self.length = length


int = bint = uint = ulonglong = void = _CType()  # noqa: A001  (placeholders for C types)


def declare(kind: Any = None, value: Any = None, **_options: Any) -> Any:
    """A module constant keeps its value, a C array is a list of zeros; a class attribute
    declaration is only a placeholder."""
    if isinstance(kind, _CArray):
        return [0] * kind.length
    return value


def cast(kind: Any, value: Any) -> Any:
    return value


def _unchanged(func: Any) -> Any:
    return func


cclass = cfunc = ccall = inline = final = _unchanged
