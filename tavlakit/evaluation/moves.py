"""gnubg's move generator, compiled: every distinct position a roll can lead to, in gnubg's order.

The analysis lists the plays of the 21 rolls of every position it
judges (:func:`turns`), the look-ahead (:mod:`.lookahead`) those of
thousands of (position, roll) pairs a turn; gnubg-nn lists them one call
at a time from Python, this lists them from compiled code. The rules are gnubg's
(GenerateMoves): a chequer on the bar enters first; as many dice are played
as can be, then as many pips (the larger die when only one can be played);
bearing off with a die larger than needed only from the rearmost point; a
non-double is played in both orders, the larger die first; two plays that
lead to the same position are one, kept where it was first found. The
order matters where gnubg's look-ahead ties: the first of equal plays wins.
Each die is played on one board and taken back, its legal sources found
in bit masks of the points; the smaller die first then the larger by
another chequer (neither bearing off, none on the bar) is not tried: the
larger die first has listed that play (the blocks never grow, a hit only
empties a point). Each play's class (net_inputs' ``CONTACT`` ...) is
found as it is listed.

Boards are gnubg-nn's ``(2, 25)``: ``board[1]`` the side on roll,
``board[0]`` its opponent, each counted from its own ace point (24: the
bar). The boards listed keep the mover second (the turn not yet passed).
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .jit import jit
from .net_inputs import class_of
from .registers import highest, put_board

Bytes = NDArray[np.int8]
Ints = NDArray[np.int64]

#: The 21 rolls, larger die first (the order of :data:`.equity.ROLLS`).
DICE = np.array([(a, b) for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
#: How many of 36 throws give each of them.
WEIGHTS = np.where(DICE[:, 0] == DICE[:, 1], 1.0, 2.0)
#: The most distinct plays one roll can have is far below this (a double: some hundreds).
MOST_PLAYS = 2048
#: Slots of the table that finds a play listed already (twice the most plays).
SLOTS = 4096


class Room(NamedTuple):
    """Scratch arrays of :func:`generate_into`, made once per caller."""

    board: Bytes  # (2, 25): the board being played (each die played on it, then taken back)
    sums: NDArray[np.uint64]  # (5,): its hash sum after each die (:func:`_hash_sum`)
    hashes: NDArray[np.uint64]  # (MOST_PLAYS,): the hash of each play listed
    slots: Ints  # (SLOTS,): a hash table of the plays listed (their number + 1; 0: empty)
    slot_of: Ints  # (MOST_PLAYS,): each play's slot
    meta: Ints  # (5,): plays listed, the most dice and the most pips played so far; :func:`_start`'s
    left: Ints  # (4,) per die of a double played (:func:`_double`)
    source: Ints
    hit: Ints
    used: Ints
    held: Ints  # (5,) the mover's points after each die (:func:`_start`)
    chequers: Ints  # (5,) and its chequers left


def room() -> Room:
    """Room for :func:`generate_into`."""
    return Room(
        np.zeros((2, 25), dtype=np.int8),
        np.zeros(5, dtype=np.uint64),
        np.zeros(MOST_PLAYS, dtype=np.uint64),
        np.zeros(SLOTS, dtype=np.int64),
        np.zeros(MOST_PLAYS, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
    )


#: A random odd multiplier for each of a board's 50 counts (:func:`_hash_sum`).
_MIX = np.random.default_rng(0x7A71A).integers(0, 2**63, (2, 25), dtype=np.uint64) * np.uint64(2) + np.uint64(1)


@jit
def _hash_sum(board: Bytes) -> np.uint64:
    """A board's hash sum: its 50 counts (plus one) each times a random odd
    number of its own, summed (no product waits on another; a chequer moved
    changes the sum by its two numbers, :func:`_move`). A play's hash is
    its sum with the bits mixed (:func:`_mixed`)."""
    h = np.uint64(0)
    for s in range(2):
        for q in range(25):
            h += np.uint64(board[s, q] + 1) * _MIX[s, q]
    return h


@jit
def _mixed(h: np.uint64) -> np.uint64:
    """A hash sum's bits mixed, so that its top bits choose a slot well."""
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(32))


