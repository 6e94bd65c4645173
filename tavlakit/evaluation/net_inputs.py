"""gnubg 1.07's contact, crashed and race nets: their inputs and outputs for many boards at once.

Every contact and crashed position tavlakit judges is evaluated here
(:func:`.net.evaluate`), not by gnubg-nn. gnubg-nn's pypi build (1.1.0a6
to a11) counts a strong home board differently from gnubg 1.07 in three of
the 250 inputs of the two nets (PIPLOSS, P1, P2): an opposing blot on one's
own ace or deuce point is counted as a target only with more than two home
points occupied (gnubg 1.07) or made (gnubg-nn, ``made=True``). With gnubg
1.07's weights that puts about 8% of contact positions up to 0.03 away from
gnubg's own 0-ply evaluation. :func:`probabilities` evaluates boards from
gnubg 1.07's inputs, in gnubg's own arithmetic (float32, each hidden unit
summed input by input, gnubg's table sigmoid, gnubg's sanity checks).
Measured against gnubg 1.07 itself: of 222 positions of random play where
the rules differ, 99% within 1e-4 (median 2.4e-5, largest 1.0e-4; gnubg-nn's own: 13%,
median 2.5e-3, largest 0.063); of 800 other positions 99% within 1e-4, and
all of them within 1e-6 of gnubg-nn's own evaluation (the 7 beyond 1e-4,
largest 1.2e-3, are gnubg 1.07's arithmetic: gnubg-nn is as far off). With
gnubg-nn's rule (``made``) and its weights, gnubg-nn's evaluation of every
contact and crashed position of 26 000 of random play is reproduced within
2.4e-7. With this module's prototype the luck of gnubg's reference records
came out within 0.5% of gnubg's instead of up to 5%. :func:`classify` gives
gnubg's class of each board as :func:`gnubg_nn.classify` does.

Race positions are evaluated here too, from the race net's 214 inputs
(no home board rule there), with gnubg 1.07's checks of a race (its
SanityCheck): a win, gammon or backgammon certain or impossible by the
crossings each side has to come against the most rolls the other may need
(from gnubg's one-sided bear-off database once it is home, :mod:`.bearoff`;
gnubg-nn counts pips by threes instead, and is far off on some race
boards). gnubg's own chance of a race backgammon replaces the net's: 0
where the straggler cannot be saved, else from a table of gnubg's that
gnubg-nn has, so gnubg-nn evaluates those boards
(:func:`race_backgammon`, the caller's ``given``). Bear-off positions
come from gnubg's databases, finished games as gnubg scores them.
How close to gnubg 1.07 (``tests/test_net_inputs.py`` asks gnubg itself)
and how fast: ``benchmarks/README.md``.

The pruning nets (:class:`Nets`: 200 inputs, gnubg's base inputs alone,
16 or 8 hidden units) are evaluated the same way, with the same checks:
gnubg's look-ahead ranks a roll's plays by them before it gives the ten
best to the full nets.

The kernels are compiled by numba on first use and cached on disk (some
seconds once per machine, then a fraction of a second to load); they are
made for batches (a call has a cost of its own, so every play of a game is
scored in one). How many µs a board, in batches of each size, against
gnubg-nn a board at a time: ``benchmarks/net_inputs.py`` and its section
of ``benchmarks/README.md``.

Each side's 25 inputs ("half"), of the side ``me`` against ``op``
(points counted from the side's own ace, 24 the bar; ``ob``: 23 minus the
rearmost opposing chequer's point, the first point clear of contact):

====  ===========  ================================================================
 0-2  OFF          men borne off (contact: the opponent's, by threes; crashed:
                   one's own, by fives)
 3    BREAK        pips to clear, past ``ob``, of the chequers still in contact
 4    BACKCHEQ     the rearmost chequer's point
 5    BACKANC      the rearmost made point (the bar not counted)
 6    FORWANC      the foremost anchor in the opponent's home or outer board
 7-9  PIPLOSS,     over the 21 rolls: pips lost by the opponent's chequers this
      P1, P2       side can hit, and the chance to hit at least one / two
 10   BACKESC      rolls that let the opponent's rearmost chequer pass this side's points
 11   ACONTAIN     (and 12 its square) how well they contain it: the fewest escapes
                   from the opponent's point 15 back to its rearmost chequer
 13   CONTAIN      (and 14 its square) the same from 15 to 23
 15   MOBILITY     this side's chequers' escapes past the opponent's points, by distance
 16   MOMENT2      spread of the chequers behind their mean point
 17   ENTER        pips lost to the opponent's closed points when on the bar
 18   ENTER2       how closed the opponent's home board is
 19   TIMING       pips to spare before one's own points must break
 20   BACKBONE     how near the other made points stand to the rearmost one
 21   BACKG        back game with two or more anchors in the opponent's home
 22   BACKG1       back game with one anchor there
 23   FREEPIP      pips of the chequers already past contact
 24   BACKRESC     of BACKESC's rolls, those that also pass this side's first made point
====  ===========  ================================================================

Boards are gnubg-nn's ``(n, 2, 25)``: ``board[1]`` the side on roll,
``board[0]`` its opponent, each counted from its own ace point (index 24: the
bar), as :func:`gnubg_nn.probabilities` takes a board.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..i18n import _
from . import registers
from .bearoff import Databases, databases, max_turns, one_sided_into, two_sided_into
from .jit import jit
from .registers import highest, lowest, ones, turned

Floats = NDArray[np.float64]
Floats32 = NDArray[np.float32]
Ints = NDArray[np.int64]
Bytes = NDArray[np.int8]
Bools = NDArray[np.bool_]

#: The nets of gnubg's binary weights in their order, with their shapes
#: (names as in gnubg-nn's text weights).
WD_NETS = (
    ("contact contact250", (250, 128, 5)),
    ("race", (214, 128, 5)),
    ("crashed", (250, 128, 5)),
    ("prune contact", (200, 16, 5)),
    ("prune crashed", (200, 16, 5)),
    ("prune race", (200, 8, 5)),
)
#: A binary weights file starts with this float32, then a float32 version.
WD_MAGIC = struct.pack("<f", 472.3782)


class Net(NamedTuple):
    """One of gnubg's nets as float32 arrays (as gnubg keeps them): ``inputs
    @ hidden`` (inputs, hidden units), ``units @ output`` (hidden units,
    outputs)."""

    hidden: Floats32
    hidden_bias: Floats32
    output: Floats32
    output_bias: Floats32
    beta_hidden: float
    beta_output: float

    @classmethod
    def from_binary(
        cls, shape: tuple[int, int, int], betas: tuple[float, float], weights: Sequence[float] | NDArray[np.float32]
    ) -> Net:
        """A net from the weights as gnubg's binary file lists them after its
        header: hidden (input by input), output (output by output), hidden
        thresholds, output thresholds."""
        inputs, hidden, outputs = shape
        w = np.asarray(weights, dtype=np.float32)
        if w.shape != (inputs * hidden + hidden * outputs + hidden + outputs,):
            raise ValueError(f"{len(w)} weights for a {inputs}-{hidden}-{outputs} net")
        cut = np.cumsum([inputs * hidden, hidden * outputs, hidden])
        return cls(
            _aligned(w[: cut[0]].reshape(inputs, hidden)),
            _aligned(w[cut[1] : cut[2]]),
            w[cut[0] : cut[1]].reshape(outputs, hidden).T.copy(),
            w[cut[2] :].copy(),
            float(betas[0]),
            float(betas[1]),
        )


def _aligned(weights: Floats32) -> Floats32:
    """A copy of ``weights`` starting at a cache line (64 bytes): the
    kernels load 16 float32 of a row at once, a third slower across two
    lines."""
    room = np.empty(weights.size + 16, np.float32)
    start = -room.ctypes.data % 64 // 4
    copy = room[start : start + weights.size].reshape(weights.shape)
    copy[...] = weights
    return copy


def nets_of_wd(data: bytes, shown: str = "gnubg.wd") -> dict[str, Net]:
    """The six nets of gnubg's binary weights ``data``, by the names of
    :data:`WD_NETS`; what is not such weights is a ``ValueError`` naming
    ``shown``."""
    if not data.startswith(WD_MAGIC):
        raise ValueError(_("{path}: not neural-net weights (gnubg's gnubg.wd or gnubg.weights)").format(path=shown))
    nets: dict[str, Net] = {}
    offset = 8  # after the magic number and the version
    for name, shape in WD_NETS:
        try:
            *found, _trained = struct.unpack_from("<4i", data, offset)
            betas = struct.unpack_from("<2f", data, offset + 16)
        except struct.error:
            found = []
        if tuple(found) != shape:
            raise ValueError(_("{path}: not gnubg's binary weights (six nets of gnubg's shapes)").format(path=shown))
        inputs, hidden, outputs = shape
        count = inputs * hidden + hidden * outputs + hidden + outputs
        if offset + 24 + 4 * count > len(data):
            raise ValueError(_("{path}: gnubg's binary weights, cut short").format(path=shown))
        nets[name] = Net.from_binary(shape, betas, np.frombuffer(data, "<f4", count, offset + 24))
        offset += 24 + 4 * count
    if offset != len(data):
        raise ValueError(_("{path}: not gnubg's binary weights (more after its six nets)").format(path=shown))
    return nets


# --- tables, built once ----------------------------------------------------------------------------------------

#: The 21 rolls (low die, high die) in gnubg's order: 1-1, 2-1, 2-2, 3-1, ...
_ROLLS = [(low, high) for high in range(1, 7) for low in range(1, high + 1)]
#: The doubles among them (a mask).
_DOUBLES = sum(1 << r for r, (low, high) in enumerate(_ROLLS) if low == high)


def _escape_tables() -> tuple[Ints, Ints]:
    """For a 12-bit mask of the made points 1 to 12 pips ahead (bit 0: 1
    pip): the rolls (of 36) whose total lands on an open point with one
    die's point open on the way (doubles as if two dice), and those of them
    that also pass the first made point."""
    masks = np.arange(4096)
    ahead = (masks[:, None] >> np.arange(12)) & 1
    lowest = np.where(masks > 0, np.argmax(ahead, axis=1), 99)
    escapes = np.zeros(4096, dtype=np.int64)
    beyond = np.zeros(4096, dtype=np.int64)
    for low, high in _ROLLS:
        weight = 1 if low == high else 2
        lands = ahead[:, low + high - 1] == 0
        way = (ahead[:, low - 1] == 0) | (ahead[:, high - 1] == 0)
        free = lands & way
        escapes += weight * free
        beyond += weight * (free & (masks > 0) & (low + high - 1 > lowest))
    return escapes, beyond


def _hit_ways() -> tuple[list[tuple[int, ...]], Ints]:
    """The ways of hitting (the dice used, in order) and, for each roll, the
    indices of its ways (single dice low then high, then the combinations;
    the number of ways after the last)."""
    ways: list[tuple[int, ...]] = []
    slots = np.full((21, 4), -1, dtype=np.int64)
    for r, (low, high) in enumerate(_ROLLS):
        mine = [(low,), (high,), (low, high)] if low != high else [(low,) * k for k in range(1, 5)]
        for s, way in enumerate(mine):
            if way not in ways:
                ways.append(way)
            slots[r, s] = ways.index(way)
    slots[slots < 0] = len(ways)
    return ways, slots


def _enter_loss_table() -> Floats:
    """ENTER by (two or more on the bar, mask of the opponent's made home points)."""
    table = np.zeros((2, 64))
    for two in (0, 1):
        for mask in range(64):
            made = [(mask >> i) & 1 for i in range(6)]
            loss = 0
            for i in range(6):
                if made[i]:
                    loss += 4 * (i + 1)
                    loss += sum(2 * (i + j + 2) if made[j] else 2 * (i + 1) * two for j in range(i + 1, 6))
                elif two:
                    loss += sum(2 * (j + 1) for j in range(i + 1, 6) if made[j])
            table[two, mask] = loss / (36.0 * (49.0 / 6.0))
    return table


class _Tables(NamedTuple):
    """What the kernels look up, built once."""

    escapes: NDArray[np.int16]  # by mask of the made points ahead (:func:`_escape_tables`)
    beyond: NDArray[np.int16]
    way_pips: Ints  # by way of hitting (:func:`_hit_ways`): the pips it moves,
    way_single: Bools  # whether by one die,
    way_steps: Ints  # a mask of the points stepped on before the target, in pips from it (bit s: s pips),
    way_either: Bools  # and whether either step will do (a non-double's two dice) or every one is needed
    way_shift: Ints  # (ways, 3) pips - step, to shift a mask of closed points by (0: no step)
    way_keep: Ints  # (ways, 3) -1 where there is a step, else 0
    way_rolls: Ints  # a mask of the rolls that have the way
    way_twice: Ints  # and of those where its hitting another blot hits two (a single die: only its double)
    ways_at: Ints  # (3, 256) a mask of the ways that move d pips, for each byte of a mask of distances d - 1
    roll_ways: Ints  # (21, 4) each roll's ways
    roll_weight: Ints  # of 36
    enter: Floats  # ENTER (:func:`_enter_loss_table`)
    backbone: Ints  # BACKBONE's score of a made point d pips behind the rearmost made point
    sigmoid: Floats32  # gnubg's sigmoid table, exp(k/10)/10 as float32 for k = 0..100


def _tables() -> _Tables:
    ways, roll_ways = _hit_ways()
    escapes, beyond = _escape_tables()
    pips = np.array([sum(w) for w in ways])
    steps = np.array(
        [
            list(w) + [0] if len(w) == 2 and w[0] != w[1] else [w[0] * k for k in range(1, len(w))] + [0] * (4 - len(w))
            for w in ways
        ]
    )
    return _Tables(
        escapes.astype(np.int16),  # (small tables stay in the first-level cache)
        beyond.astype(np.int16),
        pips,
        np.array([len(w) == 1 for w in ways]),
        np.where(steps > 0, 1 << steps, 0).sum(axis=1),
        np.array([len(w) == 2 and w[0] != w[1] for w in ways]),
        np.where(steps > 0, pips[:, None] - steps, 0),
        np.where(steps > 0, -1, 0),
        np.array([sum(1 << r for r in range(21) if w in roll_ways[r]) for w in range(len(ways))]),
        np.array(
            [
                sum(1 << r for r in range(21) if w in roll_ways[r] and (len(ways[w]) > 1 or _ROLLS[r] == ways[w] * 2))
                for w in range(len(ways))
            ]
        ),
        np.array(
            [
                [
                    sum(1 << w for w, d in enumerate(pips - 1 - 8 * i) if 0 <= d < 8 and byte >> d & 1)
                    for byte in range(256)
                ]
                for i in range(3)
            ]
        ),
        roll_ways,
        np.array([1 if low == high else 2 for low, high in _ROLLS]),
        _enter_loss_table(),
        np.array([11 if d <= 6 else (13 - d if d <= 11 else 0) for d in range(25)]),
        (np.exp(np.arange(101) / 10.0) / 10.0).astype(np.float32),
    )


_TABLES = _tables()


#: gnubg's classes of positions, as :func:`gnubg_nn.classify` numbers them
#: (its ``c_bearoff`` is :data:`BEAROFF1`, the one-sided database's).
OVER, BEAROFF2, BEAROFF1, RACE, CRASHED, CONTACT = range(6)


@jit
def _crashed(side: Bytes, chequers: int) -> bool:
    """Has a side with ``chequers`` left at most six outside its ace point
    (or outside a made ace and deuce point, counting one of them as one)?"""
    return bool(
        chequers <= 6
        or (side[0] > 1 and (chequers <= 6 + side[0] or (side[1] > 1 and 1 + chequers - side[0] - side[1] <= 6)))
        or (side[0] <= 1 and chequers <= 6 + side[1] - 1)
    )


@jit
def class_of(board: Bytes, back: int, chequers: int, back_on_roll: int, chequers_on_roll: int) -> int:
    """gnubg's class of ``board`` (:func:`classify`) from each side's
    rearmost point (-1: none left) and its chequers left: side 0's, then
    the side on roll's."""
    if back < 0 or back_on_roll < 0:
        return OVER
    if back + back_on_roll <= 22:  # no contact
        if back >= 6 or back_on_roll >= 6:
            return RACE
        return BEAROFF2 if chequers <= 6 and chequers_on_roll <= 6 else BEAROFF1
    return CRASHED if _crashed(board[0], chequers) or _crashed(board[1], chequers_on_roll) else CONTACT


@jit
def classify_into(boards: Bytes, classes: Ints) -> None:
    """``classes[r]``: gnubg's class of board r (:func:`classify`), for compiled callers."""
    for r in range(len(boards)):
        board = boards[r]
        back = 24
        while back >= 0 and board[0, back] == 0:
            back -= 1
        back_on_roll = 24
        while back_on_roll >= 0 and board[1, back_on_roll] == 0:
            back_on_roll -= 1
        classes[r] = class_of(board, back, board[0].sum(), back_on_roll, board[1].sum())


def classify(boards: NDArray[np.integer[Any]]) -> Ints:
    """gnubg's class of each board (:data:`CONTACT` ...), as
    :func:`gnubg_nn.classify` gives it: over when a side has borne off all;
    a race once no chequer must pass another, in a bearoff database where
    both sides are home (the two-sided one with at most six chequers a
    side); crashed where a side has at most six chequers left outside its
    ace point (or outside a made ace and deuce point, counting one of them
    as one), else contact."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    classes = np.empty(len(b), dtype=np.int64)
    classify_into(b, classes)
    return classes


# --- the kernels -------------------------------------------------------------------------------------------------


@jit
def _masks(side: Bytes) -> tuple[int, int, int, int, int]:
    """A side's points as bit masks (bit p: point p): those it holds, those
    it has made (two or more), its blots, those whose chequers may hit (not
    a home point's second chequer); and its chequers on the board."""
    held = made = blots = twos = total = 0
    for p in range(25):
        n = side[p]
        total += n
        held |= (1 if n > 0 else 0) << p
        made |= (1 if n > 1 else 0) << p
        blots |= (1 if n == 1 else 0) << p
        twos |= (1 if n == 2 else 0) << p
    return held, made, blots, held & ~(twos & 0x3F), total


@jit
def _escaping(made: int, p: int) -> int:
    """The row of :func:`_escape_tables` of an opposing chequer on point p
    (as the side counts) of a side's ``made`` points."""
    return (made >> (24 - p)) & ((1 << min(p, 12)) - 1)


@jit(inline=True)
def _pip_loss(
    me: Bytes,
    op: Bytes,
    blots: int,
    closed: int,
    movable: int,
    op_blots: int,
    t: _Tables,
    hit: Ints,
    row: Floats32,
    at: int,
) -> None:
    """PIPLOSS, P1, P2 of ``me`` against ``op`` into ``row[at:at + 3]``, of
    the opposing ``blots`` this side may hit, ``closed`` the opponent's
    made points and ``movable`` this side's chequers that may hit (masks of
    this side's points, :func:`_masks`), ``op_blots`` all the opposing blots
    (as the opponent counts). ``hit`` (3, ways + 1): room for each way's
    hitters (a mask), its foremost hitter on the board, the pips lost to it;
    as no hit outside a call."""
    if not blots:
        row[at] = row[at + 1] = row[at + 2] = 0
        return
    # (the tables' arrays taken out once)
    way_pips, way_single, way_steps, way_either = t.way_pips, t.way_single, t.way_steps, t.way_either
    way_shift, way_keep, roll_ways, roll_weight = t.way_shift, t.way_keep, t.roll_ways, t.roll_weight
    stops = op_blots | -(op_blots >> 24) << 24  # bit p: an opposing blot on p, as it counts (from 24: on the bar)
    reach = 0  # bit d: a chequer that may hit stands d pips from a blot
    left = blots
    while left:
        reach |= movable >> lowest(left)
        left &= left - 1
    ways = t.ways_at[0, (reach >> 1) & 255] | t.ways_at[1, (reach >> 9) & 255] | t.ways_at[2, (reach >> 17) & 255]
    rolls = 0  # those of a way that hits
    twice = 0  # those where a way hits two blots
    left = ways
    while left:  # bit j of hit[0, w]: my chequer on point j hits with way w
        w = lowest(left)
        left &= left - 1
        pips = way_pips[w]
        h = (blots << pips) & movable
        # a chequer on j steps on j - pips + step first: blocked if the opponent holds it
        first = (closed << way_shift[w, 0]) & way_keep[w, 0]
        second = (closed << way_shift[w, 1]) & way_keep[w, 1]
        third = (closed << way_shift[w, 2]) & way_keep[w, 2]
        h &= ~((first & second) if way_either[w] else (first | second | third))
        k = highest(h & 0xFFFFFF)
        # another chequer hits with it too (a single die), or another blot where a die of the foremost hitter stops
        extra = (h & (h - 1)) != 0 if way_single[w] else k >= 0 and ((stops >> (23 - k)) & way_steps[w]) != 0
        hit[0, w] = h
        hit[1, w] = k
        hit[2, w] = k - pips + 1 if k >= 0 else 0
        rolls |= t.way_rolls[w] if h else 0
        twice |= t.way_twice[w] if extra else 0
    if me[24] == 0:  # nobody on the bar: a roll hits two where a way hits two or each die hits with another chequer
        lost = 0
        left = rolls
        while left:
            r = lowest(left)
            left &= left - 1
            w0, w1, w2, w3 = roll_ways[r, 0], roll_ways[r, 1], roll_ways[r, 2], roll_ways[r, 3]
            lost += max(max(hit[2, w0], hit[2, w1]), max(hit[2, w2], hit[2, w3])) * roll_weight[r]
            low, high = hit[1, w0], hit[1, w1]
            two = (roll_weight[r] == 2) & (low >= 0) & (high >= 0) & ((low != high) | (me[max(high, 0)] > 1))
            twice |= (1 if two else 0) << r
        _shots(lost, rolls, twice, row, at)
    else:
        _shots_from_bar(me, op, op_blots, t, hit, rolls, row, at)
    while ways:  # no hit again
        w = lowest(ways)
        ways &= ways - 1
        hit[0, w] = 0
        hit[1, w] = -1
        hit[2, w] = 0


@jit(inline=True)
def _shots(lost: int, once: int, twice: int, row: Floats32, at: int) -> None:
    """PIPLOSS, P1, P2 into ``row[at:at + 3]``, of the pips lost (over the 36
    rolls) and the rolls (masks of the 21) that hit once and twice."""
    row[at] = lost / 432.0
    row[at + 1] = (ones(once & _DOUBLES) + 2 * ones(once & ~_DOUBLES)) / 36.0
    row[at + 2] = (ones(twice & _DOUBLES) + 2 * ones(twice & ~_DOUBLES)) / 36.0


@jit
def _shots_from_bar(
    me: Bytes, op: Bytes, op_blots: int, t: _Tables, hit: Ints, rolls: int, row: Floats32, at: int
) -> None:
    """:func:`_pip_loss`'s PIPLOSS, P1, P2 of a side with chequers on the bar
    (``rolls``: a mask of those with a way that hits)."""
    way_pips, way_steps, roll_ways, roll_weight = t.way_pips, t.way_steps, t.roll_ways, t.roll_weight
    one = me[24] == 1
    lost = 0
    once = 0
    twice = 0
    while rolls:
        r = lowest(rolls)
        rolls &= rolls - 1
        double = roll_weight[r] == 1
        a, b = roll_ways[r, 0], roll_ways[r, 1]  # the first die alone, the second (a double's: two dice)
        on_a = (hit[0, a] >> 24) & 1  # hitting as it enters
        on_b = 0 if double else (hit[0, b] >> 24) & 1
        count = on_a + on_b
        pips_lost = max((25 - way_pips[a]) * on_a, (25 - way_pips[b]) * on_b)
        if one:  # a die given to a hit from the board (first the first die's): the other must enter
            in_a = hit[1, a] > 0 and op[way_pips[b] - 1] <= 1
            in_b = not double and not in_a and hit[1, b] > 0 and op[way_pips[a] - 1] <= 1
            count += in_a + in_b
            pips_lost = max(pips_lost, max(hit[2, a] * in_a, hit[2, b] * in_b))
            for s in range(1 if double else 2, 4 if double else 3):  # more dice from the bar
                w = roll_ways[r, s]
                if (hit[0, w] >> 24) & 1:  # a blot where a die stops (op[step + 1]: gnubg's own count)
                    count = max(count, 1) + (((op_blots >> 1) & way_steps[w]) != 0)
                    pips_lost = max(pips_lost, 25 - way_pips[w])
        lost += pips_lost * roll_weight[r]
        once |= (1 if count > 0 else 0) << r
        twice |= (1 if count > 1 else 0) << r
    _shots(lost, once, twice, row, at)


@jit(inline=True)
def _half(
    me: Bytes,
    op: Bytes,
    mine: tuple[int, int, int, int, int],
    theirs: tuple[int, int, int, int, int],
    crashed: bool,
    made: bool,
    t: _Tables,
    hit: Ints,
    row: Floats32,
    at: int,
) -> None:
    """The 25 inputs of ``me`` against ``op`` into ``row[at:at + 25]``
    (``mine``, ``theirs``: :func:`_masks` of ``me`` and ``op``)."""
    held, points, _, movable, total = mine
    op_held, op_points, op_blots, _, op_total = theirs
    if crashed:  # men off: one's own by fives (from 10 on), the opponent's by threes (from 6 on)
        off, step, first = 15 - total, 5, 10
    else:
        off, step, first = 15 - op_total, 3, 6
    row[at] = min(off, step) / step
    row[at + 1] = min(max(off - step, 0), step) / step
    row[at + 2] = max(off - first, 0) / step
    rear_op = highest(op_held)
    clear = 23 - rear_op  # my points above it are out of contact
    breaking = 0
    free = 0
    moment = 0
    back_men = 0
    pips = 24 * me[24]  # TIMING
    spare = me[24]
    for p in range(25):  # (one pass for all of them)
        n = me[p]
        moment += p * n
        breaking += (p + 1 - clear) * n if p > clear else 0
        free += (p + 1) * n if p < clear else 0
        back_men += n if p >= 18 else 0
        if 6 <= p < 24:
            n = (n - 2 if n >= 3 else (1 if n == 1 else 0)) if p >= 12 and p > clear else n
            pips += p * n
            spare += n
    row[at + 3] = breaking / 167.0
    row[at + 23] = free / 100.0
    for p in range(5, -1, -1):
        if me[p] > 2:
            pips += p * (me[p] - 2)
            spare += me[p] - 2
        elif me[p] < 2 and spare >= 2 - me[p]:
            pips -= p * (2 - me[p])
            spare -= 2 - me[p]
    row[at + 19] = max(pips, 0) / 100.0
    back = highest(held)
    row[at + 4] = back / 24.0
    anchor = highest(points & 0xFFFFFF)
    row[at + 5] = anchor / 24.0
    forward = 0  # the foremost anchor: the rearmost in the opponent's home board, else the foremost in its outer board
    if points & (0x3F << 18):
        forward = 24 - lowest(points & (0x3F << 18))
    elif points & (0x3F << 12):
        forward = 24 - highest(points & (0x3F << 12))
    row[at + 6] = 2.0 if forward == 0 else forward / 6.0
    # a blot on one's own ace or deuce point is a target with more than two home points occupied (made: made)
    home = ones((points if made else held) & 0x3F)
    blots = turned(op_blots) & (-1 if home > 2 else ~3)
    _pip_loss(me, op, blots, turned(op_points), movable, op_blots, t, hit, row, at + 7)
    escapes, beyond = t.escapes, t.beyond
    rear = max(rear_op, 0)
    row[at + 10] = escapes[_escaping(points, rear)] / 36.0
    row[at + 24] = beyond[_escaping(points, rear)] / 36.0
    worst = 36  # from 15 to the opponent's rearmost chequer
    worst_all = 36  # from 15 to 23
    for p in range(15, 25):
        e = escapes[(points >> (24 - p)) & 0xFFF]  # (:func:`_escaping`: 12 points ahead)
        if p <= rear_op:
            worst = min(worst, e)
        if p < 24:
            worst_all = min(worst_all, e)
    row[at + 11] = (36 - worst) / 36.0
    row[at + 12] = row[at + 11] * row[at + 11]
    row[at + 13] = (36 - worst_all) / 36.0
    row[at + 14] = row[at + 13] * row[at + 13]
    mobility = 0
    left = held & ~0x3F
    while left:
        p = lowest(left)
        left &= left - 1
        mobility += (p - 5) * me[p] * escapes[_escaping(op_points, p)]
    row[at + 15] = mobility / 3600.0
    mean = -(-moment // max(total, 1))
    spread = 0
    behind = 0
    for p in range(mean + 1, 25):
        spread += me[p] * (p - mean) ** 2
        behind += me[p]
    row[at + 16] = (-(-spread // behind) if behind else 0) / 400.0
    op_home = op_points & 0x3F
    row[at + 17] = t.enter[1 if me[24] > 1 else 0, op_home] if me[24] > 0 else 0.0
    row[at + 18] = (36 - (ones(op_home) - 6) ** 2) / 36.0
    first = max(highest(points & 0xFFFFFE), 0)  # BACKBONE: the foremost made point, and those behind it
    score = 0
    left = points & ((1 << first) - 1) & ~1
    count = ones(left)
    while left:
        score += t.backbone[first - lowest(left)]
        left &= left - 1
    row[at + 20] = 1.0 - score / (11.0 * count) if count else 0.0
    anchors = ones(points & (0x3F << 18))
    row[at + 21] = (back_men - 3) / 4.0 if anchors > 1 else 0.0
    row[at + 22] = back_men / 8.0 if anchors == 1 else 0.0


#: Boards evaluated together by :func:`_outputs`.
_BLOCK = 16


class _Room(NamedTuple):
    """Scratch arrays of a kernel call, made once per call."""

    hit: Ints  # (:func:`_pip_loss`)
    row: Floats32  # (250) room for the inputs of :func:`_half`
    nonzero: Ints  # (250) the inputs that are not 0, in order (:func:`_board_inputs`)
    values: Floats32  # and their values
    units: Floats32  # (hidden units, block) the hidden units of a block of boards
    outs: Floats32  # (outputs, block) their outputs


def _room(t: _Tables, hidden: int, outputs: int) -> _Room:
    """Room for the kernels, for nets of ``hidden`` units and ``outputs`` outputs."""
    hit = np.zeros((3, len(t.way_pips) + 1), dtype=np.int64)  # each way's, and no hit (:func:`_pip_loss`)
    hit[1] = -1
    return _Room(
        hit,
        np.zeros(250, np.float32),
        np.zeros(250, np.int64),
        np.zeros(250, np.float32),
        np.zeros((hidden, _BLOCK), np.float32),
        np.zeros((outputs, _BLOCK), np.float32),
    )


#: Vectors of sums held in registers (:mod:`.registers`): a pruning net's
#: hidden units (16), a full net's in two chunks of 64 (as fast as one of
#: 128 with AVX-512, and a fifth faster with AVX2's 16 registers), and a
#: block's outputs (a vector of :data:`_BLOCK` boards for each of the five).
_PRUNE_VECTORS = 1
_FULL_VECTORS = 4
_OUTPUTS = 5
#: An input's value where it is 1 (its product the weight itself, bit for bit).
_ONE = np.float32(1.0)


@jit
def _base_inputs(board: Bytes, room: _Room) -> int:
    """gnubg's 200 base inputs of ``board`` (four by point and side, side 0
    first; the pruning nets' inputs, the first 200 of the contact nets'):
    those that are not 0, in order, into ``room.nonzero`` (their numbers)
    and ``room.values``; how many."""
    nonzero, values = room.nonzero, room.values
    n = 0
    points = registers.occupied(board)
    while points:  # the points with chequers (input 4 q of point q = 25 s + p): one, two, three or more
        q = lowest(points)
        points &= points - 1
        count = int(registers.count_at(board, q))
        at = 4 * q
        if q % 25 == 24:  # the bar's: each up to the count
            for i in range(at, at + min(count, 3) - 1):
                nonzero[n] = i
                values[n] = 1.0
                n += 1
        nonzero[n] = at + min(count, 3) - 1
        values[n] = 1.0
        nonzero[n + 1] = at + 3  # (written always, counted if there are more than three)
        values[n + 1] = (count - 3) / 2.0
        n += 1 + (count > 3)
    return n


@jit
def _base_hidden(board: Bytes, net: Net, table: Floats32, room: _Room, slot: int) -> None:
    """A pruning net's hidden units of ``board`` into ``room.units[:, slot]``:
    :func:`_hidden` of :func:`_base_inputs`, summed straight from the
    board's counts (the same additions in the same order)."""
    w = net.hidden
    for first in range(0, len(net.hidden_bias), registers.LANES * _PRUNE_VECTORS):
        acc = registers.start(net.hidden_bias, first, _PRUNE_VECTORS)
        points = registers.occupied(board)
        while points:
            q = lowest(points)
            points &= points - 1
            count = int(registers.count_at(board, q))
            at = 4 * q
            if q % 25 == 24:  # the bar's: each up to the count
                for i in range(at, at + min(count, 3)):
                    registers.add_times(acc, w, i, _ONE, first, _PRUNE_VECTORS)
            else:  # a point's: one of its first three
                registers.add_times(acc, w, at + min(count, 3) - 1, _ONE, first, _PRUNE_VECTORS)
            if count > 3:
                registers.add_times(acc, w, at + 3, np.float32((count - 3) / 2.0), first, _PRUNE_VECTORS)
        registers.sigmoid(acc, net.beta_hidden, table, _PRUNE_VECTORS)
        registers.store_column(acc, room.units, slot, first, _PRUNE_VECTORS)


@jit
def _board_inputs(board: Bytes, crashed: bool, made: bool, t: _Tables, room: _Room) -> int:
    """The 250 inputs of ``board``: those that are not 0, in order, into
    ``room.nonzero`` (their numbers) and ``room.values``; how many."""
    row, nonzero, values = room.row, room.nonzero, room.values
    n = _base_inputs(board, room)
    theirs, mine = _masks(board[0]), _masks(board[1])  # (shared by both halves)
    _half(board[1], board[0], mine, theirs, crashed, made, t, room.hit, row, 200)
    _half(board[0], board[1], theirs, mine, crashed, made, t, room.hit, row, 225)
    for i in range(200, 250):
        nonzero[n] = i
        values[n] = row[i]
        n += row[i] != 0
    return n


@jit
def _fill(boards: Bytes, crashed: Bools, made: bool, t: _Tables, room: _Room, x: Floats32) -> None:
    """Row r of ``x`` (zeros): the 250 inputs of board r."""
    for r in range(len(boards)):
        for m in range(_board_inputs(boards[r], crashed[r], made, t, room)):
            x[r, room.nonzero[m]] = room.values[m]


def inputs(boards: NDArray[np.integer[Any]], crashed: NDArray[np.bool_], *, made: bool = False) -> Floats32:
    """gnubg 1.07's 250 inputs ``(n, 250)`` of the contact (or, where
    ``crashed``, the crashed) net, as gnubg's float32: four per point and
    side, side 0 first, then the 25 of the side on roll and those of its
    opponent (``made``: gnubg-nn's rule for the shots: more than two home points made)."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    x = np.zeros((len(b), 250), dtype=np.float32)
    _fill(b, np.ascontiguousarray(crashed, dtype=np.bool_), made, _TABLES, _room(_TABLES, 1, 1), x)
    return x


@jit
def _race_inputs(board: Bytes, room: _Room) -> int:
    """The race net's 214 inputs of ``board``, as :func:`_board_inputs`
    gives the contact net's: for each side (side 0 first, 107 each) four
    per point 0 to 22 as the contact net's, the men borne off (one input
    for each of 1 to 14), and the chequers' crossings into the home board
    (outer board 1, opposing outer 2, opposing home 3) by tens."""
    nonzero, values = room.nonzero, room.values
    n = 0
    for s in range(2):
        side = board[s]
        at = 107 * s
        off = 15
        for i in range(23):
            count = side[i]
            off -= count
            if count:
                nonzero[n] = at + 4 * i + min(count, 3) - 1
                values[n] = 1.0
                n += 1
                if count > 3:
                    nonzero[n] = at + 4 * i + 3
                    values[n] = (count - 3) / 2.0
                    n += 1
        if 1 <= off <= 14:
            nonzero[n] = at + 91 + off
            values[n] = 1.0
            n += 1
        crossings = 0
        for i in range(6, 24):
            crossings += (i // 6) * side[i]
        if crossings:
            nonzero[n] = at + 106
            values[n] = crossings / 10.0
            n += 1
    return n


@jit(inline=True)
def _hidden(net: Net, room: _Room, n: int, table: Floats32, slot: int) -> None:
    """The net's hidden units of the ``n`` inputs that are not 0 in
    ``room.nonzero`` and ``room.values`` into ``room.units[:, slot]``, in
    gnubg's arithmetic: each unit summed from its threshold input by
    input, in order, in float32, then gnubg's sigmoid (its tenths looked
    up in ``table``, linear in between; beyond ±10 a constant)."""
    w, nonzero, values = net.hidden, room.nonzero, room.values
    for first in range(0, len(net.hidden_bias), registers.LANES * _FULL_VECTORS):
        acc = registers.start(net.hidden_bias, first, _FULL_VECTORS)
        for m in range(n):
            registers.add_times(acc, w, nonzero[m], values[m], first, _FULL_VECTORS)
        registers.sigmoid(acc, net.beta_hidden, table, _FULL_VECTORS)
        registers.store_column(acc, room.units, slot, first, _FULL_VECTORS)


@jit(inline=True)
def _outputs(net: Net, room: _Room, table: Floats32) -> None:
    """The net's five outputs ``room.outs`` (5, block) of the hidden units
    ``room.units`` (hidden units, block) of a block of boards, each summed
    from its threshold unit by unit in float32 (as gnubg does), then
    gnubg's sigmoid (the columns past the block's boards too)."""
    units, output = room.units, net.output
    acc = registers.start_each(net.output_bias, _OUTPUTS)
    for j in range(len(units)):
        registers.add_each(acc, units, j, output, _OUTPUTS)
    registers.sigmoid(acc, net.beta_output, table, _OUTPUTS)
    registers.store_each(acc, room.outs, _OUTPUTS)


class Nets(NamedTuple):
    """gnubg's six nets as the kernels take them: the contact, crashed and
    race nets, and the pruning nets of each class (200 inputs: the base
    inputs only, a few hidden units), which choose the plays worth the full
    nets' time in gnubg's look-ahead."""

    contact: Net
    crashed: Net
    race: Net
    prune_contact: Net
    prune_crashed: Net
    prune_race: Net


#: The names of the six nets in gnubg's weights, in :class:`Nets`' order.
NET_NAMES = ("contact contact250", "crashed", "race", "prune contact", "prune crashed", "prune race")


def nets_of(found: dict[str, Net]) -> Nets:
    """The six nets of a weights file read by name (:data:`NET_NAMES`)."""
    return Nets(*(found[name] for name in NET_NAMES))


class Rooms(NamedTuple):
    """Room for the kernels: one for each net of :class:`Nets` (their hidden units differ)."""

    contact: _Room
    crashed: _Room
    race: _Room
    prune_contact: _Room
    prune_crashed: _Room
    prune_race: _Room


def rooms(nets: Nets) -> Rooms:
    """Room for evaluating with ``nets``."""
    return Rooms(*(_room(_TABLES, len(net.hidden_bias), len(net.output_bias)) for net in nets))


@jit
def _net_class(
    net: Net,
    kind: int,
    prune: bool,
    boards: Bytes,
    classes: Ints,
    given: Floats,
    made: bool,
    t: _Tables,
    room: _Room,
    db: Databases,
    rows: Ints,
    p: Floats,
) -> None:
    """Rows of ``p``: the boards of class ``kind`` evaluated by ``net`` (its
    pruning net where ``prune``: from the base inputs), in blocks of
    :data:`_BLOCK`; a race's backgammon chances as gnubg's race evaluation
    sets them (from ``given``, gnubg-nn's evaluation, where gnubg takes
    them from its table of race backgammons), then gnubg's sanity checks."""
    table, outs = t.sigmoid, room.outs
    count = 0
    for r in range(len(boards)):
        rows[count] = r
        count += classes[r] == kind and (prune or np.isnan(given[r, 0]))
    for start in range(0, count, _BLOCK):
        block = rows[start : min(start + _BLOCK, count)]
        for slot in range(len(block)):
            board = boards[block[slot]]
            if prune:
                _base_hidden(board, net, table, room, slot)
            else:
                n = _race_inputs(board, room) if kind == RACE else _board_inputs(board, kind == CRASHED, made, t, room)
                _hidden(net, room, n, table, slot)
        _outputs(net, room, table)
        for slot in range(len(block)):
            r = block[slot]
            board = boards[r]
            q = outs[:, slot]
            if kind == RACE:
                side, needs_table = _race_backgammon(board)
                if side >= 0:
                    at = 2 if side == 1 else 4
                    q[at] = np.float32(given[r, at]) if needs_table else np.float32(0)
                    q[at - 1] = max(q[at - 1], q[at])
            _sanity(board, q, db, p[r])


@jit
def _over(board: Bytes, p: Floats) -> None:
    """gnubg's result of a finished game (the side that has borne off all
    won: a gammon if the other has borne off none, a backgammon if it also
    has a chequer in the winner's home board or on the bar)."""
    on_roll_left = 0
    other_left = 0
    on_roll_back = 0
    other_back = 0
    for q in range(25):
        on_roll_left += board[1, q]
        other_left += board[0, q]
        if q >= 18:
            on_roll_back += board[1, q]
            other_back += board[0, q]
    for i in range(5):
        p[i] = 0.0
    if other_left == 0:  # the side on roll lost
        if on_roll_left == 15:
            p[3] = 1.0
            p[4] = 1.0 if on_roll_back else 0.0
    else:
        p[0] = 1.0
        if other_left == 15:
            p[1] = 1.0
            p[2] = 1.0 if other_back else 0.0


@jit(inline=True)
def _evaluate(
    boards: Bytes,
    classes: Ints,
    given: Floats,
    made: bool,
    prune: bool,
    t: _Tables,
    nets: Nets,
    rooms: Rooms,
    db: Databases,
    rows: Ints,
    scratch: Floats32,
    p: Floats,
) -> None:
    """Row r of ``p``: gnubg 1.07's five probabilities of board r (of
    class ``classes[r]``), with gnubg's sanity checks. ``prune``: contact,
    crashed and race boards by the pruning nets (the others as always).
    ``given``: gnubg-nn's evaluation of the race boards whose backgammon
    chances gnubg takes from its table (NaN elsewhere): taken as it is by
    the full nets, its backgammon chance only by the pruning nets."""
    if prune:
        _net_class(nets.prune_contact, CONTACT, True, boards, classes, given, made, t, rooms.prune_contact, db, rows, p)
        _net_class(nets.prune_crashed, CRASHED, True, boards, classes, given, made, t, rooms.prune_crashed, db, rows, p)
        _net_class(nets.prune_race, RACE, True, boards, classes, given, made, t, rooms.prune_race, db, rows, p)
    else:
        _net_class(nets.contact, CONTACT, False, boards, classes, given, made, t, rooms.contact, db, rows, p)
        _net_class(nets.crashed, CRASHED, False, boards, classes, given, made, t, rooms.crashed, db, rows, p)
        _net_class(nets.race, RACE, False, boards, classes, given, made, t, rooms.race, db, rows, p)
    for r in range(len(boards)):
        kind = classes[r]
        if kind == RACE and not prune and not np.isnan(given[r, 0]):
            for i in range(5):
                scratch[i] = np.float32(given[r, i])
            _sanity(boards[r], scratch, db, p[r])
        elif kind == OVER:
            _over(boards[r], p[r])
        elif kind == BEAROFF1:
            one_sided_into(boards[r], db, scratch)
            _sanity(boards[r], scratch, db, p[r])
        elif kind == BEAROFF2:
            two_sided_into(boards[r], db, scratch)
            p[r, 0] = scratch[0] / np.float32(2.0) + np.float32(0.5)
            for i in range(1, 5):
                p[r, i] = 0.0


@jit
def _race_backgammon(board: Bytes) -> tuple[int, bool]:
    """Which side gnubg's race evaluation (EvalRaceBG) gives its own
    backgammon chances to, in place of the net's: 1 (the side on roll)
    where its opponent has borne off none with a chequer left in its home
    board, else 0 the other way round; -1 for neither. And whether that
    chance needs gnubg's table of race backgammons (else it is 0: unless
    the side's chequers home, by fours, take no more turns than the
    straggler's pips in the home board, by threes, with a turn less for the
    side on roll)."""
    side = -1
    for s in (1, 0):
        total = 0
        back = 0
        for p in range(24):
            total += board[1 - s, p]
            back += board[1 - s, p] if p >= 18 else 0
        if side < 0 and total == 15 and back > 0:
            side = s
    if side < 0:
        return -1, False
    home = 0
    pips = 0
    for p in range(6):
        home += board[side, p]
    for p in range(18, 23):
        pips += board[1 - side, p] * (p - 17)
    return side, (home + 3) // 4 - (side == 1) <= (pips + 2) // 3


@jit
def needs_table(board: Bytes, kind: int) -> bool:
    """Does gnubg take a backgammon chance of ``board`` (of class ``kind``)
    from its table of race backgammons (:func:`race_backgammon`)?"""
    return kind == RACE and _race_backgammon(board)[1]


@jit
def _race_backgammons(boards: Bytes, classes: Ints, out: Bools) -> None:
    for r in range(len(boards)):
        out[r] = needs_table(boards[r], classes[r])


def race_backgammon(boards: NDArray[np.integer[Any]], classes: Ints | None = None) -> Bools:
    """The race boards :func:`probabilities` needs gnubg-nn's evaluation of:
    those where gnubg's race evaluation puts its own chance of a backgammon
    (from a table of race backgammons) in place of the net's (``classes``:
    the boards' :func:`classify`, where the caller has them)."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    out = np.empty(len(b), dtype=np.bool_)
    _race_backgammons(b, classify(b) if classes is None else classes, out)
    return out


@jit
def _counts(side: Bytes) -> tuple[int, int, int, int, int]:
    """gnubg's counts of one side for its sanity checks: its chequers, its
    rearmost chequer's point (-1: none), its crossings to come (of each
    chequer: 1 from the home board, up to 4 from the opponent's and 5 from
    the bar), those to come before none is left outside the home board
    (plus 1), and those before none is left in the opponent's home board."""
    total = cross = backgammon = 0
    gammon = 1
    back = -1
    for p in range(25):
        n = side[p]
        if n:
            quarter = min(p // 6, 4)
            back = p
            total += n
            cross += (quarter + 1) * n
            gammon += quarter * n
            backgammon += max(quarter - 2, 0) * n
    return total, back, cross, gammon, backgammon


@jit(inline=True)
def _sanity(board: Bytes, q: Floats32, db: Databases, p: Floats) -> None:
    """gnubg 1.07's sanity checks (SanityCheck) of the outputs ``q`` into
    ``p``: see :func:`probabilities`."""
    q[0] = min(max(q[0], np.float32(0)), np.float32(1))
    points = registers.occupied(board)
    contact = highest(points & ((1 << 25) - 1)) + highest(points >> 25) >= 24
    if contact:  # only chequers borne off matter
        men0 = men1 = 0
        for i in range(25):
            men0 += board[0, i]
            men1 += board[1, i]
        if men0 < 15:
            q[1] = q[2] = 0
        if men1 < 15:
            q[3] = q[4] = 0
    else:
        _race_checks(board, q, db)
    q[1] = min(q[1], q[0])
    q[3] = min(q[3], np.float32(1) - q[0])
    q[2] = min(q[2], q[1])
    q[4] = min(q[4], q[3])
    p[0] = q[0]
    for i in range(1, 5):  # (in contact, gammons below gnubg's noise level are none; a race keeps them)
        p[i] = q[i] if q[i] >= np.float32(1e-4) or not contact else 0.0


@jit
def _race_checks(board: Bytes, q: Floats32, db: Databases) -> None:
    """gnubg's checks of a race: wins, gammons and backgammons certain or
    impossible by the crossings each side has to come and the most rolls
    the other may need (see :func:`probabilities`)."""
    men0, back0, cross0, gammon0, backgammon0 = _counts(board[0])
    men1, back1, cross1, gammon1, backgammon1 = _counts(board[1])
    turns0 = max_turns(board[0], db) if back0 < 6 else 2 * cross0
    turns1 = max(max_turns(board[1], db) if back1 < 6 else 2 * cross1, 1)
    if cross0 > 4 * (turns1 - 1):  # a certain win
        q[0] = 1
    if men0 < 15:  # no gammons won once the opponent has borne off
        q[1] = q[2] = 0
    else:
        if cross1 > 8 * gammon0:
            q[1] = 0
        elif gammon0 > 4 * (turns1 - 1):
            q[1] = 1
        if cross1 > 8 * backgammon0:
            q[2] = 0
        elif backgammon0 > 4 * (turns1 - 1):
            q[1] = q[2] = 1
    if cross1 > 4 * turns0:  # a certain loss
        q[0] = 0
    if men1 < 15:
        q[3] = q[4] = 0
    else:
        if cross0 > 8 * gammon1 - 4:
            q[3] = 0
        elif gammon1 > 4 * turns0:
            q[3] = 1
        if cross0 > 8 * backgammon1 - 4:
            q[4] = 0
        elif backgammon1 > 4 * turns0:
            q[3] = q[4] = 1


class Evaluator(NamedTuple):
    """What :func:`evaluate_into` needs besides the boards: the nets, room for
    them, the bear-off databases, whether the contact nets' inputs follow
    gnubg-nn's home board rule."""

    nets: Nets
    rooms: Rooms
    db: Databases
    made: bool


def evaluator(nets: Nets, *, made: bool = False) -> Evaluator:
    """An :class:`Evaluator` of ``nets`` (the databases read once)."""
    return Evaluator(nets, rooms(nets), databases(), made)


@jit(inline=True)
def evaluate_into(
    boards: Bytes, classes: Ints, given: Floats, prune: bool, ev: Evaluator, rows: Ints, scratch: Floats32, p: Floats
) -> None:
    """:func:`probabilities` for compiled callers (``rows``: room for as
    many numbers as boards; ``scratch``: 5 float32)."""
    _evaluate(boards, classes, given, ev.made, prune, _TABLES, ev.nets, ev.rooms, ev.db, rows, scratch, p)


def probabilities(
    boards: NDArray[np.integer[Any]],
    classes: NDArray[np.int_],
    ev: Evaluator,
    given: Floats | None = None,
    *,
    prune: bool = False,
) -> Floats:
    """gnubg 1.07's 0-ply probabilities ``(n, 5)`` (win, win gammon, win
    backgammon, lose gammon, lose backgammon, of the side on roll) of
    positions of gnubg's classes ``classes`` (:func:`classify`'s):

    * contact, crashed and race positions from gnubg 1.07's inputs and nets
      (``ev.made``: gnubg-nn's rule for the shots; ``prune``: by the pruning
      nets, from the base inputs, as gnubg's look-ahead ranks plays);
    * a race's backgammon chances as gnubg's race evaluation gives them:
      0 where the straggler cannot be saved from one, else from gnubg's
      table of race backgammons, which gnubg-nn has: ``given`` holds
      gnubg-nn's evaluation of those boards (:func:`race_backgammon`; NaN
      rows elsewhere, and the rows of those boards are NaN if it is
      missing);
    * bear-off positions from gnubg's databases (:mod:`.bearoff`), the
      two-sided one where both sides have six chequers or fewer;
    * a finished game as gnubg scores it;

    then gnubg 1.07's sanity checks (but for the two-sided database, which
    is exact): no gammons won (lost) once the opponent (the side on roll)
    has borne off, gammons at most the wins (losses), backgammons at most
    the gammons; in a race, gammons and backgammons impossible when the
    other side's crossings to come are more than eight times one's own,
    certain when they are more than four times the rolls the other side
    may need, and wins certain or impossible the same way (the rolls a side
    may need: the one-sided database's most once it is home, else twice
    its crossings); and, as gnubg gives them, gammon and backgammon chances
    below 1e-4 as 0 in contact (a race keeps them)."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    kinds = np.ascontiguousarray(classes, dtype=np.int64)
    p = np.full((len(b), 5), np.nan)
    g = np.full((len(b), 5), np.nan) if given is None else np.ascontiguousarray(given, dtype=np.float64)
    scratch = np.zeros(5, dtype=np.float32)
    evaluate_into(b, kinds, g, prune, ev, np.empty(len(b), dtype=np.int64), scratch, p)
    return p
