"""One match's look-ahead on every core: the decision, not the game, as the unit of work.

At a level that looks ahead (world class) nearly all of a match's time is
the look-ahead: the 2-ply values of the plays gnubg's move filter keeps
and the 2-ply cube decisions, a few of them costing most (long contact
positions), so a game per process leaves processes idle at the end.
:func:`find_deep` first asks the match's judge what it will look into (a
pass at 0 ply only: :attr:`~tavlakit.evaluation.search.Search.planned`),
cuts the questions into runs of consecutive decisions, many more runs than
processes, answers the runs on the processes as they come free (each its
own look-ahead, its cache kept from run to run) and gives the answers to
the judge. A level whose move filters narrow the plays ply by ply
(grandmaster: 2 plies for 16 plays, then 3 for 4) asks again with those
answers, a round a ply of its filters; the judge then judges the match in
one pass as it would alone (finding there what no round asked for). A
value is the look-ahead's whatever else it looked into (the caches keep
values, not approximations), so the output is the same whatever ``-j``
says.
"""

from __future__ import annotations

from pathlib import Path

from ..collections.parallel import Progress, job_count, pmap
from ..engine.rules import Rules
from ..evaluation.levels import Level
from ..evaluation.net import use_net
from ..evaluation.search import Asked, PlaysAsked, Search
from ..formats import open_games
from ..record.match import Match
from ..replay.walker import default_rules
from .judge import Judge
from .statistics import Judging

#: Runs a process is given on average (the decisions' costs differ a hundredfold: runs as they come free).
RUNS_PER_PROCESS = 8

Found = list[float] | tuple[float, float | None, float]


def find_deep(
    path: Path,
    judging: Judging,
    jobs: int | None,
    progress: Progress | None = None,
    rules: Rules | None = None,
    met: str | None = None,
    net: str | None = None,
) -> None:
    """The look-ahead of the match of ``path`` (read under ``rules``, its
    own where None) found on ``jobs`` processes and given to the judge of
    ``judging`` that will judge it (``met``: the path of its match equity
    table, ``net``: its weights, as the workers make their judges).
    Nothing is found for a file that cannot be read or replayed: its
    analysis says why."""
    use_net(net)
    try:
        match, read = open_games(path)
        match.games = list(read)
        judge = judging.judge(default_rules(match, rules))
    except Exception:  # (the analysis of the file itself reports it)
        return
    # a round a ply of the level's filters, each asking what the answers of the one before leave to find (a
    # doubtful play gnubg judges deeper once a filter below the top stopped: in the judging pass itself)
    for _round in judging.level.steps:
        try:
            planned = plan(judge, match)
        except Exception:  # (the analysis of the file itself reports it)
            return
        if not planned:
            return
        runs = _runs(planned, job_count(jobs, len(planned)) * RUNS_PER_PROCESS)
        answers = pmap(_answer, runs, jobs, progress, rules=judge.rules, met=met, level=judging.level, net=net)
        for run, found in zip(runs, answers):
            for asked, value in zip(run, found):
                judge.search.deep.answer(asked, value)


def plan(judge: Judge, match: Match) -> list[Asked]:
    """What judging ``match`` asks of the look-ahead that it has not found
    yet (a pass at 0 ply)."""
    planned: list[Asked] = []
    judge.search.planned = planned
    try:
        for _judged in judge.judge(match):
            pass
    finally:
        judge.search.planned = None
    return planned


def _runs(planned: list[Asked], count: int) -> list[list[Asked]]:
    """The questions in ``count`` runs (or fewer) of consecutive ones of
    about the same number of positions to look into."""
    sizes = [len(asked.keys) if isinstance(asked, PlaysAsked) else 1 for asked in planned]
    share = max(sum(sizes) / max(count, 1), 1.0)
    runs: list[list[Asked]] = [[]]
    filled = 0.0
    for asked, size in zip(planned, sizes):
        if filled >= share:
            runs.append([])
            filled = 0.0
        runs[-1].append(asked)
        filled += size
    return [run for run in runs if run]


#: Each worker's judges, kept from run to run (their look-ahead's caches with them).
_judging: dict[tuple[str | None, Level, str | None], Judging] = {}


def _answer(run: list[Asked], rules: Rules, met: str | None, level: Level, net: str | None) -> list[Found]:
    """What the look-ahead finds for each question of ``run``, in a worker."""
    use_net(net)
    key = (met, level, net)
    judging = _judging.get(key)
    if judging is None:
        judging = _judging[key] = Judging(met, level)
    search: Search = judging.judge(rules).search
    found: list[Found] = []
    for asked in run:
        if isinstance(asked, PlaysAsked):
            found.append(search.deep_values(list(asked.keys), asked.state, asked.plies))
        else:
            found.append(search.deep_cube(asked.pos, asked.state, asked.plies))
    return found


__all__ = ["RUNS_PER_PROCESS", "find_deep", "plan"]
