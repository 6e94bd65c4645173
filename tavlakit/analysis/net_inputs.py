"""gnubg 1.07's contact and crashed net inputs, for the positions where gnubg-nn's differ.

gnubg-nn's pypi build (1.1.0a6 to a11) counts a strong home board differently
from gnubg 1.07 in three of the 250 inputs of the contact and crashed nets
(PIPLOSS, P1, P2): an opposing blot on one's own ace or deuce point is
counted as a target only with more than two home points occupied (gnubg
1.07) or made (gnubg-nn). With gnubg 1.07's weights that puts about 8% of
contact positions up to 0.03 away from gnubg's own 0-ply evaluation.
:func:`rule_differs` finds the boards where the two rules can disagree
(about 11% of contact positions), :func:`probabilities` evaluates them from
gnubg 1.07's inputs (float64, exact division, gnubg's table sigmoid, gnubg's
sanity checks). Measured against gnubg 1.07 itself: of 222 flagged positions
of random play, 99% within 1e-4 (median 2.4e-5, largest 1.0e-4; gnubg-nn's
own: 13%, median 2.5e-3, largest 0.063); of 799 other positions of random
play 783 within 1e-4 (the other 16, largest 1.2e-3, differ by gnubg's
float32 arithmetic: 14 of them are unflagged and gnubg-nn is as far off).
With this module's prototype the luck of gnubg's reference records came out
within 0.5% of gnubg's instead of up to 5%. About 17 µs a board in batches
of 300 to 3000 (a call costs about 0.9 ms however small).

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
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from ..i18n import _

#: numpy's BLAS, to be kept to one thread in :func:`_forward`.
_BLAS = ThreadpoolController()
Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
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
    """One of gnubg's nets as float64 arrays: ``inputs @ hidden`` (inputs,
    hidden units), ``units @ output`` (hidden units, outputs)."""

    hidden: Floats
    hidden_bias: Floats
    output: Floats
    output_bias: Floats
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
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (inputs * hidden + hidden * outputs + hidden + outputs,):
            raise ValueError(f"{len(w)} weights for a {inputs}-{hidden}-{outputs} net")
        cut = np.cumsum([inputs * hidden, hidden * outputs, hidden])
        return cls(
            w[: cut[0]].reshape(inputs, hidden).copy(),
            w[cut[1] : cut[2]].copy(),
            w[cut[0] : cut[1]].reshape(outputs, hidden).T.copy(),
            w[cut[2] :].copy(),
            float(betas[0]),
            float(betas[1]),
        )


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

_POINTS = np.arange(25)
#: The 21 rolls (low die, high die) in gnubg's order: 1-1, 2-1, 2-2, 3-1, ...
_ROLLS = [(low, high) for high in range(1, 7) for low in range(1, high + 1)]


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


_ESCAPES, _ESCAPES_BEYOND = _escape_tables()
# an opposing chequer on its point p (my point 23 - p) has my points 24 - p + b ahead of it, b + 1 pips away
# (b < 12, b < p)
_MASK_LOW = (1 << np.minimum(_POINTS, 12)) - 1


def _hit_ways() -> tuple[list[tuple[int, ...]], Ints]:
    """The ways of hitting (the dice used, in order) and, for each roll, the
    indices of its ways (single dice low then high, then the combinations;
    the extra way ``len(ways)`` hits nothing)."""
    ways: list[tuple[int, ...]] = []
    slots = np.zeros((21, 4), dtype=np.int64)
    for r, (low, high) in enumerate(_ROLLS):
        mine = [(low,), (high,), (low, high)] if low != high else [(low,) * k for k in range(1, 5)]
        for s in range(4):
            if s < len(mine):
                if mine[s] not in ways:
                    ways.append(mine[s])
                slots[r, s] = ways.index(mine[s])
            else:
                slots[r, s] = -1
    slots[slots < 0] = len(ways)
    return ways, slots


_WAYS, _ROLL_WAYS = _hit_ways()
_NWAYS = len(_WAYS)
_WAY_PIPS = np.array([sum(w) for w in _WAYS] + [99])
_WAY_SINGLE = np.array([len(w) == 1 for w in _WAYS] + [True])
#: The points stepped on before the target, in pips from the start (0: none);
#: a non-double's two dice need either step open, the others every one.
_WAY_STEPS = np.array(
    [
        list(w) + [0] if len(w) == 2 and w[0] != w[1] else [w[0] * k for k in range(1, len(w))] + [0] * (4 - len(w))
        for w in _WAYS
    ]
    + [[0, 0, 0]]
)
_WAY_EITHER = np.array([len(w) == 2 and w[0] != w[1] for w in _WAYS] + [False])
# each way's steps as shifts of a mask of closed points (3, ways), and whether the step is there
_STEP_SHIFT = np.where(_WAY_STEPS > 0, _WAY_PIPS[:, None] - _WAY_STEPS, 0)[:_NWAYS].T.copy()
_STEP_KEEP = np.where(_WAY_STEPS > 0, -1, 0)[:_NWAYS].T.copy()
_ROLL_PIPS = _WAY_PIPS[_ROLL_WAYS]  # (21, 4)
_ROLL_SINGLE = _WAY_SINGLE[_ROLL_WAYS]
_ROLL_STEPS = _WAY_STEPS[_ROLL_WAYS]  # (21, 4, 3)
_ROLL_DOUBLE = np.array([low == high for low, high in _ROLLS])
_ROLL_WEIGHT = np.where(_ROLL_DOUBLE, 1, 2)
# the other die's pips for the single-die ways 0 and 1 (from the bar it must enter)
_OTHER_PIPS = np.stack([_ROLL_PIPS[:, 1], _ROLL_PIPS[:, 0]], axis=1)


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


_ENTER = _enter_loss_table()
#: BACKBONE's score of a made point d pips behind the rearmost made point.
_BACKBONE = np.array([11 if d <= 6 else (13 - d if d <= 11 else 0) for d in range(25)])
#: gnubg's sigmoid table, exp(k/10)/10 as float32 for k = 0..100.
_SIGMOID = (np.exp(np.arange(101) / 10.0) / 10.0).astype(np.float32).astype(np.float64)


# --- helpers -----------------------------------------------------------------------------------------------------


def _highest(flags: Bools) -> Ints:
    """Index of the last True along the last axis; -1 where none."""
    last = flags.shape[-1] - 1 - np.argmax(flags[..., ::-1], axis=-1)
    return np.where(flags.any(axis=-1), last, -1)


def _lowest(flags: Bools) -> Ints:
    """Index of the first True along the last axis; -1 where none."""
    return np.where(flags.any(axis=-1), np.argmax(flags, axis=-1), -1)


def rule_differs(boards: NDArray[np.int_]) -> Bools:
    """Where gnubg-nn's rule for counting hits can differ from gnubg 1.07's:
    a side with more than two home points occupied but at most two made, and
    an opposing blot on its ace or deuce point (either side). ``boards``:
    ``(n, 2, 25)``, ``board[1]`` on roll."""
    b = np.asarray(boards)
    home = b[:, :, :6]
    weak_for_nn = ((home > 0).sum(axis=2) > 2) & ((home > 1).sum(axis=2) <= 2)
    blot_deep = (b[:, ::-1, 22] == 1) | (b[:, ::-1, 23] == 1)  # the other side's blot, as it counts
    found: Bools = (weak_for_nn & blot_deep).any(axis=1)
    return found


def _bits(flags: Bools) -> Ints:
    """Each row of ``flags`` (up to 25 columns) as the bits of an integer."""
    return np.asarray(flags, dtype=np.int64) @ (1 << np.arange(flags.shape[1], dtype=np.int64))


def _hits(me: Ints, op: Ints) -> Ints:
    """``(rows, ways + 1)``: bit j set where ``me``'s chequer on point j can
    hit an opposing blot with that way (gnubg 1.07's rule: a blot on one's
    own ace or deuce point counts only with more than two home points
    occupied). The opponent's points are looked at as ``me`` counts them."""
    mine = op[:, 23::-1]  # the opponent's chequers on my points 0..23
    strong = (me[:, :6] > 0).sum(axis=1) > 2
    blots = _bits(mine == 1) & np.where(strong, -1, ~3)
    closed = _bits(mine > 1)
    movable = _bits((me > 0) & ~((_POINTS < 6) & (me == 2)))
    # a chequer on point j lands on j - pips, stepping on j - pips + step first
    first, second, third = ((closed[:, None] << _STEP_SHIFT[m]) & _STEP_KEEP[m] for m in range(3))
    blocked = np.where(_WAY_EITHER[:_NWAYS], first & second, first | second | third)
    hit = np.zeros((len(me), _NWAYS + 1), dtype=np.int64)
    hit[:, :_NWAYS] = movable[:, None] & (blots[:, None] << _WAY_PIPS[:_NWAYS]) & ~blocked
    return hit


