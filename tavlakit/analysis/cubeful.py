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
>>> decision = cube_decision((0.75, 0.2, 0.01, 0.05, 0.0), state, efficiency=0.68)
>>> decision.action, round(decision.no_double, 3), round(decision.double_take, 3)
('double, take', 0.755, 0.917)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Sequence

from ..position import Position
from .equity import Probabilities
from .met import MatchEquityTable, default_met

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
        return (not self.crawford and self.score[self.mover] + self.value < self.length
                and not (post_crawford and self.score[self.mover] == self.length - 1))

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


def utility(probs: Probabilities, state: CubeState) -> float:
    """The cubeless equity of the side on roll (EMG in match play), with the
    score's gammon prices (gnubg's Utility)."""
    win, wg, wbg, lg, lbg = probs
    prices = gammon_prices(state)
    me, you = state.mover, 1 - state.mover
    return 2.0 * win - 1.0 + wg * prices[me] - lg * prices[you] + wbg * prices[2 + me] - lbg * prices[2 + you]


def efficiency(pos: Position) -> float:
    """gnubg's cube efficiency of a position (side to move on roll)."""
    mover, opponent = pos.points()
    return efficiency_of(mover, opponent)


def efficiency_of(mover: Sequence[int], opponent: Sequence[int]) -> float:
    """:func:`efficiency` from gnubg-style boards: the side on roll's 25
    counts and the other side's (own numbering, index 24 the bar)."""
    if not any(mover) or not any(opponent):
        return 0.0  # the game is over
    if _contact(mover, opponent):
        return CONTACT_X
    if not any(mover[6:]) and not any(opponent[6:]):
        return BEAROFF_X
    pips = sum((i + 1) * n for i, n in enumerate(mover))
    return min(RACE_MAX, max(RACE_MIN, pips * RACE_FACTOR + RACE_COEFFICIENT))


def _contact(mover: Sequence[int], opponent: Sequence[int]) -> bool:
    """Some checker of a side still has to pass one of the other's."""
    back = max((i for i in range(25) if mover[i]), default=-1)  # the mover's rearmost checker (own numbering)
    their_back = max((i for i in range(25) if opponent[i]), default=-1)
    return back >= 0 and their_back >= 0 and back + their_back >= 23


# --- cubeful 0-ply: money ------------------------------------------------------


def _money_live(rw: float, rl: float, p: float, state: CubeState) -> float:
    if state.owner is None:
        take = (rl - 0.5) / (rw + rl + 0.5)
        cash = (rl + 1.0) / (rw + rl + 0.5)
        if p < take:
            return -1.0 if state.jacoby else -rl + (-1.0 + rl) * p / take
        if p < cash:
            return -1.0 + 2.0 * (p - take) / (cash - take)
        return 1.0 if state.jacoby else 1.0 + (rw - 1.0) * (p - cash) / (1.0 - cash)
    if state.owner == state.mover:
        cash = (rl + 1.0) / (rw + rl + 0.5)
        if p < cash:
            return -rl + (1.0 + rl) * p / cash
        return 1.0 + (rw - 1.0) * (p - cash) / (1.0 - cash)
    take = (rl - 0.5) / (rw + rl + 0.5)
    if p < take:
        return -rl + (-1.0 + rl) * p / take
    return -1.0 + (rw + 1.0) * (p - take) / (1.0 - take)


