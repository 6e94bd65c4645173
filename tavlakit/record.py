"""The one record model every format reads into and writes from.

Players are numbered 0 and 1: 0 is the left column of a Jellyfish
transcript and White (``PW``) in gnubg's SGF; 1 the right column, Black.
Moves are in the mover's own numbering (24..1, 25 = bar, 0 = off), as
written: a merged move such as ``24/13`` stays one :class:`Move`.

Fields that say where something was written (line, column, raw text) are
left out of equality, so a match read from two formats compares equal when
the games are the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from . import summary
from .play import Move, Play
from .problem import Problem
from .rules import PRESETS, Rules

TurnKind = Literal["roll", "double", "take", "drop", "beaver"]
#: For a roll: ``play`` (moves written, possibly none), ``cannot-move``
#: (written out as such), ``unknown`` (``???``), ``illegal`` (gnubg's
#: ``Illegal play (...)`` row).
RollStatus = Literal["play", "cannot-move", "unknown", "illegal"]


def _loc() -> int | None:
    return field(default=None, compare=False)  # type: ignore[return-value]


@dataclass
class Turn:
    """One entry of a game: a roll and its play, or a cube action."""

    player: int
    kind: TurnKind = "roll"
    dice: tuple[int, int] | None = None
    moves: tuple[Move, ...] = ()
    status: RollStatus = "play"
    cube: int | None = None
    comment: str | None = None
    number: int | None = _loc()
    line: int | None = _loc()
    column: int | None = _loc()
    text: str = field(default="", compare=False)
    extra: dict[str, list[str]] = field(default_factory=dict, compare=False)

    @property
    def play(self) -> Play:
        """The written moves as a :class:`Play`."""
        return Play(self.moves)


@dataclass
class Result:
    """How a game ended: who won, the points written, and whether by resignation."""

    winner: int
    points: int
    resigned: bool = False
    line: int | None = _loc()
    column: int | None = _loc()


@dataclass
class Game:
    """One game: the score before it, its turns and its result."""

    number: int
    score: tuple[int, int] = (0, 0)
    turns: list[Turn] = field(default_factory=list)
    result: Result | None = None
    crawford: bool | None = None
    start: str | None = None
    """Position ID of a set-up start, seen by the player who rolls first
    (``None``: the standard initial position)."""
    cube: int = 1
    """Cube value at the start (a set-up position may begin with it turned)."""
    cube_owner: int | None = None
    """Owner of the cube at the start (``None``: centred)."""
    comments: list[str] = field(default_factory=list)
    line: int | None = _loc()
    extra: dict[str, list[str]] = field(default_factory=dict, compare=False)
    problems: list[Problem] = field(default_factory=list, compare=False)
    """Problems found while reading this game."""

    def score_after(self) -> tuple[int, int]:
        """The score after this game (the score before plus its result's points)."""
        return summary.score_after(self)

    def __repr__(self) -> str:
        return summary.game_repr(self)

    def _repr_html_(self) -> str:
        return summary.game_html(self)


@dataclass
class Match:
    """A match (``length`` points; 0 = money session) or a single game."""

    players: tuple[str, str] = ("Player 1", "Player 2")
    length: int = 0
    games: list[Game] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    source: str | None = field(default=None, compare=False)
    problems: list[Problem] = field(default_factory=list, compare=False)
    """Problems found while reading the match outside any game (header, junk)."""

    @property
    def rules(self) -> Rules | None:
        """The rules the tags name, or ``None`` when they name none.

        ``Variation`` ``Tavla``/``Backgammon`` picks a preset; a ``Rules`` tag
        holds a preset name and/or ``option=value`` pairs; ``Crawford``,
        ``Jacoby`` and ``Beaver`` tags (``On``/``Off``) set those options.
        """
        return rules_from_tags(self.tags)

    def final_score(self) -> tuple[int, int]:
        """The score after the last game."""
        return summary.final_score(self)

    def __repr__(self) -> str:
        return summary.match_repr(self)

    def _repr_html_(self) -> str:
        return summary.match_html(self)


_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def _flag(text: str) -> bool:
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError(f"expected On or Off, not {text!r}")


def rules_from_tags(tags: dict[str, str]) -> Rules | None:
    """Rules named by a record's tags (see :attr:`Match.rules`).

    >>> rules_from_tags({"Variation": "Tavla"}).name
    'tavla'
    >>> rules_from_tags({"Rules": "tavla mars=outside-home"}).name
    'tavla-outside-home'
    """
    base: Rules | None = None
    variation = tags.get("Variation", "").strip().lower()
    if variation in PRESETS:
        base = PRESETS[variation]
    spec = tags.get("Rules")
    options: dict[str, object] = {}
    if spec:
        for word in spec.replace(",", " ").split():
            if "=" not in word:
                base = Rules.preset(word)
                continue
            key, value = word.split("=", 1)
            key = key.strip().replace("-", "_")
            if key not in Rules.__dataclass_fields__:
                raise ValueError(f"unknown rule option {key!r} in Rules tag")
            default = getattr(Rules(), key)
            options[key] = _flag(value) if isinstance(default, bool) else value.strip()
    for tag, key in (("Crawford", "crawford"), ("Jacoby", "jacoby"), ("Beaver", "beaver")):
        if tag in tags and key not in options and base is not None:
            options[key] = _flag(tags[tag])
    if base is None and not options:
        return None
    return (base or Rules()).replace(**options)


def rules_to_tags(rules: Rules) -> dict[str, str]:
    """Tags that :func:`rules_from_tags` reads back as ``rules``.

    >>> rules_to_tags(Rules.preset("tavla-outside-home"))
    {'Variation': 'Tavla', 'Rules': 'tavla-outside-home'}
    """
    base = PRESETS["backgammon"] if rules.cube else PRESETS["tavla"]
    tags = {"Variation": "Backgammon" if rules.cube else "Tavla"}
    if rules == base:
        return tags
    name = rules.name
    if name != "custom":
        tags["Rules"] = name
        return tags
    diffs = []
    for key in Rules.__dataclass_fields__:
        value = getattr(rules, key)
        if value != getattr(base, key):
            text = ("on" if value else "off") if isinstance(value, bool) else str(value)
            diffs.append(f"{key.replace('_', '-')}={text}")
    tags["Rules"] = " ".join(diffs)
    return tags
