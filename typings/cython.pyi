"""Types of the few names of Cython's pure-Python mode that skat.deal._core and skat.rules.kernel use
(Cython ships no types that mypy reads). The C types are the Python types their values have at the
Python level, so the annotations of the compiled modules type them for their callers; a C pointer is
Any and ``cython.declare`` gives Any, as the declared attributes are typed by Cython, not by mypy."""

import builtins
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T", bound=type)

compiled: bool

int: TypeAlias = builtins.int
uint: TypeAlias = builtins.int
ulonglong: TypeAlias = builtins.int
bint: TypeAlias = builtins.bool
void: TypeAlias = None
p_int: TypeAlias = Any
p_ulonglong: TypeAlias = Any

def declare(kind: Any = ..., value: Any = ..., **options: Any) -> Any: ...
def cast(kind: Any, value: Any) -> Any: ...
def cfunc(func: _F) -> _F: ...
def ccall(func: _F) -> _F: ...
def inline(func: _F) -> _F: ...
def final(cls: _T) -> _T: ...
def cclass(cls: _T) -> _T: ...