def _top_bit(masks: Ints) -> Ints:
    """The highest bit set in each of ``masks`` (-1 where none)."""
    return np.where(masks > 0, np.frexp(masks.astype(np.float64))[1] - 1, -1)


def _from_home(hit: Ints, me: Ints, op: Ints) -> tuple[Ints, Ints]:
    """Pips lost and chequers hit by roll (rows, 21), nobody on the bar
    (``hit``: the masks of each roll's ways, (rows, 21, 4))."""
    rows = len(me)
    made = _bits(me > 1)[:, None]
    blots = _bits(op == 1)[:, None]
    pips = np.zeros((rows, 21), dtype=np.int64)
    count = np.zeros((rows, 21), dtype=np.int64)
    used = np.full((rows, 21), -1)
    for slot in range(4):
        h = hit[:, :, slot]
        k = _top_bit(h)
        some = k >= 0
        if slot < 2:  # one die: a hit, unless by the lone chequer that already hit with the other die
            single = some & _ROLL_SINGLE[:, slot]
            count += single & ((used != k) | ((made >> np.maximum(k, 0)) & 1 != 0))
            count += single & _ROLL_DOUBLE & ((h & (h - 1)) != 0)  # a double: another chequer hits as well
            used = np.where(single, k, used)
        if slot > 0:  # more dice: one blot hit, two if another stands where a die stops on the way
            multi = some & ~_ROLL_SINGLE[:, slot]
            count = np.where(multi & (count == 0), 1, count)
            on_way = np.zeros((rows, 21), dtype=np.bool_)
            for step in _ROLL_STEPS[:, slot].T:  # (21,) each
                on_way |= (step > 0) & ((blots >> np.clip(23 - k + step, 0, 63)) & 1 != 0)
            count += multi & on_way
        pips = np.maximum(pips, np.where(some, k - _ROLL_PIPS[:, slot] + 1, 0))
    return pips, count