def money_cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful money equity per cube value (gnubg's Cl2CfMoney)."""
    win, wg, wbg, lg, lbg = probs
    dead = utility(probs, state)
    if win <= 1e-7 or win >= 0.9999999:
        return dead
    rw = 1.0 + (wg + wbg) / win
    rl = 1.0 + (lg + lbg) / (1.0 - win)
    return dead * (1.0 - x) + _money_live(rw, rl, win, state) * x


# --- cubeful 0-ply: match play -------------------------------------------------


def _ratios(probs: Probabilities) -> tuple[float, float, float, float]:
    """Gammon and backgammon ratios of the side on roll's wins and losses."""
    win, wg, wbg, lg, lbg = probs
    g0, b0 = ((wg - wbg) / win, wbg / win) if win > 0.0 else (0.0, 0.0)
    g1, b1 = ((lg - lbg) / (1.0 - win), lbg / (1.0 - win)) if win < 1.0 else (0.0, 0.0)
    return g0, b0, g1, b1


def _prime(i: int, j: int, cube: int) -> int:
    """The cube after a double when the other side redoubles at once (gnubg's GetCubePrimeValue)."""
    return 2 * cube if i < 2 * cube <= j else cube


class _Results:
    """Player ``k``'s MWC after each result at the state's score (gnubg's
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
    return _Results(replace(state, value=1, owner=None, mover=0))


def _cash_points(probs: Probabilities, state: CubeState) -> tuple[float, float]:
    """Each player's live-cube cash point in chances of winning (gnubg's GetPoints)."""
    i = state.length - state.score[0] - 1
    j = state.length - state.score[1] - 1
    g0, b0, g1, b1 = _ratios(probs)
    gammons = {state.mover: (g0, b0), 1 - state.mover: (g1, b1)}
    dead, top = state.value, 0
    while i >= 2 * dead and j >= 2 * dead:
        top += 1
        dead *= 2
    live: dict[tuple[int, int], float] = {}
    cube, n = dead, top
    while cube >= state.value:
        primes = (_prime(i, j, cube), _prime(j, i, cube))
        results = _results(state)
        for k in (0, 1):
            gk, bk = gammons[k]
            go, bo = gammons[1 - k]
            if i < 2 * cube or j < 2 * cube:
                cp = primes[k]
                dtl = ((1.0 - go - bo) * results.lose(k, 2 * cp) + go * results.lose(k, 4 * cp)
                       + bo * results.lose(k, 6 * cp))
                dp = results.win(k, cube)
                dtw = ((1.0 - gk - bk) * results.win(k, 2 * cp) + gk * results.win(k, 4 * cp)
                       + bk * results.win(k, 6 * cp))
                live[(k, n)] = (dtl - dp) / (dtl - dtw)
            else:
                rdp = results.lose(k, 2 * cube)
                dp = results.win(k, cube)
                dtw = ((1.0 - gk - bk) * results.win(k, 2 * cube) + gk * results.win(k, 4 * cube)
                       + bk * results.win(k, 6 * cube))
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


def match_cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful MWC of the side on roll (gnubg's Cl2CfMatch)."""
    dead = eq2mwc(utility(probs, state), state)
    if not _live_cube(state):
        return dead
    win = probs[0]
    g0, b0, g1, b1 = _ratios(probs)
    me = state.mover
    results = _results(state)
    cash = results.win(me, state.value)
    opp_cash = results.lose(me, state.value)
    mwc_win = (1.0 - g0 - b0) * cash + g0 * results.win(me, 2 * state.value) + b0 * results.win(me, 3 * state.value)
    mwc_lose = ((1.0 - g1 - b1) * opp_cash + g1 * results.lose(me, 2 * state.value)
                + b1 * results.lose(me, 3 * state.value))
    points = _cash_points(probs, state)
    too_good, opp_too_good = points[me], 1.0 - points[1 - me]
    if state.owner is None:
        if win <= opp_too_good:
            live = mwc_lose + (opp_cash - mwc_lose) * win / opp_too_good if opp_too_good > 0.0 else mwc_lose
        elif win < too_good:
            live = opp_cash + (cash - opp_cash) * (win - opp_too_good) / (too_good - opp_too_good)
        else:
            live = cash + (mwc_win - cash) * (win - too_good) / (1.0 - too_good) if too_good < 1.0 else mwc_win
    elif state.owner == me:
        if win <= too_good:
            live = mwc_lose + (cash - mwc_lose) * win / too_good if too_good > 0.0 else mwc_lose
        else:
            live = cash + (mwc_win - cash) * (win - too_good) / (1.0 - too_good) if too_good < 1.0 else mwc_win
    else:
        if win <= opp_too_good:
            live = mwc_lose + (opp_cash - mwc_lose) * win / opp_too_good if opp_too_good > 0.0 else mwc_lose
        else:
            live = opp_cash + (mwc_win - opp_cash) * (win - opp_too_good) / (1.0 - opp_too_good)
    return dead * (1.0 - x) + live * x


def cubeful(probs: Probabilities, state: CubeState, x: float) -> float:
    """Cubeful equity of the side on roll in EMG (money: per cube value)."""
    if not state.length:
        return money_cubeful(probs, state, x)
    return mwc2eq(match_cubeful(probs, state, x), state)


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
    nd = cubeful(probs, state, efficiency)
    if not state.available():
        return CubeDecision(nd, nd, nd, nd, "no double (cube not available)", False)
    if state.length:
        doubled = state.doubled()
        dt = mwc2eq(match_cubeful(probs, doubled, efficiency), state)
        dp = mwc2eq(state.mwc(state.mover, state.value), state)
    else:
        dt = 2.0 * money_cubeful(probs, state.doubled(), efficiency)
        dp = 1.0
    optimal, action = _best(nd, dt, dp, probs[1] > 0.0, state)
    return CubeDecision(nd, dt, dp, optimal, action, True)


def _best(nd: float, dt: float, dp: float, gammons: bool, state: CubeState) -> tuple[float, str]:
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
    "BEAROFF_X", "CONTACT_X", "CubeDecision", "CubeState", "cube_decision", "cubeful", "efficiency", "efficiency_of",
    "eq2mwc",
    "gammon_prices", "match_cubeful", "money_cubeful", "mwc2eq", "mwc_scale", "utility",
]
