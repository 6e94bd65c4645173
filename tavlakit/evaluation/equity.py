"""Cubeless equity from GNU Backgammon's neural net (gnubg-nn, 0-ply).

The net gives five probabilities for the side to move: win, win a gammon
(mars), win a backgammon, lose a gammon, lose a backgammon (cumulative:
a backgammon is also a gammon). :func:`equity` turns them into the
cubeless equity of the rules in force: under Tavla (``backgammon`` off) a
mars counts 2 and there is no 3-point result; under backgammon rules it is
the usual money equity (gammon 2, backgammon 3).

The net knows gnubg's gammon only (the loser has borne off nothing); under
``mars="outside-home"`` its gammon chances stand in for mars chances until
the game is over, where :class:`Evaluator` scores the finished board
exactly by the rules.

>>> round(equity((0.5, 0.1, 0.01, 0.1, 0.02), Rules.preset("backgammon")), 3)
-0.01
>>> round(equity((0.5, 0.1, 0.01, 0.1, 0.02), Rules.preset("tavla")), 3)
0.0
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from itertools import chain
from typing import Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ..engine.position import CHECKERS, Position
from ..engine.rules import RESULT_MULTIPLIER, Rules
from .keys import keys_of_boards
from .moves import turns
from .net import evaluate

Probabilities = tuple[float, float, float, float, float]
Roll = tuple[int, int]

#: The 21 distinct rolls, larger die first, and how many of 36 throws give each.
ROLLS: tuple[Roll, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
WEIGHTS: dict[Roll, int] = {roll: 1 if roll[0] == roll[1] else 2 for roll in ROLLS}
#: Each of :data:`ROLLS`' place in it.
ROLL_INDEX = {roll: index for index, roll in enumerate(ROLLS)}


class PlaysTable(NamedTuple):
    """Every roll's plays of a position (:meth:`Evaluator.plays_table`):
    their five probabilities ``(n, 5)`` and the boards they lead to
    ``(n, 2, 25)``, the opponent on roll; ``spans[r]``: the rows of ``ROLLS[r]``."""

    probs: npt.NDArray[np.float64]
    spans: list[tuple[int, int]]
    boards: npt.NDArray[np.int8]

    def keys(self, start: int = 0, end: int | None = None) -> list[str]:
        """The position keys of where the plays of rows ``start:end`` lead, seen by the mover."""
        return keys_of_boards(self.boards[start:end], flip=True)


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def equity(probs: Probabilities, rules: Rules) -> float:
    """Cubeless equity of the side the probabilities belong to."""
    win, win_g, win_bg, lose_g, lose_bg = probs
    value = 2.0 * win - 1.0 + win_g - lose_g
    if rules.backgammon:
        value += win_bg - lose_bg
    return value


def invert(probs: Probabilities) -> Probabilities:
    """The same probabilities from the other side's view."""
    win, win_g, win_bg, lose_g, lose_bg = probs
    return (1.0 - win, lose_g, lose_bg, win_g, win_bg)


def net_board(pos: Position) -> list[list[int]]:
    """gnubg's board ``[opponent, side to move]``, 25 counts each (index 24 = bar)."""
    mover, opponent = pos.points()
    return [list(opponent), list(mover)]