@jit
def _start(board: Bytes, r: Room) -> int:
    """Set up ``r`` to play ``board``: the mover's points (``r.held[0]``:
    bit p its point p, 24 the bar) and chequers left (``r.chequers[0]``),
    the opponent's rearmost point and chequers left (``r.meta[3:5]``); the
    points the mover cannot land on (held by two or more of the opponent's:
    a hit never changes them)."""
    held = blocked = mine = theirs = 0
    back = -1
    for p in range(25):
        held |= (1 if board[1, p] > 0 else 0) << p
        back = p if board[0, p] > 0 else back
        mine += board[1, p]
        theirs += board[0, p]
    for p in range(24):
        blocked |= (1 if board[0, 23 - p] > 1 else 0) << p
    r.held[0], r.chequers[0], r.meta[3], r.meta[4] = held, mine, back, theirs
    return blocked


@jit
def _sources(board: Bytes, held: int, die: int, blocked: int, top: int) -> int:
    """The points the mover may move a chequer from by ``die`` (gnubg's
    LegalMove; bit p: point p, 24: the bar), none above ``top``: ``held``
    its points. A chequer on the bar enters first; bearing off with a die
    larger than needed only from the rearmost point, once all are home."""
    if held >> 24:
        return 1 << 24 if board[0, die - 1] < 2 else 0
    legal = held & ~(blocked << die) & -(1 << die)
    back = highest(held)
    if 0 <= back <= 5:
        legal |= held & (1 << (die - 1))
        if back < die:
            legal |= 1 << back
    return legal & ((2 << top) - 1)


@jit
def _move(board: Bytes, h: np.uint64, source: int, pips: int) -> tuple[np.uint64, bool]:
    """Move a chequer of the mover from ``source`` by ``pips`` on ``board``
    (a blot hit goes to the bar): its hash sum, from ``h``, and whether it hit."""
    board[1, source] -= 1
    h -= _MIX[1, source]
    dest = source - pips
    if dest < 0:
        return h, False
    hit = board[0, 23 - dest] == 1
    if hit:
        board[0, 23 - dest] = 0
        board[0, 24] += 1
        h += _MIX[0, 24] - _MIX[0, 23 - dest]
    board[1, dest] += 1
    return h + _MIX[1, dest], hit


@jit
def _take_back(board: Bytes, source: int, pips: int, hit: bool) -> None:
    """Undo :func:`_move`."""
    board[1, source] += 1
    dest = source - pips
    if dest >= 0:
        board[1, dest] -= 1
        if hit:
            board[0, 23 - dest] = 1
            board[0, 24] -= 1


@jit
def _save(
    board: Bytes,
    h: np.uint64,
    used: int,
    pips: int,
    held: int,
    chequers: int,
    out: Bytes,
    kinds: Ints,
    start: int,
    r: Room,
    passed: bool,
) -> None:
    """List ``board`` (hash sum ``h``; ``used`` dice, ``pips`` pips played;
    ``held``: the mover's points, ``chequers`` left; ``passed``: its sides
    swapped) and its class (net_inputs' ``class_of``) unless fewer dice or
    pips than a play already found; more of either drops those."""
    meta = r.meta
    if used < meta[1] or pips < meta[2]:
        return
    if used > meta[1] or pips > meta[2]:
        _forget(r)
    meta[1] = used
    meta[2] = pips
    h = _mixed(h)
    at = np.int64(h >> np.uint64(40)) & (SLOTS - 1)
    while r.slots[at]:
        j = r.slots[at] - 1
        if r.hashes[j] == h:
            same = True
            for s in range(2):
                for q in range(25):
                    same &= out[start + j, s ^ passed, q] == board[s, q]
            if same:
                return
        at = (at + 1) & (SLOTS - 1)
    n = meta[0]
    r.hashes[n] = h
    r.slots[at] = n + 1
    r.slot_of[n] = at
    put_board(out, start + n, board, passed)
    kinds[start + n] = class_of(board, 24 if board[0, 24] else meta[3], meta[4], highest(held), chequers)
    meta[0] = n + 1


@jit
def _forget(r: Room) -> None:
    """Drop the plays listed (their slots emptied)."""
    for j in range(r.meta[0]):
        r.slots[r.slot_of[j]] = 0
    r.meta[0] = 0


@jit
def _held_after(board: Bytes, held: int, source: int, pips: int) -> int:
    """The mover's points (:func:`_start`) after :func:`_move` from ``held``."""
    left = held & ~((1 if board[1, source] == 0 else 0) << source)
    return left | (1 << (source - pips) if source >= pips else 0)


