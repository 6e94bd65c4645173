"""Many record files validated on every core, the same match found twice said once.

:func:`check_files` reads and replays each file in a worker process
(:func:`check_file`) and yields what each one holds wrong, in input order:
the file's own problems, then a ``duplicate-match`` note where the same
match (same dice, plays, cube and results) came before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from ..engine.rules import Rules
from ..formats import open_games
from ..record.problem import Problem, ProblemError, internal_problem, nothing_read
from ..replay.fingerprint import Fingerprinter, Twins, duplicate_problem
from ..replay.walker import default_rules, validate
from .parallel import Progress, jobs_for, pmap


@dataclass
class Checked:
    """What validating one file found (small: it travels between processes)."""

    problems: list[Problem] = field(default_factory=list)
    games: int = 0
    plays: int = 0
    _: KW_ONLY
    complete: bool = True
    """False when the file stopped early (unreadable, or ``strict`` at an error)."""
    fingerprint: str | None = None
    unreadable: bool = False
    """Nothing could be read from it (:func:`~tavlakit.record.problem.nothing_read`), or tavlakit failed on it."""


def check_file(path: Path, rules: Rules | None, *, strict: bool) -> Checked:
    """Validate one file; never raises for bad input (nor for a bug: that is
    an ``internal`` problem)."""
    try:
        match, games = open_games(path)
        prints = Fingerprinter(match)
        report = validate(match, default_rules(match, rules), strict=strict, games=games, seen=prints.add)
    except ProblemError as exc:  # strict, at the first error: the games and plays checked up to it
        return Checked(
            [exc.problem], exc.games, exc.plays, complete=False, unreadable=nothing_read(match.problems, exc.games)
        )
    except Exception as exc:  # a bug in tavlakit: say so, keep checking the other files
        return Checked([internal_problem(path, exc)], complete=False, unreadable=True)
    return Checked(
        report.problems,
        report.games,
        report.plays,
        fingerprint=prints.digest(),
        unreadable=nothing_read(match.problems, report.games),
    )


def check_files(
    files: Sequence[Path],
    rules: Rules | None = None,
    *,
    strict: bool = False,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Iterator[tuple[Path, Checked]]:
    """Each file and what validating it found, in input order, on ``jobs``
    processes (``None``: every core); a match seen before adds a
    ``duplicate-match`` note to its file's problems. ``strict``: stop
    after the first file that stopped at an error."""
    twins = Twins()
    for path, checked in zip(
        files, pmap(check_file, files, jobs_for(files, jobs), progress, rules=rules, strict=strict)
    ):
        earlier = twins.see(str(path), checked.fingerprint)
        if earlier is not None:
            checked.problems.append(duplicate_problem(str(path), earlier))
        yield path, checked
        if strict and not checked.complete:
            return


__all__ = ["Checked", "check_file", "check_files"]
