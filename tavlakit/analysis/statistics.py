"""GNU Backgammon's match statistics: checker play, luck, cube, overall.

Every turn of a match is judged as gnubg's ``analyse match`` judges it at
0 ply, cubeful, at the match score (:mod:`.cubeful`, through the match
equity table: :mod:`.met`; Tavla: :mod:`.tavla_met`, no cube):

* a play: every legal play of the roll is scored by the mover's cubeful
  equity after it (the opponent on roll, free to double); the error is the
  best score minus the played one's. A move is *unforced* when the roll
  had more than one legal play (gnubg's rule: distinct resulting
  positions); gnubg's marks: doubtful above 0.04 EMG, bad above 0.08, very
  bad above 0.16;
* a roll's luck: the score of the best play of the roll thrown minus the
  average of the same over the 36 throws (the 30 opening throws, 15 for
  each starter, for a game's first throw under ``use-opening-dice``);
  marks: lucky above 0.3 EMG, very lucky above 0.6;
* a cube decision: the roller's turn before the dice while the cube is
  available to them (not on a game's first play), each double, take, pass
  or beaver: no double / double-take / double-pass, the right action, the
  error of the action taken and gnubg's category.

Errors are positive numbers: the equity lost. Units: EMG (gnubg's
normalised money equivalent, per cube value; money play: points per
cube) and MWC (match winning chances; money play: points, the cube
counted). See :func:`statistics_frame` for the columns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..engine.ids import decode_position_key
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.cubeful import (
    Array,
    CubeDecision,
    CubeState,
    _best,
    cube_decision_many,
    cubeless_many,
    double_pass,
    efficiency_many,
    efficiency_of,
    eq2mwc,
    mwc2eq,
    mwc_scale,
    on_roll_many,
    recorded_decision,
)
from ..evaluation.equity import ROLL_INDEX, ROLLS, WEIGHTS, Evaluator, PlaysTable, Roll
from ..evaluation.met import MAXSCORE, MatchEquityTable, default_met
from ..evaluation.tavla_met import tavla_met
from ..formats.sgf import GNUBG
from ..i18n import N_, _
from ..record.match import Candidate, Match
from ..replay.walker import ReplayedGame, default_rules, replay
from .columns import Labels
from .luck import luck_mark, luck_rating

#: gnubg 1.07's default marks of a play (``show analysis``): doubtful, bad, very bad.
SKILL_LEVELS = (0.03, 0.06, 0.12)
#: gnubg's ratings of an error rate in EMG per decision (``arThrsRating``), best first.
RATINGS = (
    (N_("Supernatural"), 0.002),
    (N_("World class"), 0.005),
    (N_("Expert"), 0.008),
    (N_("Advanced"), 0.012),
    (N_("Intermediate"), 0.018),
    (N_("Casual player"), 0.026),
    (N_("Beginner"), 0.035),
    (N_("Awful!"), math.inf),
)
#: The plies of analysis implemented.
PLIES = (0, 1, 2)
#: The kinds of judged turns (translated when shown).
KINDS = (N_("roll"), N_("no double"), N_("double"), N_("take"), N_("pass"))


def skill_mark(error: float) -> str | None:
    """gnubg's mark of a play's error (EMG): ``very bad``, ``bad``, ``doubtful`` or None."""
    doubtful, bad, very_bad = SKILL_LEVELS
    if error > very_bad:
        return "very bad"
    if error > bad:
        return "bad"
    if error > doubtful:
        return "doubtful"
    return None


def rating(rate: float) -> str:
    """gnubg's words for an error rate in EMG per decision."""
    return next(word for word, limit in RATINGS if rate < limit)


@dataclass
class Judged:
    """One judged turn of a match (a roll, or a cube decision)."""

    game: int
    turn: int
    player: int
    kind: str
    """``roll``, or a cube decision: ``no double``, ``double``, ``take``, ``pass``."""
    values: dict[str, Any] = field(default_factory=dict)


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
    (:meth:`Judge.prepare`): ``spans[r]`` are the rows of ``ROLLS[r]``,
    ``best[r]`` its best play's equity."""

    values: npt.NDArray[np.float64]
    keys: list[str]
    spans: list[tuple[int, int]]
    best: list[float]

    def roll(self, dice: Roll) -> RollScores:
        """The scores of one roll (larger die first)."""
        r = ROLL_INDEX[dice]
        start, end = self.spans[r]
        return RollScores(self.values[start:end], self.keys[start:end], self.best[r])


