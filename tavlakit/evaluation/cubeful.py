"""Cubeful 0-ply equity and cube decisions, the way GNU Backgammon computes them.

gnubg-nn gives the net's cubeless probabilities but no usable cube
evaluation (its ``evaluate_cube_decision`` refuses money play and uses a
match equity table of its own), so this module turns the five
probabilities into cubeful values with the published method gnubg uses at
0 ply: Rick Janowski's cube-efficiency model. The cubeful value is the
cubeless ("dead cube") value and a "live cube" value mixed by the cube
efficiency ``x``: ``x * live + (1 - x) * dead``. The live value is
piecewise linear in the chance of winning between the points where the
cube would be taken, passed or cashed (money: Janowski's take and cash
points from the average values of the games won and lost; match play: the
same points worked out from the match equity table at the score, a dead
cube or a live one after each double). ``x`` is gnubg's: 0.68 while the
sides are in contact, 0.6 in the bear-off, and ``0.55 + 0.00125 * pips``
(of the side on roll, kept within 0.6-0.7) in a race.

Equities are those of the side on roll, for a cube of 1 (money: points per
cube value; match play: EMG, gnubg's normalised money equivalent, where
winning the cube's value is +1 and losing it -1, or MWC, the chance of
winning the match). The probabilities are those of the side on roll:
``(win, win gammon, win backgammon, lose gammon, lose backgammon)``,
cumulative.

>>> state = CubeState()                      # money, centred cube, Jacoby on
>>> decision = cube_decision((0.68, 0.15, 0.01, 0.05, 0.0), state, efficiency=0.68)
>>> decision.action, round(decision.no_double, 3), round(decision.double_take, 3)
('double, take', 0.623, 0.722)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..engine.position import Position
from .bearoff import two_sided
from .equity import Probabilities
from .jit import jit
from .met import MatchEquityTable, default_met
from .net_inputs import BEAROFF2, classify
from .registers import highest, occupied

Array = npt.NDArray[np.float64]

#: gnubg's cube efficiencies (eval.c): contact and crashed positions, the
#: bear-off, and the race line ``0.55 + 0.00125 * pips`` within 0.6-0.7.
CONTACT_X = 0.68
BEAROFF_X = 0.6
RACE_FACTOR, RACE_COEFFICIENT, RACE_MIN, RACE_MAX = 0.00125, 0.55, 0.6, 0.7


@dataclass(frozen=True)
class CubeState:
    """The cube and score as a cube decision sees them (gnubg's cubeinfo).

    ``mover``: the player on roll (0 or 1, as the record's columns);
    ``owner``: who owns the cube, ``None`` centred; ``length`` 0 is money.
    """

    value: int = 1
    owner: int | None = None
    mover: int = 0
    length: int = 0
    score: tuple[int, int] = (0, 0)
    _: KW_ONLY
    crawford: bool = False
    jacoby: bool = True
    beavers: bool = True
    met: MatchEquityTable | None = None

    @property
    def table(self) -> MatchEquityTable:
        return self.met or default_met()

    def flipped(self) -> CubeState:
        """The same cube with the other player on roll."""
        return replace(self, mover=1 - self.mover)

    def doubled(self) -> CubeState:
        """After the mover doubles and the opponent takes."""
        return replace(self, value=2 * self.value, owner=1 - self.mover)

    def available(self) -> bool:
        """May the mover double now? (gnubg's GetDPEq.)"""
        if self.owner is not None and self.owner != self.mover:
            return False
        if not self.length:
            return True
        post_crawford = not self.crawford and (self.length - 1) in self.score
        return (
            not self.crawford
            and self.score[self.mover] + self.value < self.length
            and not (post_crawford and self.score[self.mover] == self.length - 1)
        )

    # --- the match equity table at this score --------------------------------

    def mwc(self, winner: int, points: int) -> float:
        """The mover's MWC after ``winner`` wins ``points`` (gnubg's getME)."""
        mine = self.table.after(self.score, self.length, crawford=self.crawford, winner=winner, points=points)
        return mine if self.mover == 0 else 1.0 - mine

    def win_lose(self) -> tuple[float, float]:
        """The mover's MWC if the mover wins / loses the cube's value."""
        return _win_lose(self)


@lru_cache(maxsize=1 << 14)
def _win_lose(state: CubeState) -> tuple[float, float]:
    return state.mwc(state.mover, state.value), state.mwc(1 - state.mover, state.value)


def eq2mwc(equity: float, state: CubeState) -> float:
    """EMG to MWC at the state's score and cube."""
    win, lose = state.win_lose()
    return 0.5 * (equity * (win - lose) + (win + lose))


def mwc2eq(mwc: float, state: CubeState) -> float:
    """MWC to EMG at the state's score and cube."""
    win, lose = state.win_lose()
    return (2.0 * mwc - (win + lose)) / (win - lose)


def double_pass(state: CubeState) -> float:
    """The doubler's equity (EMG) when the double is passed: the cash, its
    MWC at the score in a match, 1 for money."""
    return mwc2eq(state.mwc(state.mover, state.value), state) if state.length else 1.0


def mwc_scale(state: CubeState) -> float:
    """MWC per unit of EMG (or, for money, points per unit: the cube value):
    how gnubg turns an error or luck in EMG into MWC."""
    if not state.length:
        return float(state.value)
    win, lose = state.win_lose()
    return 0.5 * (win - lose)


@lru_cache(maxsize=1 << 14)
def gammon_prices(state: CubeState) -> tuple[float, float, float, float]:
    """gnubg's gammon and backgammon prices at the state, per player:
    (gammon of player 0, gammon of player 1, backgammon of 0, of 1), the
    extra value of a gammon (backgammon: of a backgammon over a gammon) in
    units of a single game won."""
    if not state.length:
        price = 0.0 if state.jacoby and state.owner is None else 1.0
        return price, price, price, price
    pov = replace(state, mover=0)
    win, lose = pov.mwc(0, state.value), pov.mwc(1, state.value)
    centre = (win + lose) / 2.0
    if abs(win - centre) <= 1e-7:
        return 0.0, 0.0, 0.0, 0.0
    half = win - centre
    g0 = (pov.mwc(0, 2 * state.value) - centre) / half - 1.0
    g1 = (centre - pov.mwc(1, 2 * state.value)) / half - 1.0
    b0 = (pov.mwc(0, 3 * state.value) - centre) / half - (g0 + 1.0)
    b1 = (centre - pov.mwc(1, 3 * state.value)) / half - (g1 + 1.0)
    return max(g0, 0.0), max(g1, 0.0), max(b0, 0.0), max(b1, 0.0)


def _utility(p: Array, state: CubeState) -> Array:
    prices = gammon_prices(state)
    me, you = state.mover, 1 - state.mover
    return (
        2.0 * p[:, 0]
        - 1.0
        + p[:, 1] * prices[me]
        - p[:, 3] * prices[you]
        + p[:, 2] * prices[2 + me]
        - p[:, 4] * prices[2 + you]
    )


def cubeless_many(p: Array, state: CubeState) -> Array:
    """The side on roll's cubeless equity at the state's score, gammons at
    their price (gnubg's utility, EMG): what :func:`cubeful_many` gives
    with a dead cube (efficiency 0), for much less work."""
    return _utility(p, state)


def efficiency(pos: Position) -> float:
    """gnubg's cube efficiency of a position (side to move on roll)."""
    mover, opponent = pos.points()
    return efficiency_of(mover, opponent)


def efficiency_of(mover: Sequence[int], opponent: Sequence[int]) -> float:
    """:func:`efficiency` from gnubg-style boards: the side on roll's 25
    counts and the other side's (own numbering, index 24 the bar)."""
    return float(efficiency_many(np.asarray([[opponent, mover]]))[0])


def efficiency_many(boards: npt.NDArray[np.int_] | npt.ArrayLike) -> Array:
    """:func:`efficiency` of many boards at once: an (n, 2, 25) array of
    gnubg boards ``[side not on roll, side on roll]``."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    x = np.empty(len(b))
    _efficiencies(b, x)
    return x


@jit
def efficiency_into(board: npt.NDArray[np.int8]) -> float:
    """The cube efficiency of one board (:func:`efficiency_many`)."""
    other, mover = board[0], board[1]
    points = occupied(board)  # each side's rearmost checker (own numbering, 24 = the bar)
    back, their_back = highest(points >> 25), highest(points & ((1 << 25) - 1))
    if back < 0 or their_back < 0:  # over
        return 0.0
    if back + their_back >= 23:  # contact while they have to pass
        return CONTACT_X
    outside = pips = 0
    for p in range(25):
        if p >= 6:
            outside += mover[p] + other[p]
        pips += (p + 1) * mover[p]
    if outside == 0:
        return BEAROFF_X
    return min(max(pips * RACE_FACTOR + RACE_COEFFICIENT, RACE_MIN), RACE_MAX)


@jit
def _efficiencies(boards: npt.NDArray[np.int8], x: Array) -> None:
    """``x[r]``: the cube efficiency of board r (:func:`efficiency_many`)."""
    for r in range(len(boards)):
        x[r] = efficiency_into(boards[r])


def cube_inputs(boards: npt.NDArray[np.int_] | npt.ArrayLike) -> Array:
    """What the cube model needs of each board besides its chances, an
    ``(n, 5)`` array: the cube efficiency, then, where both sides have six
    chequers or fewer at home, the two-sided bear-off database's equities
    (cubeless, cube owned, centred, the opponent's: gnubg takes the cube's
    worth there from them), else NaN."""
    b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
    out = np.full((len(b), 5), np.nan)
    out[:, 0] = efficiency_many(b)
    exact = classify(b) == BEAROFF2
    if exact.any():
        out[exact, 1:] = two_sided(b[exact])
    return out


# --- the cube model, compiled -------------------------------------------------------
#
# A cube state is given to the compiled code as a row of numbers (:func:`cube_row`): who
# is on roll, the cube, the score's gammon prices and, in a match, the match winning chances
# after each result the model looks at, worked out once per state.

# the fields of a row
_LENGTH, _MOVER, _OWNER, _VALUE, _JACOBY, _LIVE, _AVAILABLE, _DP = range(8)
_PRICES = 8  # four: gammon of player 0, of player 1, backgammon of 0, of 1
_WIN, _LOSE = 12, 13  # the mover's MWC if the mover wins / loses the cube's value
_CASH, _OPP_CASH, _WIN2, _WIN3, _LOSE2, _LOSE3 = range(14, 20)  # the mover's MWC after each result
_TOP = 20  # the cube levels above the state's cube where the cube still lives
_LEVELS = 21  # per level n (0: the state's cube) and player k: 8 numbers (see :func:`_cash_points`)
ROW = _LEVELS + 16 * 8


def _prime(i: int, j: int, cube: int) -> int:
    """The cube after a double when the other side redoubles at once (gnubg's GetCubePrimeValue)."""
    return 2 * cube if i < 2 * cube <= j else cube


@lru_cache(maxsize=1 << 12)
def _match_results(score: tuple[int, int], length: int, crawford: bool, met: MatchEquityTable) -> Array:
    """Player 0's MWC after each result at this score (gnubg's getME): ``[winner, points]``."""
    top = 8 * length + 1
    return np.array(
        [[met.after(score, length, crawford=crawford, winner=w, points=n) for n in range(top)] for w in (0, 1)]
    )


def _live_cube(state: CubeState) -> bool:
    """gnubg's fDoCubeful: is the cube alive at this score?"""
    length, (s0, s1), cube = state.length, state.score, state.value
    if s0 + cube >= length and s1 + cube >= length:
        return False
    if s0 == length - 2 and s1 == length - 2:
        return False
    return not state.crawford


@lru_cache(maxsize=1 << 14)
def cube_row(state: CubeState) -> Array:
    """The state as the compiled cube model reads it (see the fields above)."""
    row = np.zeros(ROW)
    row[_LENGTH], row[_MOVER], row[_VALUE] = state.length, state.mover, state.value
    row[_OWNER] = -1 if state.owner is None else state.owner
    row[_JACOBY] = state.jacoby and not state.length
    row[_AVAILABLE] = state.available()
    row[_PRICES : _PRICES + 4] = gammon_prices(state)
    if not state.length:
        row[_DP] = 1.0
        return row
    me, value = state.mover, state.value
    mwc = _match_results(state.score, state.length, state.crawford, state.table)

    def win(k: int, points: int) -> float:
        mine = float(mwc[k, min(points, mwc.shape[1] - 1)])
        return mine if k == 0 else 1.0 - mine

    def lose(k: int, points: int) -> float:
        mine = float(mwc[1 - k, min(points, mwc.shape[1] - 1)])
        return mine if k == 0 else 1.0 - mine

    row[_WIN], row[_LOSE] = win(me, value), lose(me, value)
    row[_DP] = row[_WIN]
    row[_LIVE] = _live_cube(state)
    row[_CASH], row[_OPP_CASH] = win(me, value), lose(me, value)
    row[_WIN2], row[_WIN3], row[_LOSE2], row[_LOSE3] = (
        win(me, 2 * value),
        win(me, 3 * value),
        lose(me, 2 * value),
        lose(me, 3 * value),
    )
    i = state.length - state.score[0] - 1
    j = state.length - state.score[1] - 1
    dead, top = value, 0
    while i >= 2 * dead and j >= 2 * dead:
        top += 1
        dead *= 2
    row[_TOP] = top
    for n in range(top + 1):
        cube = value << n
        for k in (0, 1):
            at = _LEVELS + 16 * n + 8 * k
            if i < 2 * cube or j < 2 * cube:  # a double now is taken and the cube dies (or is redoubled at once)
                cp = _prime(i, j, cube) if k == 0 else _prime(j, i, cube)
                row[at : at + 8] = (1.0, lose(k, 2 * cp), lose(k, 4 * cp), lose(k, 6 * cp), win(k, cube),
                                    win(k, 2 * cp), win(k, 4 * cp), win(k, 6 * cp))  # fmt: skip
            else:
                row[at : at + 8] = (0.0, lose(k, 2 * cube), 0.0, 0.0, win(k, cube),
                                    win(k, 2 * cube), win(k, 4 * cube), win(k, 6 * cube))  # fmt: skip
    return row


@jit
def utility_of(p: Array, row: Array) -> float:
    """gnubg's cubeless utility (EMG) of the side on roll at the row's gammon prices."""
    me = int(row[_MOVER])
    you = 1 - me
    return float(
        2.0 * p[0]
        - 1.0
        + p[1] * row[_PRICES + me]
        - p[3] * row[_PRICES + you]
        + p[2] * row[_PRICES + 2 + me]
        - p[4] * row[_PRICES + 2 + you]
    )


@jit
def _money_live(rw: float, rl: float, p: float, owner: int, mover: int, jacoby: bool) -> float:
    """Janowski's live-cube money equity (gnubg's MoneyLive)."""
    take = (rl - 0.5) / (rw + rl + 0.5)
    cash = (rl + 1.0) / (rw + rl + 0.5)
    if owner < 0:
        if p < take:
            return -1.0 if jacoby else -rl + (-1.0 + rl) * p / take
        if p < cash:
            return -1.0 + 2.0 * (p - take) / (cash - take)
        return 1.0 if jacoby else 1.0 + (rw - 1.0) * (p - cash) / (1.0 - cash)
    if owner == mover:
        if p < cash:
            return -rl + (1.0 + rl) * p / cash
        return 1.0 + (rw - 1.0) * (p - cash) / (1.0 - cash)
    if p < take:
        return -rl + (-1.0 + rl) * p / take
    return -1.0 + (rw + 1.0) * (p - take) / (1.0 - take)


@jit
def _money(p: Array, x: float, dead: float, owner: int, mover: int, jacoby: bool) -> float:
    """Cubeful money equity per cube value (gnubg's Cl2CfMoney)."""
    win = p[0]
    if not (win > 1e-7 and win < 0.9999999):  # a dead cube
        return dead
    rw = 1.0 + (p[1] + p[2]) / win
    rl = 1.0 + (p[3] + p[4]) / (1.0 - win)
    return dead * (1.0 - x) + _money_live(rw, rl, win, owner, mover, jacoby) * x


@jit
def _line(x0: float, y0: float, x1: float, y1: float, x: float) -> float:
    """The line through (x0, y0) and (x1, y1) at x; y1 where x1 == x0."""
    return y1 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)


@jit
def _cash_points(win: float, g: Array, row: Array) -> tuple[float, float]:
    """Each player's live-cube cash point in chances of winning (gnubg's
    GetPoints), from the top cube level down; ``g``: each player's gammon
    and backgammon ratios ``(g0, b0, g1, b1)``, by player number."""
    top = int(row[_TOP])
    live0 = live1 = 0.0
    for n in range(top, -1, -1):
        above0, above1 = live0, live1
        for k in range(2):
            at = _LEVELS + 16 * n + 8 * k
            gk, bk = g[2 * k], g[2 * k + 1]
            go, bo = g[2 - 2 * k], g[3 - 2 * k]
            dp = row[at + 4]
            dtw = (1.0 - gk - bk) * row[at + 5] + gk * row[at + 6] + bk * row[at + 7]
            if row[at] > 0:
                dtl = (1.0 - go - bo) * row[at + 1] + go * row[at + 2] + bo * row[at + 3]
                live = (dtl - dp) / (dtl - dtw)
            else:
                live = 1.0 - (above1 if k == 0 else above0) * (dp - dtw) / (row[at + 1] - dtw)
            if k == 0:
                live0 = live
            else:
                live1 = live
    return live0, live1


@jit
def _match(p: Array, x: float, row: Array, g: Array) -> float:
    """Cubeful MWC of the side on roll (gnubg's Cl2CfMatch); ``g``: room for 4 numbers."""
    dead = float(0.5 * (utility_of(p, row) * (row[_WIN] - row[_LOSE]) + (row[_WIN] + row[_LOSE])))
    if row[_LIVE] == 0:
        return dead
    win = float(p[0])
    me = int(row[_MOVER])
    owner = int(row[_OWNER])
    g0 = (p[1] - p[2]) / win if win > 0.0 else 0.0
    b0 = p[2] / win if win > 0.0 else 0.0
    g1 = (p[3] - p[4]) / (1.0 - win) if win < 1.0 else 0.0
    b1 = p[4] / (1.0 - win) if win < 1.0 else 0.0
    g[2 * me], g[2 * me + 1], g[2 - 2 * me], g[3 - 2 * me] = g0, b0, g1, b1
    cash, opp_cash = row[_CASH], row[_OPP_CASH]
    mwc_win = (1.0 - g0 - b0) * cash + g0 * row[_WIN2] + b0 * row[_WIN3]
    mwc_lose = (1.0 - g1 - b1) * opp_cash + g1 * row[_LOSE2] + b1 * row[_LOSE3]
    point0, point1 = _cash_points(win, g, row)
    too_good = point0 if me == 0 else point1
    opp_too_good = 1.0 - (point1 if me == 0 else point0)
    if owner < 0:
        if win <= opp_too_good:
            live = _line(0.0, mwc_lose, opp_too_good, opp_cash, win)
        elif win < too_good:
            live = _line(opp_too_good, opp_cash, too_good, cash, win)
        else:
            live = _line(too_good, cash, 1.0, mwc_win, win)
    elif owner == me:
        live = (
            _line(0.0, mwc_lose, too_good, cash, win) if win <= too_good else _line(too_good, cash, 1.0, mwc_win, win)
        )
    elif win <= opp_too_good:
        live = _line(0.0, mwc_lose, opp_too_good, opp_cash, win)
    else:
        live = _line(opp_too_good, opp_cash, 1.0, mwc_win, win)
    return dead * (1.0 - x) + live * x


@jit
def cubeful_into(p: Array, c: Array, row: Array, g: Array) -> float:
    """The side on roll's cubeful 0-ply value under the cube state ``row``
    (:func:`cube_row`): money equity per cube value, or MWC in a match;
    ``c``: the position's cube inputs (:func:`cube_inputs`); ``g``: room for
    4 numbers. Where the two-sided bear-off database has the position,
    gnubg's own: its money equity for the cube's owner, or in a match the
    cube efficiency that makes the model give that money equity (at most
    the usual one)."""
    owner, mover = int(row[_OWNER]), int(row[_MOVER])
    x = c[0]
    if not np.isnan(c[1]):
        exact = float(c[3] if owner < 0 else (c[2] if owner == mover else c[4]))
        if row[_LENGTH] == 0:
            return exact
        model = _money(p, 1.0, 2.0 * p[0] - 1.0, owner, mover, False)
        if abs(c[1] - model) > 0.0001:
            x = min(max((exact - c[1]) / (model - c[1]), 0.0), c[0])
    if row[_LENGTH] == 0:
        return _money(p, x, utility_of(p, row), owner, mover, row[_JACOBY] > 0)
    return _match(p, x, row, g)


@jit
def emg_of(value: float, row: Array) -> float:
    """A value of :func:`cubeful_into` in EMG (money: as it is)."""
    if row[_LENGTH] == 0:
        return value
    return float((2.0 * value - (row[_WIN] + row[_LOSE])) / (row[_WIN] - row[_LOSE]))


@jit
def free_to_double(nd: float, dt: float, row: Array) -> float:
    """The value of the side on roll free to double (gnubg's GetECF3): ``nd``
    and ``dt`` (the double taken, per the old cube; MWC in a match) as
    :func:`cubeful_into` gives them; no double when the cube is not available."""
    if row[_AVAILABLE] == 0:
        return nd
    dp = float(row[_DP])
    if dt >= nd and dp >= nd:
        return min(dt, dp)
    return nd


@jit
def _values(p: Array, c: Array, row: Array, doubled: Array, out: Array, g: Array) -> None:
    """``out[r]``: no double, double/take (per the old cube) and free to
    double, in EMG, of each position r."""
    money = row[_LENGTH] == 0
    for r in range(len(p)):
        nd = cubeful_into(p[r], c[r], row, g)
        dt = nd
        if row[_AVAILABLE] > 0:
            dt = cubeful_into(p[r], c[r], doubled, g)
            if money:
                dt *= 2.0
        out[r, 0] = emg_of(nd, row)
        out[r, 1] = emg_of(dt, row)
        out[r, 2] = emg_of(free_to_double(nd, dt, row), row)


def _cube_values(p: Array, state: CubeState, c: Array) -> Array:
    """:func:`_values` of many positions under ``state``: ``(n, 3)``."""
    out = np.empty((len(p), 3))
    inputs = _as_inputs(c, len(p))
    _values(
        np.ascontiguousarray(p, dtype=np.float64), inputs, cube_row(state), cube_row(state.doubled()), out, np.zeros(4)
    )
    return out


def _as_inputs(c: Array, n: int) -> Array:
    """Cube inputs ``(n, 5)`` (:func:`cube_inputs`), or from efficiencies alone ``(n,)``."""
    c = np.asarray(c, dtype=np.float64)
    if c.ndim == 2:
        return np.ascontiguousarray(c)
    out = np.full((n, 5), np.nan)
    out[:, 0] = c
    return out


def cubeful_many(p: Array, state: CubeState, c: Array) -> Array:
    """The side on roll's cubeful equity (EMG; money: per cube value) of
    many positions: ``p`` an (n, 5) array, ``c`` their cube inputs
    (:func:`cube_inputs`; or only their efficiencies, ``(n,)``)."""
    return _cube_values(p, state, c)[:, 0]


def cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful equity of the side on roll in EMG (money: per cube value)."""
    return float(cubeful_many(np.asarray([probs], dtype=float), state, np.asarray([x]))[0])


def money_cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful money equity per cube value (gnubg's Cl2CfMoney)."""
    return cubeful(probs, state, x)


def match_cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful MWC of the side on roll (gnubg's Cl2CfMatch)."""
    win, lose = state.win_lose()
    return 0.5 * (cubeful(probs, state, x) * (win - lose) + (win + lose))


def on_roll_many(p: Array, state: CubeState, c: Array) -> Array:
    """The cubeful equity (EMG) of the side on roll free to double now: the
    better of no double and the opponent's best answer to a double
    (gnubg's getECF3; the cube not available: no double)."""
    return _cube_values(p, state, c)[:, 2]


# --- cube decisions --------------------------------------------------------------


@dataclass(frozen=True)
class CubeDecision:
    """The three equities of a cube decision (EMG, for the doubler, cube of
    the state), the best of them and gnubg's name for the right action."""

    no_double: float
    double_take: float
    double_pass: float
    optimal: float
    action: str
    _: KW_ONLY
    available: bool

    @property
    def double(self) -> float:
        """What doubling is worth: the opponent's better answer."""
        return min(self.double_take, self.double_pass)

    @property
    def right_take(self) -> bool:
        """Should the opponent take a double?"""
        return self.double_take <= self.double_pass

    def close(self) -> bool:
        """gnubg's "close or actual" test: doubling loses less than 0.16."""
        return self.optimal - min(self.double_take, 1.0) < 0.16


def cube_decision(probs: Probabilities, state: CubeState, efficiency: float) -> CubeDecision:
    """The mover's cube decision before rolling (gnubg's FindCubeDecision at 0 ply)."""
    return cube_decision_many(np.asarray([probs], dtype=float), state, np.asarray([efficiency]))[0]


def cube_decision_many(p: Array, state: CubeState, c: Array) -> list[CubeDecision]:
    """:func:`cube_decision` of many positions at one cube state: ``p`` an
    (n, 5) array, ``c`` their cube inputs (:func:`cube_inputs`, or
    efficiencies)."""
    values = _cube_values(p, state, c)
    nd = values[:, 0]
    if not state.available():
        return [CubeDecision(v, v, v, v, "no double (cube not available)", available=False) for v in nd.tolist()]
    dp = double_pass(state)
    out = []
    for no_double, take, gammons in zip(nd.tolist(), values[:, 1].tolist(), (p[:, 1] > 0.0).tolist()):
        optimal, action = best_cube_action(no_double, take, dp, gammons=gammons, state=state)
        out.append(CubeDecision(no_double, take, dp, optimal, action, available=True))
    return out


def recorded_decision(no_double: float, double_take: float, *, gammons: bool, state: CubeState) -> CubeDecision:
    """A cube decision from an analyser's cubeful no double and double/take
    equities in gnubg's units (match winning chances in a match, EMG for
    money): as gnubg's FindCubeDecision turns its SGF's ``DA`` into EMG
    (double/pass: the cash, +1). ``gammons``: are gammons possible?

    >>> d = recorded_decision(0.6, 0.45, gammons=False, state=CubeState())
    >>> d.optimal, d.action
    (0.6, 'no double, take')
    """
    nd, dt = (mwc2eq(no_double, state), mwc2eq(double_take, state)) if state.length else (no_double, double_take)
    dp = double_pass(state)
    optimal, action = best_cube_action(nd, dt, dp, gammons=gammons, state=state)
    return CubeDecision(nd, dt, dp, optimal, action, available=True)


def best_cube_action(nd: float, dt: float, dp: float, *, gammons: bool, state: CubeState) -> tuple[float, str]:
    """gnubg's FindBestCubeDecision, with its words (redouble when the mover owns the cube)."""
    re = "re" if state.owner is not None else ""
    beaver = not state.length and state.beavers and -2.0 <= dt <= 0.0
    if dt >= nd and dp >= nd:
        if dp > dt:
            return dt, (f"{re}double, beaver" if beaver else f"{re}double, take")
        return dp, f"{re}double, pass"
    if nd > dt:
        if dt > dp:
            return nd, (f"too good to {re}double, pass" if gammons else f"{re}double, pass")
        if nd > dp:
            return nd, (f"too good to {re}double, take" if gammons else f"no {re}double, take")
        return nd, (f"no {re}double, beaver" if beaver else f"no {re}double, take")
    return nd, (f"too good to {re}double, pass" if gammons else f"{re}double, pass")


__all__ = [
    "BEAROFF_X",
    "CONTACT_X",
    "CubeDecision",
    "CubeState",
    "best_cube_action",
    "cube_decision",
    "cube_decision_many",
    "cubeful",
    "efficiency",
    "efficiency_of",
    "eq2mwc",
    "cubeful_many",
    "cubeless_many",
    "double_pass",
    "efficiency_many",
    "gammon_prices",
    "match_cubeful",
    "money_cubeful",
    "mwc2eq",
    "mwc_scale",
    "on_roll_many",
    "recorded_decision",
]
