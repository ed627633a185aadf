"""The few names of Cython's pure-Python mode that :mod:`skat.deal._core`, :mod:`skat.rules.kernel` and
:mod:`skat.solver.kernels` use, for running them uncompiled where Cython is not installed: the types are
placeholders, a C array is a list, and the decorators and ``with nogil`` change nothing."""

from __future__ import annotations

from typing import Any

compiled = False


class _CType:
    """A placeholder for a C type; ``T[n]`` stands for an array of ``n`` of them (``T[::1]``, a typed
    memoryview, for a placeholder too)."""

    def __getitem__(self, length: Any) -> _CArray:
        return _CArray(length)


class _CArray:
    """A placeholder for a C array type of a length."""

    def __init__(self, length: Any) -> None:
        self.length = length


int = bint = uint = longlong = ulonglong = void = p_longlong = _CType()  # noqa: A001  (placeholders for C types)


def typedef(kind: Any, name: str | None = None) -> Any:
    """A C type's other name: the same placeholder."""
    return kind


def declare(kind: Any = None, value: Any = None, **_options: Any) -> Any:
    """A module constant keeps its value, a C array is a list of zeros; a class attribute
    declaration is only a placeholder."""
    if isinstance(kind, _CArray) and value is None:
        return [0] * kind.length
    return value


def cast(kind: Any, value: Any) -> Any:
    return value


def _unchanged(func: Any) -> Any:
    return func


cclass = cfunc = ccall = inline = final = _unchanged


def exceptval(value: Any = None, *, check: bool = True) -> Any:
    """How a C function reports an exception: nothing to do in Python."""
    return _unchanged


class _NoGil:
    """``@cython.nogil`` and ``with cython.nogil:``: Python keeps the GIL, so nothing happens."""

    def __call__(self, func: Any) -> Any:
        return func

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


nogil = _NoGil()
