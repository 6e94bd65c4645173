"""Package data (grammars, samples) found both installed and in a checkout."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def data_dir(name: str) -> Path:
    """The folder ``name`` (``grammars`` or ``samples``): inside the installed
    package when there, else the checkout's top-level folder."""
    packaged = Path(str(resources.files("tavlakit"))) / name
    if packaged.is_dir():
        return packaged
    top = _CHECKOUT / name
    if top.is_dir():
        return top
    raise FileNotFoundError(f"tavlakit's {name}/ folder is missing from the installation")


@cache
def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``."""
    return (data_dir("grammars") / f"{name}.lark").read_text(encoding="utf-8")
