"""tavlakit: Tavla (Turkish backgammon) and backgammon game records.

>>> import tavlakit as tk
>>> tk.Position.initial().pips()
(167, 167)
"""

from . import formats, replay
from ._version import __version__
from .dicenames import dice_name, parse_dice
from .formats import read_match, read_matches, write_match
from .formats.position_text import PositionRecord, read_position, read_positions
from .numbering import Numbering
from .play import BAR, OFF, Move, Play
from .position import Position
from .problem import Problem, ProblemError
from .record import Game, Match, Result, Turn
from .replay import validate
from .rules import Rules

#: Modules imported on first use: ``analysis`` brings in pandas, and the
#: pictures are not needed to read or check a record.
_LAZY = ("analysis", "svg", "viewer")


def __getattr__(name: str) -> object:
    """``tk.analysis``, ``tk.svg`` and ``tk.viewer``, imported when first used."""
    if name in _LAZY:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tavlakit' has no attribute {name!r}")


__all__ = [
    "BAR",
    "OFF",
    "Game",
    "Match",
    "Move",
    "Numbering",
    "Play",
    "Position",
    "PositionRecord",
    "Problem",
    "ProblemError",
    "Result",
    "Rules",
    "Turn",
    "analysis",
    "dice_name",
    "formats",
    "parse_dice",
    "read_match",
    "read_matches",
    "read_position",
    "read_positions",
    "replay",
    "svg",
    "validate",
    "viewer",
    "write_match",
    "__version__",
]