@jit
def _two(first: int, second: int, blocked: int, out: Bytes, kinds: Ints, start: int, r: Room, passed: bool) -> None:
    """Play a non-double on ``r.board`` die ``first`` first, in every way
    (gnubg's GenerateMovesSub), listing the boards where no further die can
    be played. The smaller die first, then the larger by another chequer,
    neither bearing off (no chequer on the bar), is a play of the larger die
    first, listed already: not tried again."""
    board, h, held = r.board, r.sums[0], r.held[0]
    sources = _sources(board, held, first, blocked, 24)
    while sources:
        i = highest(sources)
        sources ^= 1 << i
        h1, hit = _move(board, h, i, first)
        held1, left1 = _held_after(board, held, i, first), r.chequers[0] - (1 if i < first else 0)
        then = _sources(board, held1, second, blocked, 24)
        if first < second and first <= i < 24:
            then &= 1 << (i - first) | ((1 << second) - 1)  # the same chequer on, or bearing off
        if not then:
            _save(board, h1, 1, first, held1, left1, out, kinds, start, r, passed)
        while then:
            j = highest(then)
            then ^= 1 << j
            h2, hit2 = _move(board, h1, j, second)
            held2, left2 = _held_after(board, held1, j, second), left1 - (1 if j < second else 0)
            _save(board, h2, 2, first + second, held2, left2, out, kinds, start, r, passed)
            _take_back(board, j, second, hit2)
        _take_back(board, i, first, hit)


@jit
def _double(die: int, blocked: int, out: Bytes, kinds: Ints, start: int, r: Room, passed: bool) -> None:
    """Play a double on ``r.board`` in every way, its chequers in order from
    the back, listing the boards where no further die can be played (gnubg's
    GenerateMovesSub, without recursion: frame d plays the d-th die;
    ``r.left[d]``: the sources not yet tried, ``r.used[d]``: whether the die
    was played)."""
    board, sums, left, source, hit, used = r.board, r.sums, r.left, r.source, r.hit, r.used
    held, chequers = r.held, r.chequers
    d = 0
    left[0], used[0] = _sources(board, held[0], die, blocked, 24), 0
    while True:
        if left[d]:
            i = highest(left[d])
            left[d] ^= 1 << i
            used[d], source[d] = 1, i
            sums[d + 1], hit[d] = _move(board, sums[d], i, die)
            held[d + 1], chequers[d + 1] = _held_after(board, held[d], i, die), chequers[d] - (1 if i < die else 0)
            if d == 3:  # every die played
                _save(board, sums[4], 4, 4 * die, held[4], chequers[4], out, kinds, start, r, passed)
                _take_back(board, i, die, hit[d])
                continue
            d += 1
            left[d], used[d] = _sources(board, held[d], die, blocked, i if i < 24 else 24), 0
            continue
        if d == 0:
            return
        if not used[d]:  # no further die can be played: the board so far is a play
            _save(board, sums[d], d, d * die, held[d], chequers[d], out, kinds, start, r, passed)
        d -= 1
        _take_back(board, source[d], die, hit[d])


@jit
def generate_into(
    board: Bytes, high: int, low: int, out: Bytes, kinds: Ints, start: int, r: Room, passed: bool = False
) -> int:
    """The positions the roll ``high``-``low`` can lead ``board`` to, in
    gnubg's order, into ``out[start:]``, gnubg's class of each into
    ``kinds[start:]`` (net_inputs' ``CONTACT`` ...; ``passed``: with the
    turn passed, the opponent on roll second); how many (0: no play
    possible)."""
    for s in range(2):
        for q in range(25):
            r.board[s, q] = board[s, q]
    r.sums[0] = _hash_sum(board)
    r.meta[1] = r.meta[2] = 0
    blocked = _start(board, r)
    if high == low:
        _double(high, blocked, out, kinds, start, r, passed)
    else:
        _two(high, low, blocked, out, kinds, start, r, passed)
        _two(low, high, blocked, out, kinds, start, r, passed)
    found = int(r.meta[0])
    _forget(r)
    return found


