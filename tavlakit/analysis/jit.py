"""numba's compiler, typed: :func:`jit` compiles a function of numbers and
numpy arrays to machine code on its first call (cached on disk after that).

numba has no type hints; this keeps the functions it compiles typed as
written. The cache lives beside the module, or in the user's cache
folder where the package is installed read-only (numba's own rule).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., object])


def jit(func: F) -> F:
    """``func`` compiled in numba's nopython mode, its machine code cached."""
    return cast(F, numba.njit(cache=True, nogil=True)(func))


__all__ = ["jit"]
