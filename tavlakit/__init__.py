"""tavlakit: Tavla (Turkish backgammon) and backgammon game records.

>>> import tavlakit as tk
>>> tk.Position.initial().pips()
(167, 167)
"""

from . import formats, replay
from ._version import __version__
from .engine.dicenames import dice_name, parse_dice
from .engine.numbering import Numbering
from .engine.play import BAR, OFF, Move, Play
from .engine.position import Position
from .engine.rules import Rules
from .formats import read_match, read_matches, write_match
from .formats.position_text import PositionRecord, read_position, read_positions
from .record.match import Game, Match, Result, Turn
from .record.problem import Problem, ProblemError
from .replay.walker import validate

#: Modules imported on first use: ``analysis`` brings in pandas, and the
#: pictures are not needed to read or check a record.
_LAZY = {"analysis": ".analysis", "svg": ".pictures.svg", "viewer": ".pictures.viewer"}


def __getattr__(name: str) -> object:
    """``tk.analysis``, ``tk.svg`` and ``tk.viewer``, imported when first used
    (with ``tk.analysis`` the study page's table, which draws a player's
    mistakes in a notebook)."""
    if name in _LAZY:
        import importlib

        if name == "analysis":
            importlib.import_module(".pictures.study", __name__)
        return importlib.import_module(_LAZY[name], __name__)
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
