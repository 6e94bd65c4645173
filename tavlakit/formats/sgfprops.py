"""GNU Backgammon's SGF properties (``GM[6]``): how each one's values are
read and written.

Each :class:`Value` reads a property's raw values into a Python value
(``ValueError`` with a message when it cannot) and writes that value back,
so ``write(read(values)) == values`` for what gnubg writes. Points are
letters in White's numbering: White's point ``p`` is ``'a' + p - 1``,
Black's ``'x' - (p - 1)``; ``y`` is the bar and ``z`` off.

>>> PROPERTIES["W"].read(["31fehe"])
Roll(dice=(3, 1), moves=(Move(src=6, dst=5, hit=False), Move(src=8, dst=5, hit=False)))
>>> PROPERTIES["B"].write(Roll((6, 4), (Move(24, 18), Move(18, 14))))
['64aggk']
>>> PROPERTIES["RE"].read(["B+2R"]), PROPERTIES["MI"].read(["length:7", "game:0"])
(Outcome(winner=1, points=2, resigned=True, said=True), [('length', 7), ('game', 0)])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from ..engine.play import BAR, OFF, Move
from ..i18n import _

__all__ = ["PROPERTIES", "Action", "Outcome", "Roll", "Value", "letter_point", "point_letter"]

T = TypeVar("T")


def point_letter(point: int, player: int) -> str:
    """The SGF letter of ``point`` (mover's numbering; 25 bar, 0 off) for ``player``."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    if not 1 <= point <= 24:
        raise ValueError(_("point {point} is not 0-25").format(point=point))
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


def letter_point(letter: str, player: int) -> int:
    """The point (mover's numbering; 25 bar, 0 off) of an SGF letter for ``player``."""
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    if not "a" <= letter <= "x":
        raise ValueError(_("{letter!r} is not an SGF point letter a-z").format(letter=letter))
    return ord(letter) - ord("a") + 1 if player == 0 else ord("x") - ord(letter) + 1


@dataclass(frozen=True)
class Value(Generic[T]):
    """How one property's values are read and written."""

    read: Callable[[list[str]], T]
    write: Callable[[T], list[str]]


class Roll(NamedTuple):
    """A move property with dice: the moves made (none: a dance)."""

    dice: tuple[int, int]
    moves: tuple[Move, ...]


#: A move property: a :class:`Roll`, or a word: ``double``, ``take``,
#: ``drop``, ``beaver``, ``resign:N``, ``accept``, ``reject``.
Action = Roll | str

_ROLL = re.compile(r"([1-6])([1-6])((?:[a-z][a-z])*)")
_WORDS = ("double", "take", "drop", "beaver", "accept", "reject")


def _move_value(player: int) -> Value[Action]:
    def read(values: list[str]) -> Action:
        value = values[0].strip()
        if value in _WORDS or value.startswith("resign"):
            return value
        found = _ROLL.fullmatch(value)
        if not found:
            raise ValueError(_("not a move (dice and point letters), double, take or drop"))
        letters = found[3]
        moves = []
        for i in range(0, len(letters), 2):
            src, dst = letter_point(letters[i], player), letter_point(letters[i + 1], player)
            if not 0 <= dst < src <= 25 or src == OFF or dst == BAR:
                raise ValueError(_("{pair} is not a move from a point to a lower one").format(pair=letters[i : i + 2]))
            moves.append(Move(src, dst))
        return Roll((int(found[1]), int(found[2])), tuple(moves))

    def write(action: Action) -> list[str]:
        if isinstance(action, str):
            return [action]
        letters = "".join(point_letter(m.src, player) + point_letter(m.dst, player) for m in action.moves)
        return [f"{action.dice[0]}{action.dice[1]}{letters}"]

    return Value(read, write)


def _read_dice(values: list[str]) -> tuple[int, int]:
    value = values[0].strip()
    if not re.fullmatch(r"[1-6][1-6]", value):
        raise ValueError(_("not two dice 1-6"))
    return int(value[0]), int(value[1])


def _read_points(values: list[str]) -> list[str]:
    """Point letters of a list of values, ranges ``a:g`` expanded."""
    out: list[str] = []
    for value in values:
        low, sep, high = value.strip().partition(":")
        high = high if sep else low
        if not (len(low) == len(high) == 1 and "a" <= low <= "z" and "a" <= high <= "z" and low <= high):
            raise ValueError(_("{value!r} is not a point or range of points a-z").format(value=value))
        out.extend(chr(c) for c in range(ord(low), ord(high) + 1))
    return out


def _read_color(values: list[str]) -> int:
    side = values[0].strip()[:1].upper()
    if side not in ("W", "B"):
        raise ValueError(_("not W or B"))
    return "WB".index(side)


def _read_number(values: list[str]) -> int:
    value = values[0].strip()
    if not value.isdigit():
        raise ValueError(_("{value!r} is not a number").format(value=value))
    return int(value)


_OWNERS: dict[str, int | None] = {"c": None, "w": 0, "b": 1}


def _read_owner(values: list[str]) -> int | None:
    value = values[0].strip().lower()
    if value not in _OWNERS:
        raise ValueError(_("not c, w or b"))
    return _OWNERS[value]


class Outcome(NamedTuple):
    """``RE``: who won, the points, by resignation, and whether the points were written."""

    winner: int
    points: int
    resigned: bool
    said: bool = True


def _read_result(values: list[str]) -> Outcome:
    value = values[0].strip()
    found = re.fullmatch(r"([WBwb])\+(\d*)((?:R|Resign)?)", value, re.IGNORECASE)
    if not found:
        raise ValueError(_("not W+n or B+n; kept raw"))
    return Outcome("WB".index(found[1].upper()), int(found[2] or 1), bool(found[3]), bool(found[2]))


def _write_result(outcome: Outcome) -> list[str]:
    return [f"{'WB'[outcome.winner]}+{outcome.points}{'R' if outcome.resigned else ''}"]


def _read_info(values: list[str]) -> list[tuple[str, int | str]]:
    """``MI``'s ``key:value`` pairs; the four gnubg writes are numbers."""
    out: list[tuple[str, int | str]] = []
    for value in values:
        key, _sep, text = value.partition(":")
        if key in ("length", "game", "ws", "bs"):
            try:
                out.append((key, int(text)))
            except ValueError:
                raise ValueError(_("{number!r} is not a number").format(number=text)) from None
        else:
            out.append((key, text))
    return out


def _read_pairs(values: list[str]) -> list[tuple[str, str]]:
    """``TK``'s ``Key=Value`` pairs."""
    return [(key, value) for key, _sep, value in (text.partition("=") for text in values)]


#: ``W`` and ``B``: player 0's and player 1's moves.
MOVES = (_move_value(0), _move_value(1))
DICE: Value[tuple[int, int]] = Value(_read_dice, lambda dice: [f"{dice[0]}{dice[1]}"])
#: ``AE``, ``AW``, ``AB``: point letters (ranges expanded).
POINTS: Value[list[str]] = Value(_read_points, list)
#: ``PL``: the player on roll.
COLOR: Value[int] = Value(_read_color, lambda player: ["WB"[player]])
#: ``CV``: the cube's value.
NUMBER: Value[int] = Value(_read_number, lambda value: [str(value)])
#: ``CP``: the cube's owner (``None``: centred).
OWNER: Value[int | None] = Value(_read_owner, lambda owner: ["c" if owner is None else "wb"[owner]])
RESULT: Value[Outcome] = Value(_read_result, _write_result)
#: ``MI``: match information.
INFO: Value[list[tuple[str, int | str]]] = Value(_read_info, lambda pairs: [f"{k}:{v}" for k, v in pairs])
#: ``RU``: rule words.
RULES: Value[list[str]] = Value(
    lambda values: [w for w in values[0].split(":") if w], lambda words: [":".join(words)] if words else []
)
#: ``TK``: tavlakit's own ``Key=Value`` tags.
PAIRS: Value[list[tuple[str, str]]] = Value(_read_pairs, lambda pairs: [f"{k}={v}" for k, v in pairs])

#: The properties whose values tavlakit reads; any other is kept as raw text.
PROPERTIES: dict[str, Value[Any]] = {
    "W": MOVES[0],
    "B": MOVES[1],
    "DI": DICE,
    "AE": POINTS,
    "AW": POINTS,
    "AB": POINTS,
    "PL": COLOR,
    "CV": NUMBER,
    "CP": OWNER,
    "RE": RESULT,
    "MI": INFO,
    "RU": RULES,
    "TK": PAIRS,
}
