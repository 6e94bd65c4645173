"""gnubg's bear-off databases: where both sides have borne in, exact chances instead of a net.

gnubg 1.07 reads two databases (both ship with gnubg-nn, in its package
data; Debian's gnubg ships the first and builds the second in memory):

* the **one-sided** database ``gnubg_os0.bd``: for each way of placing up
  to 15 chequers on the six home points (54 264 of them), the chance of
  bearing them all off in exactly 1, 2, ... 31 rolls, and of bearing the
  first one off in so many rolls (which saves the gammon). Two sides' tables
  give the chances of a position (:func:`one_sided`), and the most rolls a
  side can need, which gnubg's sanity checks of a race use (:func:`max_turns`);
* the **two-sided** database ``gnubg_ts0.bd``: for each pair of such boards
  of up to six chequers (924 x 924), the side on roll's equity without a
  cube, with the cube its own, centred and the opponent's
  (:func:`two_sided`). gnubg takes these as exact: the chance of winning
  from the first, and at the cube the last three instead of the cube
  model's estimate (:mod:`.cubeful`).

A side's board is numbered as gnubg numbers it (:func:`bearoff_index`):
the chequers and the gaps between the points, read as a combination, in
the combinatorial number system.

>>> one = np.zeros((2, 25), dtype=np.int8); one[0, 0] = 1; one[1, 0] = 1
>>> bool(one_sided(one)[0] == 1.0)  # on roll with one chequer on the ace point
True
"""

from __future__ import annotations

from math import comb
from pathlib import Path
from typing import Any, NamedTuple

import gnubg_nn  # type: ignore[import-untyped]
import numpy as np
from numpy.typing import NDArray

from ..i18n import _
from .jit import jit

Bytes = NDArray[np.int8]
Floats = NDArray[np.float64]
Floats32 = NDArray[np.float32]

#: Where gnubg-nn keeps the databases (in the installed package).
DATA = Path(gnubg_nn.__file__).parent / "data"
ONE_SIDED = DATA / "gnubg_os0.bd"
TWO_SIDED = DATA / "gnubg_ts0.bd"

#: Home points and chequers of each database, and how many boards of one side each numbers.
POINTS = 6
ONE_CHEQUERS, TWO_CHEQUERS = 15, 6
ONE_BOARDS, TWO_BOARDS = comb(POINTS + ONE_CHEQUERS, POINTS), comb(POINTS + TWO_CHEQUERS, POINTS)
#: Rolls counted by the one-sided distributions.
ROLLS = 32
#: The header of each file (40 bytes, text).
HEADER = 40

#: C(n, k) for n, k < 32 (gnubg's Combination, as a table for the compiled code).
_BINOMIAL = np.array([[comb(n, k) for k in range(32)] for n in range(32)], dtype=np.int64)


class Databases(NamedTuple):
    """Both databases in memory, as the compiled evaluation reads them."""

    rolls: Floats32
    """(54 264, 32): the chance of bearing off in i rolls, per one-sided board."""
    first: Floats32
    """(54 264, 32): the chance of bearing the first chequer off in i rolls."""
    most: NDArray[np.int8]
    """(54 264): the most rolls the board can need (gnubg's MaxTurns)."""
    equities: Floats32
    """(924 * 924, 4): two-sided equities: cubeless, cube owned, centred, the opponent's."""


@jit
def bearoff_index(side: Bytes, points: int, chequers: int) -> int:
    """gnubg's number of one side's board (``side``: its 25 counts; the
    first ``points`` read) among those of at most ``chequers`` chequers:
    the chequers and the gaps between the points read as a combination of
    ``points`` of ``points + chequers`` places, numbered in the
    combinatorial number system (the place after the last chequer, and
    each gap, is a member)."""
    total = 0
    for i in range(points):
        total += side[i]
    place = points - 1 + total  # the last member, then one below each point's chequers
    index = 0
    members = points
    for i in range(points):
        if members > 0 and place >= 0:
            index += _BINOMIAL[place, members]
        members -= 1
        place -= side[i] + 1
    return index


@jit
def _expand(data: NDArray[np.uint8], boards: int, out: NDArray[np.uint16]) -> None:
    """The compressed one-sided database ``data`` (after its header) into
    ``out`` (boards, 64): per board an index entry of 8 bytes (where its
    numbers start, in 16-bit words after the index; how many of the first
    distribution and from which roll; the same for the second), then the
    numbers, little-endian 16 bits."""
    base = 8 * boards
    for b in range(boards):
        e = 8 * b
        start = data[e] | data[e + 1] << 8 | data[e + 2] << 16 | np.int64(data[e + 3]) << 24
        count, first, gcount, gfirst = data[e + 4], data[e + 5], data[e + 6], data[e + 7]
        at = base + 2 * start
        for j in range(count):
            out[b, first + j] = data[at] | data[at + 1] << 8
            at += 2
        for j in range(gcount):
            out[b, 32 + gfirst + j] = data[at] | data[at + 1] << 8
            at += 2


