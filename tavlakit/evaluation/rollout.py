"""Rollout trials, compiled: positions played out to the end (or to a truncation) many times.

A rollout plays each alternative (a play's result, or the cube left or
doubled) out many times with the same dice for each, both sides playing
at 0 ply as gnubg 1.07's rollout does at its default chequer play
(``BasicCubefulRollout`` of its ``rollout.c``):

* **dice**: trial ``i``'s roll at turn ``t`` depends only on the seed,
  ``i`` and ``t`` (any split of the trials over processes or machines
  gives the same games). gnubg's quasi-random dice: for each of the first
  128 turns, six generations of permutations of the 36 throws, drawn from
  the seed; turn ``t`` of trial ``i`` takes ``j = perm[0][t][i mod 36]``,
  then for each generation ``g`` up to ``t`` ``j = perm[g][t][(i / 36**g +
  j) mod 36]``, so every 36 trials see each first roll once, every 1296
  each pair of first two rolls once. Past turn 128 (or with rotation off)
  a throw comes from a counter-based hash of (seed, trial, turn). The
  permutations are drawn by this module's own generator (splitmix64,
  stable across numpy releases), not gnubg's ISAAC: the scheme is gnubg's,
  the dice are not the same ones;
* **cube** (cubeful rollouts): before each roll the side on roll doubles
  where gnubg's 0-ply cube decision says so (:mod:`.cubeful`: no double
  and double/take, the side on roll free to double); the other side takes
  or passes as that decision says (a pass ends the trial at the cash);
  Crawford, Jacoby and the score come from the cube state;
* **chequer play**: of each roll's plays (gnubg's move generator,
  :mod:`.moves`), all scored by the full nets (:mod:`.net_inputs`), the
  one leaving the opponent the least cubeful 0-ply value (free to double;
  cubeless: the cubeless value at the score), of equal ones the lowest
  cubeless value, then the first in gnubg's order;
* **variance reduction**: each turn the best play of each of the 21 rolls
  is scored (the net's luck of the roll, as :mod:`tavlakit.analysis.judge`
  judges luck), and the difference between their mean and the roll thrown
  is added to the trial's result, for each output;
* **end of a trial**: the game over (scored by the rules: a mars by
  either of Tavla's definitions, a backgammon only where the rules have
  one), a double passed, the truncation (``truncate`` plies: the 0-ply
  cubeful evaluation of the side on roll, free to double), or, as gnubg by
  default, a bear-off database reached (money cubeful: the two-sided one;
  cubeless: either).

Each trial gives seven numbers for the side on roll at its start: the five
chances (win, win gammon, win backgammon, lose gammon, lose backgammon),
the cubeless equity (EMG at the cube's gammon prices) and the cubeful one
(money: points per cube value of the position rolled out; a match: match
winning chances). Trials are played in lockstep batches: each turn lists
the plays of every game's rolls in one compiled call and scores them in
another (gnubg-nn is asked, between the two, for the few race boards
whose backgammon chance gnubg takes from its table).
"""

from __future__ import annotations

import threading
from dataclasses import KW_ONLY, dataclass, replace
from typing import NamedTuple

import gnubg_nn  # type: ignore[import-untyped]
import numpy as np
from numpy.typing import NDArray

from .cubeful import CubeState, cube_inputs, cubeful_into, emg_of, free_to_double, utility_of
from .jit import jit
from .levels import NORMAL_FILTER, MoveFilter
from .lookahead import Cubes, Lookahead, cube_inputs_into, cubes_for, index_of
from .moves import DICE, WEIGHTS, Room, room, turns
from .net import evaluate, evaluator_in_use
from .net_inputs import BEAROFF1, BEAROFF2, OVER, Evaluator, classify_into, evaluate_into, needs_table, rooms

Bytes = NDArray[np.int8]
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

