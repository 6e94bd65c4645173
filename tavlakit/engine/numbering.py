"""How the points are numbered: the one :class:`Numbering` of the pictures,
the records, the writers and the command line.

The moves of a record are always in the mover's own numbering (24..1). A
numbering says how they are *written* to a reader: ``relative`` (each side
its own 24..1, as gnubg and Jellyfish write them; also called ``gnubg``) or
``absolute`` (White's numbering for both, as the Turkish seeds do: White
moves 24 -> 1, Black 1 -> 24, so Black's own point ``p`` is written
``25 - p``).

>>> Numbering.parse("gnubg")
<Numbering.RELATIVE: 'relative'>
>>> Numbering.parse("absolute").flips(1), Numbering.parse("absolute").flips(0), Numbering.RELATIVE.flips(1)
(True, False, False)
>>> Numbering.parse("upside-down")
Traceback (most recent call last):
...
ValueError: unknown numbering 'upside-down'; expected relative (also called gnubg) or absolute
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, TypeAlias

from ..i18n import _


class Numbering(str, Enum):
    """How the points are written: each side its own (``RELATIVE``) or White's for both (``ABSOLUTE``).

    A member is its own name as a string (``Numbering.ABSOLUTE == "absolute"``).
    """

    RELATIVE = "relative"
    """Each side its own 24..1 (gnubg's, Jellyfish's)."""
    ABSOLUTE = "absolute"
    """White's numbering for both sides: White 24 -> 1, Black 1 -> 24 (the Turkish seeds)."""

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, value: object) -> Numbering:
        """The numbering ``value`` names (a member, or a spelling in any case:
        ``relative``, ``gnubg``, ``absolute``); else a ``ValueError`` saying the
        spellings."""
        if isinstance(value, Numbering):
            return value
        found = _SPELLINGS.get(value.strip().lower()) if isinstance(value, str) else None
        if found is None:
            raise ValueError(
                _("unknown numbering {name!r}; expected relative (also called gnubg) or absolute").format(name=value)
            )
        return found

    def flips(self, player: int) -> bool:
        """Whether ``player``'s own points are written ``25 - p`` (Black's, player 1, in the absolute numbering)."""
        return self is Numbering.ABSOLUTE and player == 1


_SPELLINGS = {"relative": Numbering.RELATIVE, "gnubg": Numbering.RELATIVE, "absolute": Numbering.ABSOLUTE}

#: What a function of the package takes for a numbering: a member or one of its spellings.
NumberingLike: TypeAlias = Numbering | Literal["relative", "gnubg", "absolute"]

__all__ = ["Numbering", "NumberingLike"]
