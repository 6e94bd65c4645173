"""A collection of record files analysed file by file, on every core.

:func:`analyse_file` analyses one file in whatever process runs it (a
:func:`~tavlakit.collections.parallel.pmap` worker, a Dask worker);
:func:`combine` puts the files back together in input order, so the frames
equal those of ``analyse(read_matches(paths))`` whatever ran them.

>>> from tavlakit._data import data_dir
>>> one = analyse_file(data_dir("samples") / "tavla-t000.mat", None, luck=False)
>>> len(one.games), one.errors, one.fingerprint is not None
(6, 0, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
from typing_extensions import TypeIs

from ..collections.names import PlayerNames
from ..collections.parallel import Progress, cores, job_count, jobs_for, pmap
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.levels import DEFAULT_LEVEL, LevelLike, level as as_level
from ..evaluation.net import net_in_use, use_net
from ..formats import find_records, open_games
from ..i18n import _
from ..record.match import Match
from ..record.problem import Problem, internal_problem
from ..replay.fingerprint import Fingerprinter, Twins, duplicate_problem, duplicates
from ..replay.walker import ReplayedGame, default_rules
from . import frames
from .columns import Builder, column_values, values_frame
from .frames import Analysis, Matches
from .positions import find_plays

if TYPE_CHECKING:
    from .decisions import DecisionRow
    from .statistics import Judging, MatchTally, PlayerStatistics, UnjudgedTurn

#: Columns naming players, merged by :func:`rename_players`.
NAME_COLUMNS = {"plays": ("name",), "games": ("player0", "player1", "winner_name")}


@dataclass
class FileAnalysis:
    """One file's frames and what the store's files table says of it."""

    source: str
    columns: tuple[dict[str, list[Any]], dict[str, list[Any]]]
    """The plays' and the games' values column by column (they pickle and
    put together much faster than many small frames)."""
    problems: list[Problem] = field(default_factory=list)
    """The file's own problems (unreadable, junk outside games)."""
    fingerprint: str | None = None
    rules: str = ""
    """The rules used (``repr``), from ``rules=`` or the file's tags."""
    rules_name: str = ""
    errors: int = 0
    """Errors: the file's own and those of its games."""
    warnings: int = 0
    """Warnings of the file itself."""
    tally: MatchTally | None = None
    """With ``statistics=True``: what judging the file's games found, in
    the one replay (:class:`~tavlakit.analysis.statistics.MatchTally`)."""
    part: range | None = None
    """The indexes of the games analysed, when only some were (:func:`analyse_files`)."""

    @property
    def statistics(self) -> list[PlayerStatistics]:
        """The file's rows of the statistics frame (none without ``statistics=True``)."""
        return self.tally.rows() if self.tally is not None else []

    @property
    def unjudged(self) -> list[UnjudgedTurn]:
        """The turns it could not judge."""
        return self.tally.unjudged if self.tally is not None else []

    @property
    def decisions(self) -> list[DecisionRow]:
        """Its rows of the decisions frame."""
        return self.tally.decisions if self.tally is not None else []

    def extend(self, other: FileAnalysis) -> None:
        """Add the games of the same file analysed after these (another part)."""
        for mine, theirs in zip(self.columns, other.columns):
            for column, values in theirs.items():
                mine.setdefault(column, []).extend(values)
        self.problems.extend(other.problems)
        self.errors += other.errors
        self.warnings += other.warnings
        if self.tally is not None and other.tally is not None:
            self.tally.extend(other.tally)
        self.part = None

    @cached_property
    def plays(self) -> pd.DataFrame:
        return values_frame(self.columns[0], frames.PLAY_COLUMNS)

    @cached_property
    def games(self) -> pd.DataFrame:
        return values_frame(self.columns[1], frames.GAME_COLUMNS)


def analyse_file(
    path: str | Path,
    rules: Rules | None,
    *,
    luck: bool = True,
    statistics: bool = False,
    met: Any = None,
    level: LevelLike = DEFAULT_LEVEL,
    net: str | None = None,
    games: range | None = None,
) -> FileAnalysis:
    """Read, replay and analyse one file; bad input (and a bug in tavlakit)
    is a located problem in the result, never an exception. ``statistics=True``
    judges each game in the same replay (``met``: a match equity table or
    its path; ``level``: :mod:`~tavlakit.evaluation.levels`), as :func:`analyse`; ``net``: the weights
    to evaluate with (:func:`~tavlakit.evaluation.net.use_net`; None: gnubg-nn's own);
    ``games``: only the games of these indexes (one part of the file, :func:`analyse_files`)."""
    use_net(net)
    judging = None
    if statistics:  # (a wrong level raises here, not as a problem of the file)
        from .statistics import Judging

        judging = Judging(met, level)
    return _analysed(path, rules, luck, judging, games)


