"""Analysis of replayed records for Jupyter and the command line.

Frames (pandas): :func:`~.frames.plays_frame` (one row per turn),
:func:`~.frames.games_frame`, :func:`~.frames.players_frame`,
:func:`~.collection.analyse` (all at once), :func:`~.frames.to_parquet`.
Dice luck and play errors: :mod:`.luck`; gnubg's statistics of each
match and every judged turn: :func:`~.statistics.statistics_frame`,
:func:`~.statistics.decisions_frame` (:mod:`.judge`, :mod:`.statistics`,
:mod:`.decisions`). Rollouts of a position: :func:`~.rollouts.rollout`. Outcomes and dice fairness: :mod:`.outcomes`,
:mod:`.dice`. Charts: :mod:`.plots` (matplotlib is imported only when
drawing). Collections: :func:`~.collection.analyse` of paths on every core
(:mod:`.collection`), an incremental Parquet store (:mod:`.store`,
:func:`~.store.open_store`), Dask DataFrames (:mod:`.dask`, imported on
first use: ``tavlakit[dask]``).
"""

from ..evaluation.equity import Evaluator, equity
from .collection import analyse, rename_players
from .decisions import join_decisions
from .dice import face_counts, fairness, roll_counts
from .frames import Analysis, games_frame, players_frame, plays_frame, to_parquet
from .luck import cumulative_luck, luck_mark, luck_rating, opening_luck, play_error, roll_luck
from .outcomes import first_roll_advantage, mars_rates
from .pips import pip_race, turn_facts
from .rollouts import rollout
from .statistics import decisions_frame, statistics_frame
from .store import open_store

__all__ = [
    "Analysis",
    "Evaluator",
    "analyse",
    "cumulative_luck",
    "decisions_frame",
    "equity",
    "face_counts",
    "fairness",
    "first_roll_advantage",
    "games_frame",
    "join_decisions",
    "luck_mark",
    "luck_rating",
    "mars_rates",
    "opening_luck",
    "open_store",
    "pip_race",
    "play_error",
    "players_frame",
    "plays_frame",
    "rename_players",
    "roll_counts",
    "rollout",
    "roll_luck",
    "statistics_frame",
    "to_parquet",
    "turn_facts",
]


def __getattr__(name: str) -> object:
    """``tk.analysis.dask`` is imported on first use (it needs Dask)."""
    if name == "dask":
        import importlib

        return importlib.import_module(".dask", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
