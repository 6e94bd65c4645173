"""Problems found while reading or replaying a record, with stable codes.

>>> p = Problem("illegal-play", "error", "13/7 is blocked", file="m.mat", line=8, column=5)
>>> p.location()
'm.mat:8:5'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from .i18n import N_, _

Severity = Literal["error", "warning"]
#: The severities as the text output says them (JSON keeps "error", "warning").
SEVERITY_NAMES = {"error": N_("error"), "warning": N_("warning")}

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
    "points-capped": N_("points written capped at what the winner needed to win the match"),
    "after-end": N_("turns written after the game was already over"),
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


class ProblemError(ValueError):
    """Raised in strict mode at the first error; carries the :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
