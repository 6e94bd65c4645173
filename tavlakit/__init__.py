"""tavlakit: Tavla (Turkish backgammon) and backgammon game records.

>>> import tavlakit as tk
>>> tk.Position.initial().pips()
(167, 167)
"""

from .play import BAR, OFF, Move, Play
from .position import Position
from .rules import Rules

__version__ = "0.1.0"

__all__ = ["BAR", "OFF", "Move", "Play", "Position", "Rules", "__version__"]
