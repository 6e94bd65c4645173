"""gnubg 1.07's cubeful n-ply look-ahead, compiled, for many positions at once.

What a position is worth to the side on roll at any number of plies (1
to 3 in the analysis levels), as gnubg's EvaluatePositionCubeful
evaluates it with its pruning nets (the default of its analysis):

* a node is looked into unless the game is over, no plies are left, or
  (money play) the two-sided bear-off database has it exactly;
* for each of the 21 rolls the side on roll plays what gnubg would play:
  a roll with more plays than gnubg keeps (five and the whole part of the
  binary logarithm of their number: 8 of 10, 10 of 32), all leading to
  positions of one class (race, crashed or contact), has them ranked by
  the pruning net of that class (the opponent's cubeless equity at the
  score) and the best kept; those (or every play) are scored at 0 ply,
  cubeful, the opponent on roll free to double, under the cube as it is at
  the top of the search; the best is played (the first of equal ones,
  gnubg's move order, :mod:`.moves`);
* the values of the position after it, one ply less deep, are averaged
  over the rolls, for each cube position the search carries: the cube as
  it is and, where the side on roll may double, doubled and taken; at each
  node the side on roll doubles when that is better (not at the top, where
  the cube decision is the caller's);
* at the leaves the 0-ply chances go through the cube model
  (:mod:`.cubeful`).

Values are gnubg's: match winning chances in a match, money equity per
cube value of each cube position in money play. The tree is built a
level at a time and valued from its leaves up (a 3-ply root has 9261
leaves: the roots are taken in chunks, :data:`LEAVES`). Every node of a
level is expanded in one batch: the plays of all its rolls listed (:mod:`.moves`),
ranked by the pruning nets and scored by the full nets in a few compiled
calls (:mod:`.net_inputs`), the expansions kept for positions met again
(the next turn's cube decision looks into what this turn's plays did).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import NamedTuple

import gnubg_nn  # type: ignore[import-untyped]
import numpy as np
from numpy.typing import NDArray

from . import cache as cache_module
from .bearoff import Databases, two_sided_into
from .cache import Cache, clear, empty_cache, find, hit_rates, key_into, store
from .cubeful import ROW, CubeState, cube_row, cubeful_into, efficiency_into, free_to_double, utility_of
from .jit import jit
from .moves import DICE, MOST_PLAYS, WEIGHTS, room, turns
from .net import evaluator_in_use
from .net_inputs import BEAROFF2, OVER, RACE, Evaluator, classify_into, evaluate_into, needs_table, rooms

Bytes = NDArray[np.int8]
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

#: gnubg's pruning: a roll with more plays than it keeps has them ranked by the pruning nets and keeps
#: ``PRUNE_PLAYS + floor(log2(plays))`` (gnubg 1.07; ten in earlier versions).
PRUNE_PLAYS = 5
#: The most it keeps (a roll has fewer than 2048 plays).
MOST_KEPT = PRUNE_PLAYS + 11
#: Cube positions a search can meet: the root's cube times 2**0 .. 2**5, its owner, who is on roll.
_VALUES = 6
#: The most leaves :meth:`Lookahead.values` holds at once (some tens of megabytes): roots are looked into in chunks.
LEAVES = 250_000


class Cubes(NamedTuple):
    """The cube positions a search at one score can meet, as rows of the
    cube model (:func:`.cube_row`), numbered by :func:`cube_index`."""

    rows: Floats  # (36, ROW)
    flip: Ints  # the same cube with the other side on roll
    double: Ints  # after the side on roll doubles and is taken; -1 where it may not double
    money: bool


def cube_index(exponent: int, owner: int | None, mover: int) -> int:
    """The number of the cube position: the root's cube times 2**exponent, ``owner`` (None: centred), ``mover``."""
    return (exponent * 3 + (0 if owner is None else owner + 1)) * 2 + mover


