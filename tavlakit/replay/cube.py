"""The doubling cube as a state machine: value, owner, a pending double.

Each action returns what is wrong with it (:class:`~tavlakit.record.problem.Finding`
objects, empty when nothing is) and moves the state on anyway, so a record
with a wrong cube action can still be followed.

>>> from tavlakit.engine.rules import PRESETS
>>> cube = Cube()
>>> cube.double(0, on_roll=0, rules=PRESETS["backgammon"], crawford=False, names=("A", "B"))
[]
>>> cube.answer("take", 1, rules=PRESETS["backgammon"]), cube.value, cube.owner
([], 2, 1)
>>> [f.code for f in cube.double(0, 0, PRESETS["backgammon"], crawford=False, names=("A", "B"))]
['cube-not-allowed']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.rules import Rules
from ..i18n import _
from ..record.problem import Finding

Answer = str  # "take", "drop" or "beaver"


@dataclass
class Cube:
    """The cube of one game."""

    value: int = 1
    owner: int | None = None
    """Who owns it (``None``: centred)."""
    offered: int | None = None
    """The doubler while a double waits for an answer."""
    dropped_by: int | None = None
    """Who dropped a double (the game is over)."""

    def double(
        self,
        player: int,
        on_roll: int | None,
        rules: Rules,
        *,
        crawford: bool,
        names: tuple[str, str],
        written: int | None = None,
    ) -> list[Finding]:
        """``player`` doubles (``written``: the cube value the record gives)."""
        found = []
        fault = None
        if not rules.cube:
            fault = _("a double, but the rules have no cube")
        elif crawford:
            found.append(Finding("crawford-double", "error", _("a double in the Crawford game")))
        elif self.owner is not None and self.owner != player:
            fault = _("{player} doubles without owning the cube").format(player=names[player])
        elif self.offered is not None:
            fault = _("a double while another double is pending")
        elif on_roll is not None and player != on_roll:
            fault = _("{player} doubles when not about to roll").format(player=names[player])
        if fault:
            found.append(Finding("cube-not-allowed", "error", fault))
        new = self.value * 2
        if written is not None and written != new:
            found.append(
                Finding(
                    "cube-value",
                    "warning",
                    _("Doubles => {written}, but the cube was {cube}; expected {expected}").format(
                        written=written, cube=self.value, expected=new
                    ),
                )
            )
        self.offered = player
        return found

    def answer(self, kind: Answer, player: int, rules: Rules, written: int | None = None) -> list[Finding]:
        """``player`` takes, drops or beavers the pending double."""
        if self.offered is None or self.offered == player:
            if kind == "drop":
                self.dropped_by = player
            return [
                Finding("cube-not-allowed", "error", _("'{action}' without a double to answer").format(action=kind))
            ]
        self.offered = None
        if kind == "drop":
            self.dropped_by = player
            return []
        found: list[Finding] = []
        self.owner = player
        if kind == "take":
            self.value *= 2
            return found
        if not rules.beaver:
            found.append(Finding("cube-not-allowed", "error", _("a beaver, but the rules do not allow beavers")))
        self.value *= 4
        if written is not None and written != self.value:
            found.append(
                Finding(
                    "cube-value",
                    "warning",
                    _("Beavers => {written}; expected {expected}").format(written=written, expected=self.value),
                )
            )
        return found

    def roll(self) -> list[Finding]:
        """A roll: a pending double is dropped from the state (it was never answered)."""
        if self.offered is None:
            return []
        self.offered = None
        return [Finding("cube-not-allowed", "error", _("a roll while a double waits for an answer"))]

    def most(self) -> int:
        """The highest value the game can be played for now (a pending double counted)."""
        return self.value * (2 if self.offered is not None else 1)
