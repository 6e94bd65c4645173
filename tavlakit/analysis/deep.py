"""One match's look-ahead on every core: the decision, not the game, as the unit of work.

At a level that looks ahead (world class) nearly all of a match's time is
the look-ahead: the 2-ply values of the plays gnubg's move filter keeps
and the 2-ply cube decisions, a few of them costing most (long contact
positions), so a game per process leaves processes idle at the end.
:func:`find_deep` asks the match's judge what it will look into (a pass
at 0 ply only: :attr:`~tavlakit.evaluation.search.Search.planned`), cuts
the questions into runs of consecutive decisions as they are found, many
more runs than processes, hands each run to the processes as soon as it is
cut (the pass goes on beside them; they take the runs as they come free,
each its own look-ahead, its cache kept from run to run) and gives the
answers to the judge. A level whose move filters narrow the plays ply by ply
(grandmaster: 2 plies for 16 plays, then 3 for 4) asks again with those
answers, a round a ply of its filters; the judge then judges the match in
one pass as it would alone (finding there what no round asked for), while
the last round's answers still come: it takes each as it needs it. A
value is the look-ahead's whatever else it looked into (the caches keep
values, not approximations), so the output is the same whatever ``-j``
says.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..collections.parallel import Progress, Workers, job_count
from ..engine.rules import Rules
from ..evaluation.levels import Level
from ..evaluation.net import use_net
from ..evaluation.search import Asked, Found, PlaysAsked, Search
from ..formats import open_games
from ..record.match import Match
from ..replay.walker import default_rules
from .judge import Judge
from .statistics import Judging

#: Runs a process is given on average (the decisions' costs differ a hundredfold: runs as they come free).
RUNS_PER_PROCESS = 8


@contextmanager
def find_deep(
    path: Path,
    judging: Judging,
    jobs: int | None,
    progress: Progress | None = None,
    rules: Rules | None = None,
    met: str | None = None,
    net: str | None = None,
) -> Iterator[None]:
    """The look-ahead of the match of ``path`` (read under ``rules``, its
    own where None) found on ``jobs`` processes for the judge of
    ``judging``, that judges it in the ``with`` block: the last round's
    answers are given to it as they come (it waits for one it needs:
    :meth:`~tavlakit.evaluation.search.Deep.take`), all of them by the
    block's end (``met``: the path of its match equity table, ``net``:
    its weights, as the workers make their judges). Nothing is found for
    a file that cannot be read or replayed: its analysis says why."""
    use_net(net)
    try:
        match, read = open_games(path)
        match.games = list(read)
        judge = judging.judge(default_rules(match, rules))
    except Exception:  # (the analysis of the file itself reports it)
        yield
        return
    deep, rounds = judge.search.deep, len(judging.level.steps)
    setting = {"rules": judge.rules, "met": met, "level": judging.level, "net": net}
    # a round a ply of the level's filters, each asking what the answers of the one before leave to find (a
    # doubtful play gnubg judges deeper once a filter below the top stopped: in the judging pass itself);
    # the processes kept from round to round, their caches with them
    with Workers(job_count(jobs, sum(len(game.turns) for game in match.games))) as workers:
        for round_ in range(rounds):
            runs = plan_runs(judge, match, workers.count * RUNS_PER_PROCESS)
            try:
                answered = workers.map(_answer, runs, progress, **setting)
            except Exception:  # (the analysis of the file itself reports it)
                break
            deep.coming = (pair for run, found in answered for pair in zip(run, found))
            if round_ < rounds - 1 and not deep.take_all():
                break
        try:
            yield
            deep.take_all()
        finally:
            deep.coming = None


def plan(judge: Judge, match: Match) -> list[Asked]:
    """What judging ``match`` asks of the look-ahead that it has not found
    yet (a pass at 0 ply)."""
    return [asked for run in plan_runs(judge, match, 1) for asked in run]


def plan_runs(judge: Judge, match: Match, count: int) -> Iterator[list[Asked]]:
    """:func:`plan` in about ``count`` runs of consecutive questions of
    about the same number of positions to look into, each run given as
    soon as it is cut (the pass goes on while it is answered): a run's
    share of the positions guessed from the turns judged so far."""
    turns = max(sum(len(game.turns) for game in match.games), 1)
    planned: list[Asked] = []
    judge.search.planned = planned
    judged = positions = waiting = cut = 0  # turns judged, positions asked for, of them not given yet; given
    try:
        for _judged in judge.judge(match):
            judged += 1
            new = sum(_size(asked) for asked in planned[cut:]) - waiting
            positions, waiting = positions + new, waiting + new
            if waiting and waiting >= positions * turns / judged / count:
                yield planned[cut:]
                cut, waiting = len(planned), 0
    finally:
        judge.search.planned = None
    if planned[cut:]:
        yield planned[cut:]


def _size(asked: Asked) -> int:
    """The positions a question looks into."""
    return len(asked.keys) if isinstance(asked, PlaysAsked) else 1


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


__all__ = ["RUNS_PER_PROCESS", "find_deep", "plan", "plan_runs"]