class _Cache(Generic[K, V]):
    """A bounded least-recently-used memo for one function."""

    __slots__ = ("func", "size", "data", "hits", "misses")

    def __init__(self, func: Callable[[K], V], size: int) -> None:
        self.func = func
        self.size = size
        self.data: OrderedDict[K, V] = OrderedDict()
        self.hits = self.misses = 0

    def __call__(self, key: K) -> V:
        data = self.data
        try:
            value = data[key]
        except KeyError:
            self.misses += 1
            value = data[key] = self.func(key)
            if len(data) > self.size:
                data.popitem(last=False)
            return value
        self.hits += 1
        data.move_to_end(key)
        return value

    def __contains__(self, key: K) -> bool:
        return key in self.data

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` as the function's value of ``key``."""
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)


class Evaluator:
    """0-ply cubeless evaluation under one set of rules, with caches.

    ``cache_size`` bounds the 21-roll tables kept (about 1 kB each); four
    times as many single evaluations are kept.

    ``best_values(pos)`` is the heart of dice luck: for each of the 21 rolls,
    the equity (for the side to move in ``pos``) after its best play. Each
    play is scored with the opponent on roll, as gnubg does.

    >>> ev = Evaluator(Rules.preset("backgammon"))
    >>> values = ev.best_values(Position.initial())
    >>> max(values, key=values.get)  # the best roll in the starting position
    (6, 6)
    """

    def __init__(self, rules: Rules, cache_size: int = 50_000) -> None:
        self.rules = rules
        # gnubg's own move generator follows these two options' backgammon values
        self.net_moves = rules.larger_die and rules.hit_and_run
        # gnubg scores a finished game as these rules do (gammon, backgammon):
        # its plays may then end the game too
        self.gnubg_scoring = self.net_moves and rules.backgammon and rules.mars == "none-borne-off"
        self._probs: _Cache[Position, Probabilities] = _Cache(self._probabilities, 4 * cache_size)
        # per (position, roll): the best play's equity, the number of plays, the board the best play leads to
        # (the opponent on roll; its key written when asked for)
        self._rolls: _Cache[tuple[Position, Roll], tuple[float, int, npt.NDArray[np.int8]]] = _Cache(
            self._best_roll, 21 * cache_size
        )
        self._means: _Cache[Position, float] = _Cache(self._mean_best, cache_size)
        # each position's plays of the 21 rolls (shared with the statistics' judge): met again and again
        self._tables: dict[Position, PlaysTable] = {}

    def probabilities(self, pos: Position) -> Probabilities:
        """The side to move's five probabilities (exact once the game is over)."""
        return self._probs(pos)

    def probabilities_many(self, positions: list[Position]) -> npt.NDArray[np.float64]:
        """:meth:`probabilities` of many positions ``(n, 5)``, those not met
        before evaluated in one batch."""
        todo = [pos for pos in dict.fromkeys(positions) if pos not in self._probs and pos.winner() is None]
        if todo:
            for pos, p in zip(todo, evaluate(np.array([net_board(pos) for pos in todo], dtype=np.int8)).tolist()):
                self._probs.put(pos, (p[0], p[1], p[2], p[3], p[4]))
        return _as_array([self._probs(pos) for pos in positions])

    def equity(self, pos: Position) -> float:
        """Cubeless equity of the side to move in ``pos``."""
        return equity(self._probs(pos), self.rules)

    def equity_after(self, after: Position) -> float:
        """Equity for the side that just moved; ``after`` has the opponent on roll."""
        return -equity(self._probs(after), self.rules)

    def _probabilities(self, pos: Position) -> Probabilities:
        winner = pos.winner()
        if winner is None:
            p = evaluate(np.array([net_board(pos)], dtype=np.int8))[0].tolist()
            return p[0], p[1], p[2], p[3], p[4]
        kind = pos.result_kind(self.rules) or "single"
        multiplier = RESULT_MULTIPLIER[kind]
        won = (1.0, float(multiplier >= 2), float(multiplier >= 3), 0.0, 0.0)
        return won if winner == 0 else invert(won)

    # --- best plays --------------------------------------------------------

    def best_values(self, pos: Position) -> dict[Roll, float]:
        """For each of the 21 rolls, the mover's equity after the best play."""
        if self.net_moves and not _near_end(pos):
            self.plays_table(pos)  # every roll's plays at once, scored in one batch
        return {roll: self._rolls((pos, roll))[0] for roll in ROLLS}

    def best(self, pos: Position, dice: Roll) -> float:
        """The mover's equity after the best play of ``dice``."""
        return self._rolls((pos, _key(dice)))[0]

    def choices(self, pos: Position, dice: Roll) -> int:
        """How many different positions the legal plays of ``dice`` reach
        (1 for a forced play or no move)."""
        return self._rolls((pos, _key(dice)))[1]

    def best_key(self, pos: Position, dice: Roll) -> str:
        """The position key of where the best play of ``dice`` leads (seen
        by the mover, before the turn passes)."""
        return keys_of_boards(self._rolls((pos, _key(dice)))[2][None], flip=True)[0]

    def mean_best(self, pos: Position) -> float:
        """The average over the 36 throws of :meth:`best`: what the side to
        move can expect before rolling.

        >>> ev = Evaluator(Rules.preset("backgammon"))
        >>> pos = Position.initial()
        >>> by_roll = sum(WEIGHTS[r] * v for r, v in ev.best_values(pos).items()) / 36
        >>> abs(ev.mean_best(pos) - by_roll) < 1e-6
        True
        """
        return self._means(pos)

    def _mean_best(self, pos: Position) -> float:
        return sum(WEIGHTS[roll] * value for roll, value in self.best_values(pos).items()) / 36.0

    def _best_roll(self, key: tuple[Position, Roll]) -> tuple[float, int, npt.NDArray[np.int8]]:
        pos, roll = key
        if not self.net_moves or _near_end(pos):  # a finishing play needs the rules' exact score
            return self._best_engine(pos, roll)
        table = self._tables.get(pos)
        if table is not None:  # every roll's plays, found already (the statistics' judge)
            start, end = table.spans[ROLL_INDEX[roll]]
        else:  # this roll's alone
            table = _net_plays(np.array([net_board(pos)], dtype=np.int8), (roll,))[0]
            start, end = table.spans[0]
        p = table.probs[start:end]
        scores = -(2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3])  # the mover's: the opponent is on roll
        if self.rules.backgammon:
            scores -= p[:, 2] - p[:, 4]
        top = int(np.argmax(scores))
        return float(scores[top]), end - start, table.boards[start + top].copy()  # (not a view: tables go, this stays)

    # --- every roll's plays ----------------------------------------------------

    def net_view(self, pos: Position) -> list[list[int]] | None:
        """``pos`` as the net sees it when the net finds the plays (gnubg's
        move rules; the last four checkers only under gnubg's own scoring,
        since a play may finish the game); None when the engine finds them."""
        if not self.net_moves or (not self.gnubg_scoring and _near_end(pos)):
            return None
        return net_board(pos)

    def plays_table(self, pos: Position) -> PlaysTable:
        """Every roll's plays of ``pos`` (:class:`PlaysTable`), listed as
        gnubg lists them (:mod:`.moves`; the engine where gnubg's move rules
        are not in force, and near the end unless gnubg's own scoring is)."""
        found = self._tables.get(pos)
        return found if found is not None else self.plays_tables([pos])[0]

    def plays_tables(self, positions: list[Position]) -> list[PlaysTable]:
        """:meth:`plays_table` of many positions, scored together in one batch."""
        if len(self._tables) > 500:  # some megabytes; positions seldom come back after their game
            self._tables.clear()
        todo = [pos for pos in dict.fromkeys(positions) if pos not in self._tables]
        if todo:
            net = [pos for pos in todo if self.net_view(pos) is not None]
            if net:
                self._tables.update(zip(net, _net_plays(np.array([net_board(pos) for pos in net], np.int8), ROLLS)))
            self._tables.update((pos, self._engine_table(pos)) for pos in todo if pos not in self._tables)
        return [self._tables[pos] for pos in positions]

    def _engine_table(self, pos: Position) -> PlaysTable:
        afters: list[Position] = []
        spans = []
        for roll in ROLLS:
            start = len(afters)
            afters.extend(pos.legal_positions(roll, self.rules) or [pos.flip()])  # the opponent on roll
            spans.append((start, len(afters)))
        boards = np.array([net_board(after) for after in afters], dtype=np.int8)
        return PlaysTable(self.probabilities_many(afters), spans, boards)

    def _best_engine(self, pos: Position, roll: Roll) -> tuple[float, int, npt.NDArray[np.int8]]:
        results = pos.legal_positions(roll, self.rules)
        value, best = max(((self.equity_after(after), after) for after in results), key=lambda pair: pair[0])
        return value, len(results), np.array(net_board(best), dtype=np.int8)

    def cache_info(self) -> dict[str, int]:
        """Hits and misses of the two caches (for benchmarks)."""
        return {
            "positions_hits": self._probs.hits,
            "positions_misses": self._probs.misses,
            "rolls_hits": self._rolls.hits,
            "rolls_misses": self._rolls.misses,
            "means_hits": self._means.hits,
            "means_misses": self._means.misses,
        }


def _as_array(probs: list[Probabilities]) -> npt.NDArray[np.float64]:
    """Many positions' five probabilities as an (n, 5) array."""
    return np.fromiter(chain.from_iterable(probs), dtype=float, count=5 * len(probs)).reshape(-1, 5)


def _net_plays(boards: npt.NDArray[np.int8], rolls: tuple[Roll, ...]) -> list[PlaysTable]:
    """Every play of each of ``rolls`` from each of ``boards`` (the side on
    roll second), as gnubg lists them (:func:`.moves.turns`; a dance: the
    board passed to the opponent), scored in one batch (:func:`.net.evaluate`)."""
    n, k = len(boards), len(rolls)
    index = np.array([ROLL_INDEX[roll] for roll in rolls], dtype=np.int64)
    after, kinds, counts = turns(boards, np.repeat(np.arange(n, dtype=np.int64), k), np.tile(index, n))
    after = after.copy()  # (the tables are kept: not views of the listing's larger room)
    probs = evaluate(after, classes=kinds)
    ends = np.cumsum(counts).tolist()
    tables = []
    for i in range(n):
        top = ends[k * i - 1] if i else 0
        mine = ends[k * i : k * i + k]
        spans = [(start - top, end - top) for start, end in zip([top, *mine[:-1]], mine)]
        tables.append(PlaysTable(probs[top : mine[-1]], spans, after[top : mine[-1]]))
    return tables


def _near_end(pos: Position) -> bool:
    """Four or fewer checkers left: plays may finish the game."""
    return CHECKERS - pos.off()[0] <= 4


def _key(dice: Roll) -> Roll:
    a, b = int(dice[0]), int(dice[1])
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"dice {dice!r} are not two numbers 1-6")
    return (a, b) if a >= b else (b, a)


__all__ = ["Evaluator", "PlaysTable", "ROLLS", "WEIGHTS", "equity", "invert", "net_board"]