def _read(path: Path, kind: str) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(_("{path}: cannot be read ({reason})").format(path=path, reason=exc.strerror)) from None
    if not data.startswith(b"gnubg-" + kind.encode("ascii")):
        raise ValueError(_("{path}: not gnubg's bear-off database").format(path=path))
    return data


def load(one: Path = ONE_SIDED, two: Path = TWO_SIDED) -> Databases:
    """Both databases, read (9 MB in memory); a file that is not one is a ``ValueError``."""
    data = _read(one, "OS-06-15-1-1")
    words = np.zeros((ONE_BOARDS, 64), dtype=np.uint16)
    _expand(np.frombuffer(data, np.uint8, offset=HEADER), ONE_BOARDS, words)
    probs = (words.astype(np.float32) / np.float32(65535.0)).astype(np.float32)
    most = np.where(words[:, :ROLLS] > 0, np.arange(ROLLS), -1).max(axis=1).astype(np.int8)
    raw = _read(two, "TS-06-06-1")
    count = TWO_BOARDS * TWO_BOARDS * 4
    if len(raw) != HEADER + 2 * count:
        raise ValueError(_("{path}: not gnubg's bear-off database").format(path=two))
    equities = np.frombuffer(raw, "<u2", count, HEADER).astype(np.float32) / np.float32(32767.5) - np.float32(1.0)
    return Databases(
        np.ascontiguousarray(probs[:, :ROLLS]),
        np.ascontiguousarray(probs[:, ROLLS:]),
        most,
        equities.reshape(-1, 4).astype(np.float32),
    )


_loaded: list[Databases] = []


def databases() -> Databases:
    """The databases, read once (from gnubg-nn's installed package data)."""
    if not _loaded:
        _loaded.append(load())
    return _loaded[0]


@jit
def one_sided_into(board: Bytes, db: Databases, out: Floats32) -> None:
    """gnubg's chances (five, as float32) of ``board`` (both sides home,
    the side on roll second) from the one-sided database: winning is being
    off in no more rolls than the opponent (who rolls second); a gammon
    where a side has all 15 left, from the rolls to its first chequer off."""
    mine = bearoff_index(board[1], POINTS, ONE_CHEQUERS)
    theirs = bearoff_index(board[0], POINTS, ONE_CHEQUERS)
    p1, p0 = db.rolls[mine], db.rolls[theirs]
    r = np.float32(0.0)
    for i in range(ROLLS):
        for j in range(i, ROLLS):
            r += p1[i] * p0[j]
    out[0] = r
    out[1] = out[2] = out[3] = out[4] = 0
    on0 = on1 = 0
    for p in range(25):
        on0 += board[0, p]
        on1 += board[1, p]
    if on0 == 15 or on1 == 15:
        g0, g1 = db.first[theirs], db.first[mine]
        r = np.float32(0.0)
        for i in range(ROLLS):
            for j in range(i, ROLLS):
                r += p1[i] * g0[j]
        out[1] = r
        r = np.float32(0.0)
        for i in range(ROLLS):
            for j in range(i + 1, ROLLS):
                r += p0[i] * g1[j]
        out[3] = r


@jit
def max_turns(side: Bytes, db: Databases) -> int:
    """The most rolls one side (all home) can need to bear off (gnubg's MaxTurns)."""
    return int(db.most[bearoff_index(side, POINTS, ONE_CHEQUERS)])


@jit
def two_sided_into(board: Bytes, db: Databases, out: Floats32) -> None:
    """The side on roll's four equities of ``board`` (at most six chequers
    a side, all home) from the two-sided database: cubeless, cube owned,
    centred, owned by the opponent."""
    row = bearoff_index(board[1], POINTS, TWO_CHEQUERS) * TWO_BOARDS + bearoff_index(board[0], POINTS, TWO_CHEQUERS)
    for k in range(4):
        out[k] = db.equities[row, k]


@jit
def _one_sided_many(boards: Bytes, db: Databases, out: Floats32) -> None:
    for r in range(len(boards)):
        one_sided_into(boards[r], db, out[r])


@jit
def _two_sided_many(boards: Bytes, db: Databases, out: Floats32) -> None:
    for r in range(len(boards)):
        two_sided_into(boards[r], db, out[r])


def one_sided(board: NDArray[np.integer[Any]]) -> Floats:
    """:func:`one_sided_into` of one board ``(2, 25)``, as float64."""
    out = np.zeros((1, 5), dtype=np.float32)
    _one_sided_many(np.ascontiguousarray([board], dtype=np.int8), databases(), out)
    chances: Floats = out[0].astype(np.float64)
    return chances


def two_sided(boards: NDArray[np.integer[Any]]) -> Floats:
    """:func:`two_sided_into` of many boards ``(n, 2, 25)``: ``(n, 4)``."""
    b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
    out = np.zeros((len(b), 4), dtype=np.float32)
    _two_sided_many(b, databases(), out)
    return out.astype(np.float64)


__all__ = [
    "DATA",
    "Databases",
    "ONE_SIDED",
    "TWO_SIDED",
    "bearoff_index",
    "databases",
    "load",
    "max_turns",
    "one_sided",
    "one_sided_into",
    "two_sided",
    "two_sided_into",
]
