"""numba's compiler, typed: :func:`jit` compiles a function of numbers and
numpy arrays to machine code on its first call, cached on disk after that
(beside the module, or in the user's cache folder where the package is
installed read-only: numba's own rule).

The functions it compiles allocate nothing (numba's reference counting is
off: it cost a fifth of the net's time, counting every array of a tuple
passed a board at a time), so their callers make the arrays they fill.

numba's compiler and the kernels it loads leave some hundred thousand
Python objects behind, which each of the garbage collector's full passes
walks again (about 40 ms a pass, one every match or so of an analysis):
:func:`settle_heap`, once the kernels are loaded, puts the objects made
so far out of its way.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any, TypeVar, cast, overload

import numba

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options (``_nrt``: its reference counting, off).
OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}


@overload
def jit(func: F, /) -> F: ...
@overload
def jit(*, inline: bool) -> Callable[[F], F]: ...
def jit(func: F | None = None, /, *, inline: bool = False) -> F | Callable[[F], F]:
    """``func`` compiled in numba's nopython mode, its machine code cached.
    ``@jit(inline=True)``: its code also put into each compiled caller
    (numba's ``inline="always"``), for a kernel called many times a board:
    a call copies the arrays it is given (their shapes and strides), and
    the caller's constants reach its code."""
    options = {**OPTIONS, "inline": "always"} if inline else OPTIONS
    if func is None:
        return lambda f: cast(F, numba.njit(f, **options))
    return cast(F, numba.njit(func, **options))


_settled = False


def settle_heap() -> None:
    """Once per process: the objects made so far (the imports, numba's
    compiled kernels) out of the garbage collector's passes (``gc.freeze``;
    they live as long as the process anyway)."""
    global _settled
    if not _settled:
        _settled = True
        gc.freeze()


__all__ = ["jit", "settle_heap"]