@jit
def turn_into(board: Bytes, high: int, low: int, out: Bytes, kinds: Ints, start: int, r: Room) -> int:
    """The positions after the side on roll plays ``high``-``low``, the turn
    passed (the opponent on roll second), into ``out[start:]``, in gnubg's
    order, gnubg's class of each into ``kinds[start:]``; where no play is
    possible, the board as it is (the turn passed): how many (at least one)."""
    n = generate_into(board, high, low, out, kinds, start, r, True)
    if n:
        return n
    put_board(out, start, r.board, True)
    kinds[start] = class_of(r.board, r.meta[3], r.meta[4], highest(r.held[0]), r.chequers[0])
    return 1


@jit
def _generate_many(boards: Bytes, rolls: Ints, out: Bytes, kinds: Ints, counts: Ints, r: Room) -> int:
    at = 0
    for i in range(len(boards)):
        n = generate_into(boards[i], rolls[i, 0], rolls[i, 1], out, kinds, at, r)
        counts[i] = n
        at += n
    return at


@jit
def _turns(boards: Bytes, games: Ints, rolls: Ints, moved: Bytes, kinds: Ints, counts: Ints, r: Room) -> int:
    """:func:`turns` into ``moved``, ``kinds`` and ``counts``: how many
    plays in all, or -1 when ``moved`` is too short."""
    at = 0
    cap = len(moved)
    for j in range(len(games)):
        if at + MOST_PLAYS > cap:
            return -1
        n = turn_into(boards[games[j]], DICE[rolls[j], 0], DICE[rolls[j], 1], moved, kinds, at, r)
        counts[j] = n
        at += n
    return at


_rooms = threading.local()


def _own_room() -> Room:
    """This thread's room for :func:`turns` (made once: a room is a dozen arrays)."""
    found: Room | None = getattr(_rooms, "room", None)
    if found is None:
        found = _rooms.room = room()
    return found


def turns(boards: Bytes, games: Ints, rolls: Ints, r: Room | None = None) -> tuple[Bytes, Ints, Ints]:
    """Every play of roll ``DICE[rolls[j]]`` from board ``boards[games[j]]``
    for each j, the turn passed (the opponent on roll second; no play
    possible: the board as it is): the boards after them ``(m, 2, 25)``,
    gnubg's class of each and how many each pair has (at least one), in
    order (``r``: the room to use; default this thread's own).

    >>> start = np.zeros((1, 2, 25), dtype=np.int8)
    >>> start[:, :, [5, 7, 12, 23]] = [5, 3, 5, 2]
    >>> after, _kinds, counts = turns(start, np.zeros(2, np.int64), np.array([1, 20]))  # 2-1 and 6-6
    >>> counts.tolist()
    [15, 11]
    >>> after[15, 0, [6, 12, 17, 23]].tolist()  # 6-6's first: 24/18(2) 13/7(2), the mover first now
    [2, 3, 2, 0]
    """
    b = np.ascontiguousarray(boards, dtype=np.int8)
    cap = 64 * len(games) + MOST_PLAYS  # (64 plays a pair on average, and room for the most a roll has)
    counts = np.empty(len(games), dtype=np.int64)
    while True:
        moved = np.empty((cap, 2, 25), dtype=np.int8)
        kinds = np.empty(cap, dtype=np.int64)
        total = _turns(b, games, rolls, moved, kinds, counts, _own_room() if r is None else r)
        if total >= 0:
            return moved[:total], kinds[:total], counts
        cap *= 2


def plays(boards: NDArray[np.integer], rolls: NDArray[np.integer]) -> tuple[Bytes, Ints, Ints]:
    """Every play of each ``(board, roll)`` pair (``rolls``: the larger
    die first): the boards after them ``(m, 2, 25)`` (the mover still
    second), gnubg's class of each and how many each pair has."""
    b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
    dice = np.ascontiguousarray(rolls, dtype=np.int64).reshape(-1, 2)
    out = np.zeros((len(b) * MOST_PLAYS, 2, 25), dtype=np.int8)
    kinds = np.zeros(len(out), dtype=np.int64)
    counts = np.zeros(len(b), dtype=np.int64)
    total = _generate_many(b, dice, out, kinds, counts, room())
    return out[:total].copy(), kinds[:total].copy(), counts


__all__ = ["DICE", "MOST_PLAYS", "WEIGHTS", "Room", "generate_into", "plays", "room", "turn_into", "turns"]
