"""Problems found while reading or replaying a record, with stable codes.

>>> p = Problem("illegal-play", "error", "13/7 is blocked", file="m.mat", line=8, column=5)
>>> p.location()
'm.mat:8:5'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from . import summary

Severity = Literal["error", "warning", "info"]

#: Every problem code, with what it means. Codes are stable: scripts rely on them.
CODES: dict[str, str] = {
    # reading
    "syntax": "a line or token the reader does not understand",
    "encoding": "bytes that are not valid in the file's encoding",
    "unreadable": "the file cannot be opened or read",
    "empty": "the file holds no match",
    "lost-on-write": "a writer could not hold some information",
    "unsupported": "something the format holds but the record model does not (kept raw where possible)",
    "internal": "tavlakit failed on this input: a bug, please report it",
    # replaying checker plays
    "illegal-play": "a written play that no legal play matches",
    "must-enter-first": "a checker moves while the side has checkers on the bar",
    "bear-off-outside": "bearing off while checkers are outside the home board",
    "not-all-dice-used": "fewer dice played than the position allows",
    "larger-die": "the smaller die played where only the larger was allowed",
    "missing-play": "no play written although a legal play existed",
    "hit-mark": "a '*' missing on a hit or written where nothing was hit",
    "unknown-play": "the play is not known ('???', 'Illegal play ...')",
    "bad-dice": "dice that are not two numbers 1-6",
    "wrong-player": "a turn by the side not on roll",
    "opening-double": "a double as the first roll where the opening dice are played",
    # cube
    "cube-not-allowed": "a cube action where the rules or the state forbid it",
    "crawford-double": "a double in the Crawford game",
    "cube-value": "a cube value that does not follow the previous one",
    # results and scores
    "result-mismatch": "the written result does not follow from the board and cube",
    "missing-result": "a game without a result",
    "score-mismatch": "a score line that does not follow from earlier results",
    "match-over": "games after the match was won",
    "absurd-points": "a point total no game can produce",
    "points-capped": "points written capped at what the winner needed to win the match",
    "after-end": "turns written after the game was already over",
    # collections
    "duplicate-match": "the same match (dice, plays, cube, results) as another file of the collection",
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
        return f"{self.location()}: {self.severity} {self.code}: {self.message}"

    def replace(self, **changes: Any) -> Problem:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``tavlakit validate --json``."""
        out = dataclasses.asdict(self)
        out["expected"] = list(self.expected)
        return out

    def __repr__(self) -> str:
        return summary.problem_repr(self)

    def _repr_html_(self) -> str:
        return summary.problem_html(self)


class ProblemError(ValueError):
    """Raised in strict mode at the first error; carries the :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