def _from_bar(hit: Ints, op: Ints) -> tuple[Ints, Ints]:
    """Pips lost and chequers hit by roll (rows, 21), one chequer on the bar."""
    rows = len(op)
    pips = np.zeros((rows, 21), dtype=np.int64)
    count = np.zeros((rows, 21), dtype=np.int64)
    entered = np.zeros((rows, 21), dtype=np.bool_)  # a die was given to a hit from the board: the other enters
    for slot in range(4):
        h = hit[:, :, slot]
        on_bar = (h >> 24) != 0
        single = _ROLL_SINGLE[:, slot]
        direct = single & on_bar
        count += direct
        pips = np.maximum(pips, np.where(direct, 25 - _ROLL_PIPS[:, slot], 0))
        if slot < 2:
            k = _top_bit(h & 0xFFFFFF)
            enters = op[:, _OTHER_PIPS[:, slot] - 1] <= 1
            board = single & (k >= 1) & ~entered & enters
            entered |= board
            count += board
            pips = np.maximum(pips, np.where(board, k - _ROLL_PIPS[:, slot] + 1, 0))
        multi = ~single & on_bar
        count = np.where(multi & (count == 0), 1, count)
        pips = np.maximum(pips, np.where(multi, 25 - _ROLL_PIPS[:, slot], 0))
        steps = _ROLL_STEPS[:, slot]
        passed = (op[:, np.clip(steps + 1, 0, 24)] == 1) & (steps > 0)
        count += multi & passed.any(axis=-1)
    return pips, count