def _analysed(
    path: str | Path, rules: Rules | None, luck: bool, judging: Judging | None, games: range | None = None
) -> FileAnalysis:
    """:func:`analyse_file` of ``path``, judged by ``judging`` (its look-ahead
    found where :func:`~tavlakit.analysis.deep.find_deep` finds it)."""
    source = str(path)
    match, read = open_games(path)
    prints = Fingerprinter(match)
    try:
        match.games = list(read)
        used = default_rules(match, rules)
        plays, played, own = _walk(match, used, luck, judging, prints.add, games)
    except Exception as exc:  # a bug in tavlakit: say so, keep the collection going
        match = Match(source=source, problems=[*match.problems, internal_problem(source, exc)])
        used = default_rules(match, rules)
        if judging is not None:  # (what was judged before the bug is not kept)
            judging.found.clear()
        prints = Fingerprinter(match)
        plays, played, own = _walk(match, used, luck, judging, prints.add)
    errors = sum(p.severity == "error" for p in own) + sum(row["problems"] for row in played)
    columns = (column_values(plays, frames.PLAY_COLUMNS), column_values(played, frames.GAME_COLUMNS))
    result = FileAnalysis(
        source,
        columns,
        own,
        prints.digest() if played else None,  # a file left out of the analysis is no one's twin
        repr(used),
        used.name,
        errors,
        sum(p.severity == "warning" for p in own),
    )
    if judging is not None and judging.found:
        result.tally = judging.found[0]
    result.part = games
    return result


def _walk(
    match: Match,
    rules: Rules,
    luck: bool,
    judging: Judging | None,
    seen: Callable[[ReplayedGame], None],
    games: range | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]:
    """The play rows, game rows and own problems of one match (judged into
    ``judging``, if given; each replayed game shown to ``seen``; ``games``:
    the rows of those games only)."""
    ((plays, played, own),) = frames.rows(match, rules, luck=luck, judging=judging, seen=seen, games=games)
    return plays, played, own


def is_paths(items: Matches | str | Path | Sequence[str | Path]) -> TypeIs[str | Path | Sequence[str | Path]]:
    """True for a path, or a list or tuple of paths (not of matches)."""
    if isinstance(items, (str, Path)):
        return True
    return isinstance(items, (list, tuple)) and bool(items) and all(isinstance(i, (str, Path)) for i in items)


def combine(
    parts: Iterable[FileAnalysis], *, dedupe: bool = False, statistics: bool = False, level: LevelLike = DEFAULT_LEVEL
) -> Analysis:
    """One :class:`~tavlakit.analysis.frames.Analysis` of files analysed apart, in their order; see
    :func:`assemble`. ``statistics=True``: the files were analysed with
    statistics (at ``level``), whose rows make the analysis' statistics and decisions."""
    builders = (Builder(frames.PLAY_COLUMNS), Builder(frames.GAME_COLUMNS))
    files = []
    twins = Twins()
    rows: list[PlayerStatistics] = []
    unjudged: list[UnjudgedTurn] = []
    decisions: list[DecisionRow] = []
    for part in parts:  # each file's rows made compact as it comes, then let go
        files.append((part.source, part.fingerprint, part.problems))
        if dedupe and twins.see(part.source, part.fingerprint):
            continue  # a match seen before: its rows are left out (assemble says so)
        for builder, values in zip(builders, part.columns):
            builder.add(values)
        rows += part.statistics
        unjudged += part.unjudged
        decisions += part.decisions
    plays, games = (builder.frame() for builder in builders)
    result = assemble(plays, games, files, dedupe=dedupe)
    if statistics:
        from .decisions import decisions_from_rows
        from .statistics import statistics_from_rows

        labels = frames.Labels()
        for path in result.games["path"].unique().tolist():  # the labels the plays and games frames got
            labels(path)
        for row in decisions:
            row["match"] = labels(row["path"])
        key = as_level(level).key
        result.set_judged(statistics_from_rows(rows, unjudged, key), decisions_from_rows(decisions, key))
    return result


