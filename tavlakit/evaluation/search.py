"""The look-ahead: what a position is worth to the side on roll, and each
play of a roll, at 0 to 3 plies, cubeful at the match score.

:class:`Search` scores every play of the 21 rolls of a position in one
batch (the compiled move generator lists the plays, the compiled nets score
them: :mod:`.equity`),
turns the probabilities into cubeful equities under a cube state
(:mod:`.cubeful`, through a match equity table), decides cube actions, and
looks ahead as gnubg's n-ply evaluation does, and judges a roll's plays
ply by ply through the level's move filters as gnubg's FindnSaveBestMoves
does (:meth:`Search.ladder`). Under gnubg's own rules
(backgammon, gnubg's moves and scoring), at a level with gnubg's pruning
nets (:mod:`.levels`), the look-ahead is gnubg 1.07's,
compiled (:mod:`.lookahead`: its pruning nets, its choice of plays, its
bear-off databases); elsewhere (Tavla, a level without pruning) it is this module's: for
each of the 21 rolls the best play by cubeless equity at the score, then
the opponent's cubeful value one ply less deep. Values are EMG for the
side named (money: points per cube). The analysis
(:mod:`tavlakit.analysis.judge`) asks it for the values it judges turns by.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine.ids import decode_position_key
from ..engine.position import Position
from ..engine.rules import Rules
from .cubeful import (
    Array,
    CubeDecision,
    CubeState,
    best_cube_action,
    cube_decision_many,
    cube_inputs,
    cubeless_many,
    double_pass,
    efficiency_many,
    mwc2eq,
    on_roll_many,
)
from .equity import ROLL_INDEX, ROLLS, WEIGHTS, Evaluator, PlaysTable, Roll, net_board
from .jit import settle_heap
from .keys import keys_of_boards
from .levels import Level, LevelLike, level as as_level
from .lookahead import Lookahead
from .met import MatchEquityTable, default_met
from .tavla_met import tavla_met

#: gnubg's "doubtful" error (its ``arSkillLevel``; the judge's first skill level): a played play at
#: least that much worse than the best when the move filters stopped short of the search's depth has
#: both judged at its depth (gnubg's FindnSaveBestMoves, ``rThr``).
DOUBTFUL = 0.03


@dataclass(slots=True)
class RollScores:
    """The mover's cubeful equity (EMG) after each legal play of one roll,
    with the key of the position each leads to (seen by the mover, before
    the turn passes); one entry, the position as it is, when no play is possible."""

    values: npt.NDArray[np.float64]
    keys: list[str]
    best: float

    def value_of(self, key: str) -> float | None:
        """The equity after the play leading to ``key``; None if no legal play does."""
        try:
            return float(self.values[self.keys.index(key)])
        except ValueError:
            return None

    def ranked(self) -> list[tuple[float, str]]:
        """(equity, key) of every play, best first."""
        return sorted(zip(self.values.tolist(), self.keys), reverse=True)


@dataclass(slots=True)
class PositionScores:
    """The :class:`RollScores` of the 21 rolls of one position, kept together
    (:meth:`Search.prepare`): ``boards``, where each play leads (the
    opponent on roll); ``spans[r]`` are the rows of ``ROLLS[r]``,
    ``best[r]`` its best play's equity."""

    values: npt.NDArray[np.float64]
    boards: npt.NDArray[np.int8]
    spans: list[tuple[int, int]]
    best: list[float]

    def roll(self, dice: Roll) -> RollScores:
        """The scores of one roll (larger die first)."""
        r = ROLL_INDEX[dice]
        start, end = self.spans[r]
        return RollScores(self.values[start:end], keys_of_boards(self.boards[start:end], flip=True), self.best[r])


class PlaysAsked(NamedTuple):
    """A question for the look-ahead: the values of the plays leading to
    ``keys`` at ``plies`` (:meth:`Search.deep_values`)."""

    keys: tuple[str, ...]
    state: CubeState
    plies: int


class CubeAsked(NamedTuple):
    """A question for the look-ahead: a cube decision (:meth:`Search.deep_cube`)."""

    pos: Position
    state: CubeState
    plies: int