class Judge:
    """Judges the turns of matches played under one set of rules."""

    def __init__(
        self, rules: Rules, met: MatchEquityTable | None = None, ply: int = 0, ev: Evaluator | None = None
    ) -> None:
        if ply not in PLIES:
            raise ValueError(ply_error(ply))
        self.ply = ply
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

    # --- values -------------------------------------------------------------

    def state(self, match: Match, rg: ReplayedGame, player: int, value: int, owner: int | None) -> CubeState:
        cube = self.rules.cube
        return CubeState(
            value=value if cube else 1,
            owner=owner if cube else None,
            mover=player,
            length=match.length or 0,
            score=rg.game.score if match.length else (0, 0),
            crawford=rg.crawford or not self.live,
            jacoby=self.rules.jacoby,
            beavers=self.rules.beaver,
            met=self.met,
        )

    def on_roll(self, probs: Array, state: CubeState, x: Array) -> Array:
        """The values (EMG) of positions for the side on roll, free to double
        (no cube: cubeless)."""
        probs = self._scored(probs)
        if not self.live:
            return cubeless_many(probs, state)
        return on_roll_many(probs, state, x)

    def _scored(self, probs: Array) -> Array:
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
        return self._table(pos, state).roll(dice)

    def _table(self, pos: Position, state: CubeState) -> PositionScores:
        found = self._scores.get((pos, state))
        if found is None:
            self.prepare([(pos, state)])
            found = self._scores[(pos, state)]
        return found

    def prepare(self, wanted: Iterable[tuple[Position, CubeState]]) -> None:
        """Score the 21 rolls of each (position, cube state) at once: each
        position's plays (:meth:`_plays`), then the cube efficiencies and
        cubeful values of them all in one go per cube state (numpy's cost is
        per call, not per row)."""
        todo = [item for item in dict.fromkeys(wanted) if item not in self._scores]
        if not todo:
            return
        if len(self._scores) > 2_000:  # some megabytes; positions seldom come back after their game
            self._scores.clear()
        self.ev.plays_tables([pos for pos, _state in todo])  # (a position under two cube states: its plays once)
        found = [self._plays(pos) for pos, _state in todo]
        keys = [key for plays in found for key in plays[0]]
        p = np.concatenate([plays[1] for plays in found])
        starts: list[int] = []
        ends: list[int] = []
        for plays in found:
            offset = ends[-1] if ends else 0
            starts.extend(offset + start for start, _end in plays[2])
            ends.extend(offset + end for _start, end in plays[2])
        x = efficiency_many(np.concatenate([plays[3] for plays in found]))  # each play's, the opponent on roll
        values = np.empty(len(keys))
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
            self._scores[item] = PositionScores(values[top:end], keys[top:end], spans, best[first:last])

    def played(self, after: Position, state: CubeState) -> float:
        """The mover's cubeful equity after a play (``after``: the opponent on roll)."""
        mover, other = after.points()
        probs = np.asarray([self.ev.probabilities(after)], dtype=float)
        return -float(self.on_roll(probs, state.flipped(), np.asarray([efficiency_of(mover, other)]))[0])

    def luck(self, pos: Position, dice: Roll, state: CubeState, first: bool) -> float:
        """gnubg's luck of throwing ``dice`` (EMG)."""
        table = self._table(pos, state)
        mine = table.best[ROLL_INDEX[dice]]
        if first and dice[0] != dice[1]:
            theirs = self._table(pos.flip(), state.flipped())
            total = sum(a - b for roll, a, b in zip(ROLLS, table.best, theirs.best) if roll[0] != roll[1])
            return mine - total / 30.0
        return mine - sum(WEIGHTS[roll] * value for roll, value in zip(ROLLS, table.best)) / 36.0

    def cube(self, pos: Position, state: CubeState) -> CubeDecision:
        """The cube decision of the side on roll in ``pos`` before rolling
        (at 0 ply, :meth:`prepare_cubes` decides many at once)."""
        if self.ply == 0:
            found = self._cubes.get((pos, state))
            if found is None:
                self.prepare_cubes([(pos, state)])
                found = self._cubes[(pos, state)]
            return found
        probs = self._scored(np.asarray([self.ev.probabilities(pos)], dtype=float))[0]
        nd, dt, dp = self.n_ply(pos, state, self.ply)
        if dt is None:
            return CubeDecision(nd, nd, nd, nd, "no double (cube not available)", False)
        optimal, action = _best(nd, dt, dp, bool(probs[1] > 0.0), state)
        return CubeDecision(nd, dt, dp, optimal, action, True)

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
            p = self._scored(self.ev.probabilities_many(positions))
            x = efficiency_many(np.asarray([pos.points()[::-1] for pos in positions]))
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
        keys, chances, spans, boards = self._plays(pos)
        value = cubeless_many(chances, opp)  # the opponent's: their worst is our best
        picks = [start + int(np.argmin(value[start:end])) for start, end in spans]
        p, x = chances[picks], efficiency_many(boards[picks])
        keys = [keys[i] for i in picks]
        weights = np.asarray([WEIGHTS[roll] for roll in ROLLS]) / 36.0
        afters = [_passed(key) for key in keys] if plies > 1 else []

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
        keys, chances, spans, boards = self.ev.plays_table(pos)
        return keys, self._scored(chances), spans, boards

    def _free_to_double(self, pos: Position, state: CubeState, plies: int) -> float:
        """The side on roll's ``plies``-ply value, doubling when that is better."""
        nd, dt, dp = self.n_ply(pos, state, plies)
        if dt is not None and dt >= nd and dp >= nd:
            return min(dt, dp)
        return nd

    def play_value(self, key: str, state: CubeState, plies: int) -> float:
        """The mover's ``plies``-ply equity after a play (``key``: where it leads, the mover's view)."""
        after = _passed(key)
        if after.winner() is not None:
            return self.played(after, state)
        return -self._free_to_double(after, state.flipped(), plies)

    # --- a match -------------------------------------------------------------

    def judge(self, match: Match) -> Iterator[Judged]:
        """Every judged turn of ``match``; turns that cannot be judged carry
        ``values["unjudged"]``, the reason."""
        for rg in replay(match, self.rules):
            yield from self._game(match, rg)

    def _game(self, match: Match, rg: ReplayedGame, rolls: bool = True) -> Iterator[Judged]:
        """The judged turns of one replayed game; ``rolls=False`` judges the
        cube decisions only (the luck and play of each roll are left out)."""
        first = True
        pending: tuple[CubeDecision, CubeState] | None = None
        number = rg.game.number
        if match.length > MAXSCORE:  # beyond every match equity table
            for step in rg.steps:
                kind = "roll" if step.turn.kind == "roll" else _KINDS[step.turn.kind]
                reason = N_("a match longer than the match equity table's 64 points")
                yield Judged(number, step.index, step.player, kind, {"unjudged": reason})
            return
        states = [self.state(match, rg, step.player, step.cube, step.owner) for step in rg.steps]
        self._prepare_game(rg, states, rolls)
        for step, state in zip(rg.steps, states):
            turn = step.turn
            known = step.known  # the replayer's word: the board before this turn is known
            if turn.kind == "roll":
                if not known or step.dice is None or not step.legal:
                    reason = N_("the board is not known") if not known else N_("a play or dice that are not legal")
                    yield Judged(number, step.index, step.player, "roll", {"unjudged": reason})
                    continue
                dice = step.dice
                assert dice is not None
                roll: Roll = (max(dice), min(dice))
                opening = first and step.before == Position.initial()
                if self.rules.cube and not opening and state.available() and pending is None:
                    decision = self.cube(step.before, state)
                    yield self._decision(number, step.index, step.player, "no double", decision, state)
                pending = None
                first = False
                if rolls:
                    yield self._roll(number, step, roll, state, opening and self.rules.opening == "use-opening-dice")
                continue
            if not known:
                yield Judged(
                    number, step.index, step.player, _KINDS[turn.kind], {"unjudged": N_("the board is not known")}
                )
                continue
            if turn.kind == "double":
                if not step.legal or not self.rules.cube:
                    yield Judged(
                        number,
                        step.index,
                        step.player,
                        "double",
                        {"unjudged": N_("a double the rules or the cube's state do not allow")},
                    )
                    pending = None
                    continue
                decision = self.cube(step.before, state)
                pending = (decision, state)
                yield self._decision(number, step.index, step.player, "double", decision, state)
            else:
                kind = _KINDS[turn.kind]
                if pending is None or not step.legal:
                    yield Judged(number, step.index, step.player, kind, {"unjudged": N_("no double to answer")})
                    continue
                decision, doubler_state = pending
                if kind == "pass":
                    pending = None
                yield self._decision(number, step.index, step.player, kind, decision, doubler_state)

    def _prepare_game(self, rg: ReplayedGame, states: list[CubeState], rolls: bool) -> None:
        """Score every judgeable roll of a game in one batch (:meth:`prepare`;
        ``rolls=False``: none) and decide its cube decisions in another
        (:meth:`prepare_cubes`; a few more than are asked for); ``states``:
        each step's cube state."""
        opening = self.rules.opening == "use-opening-dice"
        wanted, cubes = [], []
        for step, state in zip(rg.steps, states):
            if not step.known or (step.turn.kind == "roll" and (step.dice is None or not step.legal)):
                continue
            if self.rules.cube and self.ply == 0 and step.turn.kind in ("roll", "double"):
                cubes.append((step.before, state))
            if rolls and step.turn.kind == "roll":
                wanted.append((step.before, state))
                if opening and step.before == Position.initial():  # the opening's luck: both sides' rolls
                    wanted.append((step.before.flip(), state.flipped()))
        self.prepare(wanted)
        self.prepare_cubes(cubes)

    def _roll(self, game: int, step: Any, dice: Roll, state: CubeState, opening: bool) -> Judged:
        scale = mwc_scale(state)
        scores = self.scores(step.before, dice, state)
        luck = self.luck(step.before, dice, state, opening)
        values: dict[str, Any] = {
            "luck_emg": luck,
            "luck_mwc": luck * scale,
            "luck_mark": luck_mark(luck),
            "plays": len(scores.keys),
            "moved": False,
        }
        if step.after != step.before or len(scores.keys) == 1:  # a play, or no play possible (not a roll left unplayed)
            key = step.after.position_key()
            played = scores.value_of(key)
            if played is None:
                played = self.played(step.after.flip(), state)
            if self.ply and len(scores.keys) > 1:
                best, played = self._deep_play(scores.ranked(), key, state)
            else:
                best = scores.best
            error = max(0.0, best - played)
            values.update(error_emg=error, error_mwc=error * scale, mark=skill_mark(error), moved=True)
        return Judged(game, step.index, step.player, "roll", values)

    def _deep_play(self, scores: list[tuple[float, str]], played: str, state: CubeState) -> tuple[float, float]:
        """The best and the played play at :attr:`ply` plies: the plays within
        0.32 of the best at 0 ply, at most 16 (gnubg's move filter), and the one played."""
        top = scores[0][0]
        keys = [k for score, k in scores[:16] if score >= top - 0.32]
        if played not in keys:
            keys.append(played)
        values = {k: self.play_value(k, state, self.ply) for k in keys}
        return max(values.values()), values[played]

    def _decision(self, game: int, turn: int, player: int, kind: str, d: CubeDecision, state: CubeState) -> Judged:
        right = _right_action(d, kind)
        error, category = cube_error(d, kind)
        close = kind != "no double" or d.close()

        def mwc(emg: float) -> float:
            return eq2mwc(emg, state) if state.length else emg * state.value

        return Judged(
            game,
            turn,
            player,
            kind,
            {
                "no_double": d.no_double,
                "double_take": d.double_take,
                "double_pass": d.double_pass,
                "no_double_mwc": mwc(d.no_double),
                "double_take_mwc": mwc(d.double_take),
                "double_pass_mwc": mwc(d.double_pass),
                "right_action": right,
                "best": d.action,
                "cube_error_emg": error,
                "cube_error_mwc": error * mwc_scale(state),
                "category": category,
                "close": close,
            },
        )


