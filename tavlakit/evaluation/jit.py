"""numba's compiler, typed: :func:`jit` compiles a function of numbers and
numpy arrays to machine code on its first call, cached on disk after that
(beside the module, or in the user's cache folder where the package is
installed read-only: numba's own rule).

The functions it compiles allocate nothing (numba's reference counting is
off: it cost a fifth of the net's time, counting every array of a tuple
passed a board at a time), so their callers make the arrays they fill.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options (``_nrt``: its reference counting, off).
OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}


def jit(func: F) -> F:
    """``func`` compiled in numba's nopython mode, its machine code cached."""
    return cast(F, numba.njit(func, **OPTIONS))


__all__ = ["jit"]
