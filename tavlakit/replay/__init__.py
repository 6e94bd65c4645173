"""Walk a record through the engine (:mod:`.walker`) and judge it: legality, the
cube, results and scores, and where to go on after a fault. Never parses text.

>>> import tavlakit as tk
>>> tk.replay.replay is tk.replay.walker.replay
True
"""

from .walker import ReplayedGame, Report, Step, default_rules, replay, replay_game, validate

__all__ = ["ReplayedGame", "Report", "Step", "default_rules", "replay", "replay_game", "validate"]
