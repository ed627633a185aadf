"""The modules Cython compiles (``skat.deal._core``, ``skat.rules.kernel``, ``skat.solver.kernels``,
``skat.players.dealing``), or their plain Python source.

``SKAT_PURE_PYTHON=1`` in the environment runs the source even where a compiled build is installed
(to compare the two, ``tests/test_engine_speed_equivalence.py``); the module then stands in
``sys.modules`` under its own name, so every importer gets the same one.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType

__all__ = ["compiled_module", "PURE"]

PURE: bool = bool(os.environ.get("SKAT_PURE_PYTHON"))
"""Whether the compiled modules run as plain Python source (``SKAT_PURE_PYTHON`` is set)."""


def compiled_module(name: str) -> ModuleType:
    """The module ``name``: its compiled build, or with ``SKAT_PURE_PYTHON`` its ``.py`` source.

    A compiled build that cannot be loaded (e.g. the core was compiled but the kernel it calls was
    not) gives way to the source too: the engine is then slower, never broken.
    """
    if not PURE:
        try:
            return importlib.import_module(name)
        except (ImportError, AttributeError):  # a compiled module missing what it cimports
            spec = importlib.util.find_spec(name)
            if spec is None or spec.origin is None or spec.origin.endswith(".py"):
                raise
            sys.modules.pop(name, None)
    loaded = sys.modules.get(name)
    if loaded is not None and not getattr(loaded, "COMPILED", False):
        return loaded
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    source = os.path.join(os.path.dirname(spec.origin), name.rpartition(".")[2] + ".py")
    pure = importlib.util.spec_from_file_location(name, source)
    assert pure is not None and pure.loader is not None
    module = importlib.util.module_from_spec(pure)
    sys.modules[name] = module
    pure.loader.exec_module(module)
    return module