Asked = PlaysAsked | CubeAsked
#: What the look-ahead found for a question: the plays' values, or a cube decision's three equities.
Found = list[float] | tuple[float, float | None, float]


@dataclass(slots=True)
class Deep:
    """The values the look-ahead found: of plays (the mover's EMG after
    the play leading to a key, under a cube state, at some plies) and of
    cube decisions (no double, double/take, double/pass at some plies);
    ``coming``: answers still to come, in the order they are asked for
    (found by other processes: :mod:`tavlakit.analysis.deep`)."""

    plays: dict[tuple[str, CubeState, int], float]
    cubes: dict[tuple[Position, CubeState, int], tuple[float, float | None, float]]
    coming: Iterator[tuple[Asked, Found]] | None = None

    def take(self) -> bool:
        """Keep the next answer still coming (waiting for it); False when none is."""
        for asked, found in self.coming or ():
            self.answer(asked, found)
            return True
        self.coming = None
        return False

    def take_all(self) -> int:
        """Keep every answer still coming; how many there were."""
        count = 0
        while self.take():
            count += 1
        return count

    def answer(self, asked: Asked, found: Found) -> None:
        """Keep what was ``found`` for the question ``asked``."""
        if isinstance(asked, PlaysAsked):
            assert isinstance(found, list)
            self.plays.update(zip([(key, asked.state, asked.plies) for key in asked.keys], found))
        else:
            assert isinstance(found, tuple)
            self.cubes[(asked.pos, asked.state, asked.plies)] = found