def assemble(
    plays: pd.DataFrame,
    games: pd.DataFrame,
    files: list[tuple[str, str | None, list[Problem]]],
    *,
    dedupe: bool = False,
) -> Analysis:
    """The :class:`~tavlakit.analysis.frames.Analysis` of files' rows put end to end: ``files`` holds
    each file's (source, fingerprint, own problems) in order. The short
    ``match`` labels are given over the whole collection. With ``dedupe`` a
    file holding the same match as an earlier one leaves its rows out and
    gets a ``duplicate-match`` info problem instead."""
    twins = duplicates((source, digest) for source, digest, _problems in files) if dedupe else {}
    if twins:  # (rows :func:`combine` has not already left out)
        plays, games = (_without(frame, list(twins)) for frame in (plays, games))
    problems: list[Problem] = []
    for source, _digest, own in files:
        problems.extend(own)
        if source in twins:
            problems.append(duplicate_problem(source, twins[source]))
    return Analysis(relabel(plays), relabel(games), problems)


def _without(frame: pd.DataFrame, paths: list[str]) -> pd.DataFrame:
    """The frame without the rows of ``paths`` (the frame itself when it has none)."""
    rows = frame["path"].isin(paths)
    return frame[~rows].reset_index(drop=True) if rows.any() else frame


def relabel(frame: pd.DataFrame, label: Callable[[str], str] | None = None) -> pd.DataFrame:
    """The frame with its ``match`` column set to each path's ``label``
    (default: the short labels of the paths of this frame)."""
    label = label or frames.Labels()
    codes, paths = pd.factorize(frame["path"])  # (no Python string per row)
    frame["match"] = pd.array([label(path) for path in paths], dtype="string").take(codes, allow_fill=True)
    return frame


def analyse(
    matches: Matches | str | Path | Sequence[str | Path],
    rules: Rules | None = None,
    *,
    luck: bool = True,
    jobs: int | None = 1,
    statistics: bool = False,
    met: Any = None,
    level: LevelLike = DEFAULT_LEVEL,
    net: str | Path | None = None,
) -> Analysis:
    """Replay every match once and build the plays and games frames.

    ``luck=False`` skips the neural-net columns (``luck``, ``luck_mark``,
    ``choices``, ``error``), which is much faster. Given paths (files or
    folders: a path, or a list of them) the files are analysed on ``jobs``
    processes (``None``: every core), with the same frames in the same
    order; matches are always analysed in this process
    (:func:`~tavlakit.analysis.frames.analyse_matches`).

    ``statistics=True`` also judges every game in that one replay, as
    gnubg's ``analyse match`` does: :attr:`~tavlakit.analysis.frames.Analysis.statistics` and
    :attr:`~tavlakit.analysis.frames.Analysis.decisions` (with the match equity table ``met``, a
    table or its path, default gnubg's; ``level``: how deep, default world
    class, gnubg's own default analysis; ``"expert"``: 0 ply, fast:
    :mod:`~tavlakit.evaluation.levels`). Without it they are worked out on
    first use, which reads and replays everything again.

    ``net``: the weights to evaluate with from now on (:func:`~tavlakit.evaluation.net.use_net`:
    gnubg's ``gnubg.wd`` gives gnubg's own numbers); default the net in use.
    """
    if net is not None:
        use_net(net)
    if not is_paths(matches):
        return frames.analyse_matches(matches, rules, luck=luck, statistics=statistics, met=met, level=level)
    return analyse_paths(matches, rules, luck=luck, jobs=jobs, statistics=statistics, met=met, level=level)


def analyse_files(
    files: Sequence[Path], jobs: int | None = 1, progress: Progress | None = None, **options: Any
) -> Iterator[FileAnalysis]:
    """:func:`analyse_file` of each file (``options``: its keywords), in
    order, on ``jobs`` processes (``None``: every core). With fewer files
    than processes and ``statistics=True``, at a level that looks ahead
    each file's look-ahead is shared among the processes decision by
    decision (:mod:`.deep`) and the file judged here; at 0 ply each file is
    cut into its games, analysed on every process and put together again
    (the same rows, the same statistics either way); ``progress(done,
    total)`` is told as the files, the runs of decisions or the games are done."""
    jobs = jobs_for(files, jobs)
    tasks: list[tuple[Path, range | None]] = [(path, None) for path in files]
    count = job_count(jobs, len(files))
    few = options.get("statistics") and 0 < len(files) < (jobs or cores())
    if few and as_level(options.get("level", DEFAULT_LEVEL)).looks_ahead and job_count(jobs, 2) > 1:
        yield from _deep_files(files, jobs, progress, **options)
        return
    if few:
        tasks = [(path, games) for path in files for games in _game_parts(path)]
        count = job_count(jobs, len(tasks))
    done = pmap(_analyse_task, tasks, count, progress, **options)
    current: FileAnalysis | None = None
    for part in done:
        if current is not None and part.part is not None and part.part.start > 0:
            current.extend(part)
            continue
        if current is not None:
            yield current
        current = part
    if current is not None:
        current.part = None
        yield current