def _from_bar_two(hit: Ints) -> tuple[Ints, Ints]:
    """Pips lost and chequers hit by roll (rows, 21), two or more on the bar:
    only a single die hitting as it enters."""
    direct = ((hit[:, :, :2] >> 24) != 0) & _ROLL_SINGLE[:, :2]
    count = direct.sum(axis=-1)
    pips = np.where(direct, 25 - _ROLL_PIPS[:, :2], 0).max(axis=-1)
    return pips, count


def _pip_loss(me: Ints, op: Ints) -> Floats:
    """PIPLOSS, P1, P2 ``(rows, 3)`` of ``me`` against ``op``."""
    hit = _hits(me, op)[:, _ROLL_WAYS]  # (rows, 21, 4)
    pips = np.zeros((len(me), 21), dtype=np.int64)
    count = np.zeros((len(me), 21), dtype=np.int64)
    home, one, more = me[:, 24] == 0, me[:, 24] == 1, me[:, 24] > 1
    if home.any():
        pips[home], count[home] = _from_home(hit[home], me[home], op[home])
    if one.any():
        pips[one], count[one] = _from_bar(hit[one], op[one])
    if more.any():
        pips[more], count[more] = _from_bar_two(hit[more])
    lost = (pips * _ROLL_WEIGHT).sum(axis=1) / 432.0
    return np.stack([lost, (count > 0) @ _ROLL_WEIGHT / 36.0, (count > 1) @ _ROLL_WEIGHT / 36.0], axis=1)


# --- the 25 inputs of each side ------------------------------------------------------------------------------------


def _escape_counts(me: Ints) -> tuple[Ints, Ints]:
    """``(rows, 25)``: for an opposing chequer on its point p, the rolls (of
    36) that carry it past ``me``'s made points within 12 pips ahead, and
    those of them that also pass the first of these points."""
    masks = (_bits(me > 1)[:, None] >> (24 - _POINTS)) & _MASK_LOW
    return _ESCAPES[masks], _ESCAPES_BEYOND[masks]


def _timing(me: Ints, clear: Ints) -> Ints:
    """TIMING's pips to spare (before the floor at 0)."""
    outfield = _POINTS[6:24]
    in_contact = (outfield >= 12) & (outfield > clear[:, None])
    spare = np.where(in_contact, np.where(me[:, 6:24] >= 3, me[:, 6:24] - 2, me[:, 6:24] == 1), me[:, 6:24])
    pips = 24 * me[:, 24] + (outfield * spare).sum(axis=1)
    free = me[:, 24] + spare.sum(axis=1)
    for point in range(5, -1, -1):
        here = me[:, point]
        extra = np.maximum(here - 2, 0)
        pips, free = pips + point * extra, free + extra
        short = np.maximum(2 - here, 0)
        fill = (short > 0) & (free >= short)
        pips, free = np.where(fill, pips - point * short, pips), np.where(fill, free - short, free)
    return np.asarray(pips, dtype=np.int64)