def _passed(key: str) -> Position:
    """Where a play leads, the turn passed to the opponent (``key``: the
    20-letter position key of it seen by the mover)."""
    other, mover = decode_position_key(key)
    return Position.from_points(other, mover)


_KINDS = {"double": "double", "take": "take", "drop": "pass", "beaver": "take"}


def cube_error(d: CubeDecision, kind: str) -> tuple[float, str | None]:
    """The equity (EMG, >= 0) the action ``kind`` ("no double", "double",
    "take", "pass") lost at decision ``d``, and gnubg's category of the
    error (None: no error)."""
    category = None
    if kind == "no double":
        error = d.optimal - d.no_double
        if error > 0:
            category = "missed_doubles_above_cp" if d.double_take > 1.0 else "missed_doubles_below_cp"
    elif kind == "double":
        error = d.optimal - d.double
        if error > 0:
            category = "wrong_doubles_above_tg" if d.no_double > 1.0 else "wrong_doubles_below_dp"
    elif kind == "take":
        error = d.double_take - d.double_pass
        category = "wrong_takes" if error > 0 else None
    else:
        error = d.double_pass - d.double_take
        category = "wrong_passes" if error > 0 else None
    return max(0.0, error), category


def _right_action(d: CubeDecision, kind: str) -> str:
    """The right action for the side deciding: the doubler's, or the taker's."""
    if kind in ("take", "pass"):
        return "take" if d.right_take else "pass"
    return "double" if d.optimal > d.no_double else "no double"