def cubes_for(state: CubeState) -> Cubes:
    """Every cube position a search from ``state`` can meet (its score, rules and table)."""
    n = _VALUES * 6
    rows = np.zeros((n, ROW))
    flip = np.full(n, -1, dtype=np.int64)
    double = np.full(n, -1, dtype=np.int64)
    for exponent in range(_VALUES):
        for owner in (None, 0, 1):
            for mover in (0, 1):
                i = cube_index(exponent, owner, mover)
                s = replace(state, value=state.value << exponent, owner=owner, mover=mover)
                rows[i] = cube_row(s)
                flip[i] = cube_index(exponent, owner, 1 - mover)
                if exponent + 1 < _VALUES and s.available():
                    double[i] = cube_index(exponent + 1, 1 - mover, mover)
    return Cubes(rows, flip, double, not state.length)


def index_of(state: CubeState, root: CubeState) -> int:
    """The number of ``state`` among the cube positions of a search from ``root``."""
    exponent = (state.value // root.value).bit_length() - 1
    return cube_index(exponent, state.owner, state.mover)


# --- expanding nodes: what each side plays, for each roll -----------------------------------------


@jit
def _utility(p: Floats, row: Floats, money: bool) -> float:
    """gnubg's UtilityME: money equity (gammons counted even under the
    Jacoby rule), or the cubeless equity at the match score's gammon prices."""
    if money:
        return float(2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4])
    return utility_of(p, row)


@jit
def kept(plays: int) -> int:
    """How many of a roll's plays gnubg keeps when it prunes them: five
    and the whole part of their binary logarithm."""
    keep = PRUNE_PLAYS
    while plays > 1:
        plays >>= 1
        keep += 1
    return keep


@jit(inline=True)
def _prune(moved: Bytes, s: int, n: int, keep: int, row: Floats, money: bool, scratch: Scratch, ev: Evaluator) -> None:
    """The ``keep`` plays of ``moved[s:s + n]`` gnubg keeps when it prunes
    (the opponent's cubeless utility by the pruning net lowest, in gnubg's
    order of keeping them), into ``scratch.keep[:keep]`` (not cached: a
    lookup costs about what the pruning nets do)."""
    p, best, score = scratch.probs, scratch.keep, scratch.scores
    evaluate_into(moved[s : s + n], scratch.kinds[:n], scratch.given[:n], True, ev, scratch.rows, scratch.f32, p[:n])
    for i in range(n):
        score[i] = _utility(p[i], row, money)
    for i in range(n):
        if i < keep:
            best[i] = i
            if score[i] > score[best[0]]:
                best[i] = best[0]
                best[0] = i
        elif score[i] < score[best[0]]:
            best[0] = i
            worst = 0
            for k in range(1, keep):
                if score[best[k]] > score[best[worst]]:
                    worst = k
            best[0] = best[worst]
            best[worst] = i


@jit(inline=True)
def _evaluate_cached(moved: Bytes, n: int, scratch: Scratch, ev: Evaluator, saved: Cache) -> None:
    """``scratch.probs[i]``: the 0-ply chances of ``moved[scratch.chosen[i]]``
    by the full nets, ``i < n``, from the cache where it has them (the
    others evaluated in one batch and kept); ``scratch.kinds`` and
    ``scratch.given``: the boards' classes and given chances, overwritten."""
    p, keys, missing, boards = scratch.probs, scratch.keys, scratch.missing, scratch.boards
    misses = 0
    for i in range(n):
        m = scratch.chosen[i]
        key_into(moved[m], False, keys[i])
        if not find(saved, keys[i], False, p[i]):
            missing[misses] = i
            for side in range(2):
                for q in range(25):
                    boards[misses, side, q] = moved[m, side, q]
            scratch.kinds[misses] = scratch.kinds[i]
            for k in range(5):
                scratch.given[misses, k] = scratch.given[i, k]
            misses += 1
    fresh = scratch.fresh[:misses]
    evaluate_into(
        boards[:misses], scratch.kinds[:misses], scratch.given[:misses], False, ev, scratch.rows, scratch.f32, fresh
    )
    for j in range(misses):
        i = missing[j]
        for k in range(5):
            p[i, k] = fresh[j, k]
        store(saved, keys[i], p[i])