#: The seven numbers of a trial: five chances, the cubeless and the cubeful equity.
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "cubeless", "cubeful")
#: Turns with quasi-random dice (gnubg's QRLEN), and the generations of permutations.
QUASI_TURNS, GENERATIONS = 128, 6
_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Settings:
    """How a rollout is played: ``trials``; ``truncate`` plies (0: to the
    end); ``seed``; ``cubeful``; ``variance_reduction``; ``rotate``
    (quasi-random dice); ``bearoff``: end a trial in gnubg's bear-off
    databases, as gnubg does by default (money cubeful: the two-sided
    one; cubeless: either); ``plies`` and ``kept``: how deep each trial's
    decisions look."""

    trials: int = 1296
    truncate: int = 0
    seed: int = 1
    _: KW_ONLY
    cubeful: bool = True
    variance_reduction: bool = True
    rotate: bool = True
    bearoff: bool = True
    plies: int = 0
    """The plies of each trial's chequer play and cube decisions: 0, or 1 or
    2 (the plays ``kept`` by the move filter valued by the look-ahead)."""
    kept: MoveFilter = NORMAL_FILTER


@dataclass(frozen=True)
class Alternative:
    """One thing rolled out: ``board`` (gnubg's ``(2, 25)``, the side on
    roll second) with the side on roll under ``state``; ``top``: may it
    double before its first roll (a play's result: the opponent may; a
    cube decision rolled out: not)."""

    board: tuple[tuple[int, ...], tuple[int, ...]]
    state: CubeState
    _: KW_ONLY
    top: bool


# --- dice ------------------------------------------------------------------------------------------------


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def permutations(seed: int) -> NDArray[np.uint8]:
    """gnubg's quasi-random permutations ``(6, 128, 36)`` for ``seed``
    (generation g is drawn for turns g and later), by Fisher-Yates with
    splitmix64."""
    perm = np.tile(np.arange(36, dtype=np.uint8), (GENERATIONS, QUASI_TURNS, 1))
    state = _splitmix(seed & _MASK)
    for g in range(GENERATIONS):
        for t in range(g, QUASI_TURNS):
            row = perm[g, t]
            for k in range(35):
                state = _splitmix(state)
                r = k + state % (36 - k)
                row[k], row[r] = row[r], row[k]
    return perm


def _hashed(seed: int, trials: Ints, turn: int) -> Ints:
    """A throw 0-35 per trial from a hash of (seed, trial, turn)."""
    with np.errstate(over="ignore"):
        x = trials.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(_splitmix(seed * 1000003 + turn))
        for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
            x = (x ^ (x >> np.uint64(shift))) * np.uint64(factor)
        x ^= x >> np.uint64(31)
    return (x % np.uint64(36)).astype(np.int64)