# --- the statistics frame ------------------------------------------------------

#: The columns of :func:`statistics_frame` after the identifying ones.
#: gnubg's categories of cube errors (counted, and each also as ``*_emg``/``*_mwc``).
CUBE_CATEGORIES = (
    "missed_doubles_below_cp",
    "missed_doubles_above_cp",
    "wrong_doubles_below_dp",
    "wrong_doubles_above_tg",
    "wrong_takes",
    "wrong_passes",
)
STATISTICS_COLUMNS = (
    "total_moves",
    "unforced_moves",
    "moves_doubtful",
    "moves_bad",
    "moves_very_bad",
    "checker_error_emg",
    "checker_error_mwc",
    "rolls_very_lucky",
    "rolls_lucky",
    "rolls_unlucky",
    "rolls_very_unlucky",
    "luck_emg",
    "luck_mwc",
    "cube_decisions",
    "close_cube_decisions",
    "doubles",
    "takes",
    "passes",
    *CUBE_CATEGORIES,
    "cube_error_emg",
    "cube_error_mwc",
    "error_rate_memg",
    "snowie_error_rate",
    "pr",
    "actual_result",
    "luck_adjusted_result",
    "checker_rating",
    "cube_rating",
    "overall_rating",
    "luck_rating",
    "fibs_rating_luck_difference",
    "fibs_rating_from_errors",
    "fibs_rating_checker_loss",
    "fibs_rating_cube_loss",
    "unjudged",
    "recorded_by",
    "recorded_checker_error",
    "recorded_cube_error",
    "recorded_luck",
)
#: The record's own analyser's totals (XG's, in its unit: EMG), beside ours: NaN where the record
#: holds none.
RECORDED = ("recorded_checker_error", "recorded_cube_error", "recorded_luck")


