"""Problems found while reading or replaying a record, with stable codes.

>>> p = Problem("illegal-play", "error", "13/7 is blocked", file="m.mat", line=8, column=5)
>>> p.location()
'm.mat:8:5'

Readers and the replayer create problems through a :class:`Reporter`, which
knows where it is (file, game, move, line...) and whether to stop at the
first error:

>>> found: list[Problem] = []
>>> report = Reporter(found, file="m.mat").at(game=2)
>>> report.warning("hit-mark", "hit mark '*' missing on 5", line=9, move=4)
>>> print(found[0])
m.mat:9: warning hit-mark: hit mark '*' missing on 5
>>> found[0].game, found[0].move
(2, 4)
>>> Reporter(found, strict=True).error("bad-dice", "dice 72")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
tavlakit.record.problem.ProblemError: <input>: error bad-dice: dice 72
"""

from __future__ import annotations

import dataclasses
import html
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple

from ..i18n import N_, _, ngettext

Severity = Literal["error", "warning", "info"]
"""``error``: the record is wrong; ``warning``: odd but readable;
``info``: a note (files that are not records, a match stored twice)."""
#: The severities as the text output says them (JSON keeps "error", "warning", "info").
SEVERITY_NAMES = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}

#: Every problem code, with what it means (translated with ``_()`` where shown).
#: Codes are stable: scripts rely on them.
CODES: dict[str, str] = {
    # reading
    "syntax": N_("a line or token the reader does not understand"),
    "encoding": N_("bytes that are not valid in the file's encoding"),
    "unreadable": N_("the file cannot be opened or read"),
    "empty": N_("the file holds no match"),
    "lost-on-write": N_("a writer could not hold some information"),
    "unsupported": N_("something the format holds but the record model does not (kept raw where possible)"),
    "internal": N_("tavlakit failed on this input: a bug, please report it"),
    "bad-tag": N_("a tag whose value cannot be read (its default is used)"),
    "missing-length": N_("a transcript with games but no 'N point match' line (read as a money session)"),
    "not-a-record": N_("a file of a kind tavlakit does not read"),
    "position": N_("an analysed position (XG, BGBlitz or gnubg text), not a match"),
    "position-mismatch": N_("a position text whose board, XGID and Position ID do not agree"),
    # replaying checker plays
    "illegal-play": N_("a written play that no legal play matches"),
    "must-enter-first": N_("a checker moves while the side has checkers on the bar"),
    "bear-off-outside": N_("bearing off while checkers are outside the home board"),
    "not-all-dice-used": N_("fewer dice played than the position allows"),
    "larger-die": N_("the smaller die played where only the larger was allowed"),
    "missing-play": N_("no play written although a legal play existed"),
    "hit-mark": N_("a '*' missing on a hit or written where nothing was hit"),
    "unknown-play": N_("the play is not known ('???', 'Illegal play ...')"),
    "bad-dice": N_("dice that are not two numbers 1-6"),
    "wrong-player": N_("a turn by the side not on roll"),
    "opening-double": N_("a double as the first roll where the opening dice are played"),
    # cube
    "cube-not-allowed": N_("a cube action where the rules or the state forbid it"),
    "crawford-double": N_("a double in the Crawford game"),
    "cube-value": N_("a cube value that does not follow the previous one"),
    # results and scores
    "result-mismatch": N_("the written result does not follow from the board and cube"),
    "missing-result": N_("a game without a result"),
    "score-mismatch": N_("a score line that does not follow from earlier results"),
    "match-over": N_("games after the match was won"),
    "absurd-points": N_("a point total no game can produce"),
    # a store of analyses (tavlakit store check)
    "damaged-partition": N_("a file of a store that cannot be read whole: analyse its record file again"),
    "orphaned-partition": N_("a file of a store that its manifest does not name (left by a run that did not end)"),
    "mixed-levels": N_("a store whose files are judged at different analysis levels (their statistics do not compare)"),
    "absurd-number": N_("a match length, score, game number or point total no match can have (not analysed)"),
    "points-capped": N_("points written capped at what the winner needed to win the match"),
    "forfeit": N_("a match forfeited: the last game's points are what the winner needed (Backgammon Galaxy)"),
    "truncated": N_("the file ends inside a game (cut short)"),
    "after-end": N_("turns written after the game was already over"),
    # collections
    "duplicate-match": N_("the same match (dice, plays, cube, results) as another file of the collection"),
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a record, located as precisely as known."""

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    game: int | None = None
    move: int | None = None
    player: str | None = None
    position_id: str | None = None
    expected: tuple[str, ...] = field(default=())

    def location(self) -> str:
        """``file:line:col`` with what is known."""
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.location()}: {_(SEVERITY_NAMES[self.severity])} {self.code}: {self.message}"

    def replace(self, **changes: Any) -> Problem:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``tavlakit validate --json``."""
        out = dataclasses.asdict(self)
        out["expected"] = list(self.expected)
        return out

    def __repr__(self) -> str:
        return f"<Problem {self.location()} {self.severity} {self.code}: {self.message!r}>"

    def _repr_html_(self) -> str:
        return problems_table([self])


def internal_problem(path: str | Path, exc: Exception) -> Problem:
    """A located report of a failure inside tavlakit itself."""
    return Problem(
        "internal",
        "error",
        _("tavlakit failed on this file ({error}); this is a bug, please report it with the file").format(
            error=f"{type(exc).__name__}: {exc}"
        ),
        file=str(path),
    )


def nothing_read(problems: Sequence[Problem], games: int) -> bool:
    """Whether nothing could be read from an input: no game, and an error
    about the input itself (missing, unreadable, binary, empty, notes, a
    JSON that is not a match). Such an input is never converted or shown,
    and makes a command's exit status 2."""
    return not games and any(p.severity == "error" for p in problems)


class Finding(NamedTuple):
    """What an engine-level judge found, before a :class:`Reporter` locates it."""

    code: str
    severity: Severity
    message: str


class ProblemError(ValueError):
    """Raised in strict mode at the first error; carries the :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
        self.games = 0
        """The games checked when it stopped, the one it stopped in included (the replay counts them)."""
        self.plays = 0
        """The plays checked when it stopped, the one at fault included."""


#: The fields of a :class:`Problem` that say where it is.
WHERE = ("file", "line", "column", "game", "move", "player", "position_id", "expected")


class Reporter:
    """The one way to create problems: located, collected, strict or lenient.

    A reporter appends each problem to ``problems`` (a list shared with its
    children) with the location it carries; keyword arguments of a call
    (``line=``, ``move=``, ``expected=``...; any field of :class:`Problem`)
    override it for that problem. With ``strict`` the first error raises
    :class:`ProblemError` (after it was collected).
    """

    __slots__ = ("problems", "strict", "where")

    def __init__(self, problems: list[Problem] | None = None, *, strict: bool = False, **where: Any) -> None:
        self.problems: list[Problem] = [] if problems is None else problems
        self.strict = strict
        self.where: dict[str, Any] = _checked(where)

    def at(self, **where: Any) -> Reporter:
        """A child with more context (``at(game=3)``), collecting into the same list."""
        child = Reporter(self.problems, strict=self.strict)
        child.where = {**self.where, **_checked(where)}
        return child

    def report(self, code: str, severity: Severity, message: str, **where: Any) -> Problem:
        """Create, collect and return a problem (raising in strict mode if it is an error)."""
        if code not in CODES:
            raise ValueError(f"unknown problem code {code!r}")
        fields = {**self.where, **where} if where else self.where
        if "expected" in fields:
            fields = {**fields, "expected": tuple(fields["expected"])}
        problem = Problem(code, severity, message, **fields)
        self.problems.append(problem)
        if self.strict and severity == "error":
            raise ProblemError(problem)
        return problem

    def error(self, code: str, message: str, **where: Any) -> None:
        """Report an error."""
        self.report(code, "error", message, **where)

    def warning(self, code: str, message: str, **where: Any) -> None:
        """Report a warning."""
        self.report(code, "warning", message, **where)

    def info(self, code: str, message: str, **where: Any) -> None:
        """Report a note."""
        self.report(code, "info", message, **where)

    def emit(self, finding: Finding, **where: Any) -> Problem:
        """Report what a judge found, located here (and by ``where``)."""
        return self.report(finding.code, finding.severity, finding.message, **where)

    def take(self, problems: list[Problem]) -> None:
        """Collect problems made elsewhere (raising at an error in strict mode)."""
        for problem in problems:
            self.problems.append(problem)
            if self.strict and problem.severity == "error":
                raise ProblemError(problem)


def _checked(where: dict[str, Any]) -> dict[str, Any]:
    unknown = set(where) - set(WHERE)
    if unknown:
        raise TypeError(f"a problem has no field {', '.join(sorted(unknown))}")
    return where


# --- faces in a notebook (the record's and the report's tables use these) -----

_STYLE = ("border-collapse:collapse;font-size:13px", "padding:2px 8px;border:1px solid #ccc;text-align:left")


def html_table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A small HTML table; every cell is escaped here."""
    cell = _STYLE[1]
    out = [f'<table style="{_STYLE[0]}"><thead><tr>']
    out.extend(f'<th style="{cell}">{html.escape(h)}</th>' for h in head)
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f'<td style="{cell}">{html.escape(str(v))}</td>' for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def counts_text(problems: Iterable[Problem]) -> str:
    """``2 errors, 1 warning`` (and notes; empty when none)."""
    found = Counter(p.severity for p in problems)
    parts = []
    if found["error"]:
        parts.append(ngettext("{n} error", "{n} errors", found["error"]).format(n=found["error"]))
    if found["warning"]:
        parts.append(ngettext("{n} warning", "{n} warnings", found["warning"]).format(n=found["warning"]))
    if found["info"]:
        parts.append(ngettext("{n} note", "{n} notes", found["info"]).format(n=found["info"]))
    return ", ".join(parts)


def worst(problems: Iterable[Problem]) -> str | None:
    """The gravest severity among ``problems`` (``error``, ``warning``, ``info``), ``None`` when none."""
    found = {p.severity for p in problems}
    return next((s for s in ("error", "warning", "info") if s in found), None)


def problems_table(problems: Sequence[Problem]) -> str:
    """The problems as an HTML table: where, game, move, severity, code, message."""
    head = [_("where"), _("game"), _("move"), _("severity"), _("code"), _("message")]
    return html_table(
        head, [(p.location(), p.game or "", p.move or "", p.severity, p.code, p.message) for p in problems]
    )
