"""No yes/no option of the public API can be passed by position: every
parameter annotated ``bool`` (or ``bool | None``) of an exported function,
class (a dataclass's fields too) or public method is keyword-only, as
python-chess writes them (``board.is_game_over(claim_draw=True)``). The
compiled kernels (numba's dispatchers) are left out: they take no keywords."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

import tavlakit
from tavlakit.engine.rules import Rules
from tavlakit.record.match import Result

BOOLS = {"bool", "bool | None", "None | bool", "Optional[bool]"}
POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def public_modules() -> Iterator[ModuleType]:
    """tavlakit and every module below the command line whose name has no leading underscore."""
    yield tavlakit
    for info in pkgutil.walk_packages(tavlakit.__path__, "tavlakit."):
        parts = info.name.split(".")[1:]
        if parts[0] in ("cli", "i18n_tools", "__main__") or any(p.startswith("_") for p in parts):
            continue
        yield importlib.import_module(info.name)


def exported(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """The module's ``__all__``, or else the public names it defines."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if getattr(v, "__module__", None) == module.__name__]
    for name in names:
        if name.startswith("_") or not hasattr(module, name):
            continue
        value = getattr(module, name)
        if not inspect.ismodule(value) and str(getattr(value, "__module__", "")).startswith("tavlakit"):
            yield f"{value.__module__}.{getattr(value, '__qualname__', name)}", value


def callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every exported function and class, and each class's public methods and ``__init__``."""
    for module in public_modules():
        for where, value in exported(module):
            if inspect.isclass(value):
                yield where, value
                for name, member in vars(value).items():
                    if name == "__init__" or not name.startswith("_"):
                        function = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
                        if inspect.isfunction(function):
                            yield f"{where}.{name}", function
            elif inspect.isfunction(value):  # (numba's dispatchers are not functions)
                yield where, value


def positional_flags() -> set[str]:
    found = set()
    for where, value in callables():
        try:
            parameters = inspect.signature(value).parameters.values()
        except (TypeError, ValueError):
            continue
        for p in parameters:
            annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
            if p.kind in POSITIONAL and annotation in BOOLS:
                found.add(f"{where}({p.name})")
    return found


def test_the_walk_sees_the_api() -> None:
    seen = dict(callables())
    for where in ("analysis.frames.Analysis.find", "engine.rules.Rules", "record.match.Result"):
        assert f"tavlakit.{where}" in seen
    assert len(seen) > 400


def test_no_exported_flag_is_passed_by_position() -> None:
    assert positional_flags() == set()


def test_a_flag_by_position_is_refused() -> None:
    with pytest.raises(TypeError):
        Result(0, 1, True)  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rules("reroll", False)  # type: ignore[misc]
    assert Result(0, 1, resigned=True).resigned and not Rules(larger_die=False).larger_die
