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
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..engine.position import Position
from .equity import Probabilities
from .jit import jit
from .met import MatchEquityTable, default_met

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
        mine = self.table.after(self.score, self.length, self.crawford, winner, points)
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
def _efficiencies(boards: npt.NDArray[np.int8], x: Array) -> None:
    """``x[r]``: the cube efficiency of board r (:func:`efficiency_many`)."""
    for r in range(len(boards)):
        other, mover = boards[r, 0], boards[r, 1]
        back = their_back = -1  # each side's rearmost checker (own numbering, 24 = the bar)
        outside = pips = 0
        for p in range(25):
            if mover[p]:
                back = p
            if other[p]:
                their_back = p
            if p >= 6:
                outside += mover[p] + other[p]
            pips += (p + 1) * mover[p]
        if back < 0 or their_back < 0:  # over
            x[r] = 0.0
        elif back + their_back >= 23:  # contact while they have to pass
            x[r] = CONTACT_X
        elif outside == 0:
            x[r] = BEAROFF_X
        else:
            x[r] = min(max(pips * RACE_FACTOR + RACE_COEFFICIENT, RACE_MIN), RACE_MAX)


# --- cubeful 0-ply: money ------------------------------------------------------
#
# Every function below takes many positions at once: ``p`` is an (n, 5)
# array of probabilities and ``x`` the n cube efficiencies.


def _money_live(rw: Array, rl: Array, p: Array, state: CubeState) -> Array:
    take = (rl - 0.5) / (rw + rl + 0.5)
    cash = (rl + 1.0) / (rw + rl + 0.5)
    below_take = -rl + (-1.0 + rl) * p / take
    above_cash = 1.0 + (rw - 1.0) * (p - cash) / (1.0 - cash)
    if state.owner is None:
        window = -1.0 + 2.0 * (p - take) / (cash - take)
        if state.jacoby:
            below_take, above_cash = np.full_like(p, -1.0), np.ones_like(p)
        return np.where(p < take, below_take, np.where(p < cash, window, above_cash))
    if state.owner == state.mover:
        return np.where(p < cash, -rl + (1.0 + rl) * p / cash, above_cash)
    return np.where(p < take, below_take, -1.0 + (rw + 1.0) * (p - take) / (1.0 - take))


def _money_cubeful(p: Array, state: CubeState, x: Array) -> Array:
    """Cubeful money equity per cube value (gnubg's Cl2CfMoney)."""
    win = p[:, 0]
    dead = _utility(p, state)
    alive = (win > 1e-7) & (win < 0.9999999)
    if not alive.any():
        return dead
    safe = np.where(alive, win, 0.5)
    rw = 1.0 + (p[:, 1] + p[:, 2]) / safe
    rl = 1.0 + (p[:, 3] + p[:, 4]) / (1.0 - safe)
    with np.errstate(divide="ignore", invalid="ignore"):
        live = _money_live(rw, rl, safe, state)
    return np.where(alive, dead * (1.0 - x) + live * x, dead)