def _deep_files(
    files: Sequence[Path], jobs: int | None, progress: Progress | None, **options: Any
) -> Iterator[FileAnalysis]:
    """:func:`analyse_file` of each file in this process, its look-ahead
    found on ``jobs`` processes, decision by decision (:mod:`.deep`)."""
    from .deep import find_deep
    from .statistics import Judging

    for path in files:
        judging = Judging(options.get("met"), options.get("level", DEFAULT_LEVEL))
        met, net = options.get("met"), options.get("net")
        with find_deep(path, judging, jobs, progress, options.get("rules"), met, net):
            analysed = _analysed(path, options.get("rules"), options.get("luck", True), judging)
        yield analysed


def _game_parts(path: Path) -> list[range | None]:
    """Each game of a record file on its own (a file read here first to count them)."""
    count = sum(1 for _game in open_games(path)[1])
    return [range(i, i + 1) for i in range(count)] if count > 1 else [None]


def _analyse_task(task: tuple[Path, range | None], **options: Any) -> FileAnalysis:
    """:func:`analyse_file` of a (file, games) task."""
    path, games = task
    return analyse_file(path, games=games, **options)


def analyse_paths(
    paths: str | Path | Sequence[str | Path],
    rules: Rules | None = None,
    *,
    luck: bool = True,
    jobs: int | None = 1,
    progress: Progress | None = None,
    dedupe: bool = False,
    statistics: bool = False,
    met: Any = None,
    level: LevelLike = DEFAULT_LEVEL,
) -> Analysis:
    """:func:`analyse` of files and folders on
    ``jobs`` processes (``None``: every core; one when an input is a stream),
    each evaluating with the net in use here; ``progress(done, total)`` is
    told as the files are done."""
    files = find_records([paths] if isinstance(paths, (str, Path)) else paths)
    judged = {"statistics": True, "met": met, "level": level} if statistics else {}
    parts = analyse_files(files, jobs, progress, rules=rules, luck=luck, net=net_in_use(), **judged)
    result = combine(parts, dedupe=dedupe, statistics=statistics, level=level)
    result.source = frames.Source(paths, rules, met, level, paths=True)  # (what to read again, to judge or study)
    return result


def rename_players(analysis: Analysis, names: PlayerNames) -> Analysis:
    """The analysis with each player's spellings merged into one name
    (see :class:`~tavlakit.collections.names.PlayerNames`), so that
    ``players_frame`` counts one person once."""
    plays, games = analysis.plays.copy(), analysis.games.copy()
    tables = {"plays": plays, "games": games}
    seen = [str(n) for name, table in tables.items() for c in NAME_COLUMNS[name] for n in table[c].dropna().unique()]
    merged = names.merge(seen)
    for name, table in tables.items():
        for column in NAME_COLUMNS[name]:
            table[column] = table[column].map(lambda n: merged.get(n, n), na_action="ignore").astype("string")
    return Analysis(plays, games, list(analysis.problems))


def duplicate_note(count: int) -> str:
    """The line a summary adds when it counted stored-twice matches once."""
    return _("{count} match(es) stored twice were counted once").format(count=count)


@dataclass
class Found:
    """The turns :func:`find_in_files` found, one dict each (the columns of
    :func:`~tavlakit.analysis.positions.find_plays`), and the inputs nothing could be read from."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    unread: list[Problem] = field(default_factory=list)


def find_in_files(
    files: Sequence[Path],
    position: str | Position,
    *,
    swapped: bool = False,
    rules: Rules | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Found:
    """Every turn of the record ``files`` (analysed on ``jobs`` processes,
    with the error of each play) where ``position`` stood before it
    (:func:`~tavlakit.analysis.positions.find_plays`), in the files' order."""
    analysis = analyse_paths(files, rules, luck=True, jobs=jobs, progress=progress)
    read = set(analysis.games["path"])
    unread = [p for p in analysis.problems if p.severity == "error" and p.file not in read]
    rows: list[dict[str, Any]] = json.loads(
        find_plays(analysis.plays, position, swapped=swapped).to_json(orient="records")
    )
    return Found(rows, unread)


__all__ = [
    "FileAnalysis",
    "Found",
    "analyse",
    "analyse_file",
    "analyse_paths",
    "assemble",
    "combine",
    "duplicate_note",
    "find_in_files",
    "is_paths",
    "relabel",
    "rename_players",
]