def _half(me: Ints, op: Ints, escapes: Ints, beyond: Ints, op_escapes: Ints) -> Floats:
    """Inputs 3 to 24 of each side (0 to 2, men off, are left at 0)."""
    f = np.zeros((len(me), 25))
    rear_op = _highest(op > 0)
    clear = 23 - rear_op  # points above it are out of contact
    f[:, 3] = (np.maximum(_POINTS + 1 - clear[:, None], 0) * me * (clear[:, None] < _POINTS)).sum(axis=1) / 167.0
    f[:, 23] = ((_POINTS + 1) * me * (clear[:, None] > _POINTS)).sum(axis=1) / 100.0
    f[:, 19] = np.maximum(_timing(me, clear), 0) / 100.0
    back = _highest(me > 0)
    f[:, 4] = back / 24.0
    made = me >= 2
    anchor = _highest(made[:, :24] & (_POINTS[:24] <= np.where(back == 24, 23, back)[:, None]))
    f[:, 5] = anchor / 24.0
    deep = _lowest(made[:, 18:24] & (_POINTS[18:24] <= anchor[:, None]))
    outer = _highest(made[:, 12:18])
    forward = np.where(deep >= 0, 6 - deep, np.where(outer >= 0, 12 - outer, 0))
    f[:, 6] = np.where(forward == 0, 2.0, forward / 6.0)
    f[:, 7:10] = _pip_loss(me, op)
    rows = np.arange(len(me))
    rear = np.maximum(rear_op, 0)
    f[:, 10] = escapes[rows, rear] / 36.0
    f[:, 24] = beyond[rows, rear] / 36.0
    from_15 = np.where(_POINTS >= 15, escapes, 36)
    worst = np.where(rear_op[:, None] >= _POINTS, from_15, 36).min(axis=1)
    f[:, 11] = (36 - worst) / 36.0
    f[:, 12] = f[:, 11] ** 2
    f[:, 13] = (36 - from_15[:, 15:24].min(axis=1)) / 36.0
    f[:, 14] = f[:, 13] ** 2
    f[:, 15] = ((_POINTS - 5) * me * op_escapes * (_POINTS >= 6)).sum(axis=1) / 3600.0
    total = me.sum(axis=1)
    mean = -(-(_POINTS * me).sum(axis=1) // np.maximum(total, 1))
    behind = mean[:, None] < _POINTS
    spread = (me * behind * (_POINTS - mean[:, None]) ** 2).sum(axis=1)
    many = (me * behind).sum(axis=1)
    f[:, 16] = np.where(many > 0, -(-spread // np.maximum(many, 1)), 0) / 400.0
    op_home = ((op[:, :6] > 1) << np.arange(6)).sum(axis=1)
    f[:, 17] = np.where(me[:, 24] > 0, _ENTER[(me[:, 24] > 1).astype(np.int64), op_home], 0.0)
    f[:, 18] = (36 - ((op[:, :6] > 1).sum(axis=1) - 6) ** 2) / 36.0
    first = _highest(made[:, :24] & (_POINTS[:24] >= 1))
    below = made[:, :24] & (_POINTS[:24] >= 1) & (_POINTS[:24] < first[:, None])
    score = (_BACKBONE[np.clip(first[:, None] - _POINTS[:24], 0, 24)] * below).sum(axis=1)
    behind_count = below.sum(axis=1)
    f[:, 20] = np.where(behind_count > 0, 1 - score / (11.0 * np.maximum(behind_count, 1)), 0.0)
    anchors = made[:, 18:24].sum(axis=1)
    back_men = me[:, 18:25].sum(axis=1)
    f[:, 21] = np.where(anchors > 1, (back_men - 3) / 4.0, 0.0)
    f[:, 22] = np.where(anchors == 1, back_men / 8.0, 0.0)
    return f


def _men_off(board: Ints, step: int, first: int) -> Floats:
    """Inputs 0 to 2: men off, ``first`` then ``step`` to a unit (contact:
    3, 3 from 6 on; crashed: 5, 5 from 10 on)."""
    off = 15 - board.sum(axis=1)
    return np.stack(
        [np.minimum(off, step) / step, np.clip(off - step, 0, step) / step, np.maximum(off - first, 0) / step], axis=1
    )


def inputs(boards: NDArray[np.int_], crashed: NDArray[np.bool_]) -> Floats:
    """gnubg 1.07's 250 inputs ``(n, 250)`` of the contact (or, where
    ``crashed``, the crashed) net: four per point and side, side 0 first,
    then the 25 of the side on roll and those of its opponent."""
    b = np.asarray(boards, dtype=np.int64)
    n = len(b)
    base = np.stack([b == 1, b == 2, b >= 3, np.maximum(b - 3, 0) / 2.0], axis=-1).astype(np.float64)
    base[:, :, 24, 0], base[:, :, 24, 1] = b[:, :, 24] >= 1, b[:, :, 24] >= 2
    me = np.concatenate([b[:, 1], b[:, 0]])
    op = np.concatenate([b[:, 0], b[:, 1]])
    escapes, beyond = _escape_counts(me)
    half = _half(me, op, escapes, beyond, np.roll(escapes, n, axis=0))
    crash = np.concatenate([crashed, crashed])
    half[:, 0:3] = np.where(crash[:, None], _men_off(me, 5, 10), _men_off(op, 3, 6))
    return np.concatenate([base.reshape(n, 200), half[:n], half[n:]], axis=1)


def _sigmoid(x: Floats) -> Floats:
    """gnubg's 1 / (1 + e^x): the float32 argument's tenths looked up in
    :data:`_SIGMOID`, linear in between; beyond ±10 a constant."""
    a = np.abs(x.astype(np.float32))
    tenths = np.float32(10) * a
    i = np.minimum(np.floor(tenths), 100).astype(np.int64)
    small = 1.0 / (1.0 + _SIGMOID[i] * ((10 - i) + tenths.astype(np.float64)))
    small = np.where(a < 10, small, 1.0 / 19931.370438230298)
    return np.where(x >= 0, small, 1.0 - small)


def _forward(net: Net, x: Floats) -> Floats:
    """The net's five outputs for the inputs ``x`` (rows, inputs), on one
    thread: products this small lose more to BLAS's threads than they gain
    (a third of the analysis's time on one core, and worker processes
    already use every core)."""
    with _BLAS.limit(limits=1, user_api="blas"):
        units = _sigmoid(-net.beta_hidden * (x @ net.hidden + net.hidden_bias))
        return _sigmoid(-net.beta_output * (units @ net.output + net.output_bias))


def probabilities(boards: NDArray[np.int_], crashed: NDArray[np.bool_], contact: Net, crashed_net: Net) -> Floats:
    """gnubg 1.07's 0-ply probabilities ``(n, 5)`` (win, win gammon, win
    backgammon, lose gammon, lose backgammon, of the side on roll) of
    contact positions (crashed ones where ``crashed``), from gnubg 1.07's
    inputs, with gnubg's sanity checks: no gammons won (lost) once the
    opponent (the side on roll) has borne off, gammons at most the wins
    (losses), backgammons at most the gammons; and, as gnubg gives them,
    gammon and backgammon chances below 1e-4 as 0."""
    b = np.asarray(boards, dtype=np.int64)
    crash = np.asarray(crashed, dtype=np.bool_)
    x = inputs(b, crash)
    p = np.empty((len(b), 5))
    for net, rows in ((contact, ~crash), (crashed_net, crash)):
        if rows.any():
            p[rows] = _forward(net, x[rows])
    on_board = b.sum(axis=2)
    p[on_board[:, 0] < 15, 1:3] = 0.0
    p[on_board[:, 1] < 15, 3:5] = 0.0
    p[:, 1] = np.minimum(p[:, 1], p[:, 0])
    p[:, 3] = np.minimum(p[:, 3], 1.0 - p[:, 0])
    p[:, 2] = np.minimum(p[:, 2], p[:, 1])
    p[:, 4] = np.minimum(p[:, 4], p[:, 3])
    p[:, 1:][p[:, 1:] < 1e-4] = 0.0
    return p