def _blank() -> dict[str, Any]:
    out: dict[str, Any] = {name: 0 for name in STATISTICS_COLUMNS[:26]}
    out.update(
        checker_error_emg=0.0,
        checker_error_mwc=0.0,
        luck_emg=0.0,
        luck_mwc=0.0,
        cube_error_emg=0.0,
        cube_error_mwc=0.0,
        actual_result=0.0,
        luck_adjusted_result=0.0,
        unjudged=0,
        opponent_moves=0,
        recorded_by=None,
        **dict.fromkeys(RECORDED, math.nan),
    )
    for name in CUBE_CATEGORIES:
        out[name + "_emg"] = 0.0
        out[name + "_mwc"] = 0.0
    return out


def _add(
    rows: dict[int, dict[str, Any]], judged: Judged, unjudged: list[dict[str, Any]], where: dict[str, Any]
) -> None:
    mine = rows[judged.player]
    values = judged.values
    if "unjudged" in values:
        mine["unjudged"] += 1
        unjudged.append(
            {**where, "game": judged.game, "turn": judged.turn, "kind": judged.kind, "reason": values["unjudged"]}
        )
        if judged.kind == "roll":
            mine["total_moves"] += 1
        return
    if judged.kind == "roll":
        mine["total_moves"] += values["moved"]
        if values["plays"] > 1 and values["moved"]:
            mine["unforced_moves"] += 1
            mine["checker_error_emg"] += values.get("error_emg", 0.0)
            mine["checker_error_mwc"] += values.get("error_mwc", 0.0)
        mark = values.get("mark")
        if mark:
            mine["moves_" + mark.replace(" ", "_")] += 1
        lucky = values["luck_mark"]
        if lucky:
            mine["rolls_" + lucky.replace(" ", "_")] += 1
        mine["luck_emg"] += values["luck_emg"]
        mine["luck_mwc"] += values["luck_mwc"]
        mine["luck_adjusted_result"] -= values["luck_mwc"]
        rows[1 - judged.player]["luck_adjusted_result"] += values["luck_mwc"]
        return
    mine["cube_decisions"] += 1
    mine["close_cube_decisions"] += bool(values["close"])
    if judged.kind in ("double", "take", "pass"):
        mine[{"double": "doubles", "take": "takes", "pass": "passes"}[judged.kind]] += 1
    category = values["category"]
    if category:
        mine[category] += 1
        mine[category + "_emg"] += values["cube_error_emg"]
        mine[category + "_mwc"] += values["cube_error_mwc"]
        mine["cube_error_emg"] += values["cube_error_emg"]
        mine["cube_error_mwc"] += values["cube_error_mwc"]


def _result(match: Match, rg: ReplayedGame, rows: dict[int, dict[str, Any]], met: MatchEquityTable) -> None:
    result = rg.game.result
    if result is None or result.winner not in (0, 1):
        return
    if match.length > MAXSCORE:
        return  # beyond the table: the game's turns are listed as not judged
    if match.length:
        before = met.at_score(rg.game.score, match.length, rg.crawford)
        after = met.after(rg.game.score, match.length, rg.crawford, result.winner, result.points)
        change = after - before  # player 0's
    else:
        change = float(result.points if result.winner == 0 else -result.points)
    for side, sign in ((0, 1.0), (1, -1.0)):
        rows[side]["actual_result"] += sign * change
        rows[side]["luck_adjusted_result"] += sign * change


def _recorded(rows: dict[int, dict[str, Any]], match: Match, rg: ReplayedGame, judge: Judge) -> None:
    """Add up the analysis the record holds (XG's or gnubg's, as written):
    the equity each player's plays lost, the equity their cube actions lost
    (not doubling before a roll; a double, take, drop or beaver), and the
    luck of their rolls. gnubg's SGF keeps its cube options, not the errors:
    they are worked out from them at the game's score, as gnubg does."""
    doubled: tuple[Candidate, ...] = ()  # the options of the double being answered, and its state
    doubler: CubeState | None = None
    for step in rg.steps:
        analysis, kind = step.turn.analysis, step.turn.kind
        if kind == "double":
            doubled, doubler = (), judge.state(match, rg, step.player, step.cube, step.owner)
        if analysis is None:
            continue
        mine = rows[step.player]
        mine["recorded_by"] = analysis.program
        values: tuple[tuple[str, float | None], ...]
        if kind == "roll":
            cube = analysis.cube_error
            if cube is None and analysis.program == GNUBG and len(analysis.cube_options) == 2:
                state = judge.state(match, rg, step.player, step.cube, step.owner)
                cube = _recorded_cube_error(analysis.cube_options, "no double", state)
            values = (
                ("recorded_checker_error", analysis.error),
                ("recorded_cube_error", cube),
                ("recorded_luck", analysis.luck),
            )
        else:
            error = analysis.error
            if kind == "double":
                doubled = tuple(analysis.candidates)
            if error is None and analysis.program == GNUBG and len(doubled) == 2 and doubler is not None:
                error = _recorded_cube_error(doubled, _KINDS[kind], doubler)
            values = (("recorded_cube_error", error),)
        for column, value in values:
            if value is not None:
                mine[column] = value if math.isnan(mine[column]) else mine[column] + value