def throws(perm: NDArray[np.uint8], seed: int, trials: Ints, turn: int, *, rotate: bool = True) -> Ints:
    """The throw (0-35: ``6 * (die - 1) + (other die - 1)``) of each trial at ``turn``."""
    if not rotate or turn >= QUASI_TURNS:
        return _hashed(seed, trials, turn)
    j = np.zeros(len(trials), dtype=np.int64)
    k = 1
    for g in range(min(GENERATIONS, turn + 1)):
        j = perm[g, turn, (trials // k + j) % 36].astype(np.int64)
        k *= 36
    return j


def roll_index(throw: Ints) -> Ints:
    """The roll of each throw as a row of :data:`.moves.DICE` (larger die first)."""
    a, b = throw // 6 + 1, throw % 6 + 1
    high, low = np.maximum(a, b), np.minimum(a, b)
    found: Ints = high * (high - 1) // 2 + low - 1
    return found


# --- the compiled steps ----------------------------------------------------------------------------------


@jit
def _flags(boards: Bytes, kinds: Ints, flags: NDArray[np.bool_]) -> None:
    for m in range(len(boards)):
        flags[m] = needs_table(boards[m], kinds[m])


@jit
def _score_over(board: Bytes, p: Floats, outside_home: bool, backgammon: bool) -> None:
    """The chances of a finished game by the rules, for the side on roll
    (who lost): a mars when it has borne off none, or (``outside_home``)
    when a chequer of it is still outside its home board or on the bar; a
    backgammon (``backgammon``) when, beside, one is in the winner's home
    board or on the bar."""
    left = outside = back = 0
    for q in range(25):
        left += board[1, q]
        outside += board[1, q] if q >= 6 else 0
        back += board[1, q] if q >= 18 else 0
    mars = outside > 0 if outside_home else left == 15
    p[0] = p[1] = p[2] = 0.0
    p[3] = 1.0 if mars else 0.0
    p[4] = 1.0 if mars and backgammon and back > 0 else 0.0


@jit
def mwc_of(emg: float, row: Floats) -> float:
    """EMG to MWC under a cube row (the inverse of :func:`.cubeful.emg_of`)."""
    low = emg_of(0.0, row)
    return (emg - low) / (emg_of(1.0, row) - low)


@jit
def _value(p: Floats, c: Floats, here: int, cubes: Cubes, cubeful: bool, g: Floats) -> float:
    """The side on roll's 0-ply value under cube position ``here``, free to
    double (cubeless: the utility; money per cube value, MWC in a match)."""
    row = cubes.rows[here]
    if not cubeful:
        u = utility_of(p, row)
        return u if cubes.money else mwc_of(u, row)
    nd = cubeful_into(p, c, row, g)
    doubled = cubes.double[here]
    if doubled < 0:
        return nd
    dt = cubeful_into(p, c, cubes.rows[doubled], g)
    return free_to_double(nd, dt * 2.0 if cubes.money else dt, row)


@jit
def _cubeless(p: Floats, row: Floats, money: bool) -> float:
    """gnubg's cubeless equity as a rollout reports it (its UtilityME):
    money, gammons and backgammons at full price; a match, at the score's."""
    if money:
        return float(2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4])
    return utility_of(p, row)


@jit
def _scale(here: int) -> float:
    """The cube of position ``here`` over the search's base cube."""
    return float(1 << (here // 6))


@jit
def _mine(p: Floats, c: Floats, here: int, cubes: Cubes, cubeful: bool, g: Floats, out: Floats) -> None:
    """The seven outputs of the side on roll (cube position ``here``)."""
    for k in range(5):
        out[k] = p[k]
    out[5] = _cubeless(p, cubes.rows[here], cubes.money)
    v = _value(p, c, here, cubes, cubeful, g)
    out[6] = v * _scale(here) if cubes.money else v


@jit
def _choose(
    moved: Bytes,
    kinds: Ints,
    probs: Floats,
    counts: Ints,
    games: Ints,
    cube_of: Ints,
    cubes: Cubes,
    cubeful: bool,
    outside_home: bool,
    backgammon: bool,
    ev: Evaluator,
    c: Floats,
    g: Floats,
    two: NDArray[np.float32],
    picks: Ints,
    chosen_p: Floats,
    chosen_c: Floats,
    out: Floats,
    values: Floats,
) -> None:
    """For each (game, roll) j, the play chosen (``picks[j]``, a row of
    ``moved``), its chances and cube inputs (the opponent on roll), and
    the seven outputs of the side that played it; ``values[m]``: the
    opponent's 0-ply value after each play (the least is chosen)."""
    at = 0
    for j in range(len(counts)):
        here = cube_of[games[j]]
        them = cubes.flip[here]
        row = cubes.rows[them]
        best_v = best_u = np.inf
        pick = at
        for m in range(at, at + counts[j]):
            p = probs[m]
            if kinds[m] == OVER:
                _score_over(moved[m], p, outside_home, backgammon)
            elif not backgammon:
                p[2] = p[4] = 0.0
            cube_inputs_into(moved[m], kinds[m], ev.db, c, two)
            v = values[m] = _value(p, c, them, cubes, cubeful, g)
            u = _cubeless(p, row, cubes.money)  # gnubg breaks ties by the money equity, gammons counted
            if v < best_v or (v == best_v and u < best_u):
                best_v, best_u, pick = v, u, m
        at += counts[j]
        _fill(j, pick, best_v, moved, kinds, probs, them, cubes, ev, c, two, picks, chosen_p, chosen_c, out)


@jit
def _fill(
    j: int,
    pick: int,
    v: float,
    moved: Bytes,
    kinds: Ints,
    probs: Floats,
    them: int,
    cubes: Cubes,
    ev: Evaluator,
    c: Floats,
    two: NDArray[np.float32],
    picks: Ints,
    chosen_p: Floats,
    chosen_c: Floats,
    out: Floats,
) -> None:
    """Row ``j`` of :func:`_choose`'s answers: the play ``pick``, leaving
    the opponent (cube position ``them``) value ``v``."""
    picks[j] = pick
    p = probs[pick]
    cube_inputs_into(moved[pick], kinds[pick], ev.db, c, two)
    for k in range(5):
        chosen_p[j, k] = p[k]
        chosen_c[j, k] = c[k]
    out[j, 0], out[j, 1], out[j, 2], out[j, 3], out[j, 4] = 1.0 - p[0], p[3], p[4], p[1], p[2]
    out[j, 5] = -_cubeless(p, cubes.rows[them], cubes.money)
    if cubes.money:
        out[j, 6] = -v * _scale(them)
    else:
        out[j, 6] = 1.0 - v


@jit
def _keep(
    values: Floats,
    starts: Ints,
    counts: Ints,
    mover_of: Ints,
    cubes: Cubes,
    kept: Floats,
    scores: Floats,
    out: NDArray[np.bool_],
) -> None:
    """gnubg's move filter (``kept``: accept, extra, threshold, as
    :class:`.levels.MoveFilter`) over each (game, roll)'s plays
    ``starts[j]`` ... by the mover's 0-ply equity (EMG: the opponent's
    value turned, into ``scores``): ``out[m]`` for each play kept, the
    first of equal ones first."""
    accept, extra, threshold = int(kept[0]), int(kept[1]), kept[2]
    for j in range(len(starts)):
        s, n = starts[j], counts[j]
        row = cubes.rows[cubes.flip[mover_of[j]]]
        top = -np.inf
        for m in range(s, s + n):
            scores[m] = -values[m] if cubes.money else -emg_of(values[m], row)
            top = max(top, scores[m])
        for taken in range(max(1, min(n, accept + extra))):
            best, score = -1, -np.inf
            for m in range(s, s + n):
                if not out[m] and scores[m] > score:
                    best, score = m, scores[m]
            if taken >= accept and score < top - threshold:
                break
            out[best] = True


@jit
def _cube_values(
    p: Floats, c: Floats, cube_of: Ints, games: Ints, cubes: Cubes, g: Floats, nd: Floats, dt: Floats
) -> None:
    """The 0-ply no double and double/take values of each game's side on
    roll (money: per cube value of each; left as they are where it may not double)."""
    for j in range(len(games)):
        i = games[j]
        doubled = cubes.double[cube_of[i]]
        if doubled >= 0:
            nd[j] = cubeful_into(p[i], c[i], cubes.rows[cube_of[i]], g)
            dt[j] = cubeful_into(p[i], c[i], cubes.rows[doubled], g)


@jit
def _cube_answers(
    nd: Floats, dt: Floats, p: Floats, cube_of: Ints, games: Ints, cubes: Cubes, actions: Ints, out: Floats
) -> None:
    """The cube action of each game's side on roll (0: none, 1:
    double/take, 2: double/pass, ``out[j]`` its outputs: the chances and
    the cash) from its no double and double/take values (NaN: it may not
    double; money: per cube value of each)."""
    for j in range(len(games)):
        i = games[j]
        here = cube_of[i]
        actions[j] = 0
        if np.isnan(nd[j]):
            continue
        row = cubes.rows[here]
        taken = dt[j] * 2.0 if cubes.money else dt[j]
        dp = 1.0 if cubes.money else mwc_of(1.0, row)
        if taken >= nd[j] and dp >= nd[j]:
            actions[j] = 1 if dp > taken else 2
            for k in range(5):
                out[j, k] = p[i, k]
            out[j, 5] = _cubeless(p[i], row, cubes.money)
            out[j, 6] = _scale(here) if cubes.money else dp


@jit
def _evaluations(
    p: Floats, c: Floats, cube_of: Ints, games: Ints, cubes: Cubes, cubeful: bool, g: Floats, out: Floats
) -> None:
    """The 0-ply outputs of each game's side on roll (truncation)."""
    for j in range(len(games)):
        i = games[j]
        _mine(p[i], c[i], cube_of[i], cubes, cubeful, g, out[j])


# --- playing trials --------------------------------------------------------------------------------------


class _Scratch(NamedTuple):
    """Room for the kernels of one thread."""

    room: Room
    c: Floats
    g: Floats
    two: NDArray[np.float32]
    ev: Evaluator  # the nets in use with room of the thread's own
    lookahead: Lookahead


class _Played(NamedTuple):
    """What :meth:`Trials._play` found: per (game, roll) pair the play chosen
    at 0 ply (``picks``, rows of ``moved``), its chances, cube inputs and
    outputs; per play, its chances and the opponent's value after it."""

    picks: Ints
    chosen_p: Floats
    chosen_c: Floats
    out: Floats
    moved: Bytes
    kinds: Ints
    probs: Floats
    values: Floats
    counts: Ints
    games: Ints


class Trials:
    """Plays the trials of a rollout of ``alternatives`` under ``rules``
    (their backgammon and mars options) with ``settings``;
    :meth:`run` plays any range of them. The alternatives share their
    score and the base of their cube (a cube decision: the cube and the
    cube doubled)."""

    def __init__(
        self, alternatives: list[Alternative], settings: Settings, *, backgammon: bool, outside_home: bool
    ) -> None:
        self.alternatives = alternatives
        self.settings = settings
        self.backgammon = backgammon
        self.outside_home = outside_home
        base = replace(alternatives[0].state, owner=None, mover=0)
        base = replace(base, value=min(a.state.value for a in alternatives))
        self.base = base
        self.cubes = cubes_for(base)
        self.cube0 = np.array([index_of(a.state, base) for a in alternatives], dtype=np.int64)
        self.boards0 = np.array([a.board for a in alternatives], dtype=np.int8)
        p0 = evaluate(self.boards0)
        if not backgammon:
            p0[:, 2] = p0[:, 4] = 0.0
        self.p0, self.c0 = p0, cube_inputs(self.boards0)
        self.top = np.array([a.top for a in alternatives], dtype=np.bool_)
        self.perm = permutations(settings.seed)
        self._table: dict[bytes, Floats] = {}
        self._local = threading.local()  # scratch of each thread's own (a Dask worker runs tasks on threads)

    def run(self, first: int, count: int) -> Floats:
        """Trials ``first`` to ``first + count - 1``: ``(count, alternatives, 7)``,
        each for the side on roll at the alternative's start."""
        s, n_alt = self.settings, len(self.alternatives)
        n = count * n_alt
        trial = first + np.arange(n, dtype=np.int64) // n_alt
        alt = np.arange(n, dtype=np.int64) % n_alt
        boards = self.boards0[alt].copy()
        cube = self.cube0[alt].copy()
        p, c = self.p0[alt].copy(), self.c0[alt].copy()
        alive = np.ones(n, dtype=np.bool_)
        result = np.zeros((n, 7))
        luck = np.zeros((n, 7))
        money = self.cubes.money
        turn = 0
        while alive.any() and (not s.truncate or turn < s.truncate):
            games = np.flatnonzero(alive)
            self._bearoff(games, boards, cube, p, c, turn, alive, result)
            games = np.flatnonzero(alive)
            if s.cubeful and len(games):
                self._cube(games, boards, cube, p, c, turn, alt, alive, result)
                games = np.flatnonzero(alive)
            if not len(games):
                break
            rolled = roll_index(throws(self.perm, s.seed, trial[games], turn, rotate=s.rotate))
            # games in the same position under the same cube (all of them at first, many in the first turns)
            # are played once: their plays and the variance reduction's 21 rolls are the same
            columns = [boards[games].reshape(len(games), 50).astype(np.int16), cube[games, None].astype(np.int16)]
            if not s.variance_reduction:
                columns.append(rolled[:, None].astype(np.int16))
            _rows, first_of, inverse = np.unique(np.hstack(columns), axis=0, return_index=True, return_inverse=True)
            inverse, reps = inverse.reshape(-1), games[first_of]
            if s.variance_reduction:
                pair_games, pair_rolls = np.repeat(reps, 21), np.tile(np.arange(21), len(reps))
            else:
                pair_games, pair_rolls = reps, rolled[first_of]
            played = self._play(boards, cube, pair_games, pair_rolls)
            actual = inverse * 21 + rolled if s.variance_reduction else inverse
            picks, chosen_p, chosen_c, out = played.picks, played.chosen_p, played.chosen_c, played.out
            if s.plies:  # the roll thrown played deeper; the luck stays judged at 0 ply
                pairs, back = np.unique(actual, return_inverse=True)
                deep_picks, deep_p, deep_c, deep_out = self._deeper(played, pairs, cube)
                picks, chosen_p, chosen_c, actual_out = deep_picks[back], deep_p[back], deep_c[back], deep_out[back]
            else:
                picks, chosen_p, chosen_c, actual_out = picks[actual], chosen_p[actual], chosen_c[actual], out[actual]
            if turn & 1:
                out, actual_out = turned(out, money=money), turned(actual_out, money=money)
            if s.variance_reduction:
                mean = (out.reshape(len(reps), 21, 7) * WEIGHTS[None, :, None]).sum(axis=1) / 36.0
                luck[games] += mean[inverse] - out[actual]
            boards[games] = played.moved[picks]
            p[games], c[games] = chosen_p, chosen_c
            cube[games] = self.cubes.flip[cube[games]]
            over = played.kinds[picks] == OVER
            final = actual_out[over]
            if money:  # gnubg scores a finished game at its money value, gammons counted (its UtilityME)
                final[:, 6] = final[:, 5] * 2.0 ** (cube[games[over]] // 6)
            result[games[over]] = final
            alive[games[over]] = False
            turn += 1
        games = np.flatnonzero(alive)
        if len(games):
            self._finish(games, cube, p, c, turn, result)
        return (result + luck).reshape(count, n_alt, 7)

    def _bearoff(
        self,
        games: Ints,
        boards: Bytes,
        cube: Ints,
        p: Floats,
        c: Floats,
        turn: int,
        alive: NDArray[np.bool_],
        result: Floats,
    ) -> None:
        """End the games that reached gnubg's bear-off databases (see :class:`Settings`)."""
        s = self.settings
        if not s.bearoff or not self.backgammon:
            return
        if s.cubeful and not self.cubes.money:
            return
        kinds = np.empty(len(games), dtype=np.int64)
        classify_into(boards[games], kinds)
        reached = (kinds == BEAROFF2) if s.cubeful else ((kinds == BEAROFF2) | (kinds == BEAROFF1))
        if s.cubeful and turn == 0:
            reached &= self.top[np.arange(len(boards))[games] % len(self.alternatives)]
        if reached.any():
            self._finish(games[reached], cube, p, c, turn, result)
            alive[games[reached]] = False

    def _cube(
        self,
        games: Ints,
        boards: Bytes,
        cube: Ints,
        p: Floats,
        c: Floats,
        turn: int,
        alt: Ints,
        alive: NDArray[np.bool_],
        result: Floats,
    ) -> None:
        """The cube decisions before this turn's roll."""
        if turn == 0:
            games = games[self.top[alt[games]]]
        if not len(games):
            return
        actions = np.zeros(len(games), dtype=np.int64)
        out = np.zeros((len(games), 7))
        nd, dt = np.full(len(games), np.nan), np.full(len(games), np.nan)
        if self.settings.plies:
            self._deep_cube(games, boards, cube, nd, dt)
        else:
            _cube_values(p, c, cube, games, self.cubes, self._scratch().g, nd, dt)
        _cube_answers(nd, dt, p, cube, games, self.cubes, actions, out)
        taken = games[actions == 1]
        cube[taken] = self.cubes.double[cube[taken]]
        passed = actions == 2
        if passed.any():
            out = turned(out, money=self.cubes.money) if turn & 1 else out
            result[games[passed]] = out[passed]
            alive[games[passed]] = False

    def _deep_cube(self, games: Ints, boards: Bytes, cube: Ints, nd: Floats, dt: Floats) -> None:
        """:func:`_cube_values` at :attr:`Settings.plies`, one batch per cube value."""
        here = cube[games]
        may = np.flatnonzero(self.cubes.double[here] >= 0)
        for exponent in np.unique(here[may] // 6).tolist():
            at = may[here[may] // 6 == exponent]
            states = [self._state(int(i)) for i in here[at]]
            found = self._scratch().lookahead.values(boards[games[at]], [[x, x.doubled()] for x in states], states,
                                                     top=True, plies=self.settings.plies)  # fmt: skip
            nd[at], dt[at] = found[:, 0], found[:, 1]

    def _finish(self, games: Ints, cube: Ints, p: Floats, c: Floats, turn: int, result: Floats) -> None:
        """The 0-ply evaluation of the side on roll where a trial is cut short."""
        out = np.zeros((len(games), 7))
        _evaluations(p, c, cube, games, self.cubes, self.settings.cubeful, self._scratch().g, out)
        result[games] = turned(out, money=self.cubes.money) if turn & 1 else out

    def _play(self, boards: Bytes, cube: Ints, games: Ints, rolls: Ints) -> _Played:
        """The chosen play of each (game, roll) pair (see :func:`_choose`)."""
        moved, kinds, counts = turns(boards, games, rolls, self._scratch().room)
        total = len(moved)
        probs = np.empty((total, 5))
        _room, c, g, two, ev, _lookahead = self._scratch()
        evaluate_into(
            moved,
            kinds,
            self._given(moved, kinds),
            False,
            ev,
            np.empty(total, dtype=np.int64),
            np.zeros(5, dtype=np.float32),
            probs,
        )
        picks = np.empty(len(games), dtype=np.int64)
        chosen_p, chosen_c, out = np.empty((len(games), 5)), np.empty((len(games), 5)), np.empty((len(games), 7))
        values = np.empty(total)
        _choose(moved, kinds, probs, counts, games, cube, self.cubes, self.settings.cubeful, self.outside_home,
                self.backgammon, ev, c, g, two, picks, chosen_p, chosen_c, out, values)  # fmt: skip
        return _Played(picks, chosen_p, chosen_c, out, moved, kinds, probs, values, counts, games)

    def _deeper(self, played: _Played, pairs: Ints, cube: Ints) -> tuple[Ints, Floats, Floats, Floats]:
        """The play of each (game, roll) pair of ``pairs`` at :attr:`Settings.plies`: of
        the plays the move filter keeps by 0-ply equity, the one leaving the
        opponent the least value at that depth (the look-ahead, one batch per
        cube value): picks, chances, cube inputs and the seven outputs (their
        cubeful value the deeper one, or the 0-ply one of a play kept alone:
        only a finished game's is read, and that is exact)."""
        starts = np.concatenate([[0], np.cumsum(played.counts)[:-1]])[pairs]
        counts, games = played.counts[pairs], played.games[pairs]
        kept = np.zeros(len(played.values), dtype=np.bool_)
        f = self.settings.kept
        filtering = np.array([f.accept, f.extra, f.threshold], dtype=np.float64)
        _keep(played.values, starts, counts, cube[games], self.cubes, filtering, np.empty(len(kept)), kept)
        plays = np.concatenate([np.arange(s, s + n) for s, n in zip(starts.tolist(), counts.tolist())])
        rows, owner = plays[kept[plays]], np.repeat(np.arange(len(pairs)), counts)[kept[plays]]
        them = self.cubes.flip[cube[games[owner]]]
        deep = played.values[rows]  # (a play kept alone is played whatever it is worth deeper)
        alone = np.bincount(owner, minlength=len(pairs))[owner] == 1
        lookahead = self._scratch().lookahead
        for exponent in np.unique(them[~alone] // 6).tolist():
            at = np.flatnonzero((them // 6 == exponent) & ~alone)
            states = [self._state(int(i)) for i in them[at]]
            deep[at] = lookahead.values(played.moved[rows[at]], [[x] for x in states], states, top=False,
                                        plies=self.settings.plies)[:, 0]  # fmt: skip
        picks = np.empty(len(pairs), dtype=np.int64)
        best = np.full(len(pairs), np.inf)
        for r, o, v in zip(rows.tolist(), owner.tolist(), deep.tolist()):
            if v < best[o]:
                best[o], picks[o] = v, r
        chosen_p, chosen_c, out = np.empty((len(pairs), 5)), np.empty((len(pairs), 5)), np.empty((len(pairs), 7))
        _room, c, _g, two, ev, _la = self._scratch()
        them_of = self.cubes.flip[cube[games]].tolist()
        for j in range(len(pairs)):
            _fill(j, int(picks[j]), float(best[j]), played.moved, played.kinds, played.probs, them_of[j], self.cubes,
                  ev, c, two, picks, chosen_p, chosen_c, out)  # fmt: skip
        return picks, chosen_p, chosen_c, out

    def _state(self, index: int) -> CubeState:
        """Cube position ``index`` of :attr:`cubes` as a cube state."""
        owner = (None, 0, 1)[index // 2 % 3]
        return replace(self.base, value=self.base.value << (index // 6), owner=owner, mover=index % 2)

    def _scratch(self) -> _Scratch:
        """Room for the kernels, this thread's own."""
        found: _Scratch | None = getattr(self._local, "scratch", None)
        ev = evaluator_in_use()
        if found is None or found.ev.nets is not ev.nets:
            mine = ev._replace(rooms=rooms(ev.nets))
            found = self._local.scratch = _Scratch(
                room(), np.zeros(5), np.zeros(4), np.zeros(4, dtype=np.float32), mine, Lookahead()
            )
        return found

    def _given(self, boards: Bytes, kinds: Ints) -> Floats:
        """gnubg-nn's evaluation of the race boards gnubg takes a backgammon
        chance of from its table (NaN rows elsewhere), each asked once."""
        flags = np.empty(len(boards), dtype=np.bool_)
        _flags(boards, kinds, flags)
        given = np.full((len(boards), 5), np.nan)
        for m in np.flatnonzero(flags).tolist():
            key = boards[m].tobytes()
            known = self._table.get(key)
            if known is None:
                if len(self._table) > 100_000:
                    self._table.clear()
                known = self._table[key] = np.asarray(gnubg_nn.probabilities(boards[m].tolist(), 0), dtype=float)
            given[m] = known
        return given


def turned(out: Floats, *, money: bool) -> Floats:
    """Outputs (the seven numbers last of the array's axes) seen by the other side."""
    flipped = np.empty_like(out)
    flipped[..., 0] = 1.0 - out[..., 0]
    flipped[..., 1], flipped[..., 2], flipped[..., 3], flipped[..., 4] = (
        out[..., 3],
        out[..., 4],
        out[..., 1],
        out[..., 2],
    )
    flipped[..., 5] = -out[..., 5]
    flipped[..., 6] = -out[..., 6] if money else 1.0 - out[..., 6]
    return flipped


__all__ = [
    "DICE",
    "OUTPUTS",
    "Alternative",
    "Settings",
    "Trials",
    "mwc_of",
    "permutations",
    "roll_index",
    "throws",
    "turned",
]
