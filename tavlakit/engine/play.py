"""Checker moves and whole plays, with standard notation both ways.

Points are counted from the mover's own view: 24 .. 1, ``BAR`` (25) for a
checker on the bar and ``OFF`` (0) for one borne off.

>>> Play.parse("24/18 13/11*")
Play('24/18 13/11*')
>>> str(Play.parse("8/5 8/5"))
'8/5(2)'
>>> str(Play.parse("bar/22 6/off"))
'bar/22 6/off'
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..i18n import _

BAR = 25
OFF = 0

_PART = re.compile(
    r"^(?P<path>(?:\d{1,2}|bar)\*?(?:/(?:\d{1,2}|off)\*?)+)(?:\((?P<count>\d)\))?$",
    re.IGNORECASE,
)


class Move(NamedTuple):
    """One checker moved by one die (or a merged run of dice in a record)."""

    src: int
    dst: int
    hit: bool = False

    def __str__(self) -> str:
        return self.text()

    def text(self, *, flip: bool = False) -> str:
        """``13/7*``; with ``flip`` the points are written ``25 - p`` (Black's
        moves in the absolute numbering, where Black moves 1 -> 24).

        >>> Move(24, 18, True).text(flip=True)
        '1/7*'
        """
        return f"{point_name(self.src, flip=flip)}/{point_name(self.dst, flip=flip)}{'*' if self.hit else ''}"


def point_name(point: int, bar: str = "bar", off: str = "off", *, flip: bool = False) -> str:
    """``25`` -> ``bar``, ``0`` -> ``off``, else the number (``25 - point``
    with ``flip``: see :meth:`Move.text`)."""
    if point == BAR:
        return bar
    if point == OFF:
        return off
    return str(25 - point if flip else point)


def _point_value(text: str) -> int:
    low = text.lower()
    if low == "bar":
        return BAR
    if low == "off":
        return OFF
    value = int(text)
    if not 0 <= value <= 25:
        raise ValueError(_("point {point} is not between 0 and 25").format(point=value))
    return value


def parse_part(text: str) -> list[Move]:
    """Parse one notation part (``13/7*/1``, ``6/5*(2)``, ``bar/22``) into moves.

    A run ``a/b/c`` becomes the moves ``a/b`` and ``b/c``; ``(n)`` repeats.

    >>> parse_part("13/7*/1")
    [Move(src=13, dst=7, hit=True), Move(src=7, dst=1, hit=False)]
    """
    match = _PART.match(text)
    if not match:
        raise ValueError(_("cannot read move {text!r}").format(text=text))
    stops: list[tuple[int, bool]] = []
    for piece in match["path"].split("/"):
        hit = piece.endswith("*")
        stops.append((_point_value(piece.rstrip("*")), hit))
    if stops[0][1]:
        raise ValueError(_("a hit mark belongs after a destination point in {text!r}").format(text=text))
    moves = []
    for (src, _hit), (dst, hit) in itertools.pairwise(stops):
        if dst >= src:
            raise ValueError(
                _("move {text!r} does not go forward ({src} to {dst})").format(text=text, src=src, dst=dst)
            )
        moves.append(Move(src, dst, hit))
    count = int(match["count"] or 1)
    if count < 1:
        raise ValueError(_("repeat count in {text!r} must be at least 1").format(text=text))
    return moves * count


class Play:
    """A full play: the moves of one turn, in the order they are made."""

    __slots__ = ("moves",)

    def __init__(self, moves: Iterable[Move] = ()) -> None:
        self.moves: tuple[Move, ...] = tuple(moves)

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read notation such as ``24/18 13/11*``, ``bar/22 6/off``, ``8/5(2)``."""
        moves: list[Move] = []
        for part in text.split():
            moves.extend(parse_part(part))
        return cls(moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.moves == other.moves

    def __hash__(self) -> int:
        return hash(self.moves)

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def __str__(self) -> str:
        return self.notation()

    def notation(self, bar: str = "bar", off: str = "off", *, merge: bool = True, flip: bool = False) -> str:
        """Standard notation: runs of one checker merged when ``merge``
        (``24/13``; a hit on the way stays: ``24/18*/13``), equal parts
        counted (``8/5(2)``), highest start first; with ``flip`` the points
        are written ``25 - p`` (Black's play in the absolute numbering:
        ``1/12``).

        >>> str(Play.parse("24/18* 18/13 6/5 6/5"))
        '24/18*/13 6/5(2)'

        >>> Play.parse("24/18 18/13").notation(bar="25", off="0", merge=False)
        '24/18 18/13'
        >>> Play.parse("24/18 24/18 6/off").notation(flip=True)
        '1/7(2) 19/off'
        """
        if not self.moves:
            return ""
        runs = _merge_runs(self.moves) if merge else [[m] for m in self.moves]
        texts = []
        for run in runs:
            pieces = [point_name(run[0].src, bar, off, flip=flip)]
            for i, move in enumerate(run):
                if move.hit or i == len(run) - 1:
                    pieces.append(point_name(move.dst, bar, off, flip=flip) + ("*" if move.hit else ""))
            texts.append("/".join(pieces))
        counts = Counter(texts)
        seen: set[str] = set()
        out = []
        for text in texts:
            if text in seen:
                continue
            seen.add(text)
            out.append(text if counts[text] == 1 else f"{text}({counts[text]})")
        return " ".join(out)


def _merge_runs(moves: tuple[Move, ...]) -> list[list[Move]]:
    """Group moves into runs of one checker, highest start first.

    A move continues a run when it starts where the run ended; a hit on the
    way stays visible (``24/18*/13``).
    """
    pending = sorted(moves, key=lambda m: (-m.src, -m.dst))
    runs: list[list[Move]] = []
    for move in pending:
        for run in runs:
            last = run[-1]
            if last.dst == move.src:
                run.append(move)
                break
        else:
            runs.append([move])
    return sorted(runs, key=lambda r: (-r[0].src, -r[-1].dst))