def money_cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful money equity per cube value (gnubg's Cl2CfMoney)."""
    return float(_money_cubeful(np.asarray([probs], dtype=float), state, np.asarray([x]))[0])


# --- cubeful 0-ply: match play -------------------------------------------------


def _ratios(p: Array) -> tuple[Array, Array, Array, Array]:
    """Gammon and backgammon ratios of the side on roll's wins and losses."""
    win = p[:, 0]
    wins = win > 0.0
    losses = win < 1.0
    w = np.where(wins, win, 1.0)
    lose = np.where(losses, 1.0 - win, 1.0)
    g0 = np.where(wins, (p[:, 1] - p[:, 2]) / w, 0.0)
    b0 = np.where(wins, p[:, 2] / w, 0.0)
    g1 = np.where(losses, (p[:, 3] - p[:, 4]) / lose, 0.0)
    b1 = np.where(losses, p[:, 4] / lose, 0.0)
    return g0, b0, g1, b1


def _prime(i: int, j: int, cube: int) -> int:
    """The cube after a double when the other side redoubles at once (gnubg's GetCubePrimeValue)."""
    return 2 * cube if i < 2 * cube <= j else cube


class _Results:
    """Player ``k``'s MWC after each result at one score (gnubg's
    getMEMultiple), remembered: one object per score (:func:`_results`)."""

    def __init__(self, state: CubeState) -> None:
        self.args = (state.score, state.length, state.crawford)
        self.table = state.table
        self.seen: dict[tuple[int, int], float] = {}

    def _player0(self, winner: int, points: int) -> float:
        key = (winner, points)
        if key not in self.seen:
            self.seen[key] = self.table.after(*self.args, winner, points)
        return self.seen[key]

    def win(self, k: int, points: int) -> float:
        mine = self._player0(k, points)
        return mine if k == 0 else 1.0 - mine

    def lose(self, k: int, points: int) -> float:
        mine = self._player0(1 - k, points)
        return mine if k == 0 else 1.0 - mine


@lru_cache(maxsize=1 << 12)
def _results(state: CubeState) -> _Results:
    return _Results(state)


def _cash_points(p: Array, state: CubeState) -> tuple[Array, Array]:
    """Each player's live-cube cash point in chances of winning (gnubg's GetPoints)."""
    i = state.length - state.score[0] - 1
    j = state.length - state.score[1] - 1
    g0, b0, g1, b1 = _ratios(p)
    gammons = {state.mover: (g0, b0), 1 - state.mover: (g1, b1)}
    results = _results(replace(state, value=1, owner=None, mover=0))
    dead, top = state.value, 0
    while i >= 2 * dead and j >= 2 * dead:
        top += 1
        dead *= 2
    live: dict[tuple[int, int], Array] = {}
    cube, n = dead, top
    while cube >= state.value:
        primes = (_prime(i, j, cube), _prime(j, i, cube))
        for k in (0, 1):
            gk, bk = gammons[k]
            go, bo = gammons[1 - k]
            if i < 2 * cube or j < 2 * cube:
                cp = primes[k]
                dtl = (
                    (1.0 - go - bo) * results.lose(k, 2 * cp)
                    + go * results.lose(k, 4 * cp)
                    + bo * results.lose(k, 6 * cp)
                )
                dp = results.win(k, cube)
                dtw = (
                    (1.0 - gk - bk) * results.win(k, 2 * cp) + gk * results.win(k, 4 * cp) + bk * results.win(k, 6 * cp)
                )
                live[(k, n)] = (dtl - dp) / (dtl - dtw)
            else:
                rdp = results.lose(k, 2 * cube)
                dp = results.win(k, cube)
                dtw = (
                    (1.0 - gk - bk) * results.win(k, 2 * cube)
                    + gk * results.win(k, 4 * cube)
                    + bk * results.win(k, 6 * cube)
                )
                live[(k, n)] = 1.0 - live[(1 - k, n + 1)] * (dp - dtw) / (rdp - dtw)
        cube //= 2
        n -= 1
    return live[(0, 0)], live[(1, 0)]


def _live_cube(state: CubeState) -> bool:
    """gnubg's fDoCubeful: is the cube alive at this score?"""
    length, (s0, s1), cube = state.length, state.score, state.value
    if s0 + cube >= length and s1 + cube >= length:
        return False
    if s0 == length - 2 and s1 == length - 2:
        return False
    return not state.crawford


def _line(x0: Array | float, y0: Array | float, x1: Array | float, y1: Array | float, x: Array) -> Array:
    """The line through (x0, y0) and (x1, y1) at x; y1 where x1 == x0."""
    width = np.asarray(x1 - x0, dtype=float)
    step = np.divide(x - x0, width, out=np.ones_like(x), where=width != 0.0)
    return np.asarray(y0 + (y1 - y0) * step)


def _match_cubeful(p: Array, state: CubeState, x: Array) -> Array:
    """Cubeful MWC of the side on roll (gnubg's Cl2CfMatch)."""
    win_lose = state.win_lose()
    dead = 0.5 * (_utility(p, state) * (win_lose[0] - win_lose[1]) + (win_lose[0] + win_lose[1]))
    if not _live_cube(state):
        return dead
    win = p[:, 0]
    g0, b0, g1, b1 = _ratios(p)
    me, value = state.mover, state.value
    results = _results(replace(state, value=1, owner=None, mover=0))
    cash = results.win(me, value)
    opp_cash = results.lose(me, value)
    mwc_win = (1.0 - g0 - b0) * cash + g0 * results.win(me, 2 * value) + b0 * results.win(me, 3 * value)
    mwc_lose = (1.0 - g1 - b1) * opp_cash + g1 * results.lose(me, 2 * value) + b1 * results.lose(me, 3 * value)
    with np.errstate(divide="ignore", invalid="ignore"):
        points = _cash_points(p, state)
    too_good, opp_too_good = points[me], 1.0 - points[1 - me]
    lower = _line(0.0, mwc_lose, opp_too_good, opp_cash, win)  # the opponent too good to double
    upper = _line(too_good, cash, 1.0, mwc_win, win)  # too good to double
    if state.owner is None:
        window = _line(opp_too_good, opp_cash, too_good, cash, win)
        live = np.where(win <= opp_too_good, lower, np.where(win < too_good, window, upper))
    elif state.owner == me:
        live = np.where(win <= too_good, _line(0.0, mwc_lose, too_good, cash, win), upper)
    else:
        live = np.where(win <= opp_too_good, lower, _line(opp_too_good, opp_cash, 1.0, mwc_win, win))
    return dead * (1.0 - x) + live * x


def match_cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful MWC of the side on roll (gnubg's Cl2CfMatch)."""
    return float(_match_cubeful(np.asarray([probs], dtype=float), state, np.asarray([x]))[0])


def cubeful_many(p: Array, state: CubeState, x: Array) -> Array:
    """:func:`cubeful` of many positions: ``p`` an (n, 5) array, ``x`` their efficiencies."""
    if not state.length:
        return _money_cubeful(p, state, x)
    win, lose = state.win_lose()
    return (2.0 * _match_cubeful(p, state, x) - (win + lose)) / (win - lose)


def cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful equity of the side on roll in EMG (money: per cube value)."""
    return float(cubeful_many(np.asarray([probs], dtype=float), state, np.asarray([x]))[0])


def _double_values(p: Array, state: CubeState, x: Array, nd: Array) -> tuple[Array, float]:
    """Double/take (per the old cube value) and double/pass equities (EMG)."""
    if state.length:
        win, lose = state.win_lose()
        dt = (2.0 * _match_cubeful(p, state.doubled(), x) - (win + lose)) / (win - lose)
        return dt, double_pass(state)
    return 2.0 * _money_cubeful(p, state.doubled(), x), double_pass(state)


def on_roll_many(p: Array, state: CubeState, x: Array) -> Array:
    """The cubeful equity (EMG) of the side on roll free to double now: the
    better of no double and the opponent's best answer to a double
    (gnubg's getECF3; the cube not available: no double)."""
    nd = cubeful_many(p, state, x)
    if not state.available():
        return nd
    dt, dp = _double_values(p, state, x, nd)
    return np.where((dt >= nd) & (dp >= nd), np.minimum(dt, dp), nd)


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


def cube_decision_many(p: Array, state: CubeState, x: Array) -> list[CubeDecision]:
    """:func:`cube_decision` of many positions at one cube state: ``p`` an
    (n, 5) array, ``x`` their efficiencies."""
    nd = cubeful_many(p, state, x)
    if not state.available():
        return [CubeDecision(v, v, v, v, "no double (cube not available)", False) for v in nd.tolist()]
    dt, dp = _double_values(p, state, x, nd)
    out = []
    for no_double, take, gammons in zip(nd.tolist(), dt.tolist(), (p[:, 1] > 0.0).tolist()):
        optimal, action = best_cube_action(no_double, take, dp, gammons, state)
        out.append(CubeDecision(no_double, take, dp, optimal, action, True))
    return out


def recorded_decision(no_double: float, double_take: float, gammons: bool, state: CubeState) -> CubeDecision:
    """A cube decision from an analyser's cubeful no double and double/take
    equities in gnubg's units (match winning chances in a match, EMG for
    money): as gnubg's FindCubeDecision turns its SGF's ``DA`` into EMG
    (double/pass: the cash, +1). ``gammons``: are gammons possible?

    >>> d = recorded_decision(0.6, 0.45, False, CubeState())
    >>> d.optimal, d.action
    (0.6, 'no double, take')
    """
    nd, dt = (mwc2eq(no_double, state), mwc2eq(double_take, state)) if state.length else (no_double, double_take)
    dp = double_pass(state)
    optimal, action = best_cube_action(nd, dt, dp, gammons, state)
    return CubeDecision(nd, dt, dp, optimal, action, True)


def best_cube_action(nd: float, dt: float, dp: float, gammons: bool, state: CubeState) -> tuple[float, str]:
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
