"""Build hook: compile the engine's core (src/skat/deal/_core.py), the rules kernel it calls
(src/skat/rules/kernel.py, with its C declarations in kernel.pxd), the solver's kernels
(src/skat/solver/kernels.py, with kernels.pxd) and the players' dealing of worlds (src/skat/players/dealing.py)
with Cython, ahead of time: nothing compiles at run time.

Everything else about the package is in pyproject.toml. All four are plain Python too, so an install
without Cython or without a C compiler still works, only slower (the solver much slower);
``SKAT_PURE_PYTHON=1`` at install time skips the compiled build.
"""

import os
import platform

from setuptools import Extension, setup


def _ext_modules() -> list:
    if os.environ.get("SKAT_PURE_PYTHON"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    # the rules kernel first: the core cimports it (src/skat/rules/kernel.pxd)
    kernel = Extension("skat.rules.kernel", ["src/skat/rules/kernel.py"], optional=True)
    core = Extension("skat.deal._core", ["src/skat/deal/_core.py"], optional=True)
    # the solver's search: -O3 whatever Python was built with, and the POPCNT instruction on x86-64 (every
    # x86-64 CPU since 2008; without it __builtin_popcountll is a library call)
    flags = ["-O3"] + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])
    solver = Extension("skat.solver.kernels", ["src/skat/solver/kernels.py"], optional=True, extra_compile_args=flags)
    dealing = Extension("skat.players.dealing", ["src/skat/players/dealing.py"], optional=True)
    return cythonize(
        [kernel, core, solver, dealing],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
        quiet=True,
    )


setup(ext_modules=_ext_modules())