@jit
def _select(
    moved: Bytes,
    kinds: Ints,
    counts: Ints,
    starts: Ints,
    table_rows: Ints,
    table: Floats,
    sel: Ints,
    cubes: Cubes,
    ev: Evaluator,
    scratch: Scratch,
    saved: Cache,
    picks: Ints,
    probs: Floats,
    inputs: Floats,
) -> None:
    """For each roll j (``counts[j]`` plays from ``starts[j]`` in
    ``moved``), the play gnubg's look-ahead plays (gnubg's
    FindBestMoveInEval) into ``picks[j]``, with its 0-ply chances and cube
    inputs: more plays than gnubg keeps (:func:`kept`), all to one class a
    pruning net has, are pruned first; the plays left are scored by the full nets, the
    opponent's cubeful value (free to double) under the cube of the side on
    roll ``sel[j // 21]`` the lowest wins, of equal ones the opponent's
    cubeless utility lowest, then the first. ``table_rows[m]``: the row of
    ``table`` (gnubg-nn's evaluation) of play m where gnubg takes its race
    backgammon chance from its table, else -1."""
    for j in range(len(counts)):
        n, s = counts[j], starts[j]
        them = cubes.flip[sel[j // 21]]
        row, doubled = cubes.rows[them], cubes.double[them]
        keep = kept(n)
        uniform = n > keep and kinds[s] >= RACE
        for m in range(s + 1, s + n):
            uniform &= kinds[m] == kinds[s]
        for i in range(n):
            scratch.kinds[i] = kinds[s + i]
            for k in range(5):
                scratch.given[i, k] = table[table_rows[s + i], k] if table_rows[s + i] >= 0 else np.nan
        if uniform:
            _prune(moved, s, n, keep, row, cubes.money, scratch, ev)
            for i in range(keep):
                scratch.chosen[i] = s + scratch.keep[i]
            count = keep
        else:
            for i in range(n):
                scratch.chosen[i] = s + i
            count = n
        for i in range(count):
            m = scratch.chosen[i]
            scratch.kinds[i] = kinds[m]
            for k in range(5):
                scratch.given[i, k] = table[table_rows[m], k] if table_rows[m] >= 0 else np.nan
        _evaluate_cached(moved, count, scratch, ev, saved)
        p, x = scratch.probs, scratch.inputs
        best_value = best_utility = np.inf
        pick = 0
        for i in range(count):
            m = scratch.chosen[i]
            cube_inputs_into(moved[m], kinds[m], ev.db, x[i], scratch.f32)
            if count == 1:  # (a forced play: no value needed)
                break
            nd = cubeful_into(p[i], x[i], row, scratch.g)
            if nd > best_value:  # (free to double is worth no less than no double: this one cannot win)
                continue
            dt = nd
            if doubled >= 0:
                dt = cubeful_into(p[i], x[i], cubes.rows[doubled], scratch.g)
                if cubes.money:
                    dt *= 2.0
            value = free_to_double(nd, dt, row)
            utility = _utility(p[i], row, cubes.money)
            if value < best_value or (value == best_value and utility < best_utility):
                best_value, best_utility, pick = value, utility, i
        picks[j] = scratch.chosen[pick]
        for k in range(5):
            probs[j, k] = p[pick, k]
            inputs[j, k] = x[pick, k]


class Scratch(NamedTuple):
    """Room for ``_select``, for the plays of one roll."""

    boards: Bytes
    kinds: Ints
    given: Floats
    probs: Floats
    inputs: Floats
    chosen: Ints
    keep: Ints
    scores: Floats
    rows: Ints
    f32: NDArray[np.float32]
    g: Floats
    keys: NDArray[np.uint64]  # (plays, 4) their cache keys
    missing: Ints  # the plays not in the cache
    fresh: Floats  # their chances


def scratch() -> Scratch:
    """Room for ``_select``."""
    most = MOST_PLAYS
    return Scratch(
        np.zeros((most, 2, 25), dtype=np.int8),
        np.zeros(most, dtype=np.int64),
        np.zeros((most, 5)),
        np.zeros((most, 5)),
        np.zeros((most, 5)),
        np.zeros(most, dtype=np.int64),
        np.zeros(MOST_KEPT, dtype=np.int64),
        np.zeros(most),
        np.zeros(most, dtype=np.int64),
        np.zeros(5, dtype=np.float32),
        np.zeros(4),
        np.zeros((most, 4), dtype=np.uint64),
        np.zeros(most, dtype=np.int64),
        np.zeros((most, 5)),
    )


@jit
def cube_inputs_into(board: Bytes, kind: int, db: Databases, c: Floats, two: NDArray[np.float32]) -> None:
    """A board's cube inputs (its efficiency; the two-sided equities where
    the database ``db`` has it; ``two``: room for four numbers)."""
    c[0] = efficiency_into(board)
    c[1] = c[2] = c[3] = c[4] = np.nan
    if kind == BEAROFF2:
        two_sided_into(board, db, two)
        for k in range(4):
            c[1 + k] = two[k]


@dataclass
class Expansion:
    """What the side on roll plays in a node, for each of the 21 rolls, and what it leads to."""

    boards: Bytes  # (21, 2, 25) the opponent on roll
    probs: Floats  # (21, 5) their 0-ply chances
    inputs: Floats  # (21, 5) their cube inputs
    kinds: Ints  # (21,) their classes


class _Level(NamedTuple):
    """The nodes ``d`` plies below the roots of a search: their 0-ply
    chances and cube inputs, whether each is a leaf, the root it is under."""

    probs: Floats
    inputs: Floats
    leaf: NDArray[np.bool_]
    root: Ints


class Lookahead:
    """gnubg's n-ply look-ahead with the weights in use, keeping the
    expansions of the positions it met (size-capped) and the 0-ply values
    of the plays the full nets scored (:mod:`.cache`, ``cache`` slots for
    each thread, default :data:`.cache.DEFAULT_SLOTS`; 0: none).
    ``threads``: how many threads expand the nodes of a level (the
    compiled kernels run without Python's lock; each node's expansion is
    its own and a cached value is the value, so the values do not depend
    on how many, nor on the cache)."""

    def __init__(self, threads: int = 1, cache: int | None = None) -> None:
        self.threads = max(1, threads)
        slots = cache_module.DEFAULT_SLOTS if cache is None else cache
        self._rooms = [(room(), scratch(), empty_cache(slots)) for _ in range(self.threads)]
        self._cached_nets: object = None
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self._evaluators: dict[tuple[int, int], Evaluator] = {}
        self._memo: dict[tuple[bytes, int, int], Expansion] = {}
        self._table: dict[bytes, Floats] = {}
        self._cubes: dict[CubeState, tuple[int, Cubes]] = {}

    def expand(self, nodes: Bytes, movers: Ints, cubes: Cubes, base: int) -> list[Expansion]:
        """The expansions of ``nodes`` (the side on roll second), each side
        on roll choosing its plays under its cube position ``movers[i]`` (of
        ``cubes``, the positions of the search base number ``base``); each
        (node, position) expanded once."""
        keys = [(nodes[i].tobytes(), base, int(movers[i])) for i in range(len(nodes))]
        if len(self._memo) > 20_000:  # some tens of megabytes; a match's positions seldom come back
            self._memo.clear()
        todo = [key for key in dict.fromkeys(keys) if key not in self._memo]
        if todo:
            fresh = np.array([np.frombuffer(board, dtype=np.int8).reshape(2, 25) for board, _b, _s in todo])
            sel = np.array([state for _b, _n, state in todo], dtype=np.int64)
            self._memo.update(zip(todo, self._expand_all(fresh, sel, cubes)))
        return [self._memo[key] for key in keys]

    def values(
        self, boards: Bytes, positions: list[list[CubeState | None]], movers: list[CubeState], *, top: bool, plies: int
    ) -> Floats:
        """gnubg's ``plies``-ply values ``(n, k)`` of ``boards`` (the side on
        roll second) under each of their ``k`` cube positions (None: none),
        the side on roll choosing its plays under its cube state in
        ``movers``; ``top``: the side on roll may not double here (the
        caller's cube decision). Match winning chances in a match, money
        equity per cube value of each position in money play. The roots of
        one call share their score and their cube's value (the positions may
        double it). The roots are looked into in chunks of at most
        :data:`LEAVES` leaves (21**plies a root)."""
        chunk = max(1, LEAVES // 21**plies)
        if len(boards) > chunk:
            parts = [slice(s, s + chunk) for s in range(0, len(boards), chunk)]
            values = [self.values(boards[i], positions[i], movers[i], top=top, plies=plies) for i in parts]
            return np.concatenate(values)
        base = replace(movers[0], owner=None, mover=0)
        number, cubes = self._cubes_for(base)
        roots = np.array([[index_of(s, base) if s else -1 for s in row] for row in positions], dtype=np.int64)
        sel = np.array([index_of(s, base) for s in movers], dtype=np.int64)
        tree, firsts = self._grow(np.ascontiguousarray(boards, dtype=np.int8), sel, cubes, number, plies)
        lists = np.full((plies + 1, len(boards), len(positions[0]) << plies), -1, dtype=np.int64)
        _cube_lists(roots, top, cubes, lists)
        g = np.zeros(4)
        found_below = np.zeros((0, 2 * lists.shape[2]))
        for depth in range(plies, -1, -1):
            width = len(positions[0]) << depth
            level = tree[depth]
            out = np.zeros((len(level.leaf), width))
            _level_values(
                top and depth == 0, level.leaf, level.probs, level.inputs,
                firsts[depth] if depth < plies else np.zeros(0, dtype=np.int64), level.root,
                np.ascontiguousarray(lists[depth, :, :width]),
                np.ascontiguousarray(lists[min(depth + 1, plies), :, : 2 * width]),
                found_below, cubes, out, np.zeros(2 * width), g,
            )  # fmt: skip
            found_below = out
        return found_below

    def _grow(self, b: Bytes, sel: Ints, cubes: Cubes, number: int, plies: int) -> tuple[list[_Level], list[Ints]]:
        """The search tree of the roots ``b`` (their side on roll choosing
        under cube positions ``sel``), a level a ply, and where each node's
        21 children start in the level below."""
        n = len(b)
        ev = evaluator_in_use()
        kinds = np.empty(n, dtype=np.int64)
        classify_into(b, kinds)
        rows, table = self._given(b, kinds)
        p = _evaluate(b, kinds, np.where(rows[:, None] >= 0, table[rows], np.nan), False, ev)
        c = np.empty((n, 5))
        _cube_inputs(b, kinds, ev, c)
        tree = [_Level(p, c, (kinds == OVER) | (plies == 0) | ((kinds == BEAROFF2) & cubes.money), np.arange(n))]
        firsts = []
        for depth in range(1, plies + 1):
            above = tree[-1]
            inner = np.flatnonzero(~above.leaf)
            first = np.full(len(above.leaf), -1, dtype=np.int64)
            first[inner] = 21 * np.arange(len(inner))
            firsts.append(first)
            found = self.expand(b[inner], sel[inner], cubes, number)
            kinds = np.concatenate([grown.kinds for grown in found]) if found else np.zeros(0, dtype=np.int64)
            leaf = (kinds == OVER) | ((kinds == BEAROFF2) & cubes.money) | (depth == plies)
            p = np.concatenate([grown.probs for grown in found]) if found else np.zeros((0, 5))
            c = np.concatenate([grown.inputs for grown in found]) if found else np.zeros((0, 5))
            tree.append(_Level(p, c, leaf, np.repeat(above.root[inner], 21)))
            if depth < plies and found:
                b = np.concatenate([grown.boards for grown in found])
                sel = np.repeat(cubes.flip[sel[inner]], 21)
        return tree, firsts

    def hit_rates(self) -> tuple[float, float]:
        """The share of the pruning nets' and of the full nets' evaluations
        the cache (all threads') had, since the look-ahead was made."""
        counts = np.sum([saved.counts for _r, _s, saved in self._rooms], axis=0)
        return hit_rates(self._rooms[0][2]._replace(counts=counts))

    def _cubes_for(self, base: CubeState) -> tuple[int, Cubes]:
        """The cube positions of a search from ``base`` and their number among those met."""
        found = self._cubes.get(base)
        if found is None:
            found = self._cubes[base] = (len(self._cubes), cubes_for(base))
        return found

    def _expand_all(self, nodes: Bytes, sel: Ints, cubes: Cubes) -> list[Expansion]:
        """The expansions of ``nodes``, in as many parts as there are threads."""
        nets = evaluator_in_use().nets
        if nets is not self._cached_nets:  # (other weights: other values)
            for _r, _s, saved in self._rooms:
                clear(saved)
            self._cached_nets = nets
        if self._pool is None or len(nodes) < 2 * self.threads:
            return self._expand(nodes, sel, cubes, 0)
        parts = np.array_split(np.arange(len(nodes)), self.threads)
        done = self._pool.map(lambda k: self._expand(nodes[parts[k]], sel[parts[k]], cubes, k), range(self.threads))
        return [found for part in done for found in part]

    def _evaluator(self, worker: int) -> Evaluator:
        """The nets in use, with room of thread ``worker``'s own."""
        ev = evaluator_in_use()
        if worker == 0:
            return ev
        key = (id(ev.nets), worker)
        found = self._evaluators.get(key)
        if found is None or found.nets is not ev.nets:
            found = self._evaluators[key] = ev._replace(rooms=rooms(ev.nets))
        return found

    def _expand(self, nodes: Bytes, sel: Ints, cubes: Cubes, worker: int) -> list[Expansion]:
        """The expansions of ``nodes``, with thread ``worker``'s room."""
        ev = self._evaluator(worker)
        plays_room, select_room, saved = self._rooms[worker]
        n = len(nodes)
        moved, kinds, counts = turns(nodes, np.repeat(np.arange(n), 21), np.tile(np.arange(21), n), plays_room)
        starts = np.zeros(21 * n, dtype=np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        table_rows, table = self._given(moved, kinds)
        picks = np.empty(21 * n, dtype=np.int64)
        chances, inputs = np.empty((21 * n, 5)), np.empty((21 * n, 5))
        _select(
            moved, kinds, counts, starts, table_rows, table, sel, cubes, ev, select_room, saved, picks, chances, inputs
        )
        boards = moved[picks].reshape(n, 21, 2, 25)
        p, c, classes = chances.reshape(n, 21, 5), inputs.reshape(n, 21, 5), kinds[picks].reshape(n, 21)
        return [Expansion(boards[i], p[i], c[i], classes[i]) for i in range(n)]

    def _given(self, boards: Bytes, kinds: Ints) -> tuple[Ints, Floats]:
        """gnubg-nn's evaluation of the boards gnubg evaluates with its table
        of race backgammons: each board's row (-1: none) and the rows,
        each board asked of gnubg-nn once."""
        flags = np.empty(len(boards), dtype=np.bool_)
        _tables_needed(boards, kinds, flags)
        rows = np.full(len(boards), -1, dtype=np.int64)
        found = np.flatnonzero(flags)
        table = np.zeros((max(len(found), 1), 5))
        for at, m in enumerate(found.tolist()):
            key = boards[m].tobytes()
            known = self._table.get(key)
            if known is None:
                known = self._table[key] = np.asarray(gnubg_nn.probabilities(boards[m].tolist(), 0), dtype=float)
            table[at] = known
            rows[m] = at
        return rows, table


# --- the values of a search tree ---------------------------------------------------------------


@jit
def _children_cubes(cubes_here: Ints, top: bool, cubes: Cubes, out: Ints) -> None:
    """The cube positions a node's children are valued under (gnubg's
    MakeCubePos): for each of the node's, the same cube and, where the side
    on roll may double (not at the top), the cube doubled and taken; with
    the other side on roll. -1: none."""
    for j in range(len(cubes_here)):
        here = cubes_here[j]
        out[2 * j] = cubes.flip[here] if here >= 0 else -1
        doubled = cubes.double[here] if here >= 0 and not top else -1
        out[2 * j + 1] = cubes.flip[doubled] if doubled >= 0 else -1


@jit
def _leaf(p: Floats, c: Floats, cubes_here: Ints, top: bool, cubes: Cubes, out: Floats, g: Floats) -> None:
    """A leaf's value under each of its cube positions: the cube model's,
    the side on roll doubling when that is better (not at the top)."""
    for j in range(len(cubes_here)):
        here = cubes_here[j]
        if here < 0:
            out[j] = 0.0
            continue
        row = cubes.rows[here]
        nd = cubeful_into(p, c, row, g)
        doubled = cubes.double[here] if not top else -1
        if doubled >= 0:
            dt = cubeful_into(p, c, cubes.rows[doubled], g)
            if cubes.money:
                dt *= 2.0
            out[j] = free_to_double(nd, dt, row)
        else:
            out[j] = nd


@jit
def _combine(total: Floats, cubes_here: Ints, children: Ints, cubes: Cubes, out: Floats) -> None:
    """A node's values from ``total``, the sum over the 36 throws of its
    children's values under ``children`` (:func:`_children_cubes`): the
    other side's values turned round, then the side on roll doubling when
    that is better (gnubg's GetECF3)."""
    for i in range(len(total)):
        total[i] = -total[i] / 36.0 if cubes.money else 1.0 - total[i] / 36.0
    for j in range(len(cubes_here)):
        here = cubes_here[j]
        if here < 0:
            out[j] = 0.0
        elif children[2 * j + 1] >= 0:
            dt = 2.0 * total[2 * j + 1] if cubes.money else total[2 * j + 1]
            out[j] = free_to_double(total[2 * j], dt, cubes.rows[here])
        else:
            out[j] = total[2 * j]


@jit
def _cube_lists(roots: Ints, top: bool, cubes: Cubes, lists: Ints) -> None:
    """``lists[d, i]``: the cube positions the nodes ``d`` plies below root
    ``i`` are valued under (:func:`_children_cubes`), the first ``k 2**d``
    of each row (``roots``: ``(n, k)``)."""
    k = roots.shape[1]
    for i in range(len(roots)):
        for j in range(k):
            lists[0, i, j] = roots[i, j]
        for d in range(len(lists) - 1):
            width = k << d
            _children_cubes(lists[d, i, :width], top and d == 0, cubes, lists[d + 1, i, : 2 * width])


@jit
def _level_values(
    top: bool,
    leaf: NDArray[np.bool_],
    p: Floats,
    c: Floats,
    first: Ints,
    root: Ints,
    here: Ints,
    below: Ints,
    children: Floats,
    cubes: Cubes,
    out: Floats,
    total: Floats,
    g: Floats,
) -> None:
    """The values of the nodes of one level of a search tree under their
    root's cube positions ``here[root[i]]``: a leaf's by the cube model
    (:func:`_leaf`), an inner node's from its 21 children's ``children[first[i]:
    first[i] + 21]`` (valued under ``below[root[i]]``), summed over the 36
    throws and turned round (:func:`_combine`); ``total``: scratch."""
    width = here.shape[1]
    for i in range(len(leaf)):
        if leaf[i]:
            _leaf(p[i], c[i], here[root[i]], top, cubes, out[i], g)
            continue
        for m in range(2 * width):
            total[m] = 0.0
        s = first[i]
        for r in range(21):
            for m in range(2 * width):
                total[m] += WEIGHTS[r] * children[s + r, m]
        _combine(total, here[root[i]], below[root[i]], cubes, out[i])


@jit
def _tables_needed(boards: Bytes, kinds: Ints, flags: NDArray[np.bool_]) -> None:
    for m in range(len(boards)):
        flags[m] = needs_table(boards[m], kinds[m])


@jit
def _cube_inputs_many(boards: Bytes, kinds: Ints, ev: Evaluator, c: Floats, two: NDArray[np.float32]) -> None:
    for r in range(len(boards)):
        cube_inputs_into(boards[r], kinds[r], ev.db, c[r], two)


def _cube_inputs(boards: Bytes, kinds: Ints, ev: Evaluator, c: Floats) -> None:
    _cube_inputs_many(np.ascontiguousarray(boards), np.ascontiguousarray(kinds), ev, c, np.zeros(4, np.float32))


def _evaluate(boards: Bytes, kinds: Ints, given: Floats, prune: bool, ev: Evaluator) -> Floats:
    """The 0-ply chances of the boards (``prune``: by the pruning nets)."""
    p = np.full((len(boards), 5), np.nan)
    if len(boards):
        b = np.ascontiguousarray(boards)
        evaluate_into(
            b, np.ascontiguousarray(kinds), np.ascontiguousarray(given), prune, ev,
            np.empty(len(b), dtype=np.int64), np.zeros(5, dtype=np.float32), p,
        )  # fmt: skip
    return p


__all__ = [
    "DICE",
    "PRUNE_PLAYS",
    "Cubes",
    "Expansion",
    "Lookahead",
    "cube_index",
    "cubes_for",
    "index_of",
    "kept",
]