def _recorded_cube_error(options: Sequence[Candidate], kind: str, state: CubeState) -> float:
    """The error (EMG) gnubg's recorded cube options (no double, double/take:
    :func:`tavlakit.formats.sgf.gnubg_cube_options`) give the action ``kind``."""
    no_double, take = options
    gammons = no_double.probabilities is not None and no_double.probabilities[1] > 0.0
    return cube_error(recorded_decision(no_double.equity, take.equity, gammons, state), kind)[0]


def fibs_luck_difference(luck_adjusted: float, length: int) -> float:
    """The FIBS rating difference a match's luck-adjusted result (MWC, as a
    share above 0.5) implies (Kees van den Doel's estimate, as gnubg gives it;
    at most 2100 points below; NaN for a sure result).

    >>> round(fibs_luck_difference(0.1, 7))  # 60% against an equal player over 7 points
    133
    """
    chance = 0.5 + luck_adjusted
    if not 0.0 < chance < 1.0:
        return math.nan
    return max(-2100.0, -2000.0 / math.sqrt(length) * math.log10(1.0 / chance - 1.0))


#: gnubg's rating offset of the error-based FIBS rating (a player without errors).
FIBS_OFFSET = 2050.0


def _finish(row: dict[str, Any], length: int) -> dict[str, Any]:
    """Rates and ratings from the totals of one row (gnubg's formatgs);
    the FIBS rating estimates need the match length (``length``; 0: none)."""
    unforced, close = row["unforced_moves"], row["close_cube_decisions"]
    decisions = unforced + close
    total = row["checker_error_emg"] + row["cube_error_emg"]
    row["error_rate_memg"] = 1000.0 * total / decisions if decisions else math.nan
    moves = row["total_moves"] + row["opponent_moves"]
    row["snowie_error_rate"] = 1000.0 * total / moves if moves else math.nan
    row["pr"] = 500.0 * total / decisions if decisions else math.nan
    row["checker_rating"] = rating(row["checker_error_emg"] / unforced) if unforced else None
    row["cube_rating"] = rating(row["cube_error_emg"] / close) if close else None
    row["overall_rating"] = rating(total / decisions) if decisions else None
    rolls = row["total_moves"]
    row["luck_rating"] = luck_rating(row["luck_emg"] / rolls) if rolls else None
    row["fibs_rating_luck_difference"] = row["fibs_rating_from_errors"] = math.nan
    row["fibs_rating_checker_loss"] = row["fibs_rating_cube_loss"] = math.nan
    if length:
        # Kees van den Doel's estimates, as gnubg gives them
        row["fibs_rating_luck_difference"] = fibs_luck_difference(row["luck_adjusted_result"], length)
        checker = row["checker_error_emg"] / unforced if unforced else 0.0
        cube = row["cube_error_emg"] / close if close else 0.0
        row["fibs_rating_checker_loss"] = checker * (8798.0 + 25526.0 / length)
        row["fibs_rating_cube_loss"] = cube * (863.0 - 519.0 / length)
        if decisions:
            row["fibs_rating_from_errors"] = (
                FIBS_OFFSET - row["fibs_rating_checker_loss"] - row["fibs_rating_cube_loss"]
            )
    return row


#: The columns of :func:`decisions_frame`.
DECISION_COLUMNS = (
    "match",
    "path",
    "game",
    "turn",
    "player",
    "name",
    "kind",
    "luck_emg",
    "luck_mwc",
    "luck_mark",
    "plays",
    "error_emg",
    "error_mwc",
    "mark",
    "no_double",
    "double_take",
    "double_pass",
    "no_double_mwc",
    "double_take_mwc",
    "double_pass_mwc",
    "best",
    "right_action",
    "cube_error_emg",
    "cube_error_mwc",
    "category",
    "close",
    "unjudged",
)


class Tally:
    """One match's statistics and judged turns, fed its replayed games in
    order (:meth:`add`): by :func:`judge_matches`, or by the frames' walker
    during its one replay (:func:`tavlakit.analysis.analyse` with
    ``statistics=True``). ``label`` is the match's short label in the
    decision rows."""

    def __init__(self, match: Match, path: str, label: str, judge: Judge) -> None:
        self.match, self.path, self.label, self.judge = match, path, label, judge
        self.per = {0: _blank(), 1: _blank()}
        self.games = 0
        self.unjudged: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []

    def add(self, rg: ReplayedGame) -> None:
        """Judge one replayed game of the match and count its turns."""
        match = self.match
        judged = list(self.judge._game(match, rg))
        self.decisions.extend(_decision_rows(match, self.label, self.path, judged))
        for j in judged:
            _add(self.per, j, self.unjudged, {"path": self.path, "player": match.players[j.player]})
        _result(match, rg, self.per, self.judge.met)
        _recorded(self.per, match, rg, self.judge)
        self.games += 1

    def rows(self) -> list[dict[str, Any]]:
        """The match's two rows of the statistics frame (none when no game was added)."""
        if not self.games:
            return []
        match, rules = self.match, self.judge.rules
        out = []
        for side in (0, 1):
            row = dict(self.per[side])
            row["opponent_moves"] = self.per[1 - side]["total_moves"]
            out.append(
                {
                    "scope": "match",
                    "match": self.path,
                    "path": self.path,
                    "player": match.players[side],
                    "side": side,
                    "length": match.length or 0,
                    "rules": rules.name,
                    # the FIBS estimates are backgammon's (with the cube): none for Tavla
                    **_finish(row, match.length or 0 if rules.backgammon else 0),
                }
            )
        return out