class Search:
    """Scores positions and plays under one set of rules (``met``: the match
    equity table, default gnubg's; Tavla: its own; ``level``: how deep plays
    and cube decisions are looked at, :mod:`.levels`; ``ev``: the evaluator
    to share; ``threads``: how many threads gnubg's look-ahead expands its
    nodes on, the values the same whatever it is). Keeps size-capped
    caches: a match's positions seldom come back after their game."""

    def __init__(
        self,
        rules: Rules,
        met: MatchEquityTable | None = None,
        level: LevelLike = 0,
        ev: Evaluator | None = None,
        threads: int = 1,
    ) -> None:
        self.level: Level = as_level(level)
        #: How deep plays are looked at (cube decisions: ``level.cube_plies``).
        self.ply = self.level.chequer_plies
        self.rules = rules
        self.met = met or (default_met() if rules.cube else tavla_met(rules))
        self.ev = ev or Evaluator(rules)  # (the frames' own, when they share a replay: each position searched once)
        # gnubg judges a backgammon session with the cube off as if a centred cube were in play (it
        # only leaves out the cube decisions); Tavla has no cube at all: cubeless
        self.live = rules.cube or rules.backgammon
        self._scores: dict[tuple[Position, CubeState], PositionScores] = {}
        self._cubes: dict[tuple[Position, CubeState], CubeDecision] = {}
        # (1 and 2 plies) each look ahead: met again and again
        self._deep: dict[tuple[Position, CubeState, int], tuple[float, float | None, float]] = {}
        # gnubg's own look-ahead where gnubg's rules and scoring are the rules'
        deep = max(self.level.chequer_plies, self.level.cube_plies) > 0
        self.lookahead = (
            Lookahead(threads) if deep and self.level.pruning and self.ev.gnubg_scoring and self.live else None
        )
        #: The deep values found (or given: :meth:`Deep.answer`).
        self.deep = Deep({}, {})
        #: Where the deep values asked for go instead of being found (a plan of the work; None: found).
        self.planned: list[Asked] | None = None

    def on_roll(self, probs: Array, state: CubeState, x: Array) -> Array:
        """The values (EMG) of positions for the side on roll, free to double
        (no cube: cubeless); ``x``: their cube inputs (:func:`.cube_inputs`)."""
        probs = self.scored(probs)
        if not self.live:
            return cubeless_many(probs, state)
        return on_roll_many(probs, state, x)

    def scored(self, probs: Array) -> Array:
        """The probabilities as the rules score them: without backgammons
        (Tavla) a backgammon is a mars, so the net's backgammon chances go."""
        if self.rules.backgammon:
            return probs
        out = np.array(probs, dtype=float)
        out[:, 2] = out[:, 4] = 0.0
        return out

    def scores(self, pos: Position, dice: Roll, state: CubeState) -> RollScores:
        """The mover's cubeful equity after each legal play of ``dice``
        (:class:`RollScores`); the 21 rolls of a position are scored
        together, and :meth:`prepare` scores many positions in one batch."""
        return self.table(pos, state).roll(dice)

    def table(self, pos: Position, state: CubeState) -> PositionScores:
        found = self._scores.get((pos, state))
        if found is None:
            self.prepare([(pos, state)])
            found = self._scores[(pos, state)]
        return found

    def prepare(self, wanted: Iterable[tuple[Position, CubeState]]) -> None:
        """Score the 21 rolls of each (position, cube state) at once: each
        position's plays (``_plays``), then the cube efficiencies and
        cubeful values of them all in one go per cube state (numpy's cost is
        per call, not per row)."""
        todo = [item for item in dict.fromkeys(wanted) if item not in self._scores]
        if not todo:
            return
        if len(self._scores) > 2_000:  # some megabytes; positions seldom come back after their game
            self._scores.clear()
        self.ev.plays_tables([pos for pos, _state in todo])  # (a position under two cube states: its plays once)
        settle_heap()  # (the kernels are loaded now)
        found = [self._plays(pos) for pos, _state in todo]
        p = np.concatenate([plays.probs for plays in found])
        boards = np.concatenate([plays.boards for plays in found])
        starts: list[int] = []
        ends: list[int] = []
        for plays in found:
            offset = ends[-1] if ends else 0
            starts.extend(offset + start for start, _end in plays.spans)
            ends.extend(offset + end for _start, end in plays.spans)
        x = cube_inputs(boards)  # each play's, the opponent on roll
        values = np.empty(len(boards))
        groups: dict[CubeState, list[int]] = {}
        for index, (_pos, state) in enumerate(todo):
            groups.setdefault(state, []).append(index)
        for state, items in groups.items():
            rows = np.concatenate([np.arange(starts[21 * i], ends[21 * i + 20]) for i in items])
            values[rows] = -self.on_roll(p[rows], state.flipped(), x[rows])
        best = np.maximum.reduceat(values, starts).tolist()  # (every roll has at least one entry)
        for index, item in enumerate(todo):
            first, last = 21 * index, 21 * index + 21
            top, end = starts[first], ends[last - 1]
            spans = [(s - top, e - top) for s, e in zip(starts[first:last], ends[first:last])]
            self._scores[item] = PositionScores(values[top:end], boards[top:end], spans, best[first:last])

    def played(self, after: Position, state: CubeState) -> float:
        """The mover's cubeful equity after a play (``after``: the opponent on roll)."""
        probs = np.asarray([self.ev.probabilities(after)], dtype=float)
        return -float(self.on_roll(probs, state.flipped(), cube_inputs([net_board(after)]))[0])

    def luck(self, pos: Position, dice: Roll, state: CubeState, *, first: bool) -> float:
        """gnubg's luck of throwing ``dice`` (EMG)."""
        table = self.table(pos, state)
        mine = table.best[ROLL_INDEX[dice]]
        if first and dice[0] != dice[1]:
            theirs = self.table(pos.flip(), state.flipped())
            total = sum(a - b for roll, a, b in zip(ROLLS, table.best, theirs.best) if roll[0] != roll[1])
            return mine - total / 30.0
        return mine - sum(WEIGHTS[roll] * value for roll, value in zip(ROLLS, table.best)) / 36.0

    def cube(self, pos: Position, state: CubeState) -> CubeDecision:
        """The cube decision of the side on roll in ``pos`` before rolling
        (at 0 ply, :meth:`prepare_cubes` decides many at once)."""
        plies = self.level.cube_plies
        if plies == 0:
            found = self._cubes.get((pos, state))
            if found is None:
                self.prepare_cubes([(pos, state)])
                found = self._cubes[(pos, state)]
            return found
        probs = self.scored(np.asarray([self.ev.probabilities(pos)], dtype=float))[0]
        nd, dt, dp = self.deep_cube(pos, state, plies)
        if dt is None:
            return CubeDecision(nd, nd, nd, nd, "no double (cube not available)", available=False)
        optimal, action = best_cube_action(nd, dt, dp, gammons=bool(probs[1] > 0.0), state=state)
        return CubeDecision(nd, dt, dp, optimal, action, available=True)

    def deep_cube(self, pos: Position, state: CubeState, plies: int) -> tuple[float, float | None, float]:
        """The no double, double/take and double/pass equities (EMG) of the
        side on roll at ``plies`` plies (double/take None when the cube is
        not available), each (position, state) looked into once
        (:attr:`deep`; while :attr:`planned` is a list, only asked for there)."""
        key = (pos, state, plies)
        found = self.deep.cubes.get(key)
        if found is None and self.planned is not None:
            self.planned.append(CubeAsked(pos, state, plies))
            return 0.0, 0.0, 0.0
        while found is None and self.deep.take():  # (answers found elsewhere, still coming)
            found = self.deep.cubes.get(key)
        if found is None:
            found = self._gnubg_cube(pos, state, plies) if self.lookahead else self.n_ply(pos, state, plies)
            self.deep.cubes[key] = found
        return found

    def _gnubg_cube(self, pos: Position, state: CubeState, plies: int) -> tuple[float, float | None, float]:
        """gnubg's no double, double/take and double/pass equities (EMG) at
        ``plies`` plies, by its look-ahead (double/take None when the cube
        is not available)."""
        assert self.lookahead is not None
        doubled = state.doubled() if self.rules.cube and state.available() else None
        board = np.asarray([net_board(pos)], dtype=np.int8)
        nd, dt = self.lookahead.values(board, [[state, doubled]], [state], top=True, plies=plies)[0].tolist()
        if doubled is None:
            return self._emg(nd, state), None, self._emg(nd, state)
        return self._emg(nd, state), self._emg(dt, state, 2.0), double_pass(state)

    @staticmethod
    def _emg(value: float, state: CubeState, factor: float = 1.0) -> float:
        """A look-ahead's value (MWC in a match; money: per cube value of a
        cube ``factor`` times the state's) in EMG for the state's side on roll."""
        return mwc2eq(value, state) if state.length else factor * value

    def prepare_cubes(self, wanted: Iterable[tuple[Position, CubeState]]) -> None:
        """The 0-ply cube decisions of many (position, cube state), one
        batch per state."""
        if len(self._cubes) > 50_000:
            self._cubes.clear()
        groups: dict[CubeState, list[Position]] = {}
        for pos, state in dict.fromkeys(wanted):
            if (pos, state) not in self._cubes:
                groups.setdefault(state, []).append(pos)
        for state, positions in groups.items():
            p = self.scored(self.ev.probabilities_many(positions))
            x = cube_inputs(np.asarray([pos.points()[::-1] for pos in positions]))
            for pos, decision in zip(positions, cube_decision_many(p, state, x)):
                self._cubes[(pos, state)] = decision

    # --- 1 and 2 plies ----------------------------------------------------------

    def n_ply(self, pos: Position, state: CubeState, plies: int) -> tuple[float, float | None, float]:
        """gnubg's ``plies``-ply cubeful no double, double/take and
        double/pass equities (EMG) of the side on roll in ``pos`` (double/take
        ``None`` when the cube is not available): for each of the 21 rolls
        the best play by cubeless equity at the score, then the opponent's
        cubeful value one ply less deep (0 ply: :meth:`on_roll`), free to
        double, averaged."""
        found = self._deep.get((pos, state, plies))
        if found is None:
            found = self._deep[(pos, state, plies)] = self._n_ply(pos, state, plies)
        return found

    def _n_ply(self, pos: Position, state: CubeState, plies: int) -> tuple[float, float | None, float]:
        if len(self._deep) > 20_000:
            self._deep.clear()
        opp = state.flipped()
        chances, spans, boards = self._plays(pos)
        value = cubeless_many(chances, opp)  # the opponent's: their worst is our best
        picks = [start + int(np.argmin(value[start:end])) for start, end in spans]
        p, x = chances[picks], efficiency_many(boards[picks])
        weights = np.asarray([WEIGHTS[roll] for roll in ROLLS]) / 36.0
        afters = [Position.from_points(b[1], b[0]) for b in boards[picks].tolist()] if plies > 1 else []

        def mine(theirs: CubeState, factor: float) -> float:
            """The mover's value, from the opponent's (on roll) under ``theirs``."""
            values = self.on_roll(p, theirs, x)
            if plies > 1:  # the opponent's own look ahead, where the game goes on
                for i, after in enumerate(afters):
                    if after.winner() is None:
                        values[i] = self._free_to_double(after, theirs, plies - 1)
            if not state.length:
                return float(-(factor * values) @ weights)
            win, lose = theirs.win_lose()
            mwc = 1.0 - 0.5 * (values * (win - lose) + (win + lose))
            return mwc2eq(float(mwc @ weights), state)

        nd = mine(opp, 1.0)
        if not self.rules.cube or not state.available():
            return nd, None, nd
        return nd, mine(state.doubled().flipped(), 2.0), double_pass(state)

    def _plays(self, pos: Position) -> PlaysTable:
        """Every roll's plays of ``pos`` (:meth:`Evaluator.plays_table`),
        their probabilities as the rules score them."""
        table = self.ev.plays_table(pos)
        return table._replace(probs=self.scored(table.probs))

    def _free_to_double(self, pos: Position, state: CubeState, plies: int) -> float:
        """The side on roll's ``plies``-ply value, doubling when that is better."""
        nd, dt, dp = self.n_ply(pos, state, plies)
        if dt is not None and dt >= nd and dp >= nd:
            return min(dt, dp)
        return nd

    def play_value(self, key: str, state: CubeState, plies: int) -> float:
        """The mover's ``plies``-ply equity after a play (``key``: where it leads, the mover's view)."""
        after = passed(key)
        if after.winner() is not None:
            return self.played(after, state)
        return -self._free_to_double(after, state.flipped(), plies)

    # --- a match -------------------------------------------------------------

    def deep_play(self, ranked: list[tuple[float, str]], played: str, state: CubeState) -> tuple[float, float, str]:
        """The best play's and the played play's equity at the deepest ply
        the search judged them at, and the best play's key (``ranked``: the
        0-ply scores, best first; the plays judged deeper by the level's
        move filters, :meth:`ladder`)."""
        judged = self.ladder(ranked, played, state)
        best = judged[0]
        return best[0], next(value for value, key, _plies in judged if key == played), best[1]

    def ladder(
        self, ranked: list[tuple[float, str]], played: str | None, state: CubeState
    ) -> list[tuple[float, str, int]]:
        """The plays as gnubg's FindnSaveBestMoves judges them at
        :attr:`ply` plies (``ranked``: the 0-ply scores, best first): at
        each ply of the level's :attr:`~.Level.steps` the plays left are
        judged (0 ply: as ranked) and its filter keeps the best few, until
        one is left or those left are judged at :attr:`ply`; the one
        ``played`` (a key, gnubg's key move) is judged as deep as the best
        and, when it is more than :data:`DOUBTFUL` worse while that is not
        :attr:`ply`, both are judged at :attr:`ply`. (value, key, plies) of
        each, best first: the deepest judged first, then those of the ply
        above, ..., then the 0-ply rest. While planning (:attr:`planned`):
        what it asks for, each 0.0."""
        found = self._filtered(ranked, played, state)
        if isinstance(found, list):
            return found
        kept, rest = found
        if played is None or played in [key for _value, key, _plies in kept]:
            return kept + rest
        deepest = kept[0][2]
        dropped = next((entry for entry in rest if entry[1] == played), None)
        rest = [entry for entry in rest if entry[1] != played]
        if dropped is None or deepest:  # (judged as deep as the best)
            value = self.deep_values([played], state, deepest or self.ply)[0]
            dropped = (value, played, deepest or self.ply)
        if deepest < self.ply and abs(kept[0][0] - dropped[0]) > DOUBTFUL and (self.planned is None or not deepest):
            best = kept[0][1]
            values = self.deep_values([best, played], state)
            return sorted(zip(values, [best, played], [self.ply] * 2), reverse=True) + kept[1:] + rest
        return sorted([*kept, dropped], reverse=True) + rest

    def _filtered(
        self, ranked: list[tuple[float, str]], played: str | None, state: CubeState
    ) -> tuple[list[tuple[float, str, int]], list[tuple[float, str, int]]] | list[tuple[float, str, int]]:
        """The plays the level's filters keep, all judged at one ply, best
        first, and the others, those dropped deeper first (:meth:`ladder`);
        while planning, the plays asked for at a ply not answered yet, each
        0.0 (the plies below wait for the answers)."""
        layers: list[list[tuple[float, str, int]]] = []
        kept = [(value, key, 0) for value, key in ranked]
        for ply, kept_by in [*self.level.steps, (self.ply, None)]:
            if ply:
                keys = [key for _value, key, _plies in kept]
                asked = [*keys, played] if played is not None and kept_by is None and played not in keys else keys
                if self.planned is not None and any((key, state, ply) not in self.deep.plays for key in asked):
                    self.deep_values(asked, state, ply)  # (the played play, when not asked yet: in a later round)
                    return [
                        (0.0, key, ply) for key in dict.fromkeys([*asked, *([played] if played is not None else [])])
                    ]
                kept = sorted(zip(self.deep_values(keys, state, ply), keys, [ply] * len(keys)), reverse=True)
            if kept_by is None:
                break
            count = kept_by.keep([value for value, _key, _plies in kept])
            layers.append(kept[count:])
            kept = kept[:count]
            if count == 1 and kept_by.accept != 1:  # (gnubg: one play left, no need to look deeper)
                break
        return kept, [entry for layer in reversed(layers) for entry in layer]

    def deep_values(self, keys: list[str], state: CubeState, plies: int | None = None) -> list[float]:
        """The mover's cubeful equities (EMG) after the plays leading to
        ``keys``, each judged at ``plies`` plies (default :attr:`ply`), each
        (key, state, plies) once (:attr:`deep`; while :attr:`planned` is a
        list, only asked for there: 0.0)."""
        plies = self.ply if plies is None else plies
        known = self.deep.plays
        wanted = [key for key in dict.fromkeys(keys) if (key, state, plies) not in known]
        if wanted and self.planned is not None:
            self.planned.append(PlaysAsked(tuple(wanted), state, plies))
            return [known.get((key, state, plies), 0.0) for key in keys]
        while wanted and self.deep.take():  # (answers found elsewhere, still coming)
            wanted = [key for key in wanted if (key, state, plies) not in known]
        if wanted:
            if len(known) > 200_000:  # some tens of megabytes; a match asks for some thousands
                known.clear()
            found = self._deep_values(wanted, state, plies)
            known.update(zip([(key, state, plies) for key in wanted], found))
        return [known[(key, state, plies)] for key in keys]

    def _deep_values(self, keys: list[str], state: CubeState, plies: int) -> list[float]:
        if self.lookahead is None:
            return [self.play_value(k, state, plies) for k in keys]
        opp = state.flipped()
        boards = np.asarray([net_board(passed(k)) for k in keys], dtype=np.int8)
        theirs = self.lookahead.values(boards, [[opp]] * len(keys), [opp] * len(keys), top=False, plies=plies)[:, 0]
        return [-v if not state.length else mwc2eq(1.0 - v, state) for v in theirs.tolist()]

    def candidates(
        self, pos: Position, dice: Roll, state: CubeState, played: str | None = None
    ) -> list[tuple[float, str, int]]:
        """The plays of ``dice`` in ``pos`` as gnubg's hint ranks them at
        :attr:`ply`: (the mover's cubeful equity after it in EMG, the key of
        the position it leads to, the plies it was judged at), best first.
        Deeper than 0 ply the plays the level's move filters keep (with
        ``played``, a key) are judged as :meth:`ladder` judges them, the
        deepest first; the others follow at 0 ply."""
        ranked = self.scores(pos, dice, state).ranked()
        if not self.ply or len(ranked) == 1:
            return [(value, key, 0) for value, key in ranked]
        return self.ladder(ranked, played, state)


def passed(key: str) -> Position:
    """Where a play leads, the turn passed to the opponent (``key``: the
    20-letter position key of it seen by the mover)."""
    other, mover = decode_position_key(key)
    return Position.from_points(other, mover)


__all__ = [
    "DOUBTFUL",
    "Asked",
    "CubeAsked",
    "Deep",
    "Found",
    "PlaysAsked",
    "PositionScores",
    "RollScores",
    "Search",
    "passed",
]
