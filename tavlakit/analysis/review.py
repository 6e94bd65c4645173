"""gnubg's statistics of each match of many record files, judged on every core.

:func:`review` reads, replays and judges each file in a worker process
(:func:`~tavlakit.analysis.collection.analyse_files` with
``statistics=True``: each file replayed once; the games of a single match
on every core) and puts the rows together:
the statistics frame, the turns that could not be judged, the files nothing
could be read from, and what the figures were worked out with (the
analysis level, the weights, the match equity tables).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

import pandas as pd

from ..collections.parallel import Progress
from ..engine.rules import Rules
from ..evaluation.levels import DEFAULT_LEVEL, Level, LevelLike, level as as_level
from ..evaluation.met import default_met, load_met
from ..evaluation.net import net_in_use
from ..i18n import _
from ..record.problem import Problem
from .collection import analyse_files
from .statistics import PlayerStatistics, UnjudgedTurn, statistics_from_rows


@dataclass
class Review:
    """The statistics of many matches, and what they were worked out with."""

    statistics: pd.DataFrame
    """The statistics frame (:func:`~tavlakit.analysis.statistics.statistics_frame`)."""
    unjudged: list[UnjudgedTurn] = field(default_factory=list)
    unread: list[Problem] = field(default_factory=list)
    """For each file no game could be read from, its first error (or a note saying so)."""
    level: Level = DEFAULT_LEVEL
    """The analysis level the turns were judged at."""
    weights: str | None = None
    """The weights evaluated with (None: gnubg-nn's own)."""
    met: str | None = None
    """The name of the match equity table of the matches with a cube (None: no such match)."""
    _: KW_ONLY
    tavla_met: bool = False
    """Whether a match without a cube (Tavla) was judged with tavlakit's own table."""
    mars_outside_home: bool = False
    """Whether the net's gammon chances stood in for mars chances (mars = outside home)."""
    jacoby: list[tuple[bool, str, int]] = field(default_factory=list)
    """The money sessions' Jacoby rules: whether it was played, where that
    came from (:data:`~tavlakit.replay.jacoby.JacobyFrom`) and in how many files."""


def review(
    files: Sequence[Path],
    rules: Rules | None = None,
    *,
    met: Path | None = None,
    level: LevelLike = DEFAULT_LEVEL,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Review:
    """gnubg's statistics of each match of ``files`` (``met``: a match
    equity table's file, default gnubg's; ``level``: how deep, default world
    class, :mod:`~tavlakit.evaluation.levels`), one file per process on
    ``jobs`` processes (the decisions, or games, of fewer files than processes on every
    process: :func:`~tavlakit.analysis.collection.analyse_files`). A bad ``met`` or ``level`` is a ValueError (before
    any file is read); a bad file is one of :attr:`Review.unread`."""
    judged = as_level(level)
    table = load_met(met) if met is not None else default_met()
    rows: list[PlayerStatistics] = []
    unjudged: list[UnjudgedTurn] = []
    unread: list[Problem] = []
    weights = net_in_use()
    parts = analyse_files(
        files,
        jobs,
        progress,
        rules=rules,
        luck=False,
        statistics=True,
        met=str(met) if met is not None else None,
        level=judged,
        net=weights,
    )
    for part in parts:
        rows += part.statistics
        unjudged += part.unjudged
        if not part.statistics:  # no game could be read: the file's first error says why
            first = next((p for p in part.problems if p.severity == "error"), None)
            unread.append(first or Problem("empty", "error", _("no game could be read"), file=part.source))
    review = Review(statistics_from_rows(rows, unjudged, judged.key), unjudged, unread, judged, weights)
    _tables_used(review, rows, rules, met, table.name)
    return review


def _tables_used(
    review: Review, rows: list[PlayerStatistics], rules: Rules | None, met: Path | None, name: str
) -> None:
    """Say in ``review`` which match equity tables the rows were judged
    with (``name``: the backgammon table's) and whether mars chances were
    stood in for."""
    ruled = [(rules or (Rules.preset(row.rules) if row.rules and row.rules != "custom" else None), row) for row in rows]
    matches = [r for r, row in ruled if r is not None and row.length]  # (money sessions: no table)
    if (met is not None and any(row.length for _r, row in ruled)) or any(r.cube for r in matches):
        review.met = name
    review.tavla_met = met is None and any(not r.cube for r in matches)
    review.mars_outside_home = any(r is not None and r.mars == "outside-home" for r, _row in ruled)
    review.jacoby = _jacoby_rules(rows)


def _jacoby_rules(rows: list[PlayerStatistics]) -> list[tuple[bool, str, int]]:
    """The money sessions' Jacoby rules, each with where it came from and in how many files."""
    sessions = {(row.path, row.jacoby, row.jacoby_from) for row in rows if row.jacoby is not None}
    kinds = Counter((bool(jacoby), str(source)) for _path, jacoby, source in sessions)
    return [(jacoby, source, count) for (jacoby, source), count in sorted(kinds.items())]


__all__ = ["Review", "review"]