class Judging:
    """The statistics and decision rows of many matches, each judged game
    by game as it is replayed (a :class:`Tally` per match, one
    :class:`Judge` per rules). ``met``: a match equity table, or the path
    of one (workers load it once); default gnubg's (Tavla: its own)."""

    def __init__(self, met: MatchEquityTable | str | Path | None = None, ply: int = 0) -> None:
        if ply not in PLIES:
            raise ValueError(ply_error(ply))
        self.met = _load_met(str(met)) if isinstance(met, (str, Path)) else met
        self.ply = ply
        self.judges: dict[Rules, Judge] = {}
        self.rows: list[dict[str, Any]] = []
        self.unjudged: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []

    def tally(self, match: Match, path: str, label: str, rules: Rules, ev: Evaluator | None = None) -> Tally:
        """A tally for ``match`` replayed under ``rules``; :meth:`keep` it when its games are in
        (``ev``: the evaluator to share, the first time these rules come)."""
        if rules not in self.judges:
            self.judges[rules] = Judge(rules, self.met, self.ply, ev)
        return Tally(match, path, label, self.judges[rules])

    def keep(self, tally: Tally) -> None:
        """Add a match's rows, all its games judged."""
        self.rows.extend(tally.rows())
        self.unjudged.extend(tally.unjudged)
        self.decisions.extend(tally.decisions)

    def statistics(self) -> pd.DataFrame:
        """The statistics frame (:func:`statistics_frame`) of the matches kept."""
        return assemble(self.rows, self.unjudged)

    def decisions_frame(self) -> pd.DataFrame:
        """The decisions frame (:func:`decisions_frame`) of the matches kept."""
        return decision_frame(self.decisions)


def ply_error(ply: int) -> str:
    """The message for a ``ply`` not in :data:`PLIES`."""
    return _("--ply {ply}: only 0-, 1- and 2-ply analysis is implemented").format(ply=ply)


def judge_matches(
    matches: Iterable[Match] | Match, rules: Rules | None, met: MatchEquityTable | str | Path | None, ply: int = 0
) -> Judging:
    """Replay and judge each match on its own (:func:`tavlakit.analysis.analyse`
    with ``statistics=True`` judges during the replay that builds its frames)."""
    judging = Judging(met, ply)
    labels = Labels()
    for index, match in enumerate([matches] if isinstance(matches, Match) else matches):
        path = match.source or f"match-{index + 1}"
        tally = judging.tally(match, path, labels(path), rules or default_rules(match))
        for rg in replay(match, tally.judge.rules):
            tally.add(rg)
        judging.keep(tally)
    return judging


