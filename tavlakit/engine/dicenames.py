"""The Tavla names of the dice rolls (seed 001): "şeş beş" is 6-5.

The dice are said with the Persian numbers yek 1, dü 2, se 3, cihar 4,
penç or beş 5, şeş 6, the larger first; the doubles have names of their own.

>>> dice_name((6, 5)), dice_name((3, 5)), dice_name((6, 6))
('şeş beş', 'penç ü se', 'düşeş')
>>> parse_dice("DÜŞEŞ"), parse_dice("ses bes"), parse_dice("Penç-ü-se")
((6, 6), (6, 5), (5, 3))

Where the seed is silent, the default follows the seed's own examples:

* five: "penç" when 5 is the larger die ("penç ü se"), "beş" when it is the
  smaller ("şeş beş"); ``five="penç"`` or ``five="beş"`` always says that one.
* joiner: "ü" ("and") between the two names, except after şeş ("şeş cihar",
  "şeş beş", but "penç ü se", "cihar ü dü"); ``joiner="ü"`` always puts it,
  ``joiner="none"`` never.
"""

from __future__ import annotations

import operator
import unicodedata
from collections.abc import Sequence
from itertools import product
from typing import Literal

from ..i18n import _

Five = Literal["auto", "penç", "beş"]
Joiner = Literal["auto", "ü", "none"]

#: The number names, die value -> name ("penç" is the larger-die form of 5).
NUMBERS = {1: "yek", 2: "dü", 3: "se", 4: "cihar", 5: "penç", 6: "şeş"}
#: The doubles' own names.
DOUBLES = {1: "hep yek", 2: "dubara", 3: "dü se", 4: "dört cihar", 5: "dü beş", 6: "düşeş"}
#: Other spellings of doubles that are read back ("dü şeş" is in seed 001).
DOUBLE_VARIANTS = {"dü şeş": 6}

FIVES: tuple[Five, ...] = ("auto", "penç", "beş")
JOINERS: tuple[Joiner, ...] = ("auto", "ü", "none")
_SEPARATORS = str.maketrans("", "", " -_.'’\t")


def as_roll(dice: Sequence[int] | None) -> tuple[int, int] | None:
    """The dice as a roll when they are two numbers 1-6, else ``None``: the
    one test of "are these dice valid" (replay, frames, viewer, formats).

    >>> as_roll((6, 5)), as_roll((0, 3)), as_roll(None)
    ((6, 5), None, None)
    """
    if dice is None or len(dice) != 2:
        return None
    first, second = dice
    return (first, second) if 1 <= first <= 6 and 1 <= second <= 6 else None


def dice_name(dice: Sequence[int], *, five: Five = "auto", joiner: Joiner = "auto") -> str:
    """The Tavla name of a roll, larger die first: ``(5, 6)`` -> "şeş beş"."""
    try:
        values = [operator.index(d) for d in dice]  # ints, numpy and pandas integers
    except TypeError:
        values = []
    if as_roll(values) is None:
        raise ValueError(_("a roll is two numbers 1-6, not {dice!r}").format(dice=tuple(dice)))
    if five not in FIVES or joiner not in JOINERS:
        raise ValueError(_("five is one of {fives} and joiner one of {joiners}").format(fives=FIVES, joiners=JOINERS))
    high, low = max(values), min(values)
    if high == low:
        return DOUBLES[high]
    first, second = NUMBERS[high], NUMBERS[low]
    if low == 5 and five != "penç":
        second = "beş"
    if high == 5 and five == "beş":
        first = "beş"
    between = joiner == "ü" or (joiner == "auto" and high != 6)
    return f"{first} ü {second}" if between else f"{first} {second}"


def fold(text: str) -> str:
    """``text`` reduced for matching: no case, no accents or Turkish letters
    (İ, ı, ş, ç, ü ... fold to i, s, c, u), no spaces or hyphens."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.lower().replace("ı", "i").translate(_SEPARATORS)


def _forms() -> dict[str, tuple[int, int]]:
    """Every name :func:`dice_name` can say, with its variants, folded -> roll."""
    forms: dict[str, tuple[int, int]] = {}
    for high, low in ((h, lo) for h in range(1, 7) for lo in range(1, h + 1)):
        for five, joiner in product(FIVES, JOINERS):
            forms[fold(dice_name((high, low), five=five, joiner=joiner))] = (high, low)
    for name, die in DOUBLE_VARIANTS.items():
        forms[fold(name)] = (die, die)
    return forms


_FORMS = _forms()


def accepted_names() -> list[str]:
    """The names :func:`parse_dice` reads (each also without Turkish letters,
    in any case, with hyphens or without spaces), one per roll and variant."""
    names = {
        dice_name((h, lo), five=f, joiner=j)
        for h in range(1, 7)
        for lo in range(1, h + 1)
        for f, j in product(FIVES, JOINERS)
    }
    return sorted(names | set(DOUBLE_VARIANTS))


def parse_dice(name: str) -> tuple[int, int]:
    """The roll a Tavla dice name says, larger die first: "düşeş" -> (6, 6)."""
    roll = _FORMS.get(fold(name))
    if roll is None:
        rolls = ", ".join(f"{dice_name((h, lo))} {h}-{lo}" for h in range(6, 0, -1) for lo in range(h, 0, -1))
        raise ValueError(
            _(
                "unknown dice name {name!r}; the names are {rolls} (5 also as penç or beş, "
                "with or without 'ü', in any case, also without Turkish letters: 'ses bes')"
            ).format(name=name, rolls=rolls)
        )
    return roll


__all__ = ["DOUBLES", "NUMBERS", "accepted_names", "as_roll", "dice_name", "fold", "parse_dice"]
