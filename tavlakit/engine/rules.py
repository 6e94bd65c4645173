"""Rule variants of Tavla and backgammon, as options on a frozen dataclass.

Every option names the seed text it comes from: 000, 001, 002 and 003 are
the four Turkish source documents (``docs/rules.md`` says what each option
means and where the code applies it).

>>> Rules.preset("tavla").cube
False
>>> Rules.preset("backgammon").replace(mars="outside-home").mars
'outside-home'
"""

from __future__ import annotations

import dataclasses
from dataclasses import KW_ONLY, dataclass
from typing import Literal

from ..i18n import _

Opening = Literal["reroll", "use-opening-dice"]
Mars = Literal["none-borne-off", "outside-home"]
ResultKind = Literal["single", "mars", "backgammon"]

OPENINGS: tuple[str, ...] = ("reroll", "use-opening-dice")
MARS_KINDS: tuple[str, ...] = ("none-borne-off", "outside-home")
RESULT_KINDS: tuple[str, ...] = ("single", "mars", "backgammon")
RESULT_MULTIPLIER = {"single": 1, "mars": 2, "backgammon": 3}


@dataclass(frozen=True)
class Rules:
    """The rules a game is played under: one field per option, each naming
    the Turkish source text (000-003, ``docs/rules.md``) it comes from."""

    opening: Opening = "reroll"
    """``"reroll"`` (001, Turkish custom): after the opening throw the starter
    throws both dice again, so the first play may be a double.
    ``"use-opening-dice"`` (001, 003, international): the starter plays the
    two opening dice, never a double."""
    _: KW_ONLY
    larger_die: bool = True
    """When either die alone can be played but not both, the larger must be
    played (001). ``False`` follows 003: any may be."""
    hit_and_run: bool = True
    """A checker that hits in the mover's own home may move on in the same
    turn (vur-kaç; 000 says nothing forbids it)."""
    mars: Mars = "none-borne-off"
    """When a loss is a mars (gammon): ``"none-borne-off"`` (001, 002, 003:
    the loser has borne off nothing) or ``"outside-home"`` (000: the loser
    still has a checker outside its home, bar included)."""
    backgammon: bool = False
    """A mars is worth 3 when the loser also has a checker on the bar or in
    the winner's home (003; international only)."""
    cube: bool = False
    """The doubling cube is in play (003)."""
    jacoby: bool = False
    """In money play a mars or backgammon counts only after the cube was
    turned (003). A money session's record says whether it is played (else
    gnubg's default, on: :mod:`tavlakit.replay.jacoby`)."""
    beaver: bool = False
    """The taker may redouble at once and keep the cube (003)."""
    automatic_doubles: bool = False
    """Equal opening dice double the stake (003)."""
    crawford: bool = False
    """No doubling in the game after a side first reaches match point minus
    one (003)."""

    def __post_init__(self) -> None:
        if self.opening not in OPENINGS:
            raise ValueError(f"opening must be one of {OPENINGS}, not {self.opening!r}")
        if self.mars not in MARS_KINDS:
            raise ValueError(f"mars must be one of {MARS_KINDS}, not {self.mars!r}")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named rule set: ``tavla``, ``tavla-outside-home`` or ``backgammon``."""
        try:
            return PRESETS[name.lower()]
        except KeyError:
            raise ValueError(
                _("unknown rules {name!r}; expected one of {presets}").format(name=name, presets=", ".join(PRESETS))
            ) from None

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed (``Rules.replace(cube=True)``)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def name(self) -> str:
        """The preset this equals, or ``"custom"``. The Jacoby rule, a money
        session's own (a match never plays it), does not count: backgammon
        with it is backgammon.

        >>> Rules.preset("backgammon").replace(jacoby=True).name
        'backgammon'
        """
        plain = self if not self.jacoby else dataclasses.replace(self, jacoby=False)
        for key, value in PRESETS.items():
            if value == plain:
                return key
        return "custom"

    def points(self, kind: ResultKind, cube: int = 1, *, money: bool = False) -> int:
        """Points a game ending in ``kind`` is worth at cube value ``cube``.

        Under Jacoby (money play only) a mars or backgammon counts single
        while the cube is still at 1.

        >>> Rules.preset("backgammon").points("backgammon", cube=2)
        6
        >>> Rules.preset("backgammon").replace(jacoby=True).points("mars", money=True)
        1
        """
        if kind == "backgammon" and not self.backgammon:
            kind = "mars"
        if self.jacoby and money and cube == 1:
            kind = "single"
        return RESULT_MULTIPLIER[kind] * cube


def opening_rolls(rules: Rules) -> list[tuple[int, int]]:
    """The throws the first play of a game can use, each equally likely.

    Under ``use-opening-dice`` the starter plays the two opening dice, which
    differ (ties are thrown again): the 30 ordered non-doubles. Under
    ``reroll`` the starter throws both dice again: all 36.

    >>> len(opening_rolls(Rules.preset("backgammon"))), len(opening_rolls(Rules()))
    (30, 36)
    """
    return [(a, b) for a in range(1, 7) for b in range(1, 7) if a != b or rules.opening == "reroll"]


PRESETS: dict[str, Rules] = {
    "tavla": Rules(),
    "tavla-outside-home": Rules(mars="outside-home"),
    "backgammon": Rules(opening="use-opening-dice", backgammon=True, cube=True, crawford=True),
}

#: The rules used when nothing names any: backgammon, as untagged transcripts
#: (Jellyfish, gnubg, FIBS, Galaxy...) are. Tavla records say so in a tag.
DEFAULT_RULES = PRESETS["backgammon"]