def decision_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The decisions frame of decision rows (from one process or many)."""
    return pd.DataFrame(rows, columns=list(DECISION_COLUMNS))


def decisions_frame(
    matches: Iterable[Match] | Match, rules: Rules | None = None, met: MatchEquityTable | None = None, ply: int = 0
) -> pd.DataFrame:
    """Every judged turn: one row per roll (luck, the play's error and mark)
    and per cube decision (``kind``: ``no double`` before a roll, ``double``,
    ``take``, ``pass``) with the three equities (EMG, for the doubler),
    and in MWC (money: points, the cube counted: ``*_mwc``), gnubg's best
    action (``best``), the right action of the side deciding,
    the error of the one taken (``cube_error_*``, positive) and its category;
    ``turn`` is the turn's index in its game (the plays frame's ``turn``);
    ``unjudged`` the reason a turn could not be judged."""
    return judge_matches(matches, rules, met, ply).decisions_frame()


def cube_decisions(
    match: Match, games: Iterable[ReplayedGame], rules: Rules, met: MatchEquityTable | None = None, ply: int = 0
) -> pd.DataFrame:
    """The cube decisions of :func:`decisions_frame` for games already
    replayed (the viewer's steps): nothing replays the match a second time,
    and the rolls, whose luck and play the viewer has judged, are not judged
    again."""
    judge = Judge(rules, met, ply)
    path = match.source or "match-1"
    rows = [row for rg in games for row in _decision_rows(match, path, path, list(judge._game(match, rg, rolls=False)))]
    return decision_frame(rows)


def _decision_rows(match: Match, label: str, path: str, judged: list[Judged]) -> Iterator[dict[str, Any]]:
    for j in judged:
        yield {
            "match": label,
            "path": path,
            "game": j.game,
            "turn": j.turn,
            "player": j.player,
            "name": match.players[j.player],
            "kind": j.kind,
            **{k: v for k, v in j.values.items() if k in DECISION_COLUMNS},
        }


#: The columns :func:`join_decisions` adds to a plays frame: a roll's, then a cube decision's.
JOINED_ROLL = ("luck_emg", "luck_mwc", "error_emg", "error_mwc", "mark")
JOINED_CUBE = (
    "cube_decision",
    "no_double",
    "double_take",
    "double_pass",
    "best",
    "right_action",
    "cube_error_emg",
    "cube_error_mwc",
    "category",
)
JOINED = JOINED_ROLL + JOINED_CUBE


def join_decisions(plays: pd.DataFrame, decisions: pd.DataFrame) -> pd.DataFrame:
    """The plays frame with the judged values of each turn: a roll's luck
    and play error at the score (``luck_emg``, ``error_emg``, ... : cubeful,
    unlike the plays frame's cubeless ``luck`` and ``error``), and on a cube
    action's row (double, take, drop) or on the roll a cube decision came
    before (``cube_decision`` = ``no double``) the three equities, gnubg's best
    action, the right action, the cube error and its category."""
    keys = ["path", "game", "turn"]
    rolls = decisions[decisions["kind"] == "roll"][keys + list(JOINED_ROLL)]
    cube = decisions[decisions["kind"] != "roll"].rename(columns={"kind": "cube_decision"})[keys + list(JOINED_CUBE)]
    out = plays.merge(rolls, on=keys, how="left").merge(cube, on=keys, how="left")
    out.index = plays.index
    return out


def statistics_frame(
    matches: Iterable[Match] | Match, rules: Rules | None = None, met: MatchEquityTable | None = None, ply: int = 0
) -> pd.DataFrame:
    """gnubg's statistics of each player: one row per player per match
    (``scope="match"``) and per player name over every match
    (``scope="overall"``); the columns :data:`STATISTICS_COLUMNS` (errors
    positive: the equity lost; ``*_emg`` in EMG, ``*_mwc`` in MWC, money
    play in points; ``pr``: XG's Performance Rating, the checker and cube
    error in EMG per unforced move and close or actual cube decision, times
    500; ``fibs_rating_*``: gnubg's FIBS rating estimates of a match (the
    difference the luck-adjusted result implies, the absolute rating from the
    error rates and what checker and cube errors cost; NaN for money play,
    for Tavla and in the overall rows); ``unjudged``: how many turns could not be judged,
    listed with the reason in ``frame.attrs["unjudged"]``); ``recorded_*``:
    the record's own analyser's totals beside ours (``recorded_by``: whose,
    e.g. XG; the checker error as equity lost, the luck for the roller; NaN
    where the record holds no analysis). ``ply=1``: plays
    (those gnubg's move filter keeps) and cube decisions at 1 ply, luck at 0
    ply as gnubg always judges it. The matches are replayed here for this
    frame alone: ``tavlakit.analysis.analyse(..., statistics=True)`` gives it
    from the replay that builds the plays and games frames."""
    return judge_matches(matches, rules, met, ply).statistics()


def assemble(rows: list[dict[str, Any]], unjudged: list[dict[str, Any]]) -> pd.DataFrame:
    """The statistics frame of per-match rows (from one process or many):
    short match labels over the whole collection, and the overall rows."""
    frame = pd.DataFrame(rows)
    frame.attrs["unjudged"] = unjudged
    if frame.empty:
        return frame
    labels = Labels()
    frame["match"] = [labels(path) for path in frame["path"]]
    counts = [
        c
        for c in frame.columns
        if c not in ("scope", "match", "path", "player", "side", "length")
        and frame[c].dtype.kind in "if"
        and not c.endswith("rate_memg")
        and c not in ("snowie_error_rate", "pr")
        and not c.startswith("fibs")
    ]
    overall = []
    for player, group in frame.groupby("player", sort=False):
        total: dict[str, Any] = {c: group[c].sum(min_count=1 if c in RECORDED else 0) for c in counts}
        total["recorded_by"] = next((by for by in group["recorded_by"] if isinstance(by, str)), None)
        overall.append(
            {
                "scope": "overall",
                "match": None,
                "path": None,
                "player": player,
                "side": None,
                "length": None,
                "rules": None,
                **_finish(total, 0),
            }
        )
    out = pd.concat([frame, pd.DataFrame(overall)], ignore_index=True)
    out.attrs["unjudged"] = unjudged
    return out


@lru_cache(maxsize=8)
def _load_met(path: str) -> MatchEquityTable:
    from ..evaluation.met import load_met

    return load_met(path)


__all__ = [
    "DECISION_COLUMNS",
    "JOINED",
    "RATINGS",
    "SKILL_LEVELS",
    "STATISTICS_COLUMNS",
    "Judge",
    "Judged",
    "Judging",
    "PLIES",
    "Tally",
    "assemble",
    "cube_decisions",
    "decision_frame",
    "decisions_frame",
    "fibs_luck_difference",
    "join_decisions",
    "judge_matches",
    "ply_error",
    "rating",
    "skill_mark",
    "statistics_frame",
]
