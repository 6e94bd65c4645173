"""GNU Backgammon's match statistics: checker play, luck, cube, overall.

Every turn of a match is judged as gnubg's ``analyse match`` judges it
(:mod:`.judge`: at 0 ply by default, cubeful, at the match score), and each
player's judged turns are added up here, a :class:`Tally` per match, with
gnubg's rates and ratings (:class:`Rates`). A move is *unforced* when the
roll had more than one legal play (gnubg's rule: distinct resulting
positions); gnubg's marks of a play: doubtful above 0.03 EMG, bad above
0.06, very bad above 0.12 (:data:`~tavlakit.analysis.judge.SKILL_LEVELS`);
of a roll: lucky above 0.3 EMG, very lucky above 0.6.

Errors are positive numbers: the equity lost. Units: EMG (gnubg's
normalised money equivalent, per cube value; money play: points per
cube) and MWC (match winning chances; money play: points, the cube
counted). See :func:`statistics_frame` for the columns; the decisions
frame (one row per judged turn) is :mod:`.decisions`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, TypedDict

import pandas as pd

from ..engine.rules import Rules
from ..evaluation.cubeful import CubeState, recorded_decision
from ..evaluation.equity import Evaluator
from ..evaluation.levels import DEFAULT_LEVEL, LevelLike, level as as_level
from ..evaluation.met import MAXSCORE, MatchEquityTable, load_met
from ..i18n import N_
from ..record.match import GNUBG, XG, Candidate, Match, RecordedAnalysis
from ..replay.jacoby import jacoby_used
from ..replay.walker import ReplayedGame, default_rules, replay
from .columns import Labels
from .decisions import DecisionRow, decision_rows, decisions_from_rows
from .judge import ACTIONS, CubeKind, Judge, Judged, cube_error, pr_decision
from .luck import luck_rating

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
#: gnubg's categories of cube errors (counted, and each also as ``*_emg``/``*_mwc``).
CUBE_CATEGORIES = (
    "missed_doubles_below_cp",
    "missed_doubles_above_cp",
    "wrong_doubles_below_dp",
    "wrong_doubles_above_tg",
    "wrong_takes",
    "wrong_passes",
)
#: The record's own analyser's totals (XG's, in its unit: EMG), beside ours: NaN where the record
#: holds none.
RECORDED = ("recorded_checker_error", "recorded_cube_error", "recorded_luck", "recorded_decisions")
#: A column of :class:`PlayerTotals` per mark, per cube action.
_MARK_COLUMNS = {"doubtful": "moves_doubtful", "bad": "moves_bad", "very bad": "moves_very_bad"}
_LUCK_COLUMNS = {
    "very lucky": "rolls_very_lucky",
    "lucky": "rolls_lucky",
    "unlucky": "rolls_unlucky",
    "very unlucky": "rolls_very_unlucky",
}
_ACTION_COLUMNS = {"double": "doubles", "take": "takes", "pass": "passes"}


def rating(rate: float) -> str:
    """gnubg's words for an error rate in EMG per decision.

    >>> rating(0.004)
    'World class'
    """
    return next(word for word, limit in RATINGS if rate < limit)


@dataclass
class PlayerTotals:
    """One player's totals over judged turns (a match's, or every match's):
    the counting columns of the statistics frame, in its order."""

    total_moves: int = 0
    unforced_moves: int = 0
    moves_doubtful: int = 0
    moves_bad: int = 0
    moves_very_bad: int = 0
    checker_error_emg: float = 0.0
    checker_error_mwc: float = 0.0
    rolls_very_lucky: int = 0
    rolls_lucky: int = 0
    rolls_unlucky: int = 0
    rolls_very_unlucky: int = 0
    luck_emg: float = 0.0
    luck_mwc: float = 0.0
    cube_decisions: int = 0
    close_cube_decisions: int = 0
    pr_decisions: int = 0
    """The decisions XG's Performance Rating counts: unforced moves, and the
    cube decisions :func:`~tavlakit.analysis.judge.pr_decision` says."""
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    missed_doubles_below_cp: int = 0
    missed_doubles_above_cp: int = 0
    wrong_doubles_below_dp: int = 0
    wrong_doubles_above_tg: int = 0
    wrong_takes: int = 0
    wrong_passes: int = 0
    cube_error_emg: float = 0.0
    cube_error_mwc: float = 0.0
    actual_result: float = 0.0
    luck_adjusted_result: float = 0.0
    unjudged: int = 0
    opponent_moves: int = 0
    """The opponent's moves (Snowie's error rate counts both players' moves)."""
    recorded_by: str | None = None
    recorded_checker_error: float = math.nan
    recorded_cube_error: float = math.nan
    recorded_luck: float = math.nan
    recorded_decisions: float = math.nan
    """The decisions XG's Performance Rating counts, as the record's XG analysis tells them."""
    missed_doubles_below_cp_emg: float = 0.0
    missed_doubles_below_cp_mwc: float = 0.0
    missed_doubles_above_cp_emg: float = 0.0
    missed_doubles_above_cp_mwc: float = 0.0
    wrong_doubles_below_dp_emg: float = 0.0
    wrong_doubles_below_dp_mwc: float = 0.0
    wrong_doubles_above_tg_emg: float = 0.0
    wrong_doubles_above_tg_mwc: float = 0.0
    wrong_takes_emg: float = 0.0
    wrong_takes_mwc: float = 0.0
    wrong_passes_emg: float = 0.0
    wrong_passes_mwc: float = 0.0

    def _count(self, column: str, by: float = 1) -> None:
        setattr(self, column, getattr(self, column) + by)

    def add(self, judged: Judged) -> None:
        """Count a judged roll or cube decision of this player (not an unjudged turn)."""
        roll, cube = judged.roll, judged.cube
        if roll is not None:
            self.total_moves += roll.moved
            if roll.plays > 1 and roll.moved:
                self.unforced_moves += 1
                self.pr_decisions += 1
                self.checker_error_emg += roll.error_emg or 0.0
                self.checker_error_mwc += roll.error_mwc or 0.0
            if roll.mark:
                self._count(_MARK_COLUMNS[roll.mark])
            if roll.luck_mark:
                self._count(_LUCK_COLUMNS[roll.luck_mark])
            self.luck_emg += roll.luck_emg
            self.luck_mwc += roll.luck_mwc
            self.luck_adjusted_result -= roll.luck_mwc
        elif cube is not None:
            self.cube_decisions += 1
            self.close_cube_decisions += cube.close
            self.pr_decisions += cube.pr_decision
            if judged.kind in _ACTION_COLUMNS:
                self._count(_ACTION_COLUMNS[judged.kind])
            if cube.category:
                self._count(cube.category)
                self._count(cube.category + "_emg", cube.cube_error_emg)
                self._count(cube.category + "_mwc", cube.cube_error_mwc)
                self.cube_error_emg += cube.cube_error_emg
                self.cube_error_mwc += cube.cube_error_mwc

    def add_recorded(self, column: str, value: float) -> None:
        """Add to one of the :data:`RECORDED` totals (NaN until a value comes)."""
        total = getattr(self, column)
        setattr(self, column, value if math.isnan(total) else total + value)

    def absorb(self, other: PlayerTotals) -> None:
        """Add another game's totals of the same player to these."""
        for f in fields(self):
            name = f.name
            value = getattr(other, name)
            if name == "recorded_by":
                self.recorded_by = self.recorded_by or value
            elif name in RECORDED:
                if not math.isnan(value):
                    self.add_recorded(name, value)
            else:
                setattr(self, name, getattr(self, name) + value)


@dataclass
class Rates:
    """gnubg's rates and ratings of a player's totals (its ``formatgs``)."""

    error_rate_memg: float
    snowie_error_rate: float
    pr: float
    """XG's Performance Rating: the error in EMG per decision XG counts
    (:attr:`PlayerTotals.pr_decisions`), times 500."""
    recorded_pr: float
    """The same of the record's own XG analysis: XG's errors per decision XG counts, times 500."""
    checker_rating: str | None
    cube_rating: str | None
    overall_rating: str | None
    luck_rating: str | None
    fibs_rating_luck_difference: float
    fibs_rating_from_errors: float
    fibs_rating_checker_loss: float
    fibs_rating_cube_loss: float

    @classmethod
    def of(cls, totals: PlayerTotals, length: int) -> Rates:
        """The rates of ``totals``; the FIBS rating estimates need the match
        length (``length``; 0: none: money play, Tavla, overall rows)."""
        unforced, close = totals.unforced_moves, totals.close_cube_decisions
        decisions = unforced + close
        total = totals.checker_error_emg + totals.cube_error_emg
        moves = totals.total_moves + totals.opponent_moves
        rolls = totals.total_moves
        nan = math.nan
        out = cls(
            error_rate_memg=1000.0 * total / decisions if decisions else nan,
            snowie_error_rate=1000.0 * total / moves if moves else nan,
            pr=500.0 * total / totals.pr_decisions if totals.pr_decisions else nan,
            recorded_pr=_recorded_pr(totals),
            checker_rating=rating(totals.checker_error_emg / unforced) if unforced else None,
            cube_rating=rating(totals.cube_error_emg / close) if close else None,
            overall_rating=rating(total / decisions) if decisions else None,
            luck_rating=luck_rating(totals.luck_emg / rolls) if rolls else None,
            fibs_rating_luck_difference=nan,
            fibs_rating_from_errors=nan,
            fibs_rating_checker_loss=nan,
            fibs_rating_cube_loss=nan,
        )
        if length:
            # Kees van den Doel's estimates, as gnubg gives them
            out.fibs_rating_luck_difference = fibs_luck_difference(totals.luck_adjusted_result, length)
            checker = totals.checker_error_emg / unforced if unforced else 0.0
            cube = totals.cube_error_emg / close if close else 0.0
            out.fibs_rating_checker_loss = checker * (8798.0 + 25526.0 / length)
            out.fibs_rating_cube_loss = cube * (863.0 - 519.0 / length)
            if decisions:
                out.fibs_rating_from_errors = FIBS_OFFSET - out.fibs_rating_checker_loss - out.fibs_rating_cube_loss
        return out


@dataclass
class PlayerStatistics:
    """One row of the statistics frame: a player's totals and rates in one
    match (``scope="match"``) or over every match (``scope="overall"``)."""

    scope: str
    match: str | None
    path: str | None
    player: str
    side: int | None
    length: int | None
    rules: str | None
    _: KW_ONLY
    jacoby: bool | None
    """A money session's Jacoby rule (None: a match, or no cube)."""
    jacoby_from: str | None
    """Where it came from: ``record``, ``results`` or ``gnubg`` (its default)."""
    level: str | None
    """The key of the analysis level (:mod:`~tavlakit.evaluation.levels`) the turns were judged at."""
    totals: PlayerTotals
    rates: Rates

    def record(self) -> dict[str, object]:
        """The row as the frame holds it: flat, in :data:`STATISTICS_COLUMNS`' order after the identifying ones."""
        head = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("totals", "rates")}
        return {**head, **asdict(self.totals), **asdict(self.rates)}


#: Every column of a row of :func:`statistics_frame`, in order.
STATISTICS_FRAME_COLUMNS = tuple(
    [f.name for f in fields(PlayerStatistics) if f.name not in ("totals", "rates")]
    + [f.name for f in fields(PlayerTotals)]
    + [f.name for f in fields(Rates)]
)
#: The columns of :func:`statistics_frame` after the identifying ones.
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
    "pr_decisions",
    "doubles",
    "takes",
    "passes",
    *CUBE_CATEGORIES,
    "cube_error_emg",
    "cube_error_mwc",
    "error_rate_memg",
    "snowie_error_rate",
    "pr",
    "recorded_pr",
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
    *RECORDED,
)


class UnjudgedTurn(TypedDict):
    """A turn that could not be judged, and why (a message id, translated when shown)."""

    path: str
    player: str
    game: int
    turn: int
    kind: str
    reason: str


def _result(match: Match, rg: ReplayedGame, per: dict[int, PlayerTotals], met: MatchEquityTable) -> None:
    result = rg.game.result
    if result is None or result.winner not in (0, 1):
        return
    if match.length > MAXSCORE:
        return  # beyond the table: the game's turns are listed as not judged
    if match.length:
        before = met.at_score(rg.game.score, match.length, crawford=rg.crawford)
        after = met.after(rg.game.score, match.length, crawford=rg.crawford, winner=result.winner, points=result.points)
        change = after - before  # player 0's
    else:
        change = float(result.points if result.winner == 0 else -result.points)
    for side, sign in ((0, 1.0), (1, -1.0)):
        per[side].actual_result += sign * change
        per[side].luck_adjusted_result += sign * change


def _recorded(per: dict[int, PlayerTotals], match: Match, rg: ReplayedGame, judge: Judge) -> None:
    """Add up the analysis the record holds (XG's or gnubg's, as written):
    the equity each player's plays lost, the equity their cube actions lost
    (not doubling before a roll; a double, take, drop or beaver), and the
    luck of their rolls. gnubg's SGF keeps its cube options, not the errors:
    they are worked out from them at the game's score, as gnubg does. XG's
    analysis also says which decisions its Performance Rating counts
    (:func:`_xg_decision`)."""
    doubled: tuple[Candidate, ...] = ()  # the options of the double being answered, and its state
    doubler: CubeState | None = None
    for step in rg.steps:
        analysis, kind = step.turn.analysis, step.turn.kind
        if kind == "double":
            doubled, doubler = (), judge.state(match, rg, step.player, step.cube, step.owner)
        if analysis is None:
            continue
        mine = per[step.player]
        mine.recorded_by = analysis.program
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
                error = _recorded_cube_error(doubled, ACTIONS[kind], doubler)
            values = (("recorded_cube_error", error),)
        if analysis.program == XG:
            values += (("recorded_decisions", _xg_decision(kind, analysis)),)
        for column, value in values:
            if value is not None and math.isfinite(value):  # (a reader's None is no figure; so is -inf)
                mine.add_recorded(column, value)


def _xg_decision(kind: str, analysis: RecordedAnalysis) -> float:
    """How many decisions XG's Performance Rating counts in a turn XG
    analysed: a play with more than one legal play to choose from (XG lists
    its candidates), the decision not to double before it when it was an
    error or close (:func:`~tavlakit.analysis.judge.pr_decision`, with XG's
    own equities), each double, take, pass or beaver."""
    if kind != "roll":
        return float(analysis.error is not None)
    count = float(analysis.error is not None and len(analysis.candidates) > 1)
    error = analysis.cube_error
    if error is not None:
        options = analysis.cube_options
        if len(options) == 3:
            count += pr_decision("no double", error, *(option.equity for option in options))
        else:
            count += error > 0.0
    return count


def _recorded_cube_error(options: Sequence[Candidate], kind: CubeKind, state: CubeState) -> float:
    """The error (EMG) gnubg's recorded cube options (no double, double/take:
    :func:`tavlakit.formats.sgf.gnubg_cube_options`) give the action ``kind``."""
    no_double, take = options
    gammons = no_double.probabilities is not None and no_double.probabilities[1] > 0.0
    return cube_error(recorded_decision(no_double.equity, take.equity, gammons=gammons, state=state), kind)[0]


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


def _recorded_pr(totals: PlayerTotals) -> float:
    """XG's Performance Rating from the record's own XG analysis (NaN without one)."""
    decisions = totals.recorded_decisions
    if totals.recorded_by != XG or not decisions or math.isnan(decisions):
        return math.nan
    errors = [e for e in (totals.recorded_checker_error, totals.recorded_cube_error) if not math.isnan(e)]
    return 500.0 * sum(errors) / decisions


#: gnubg's rating offset of the error-based FIBS rating (a player without errors).
FIBS_OFFSET = 2050.0


@dataclass
class MatchTally:
    """What judging some games of one match found, game by game: each game's
    two :class:`PlayerTotals` in order, the turns not judged and the
    decision rows. It pickles: a process that judged some of a match's
    games sends it back, and the parts of a match put end to end
    (:meth:`extend`) give the same rows, whichever process judged which game
    (each game's totals are added up in the games' order)."""

    path: str
    players: tuple[str, str]
    length: int
    rules: str
    _: KW_ONLY
    jacoby: bool | None
    """A money session's Jacoby rule (None: a match, or no cube)."""
    jacoby_from: str | None
    """Where it came from (:func:`~tavlakit.replay.jacoby.jacoby_used`)."""
    fibs_length: int
    """The match length for gnubg's FIBS rating estimates (0: none; Tavla has none)."""
    level: str
    games: list[tuple[PlayerTotals, PlayerTotals]] = field(default_factory=list)
    unjudged: list[UnjudgedTurn] = field(default_factory=list)
    decisions: list[DecisionRow] = field(default_factory=list)

    def extend(self, other: MatchTally) -> None:
        """Add the games judged after these (of the same match)."""
        self.games.extend(other.games)
        self.unjudged.extend(other.unjudged)
        self.decisions.extend(other.decisions)

    def rows(self) -> list[PlayerStatistics]:
        """The match's two rows of the statistics frame (none when no game was judged)."""
        if not self.games:
            return []
        per = (PlayerTotals(), PlayerTotals())
        for game in self.games:
            for side in (0, 1):
                per[side].absorb(game[side])
        out = []
        for side in (0, 1):
            totals = per[side]
            totals.opponent_moves = per[1 - side].total_moves
            out.append(
                PlayerStatistics(
                    "match",
                    self.path,
                    self.path,
                    self.players[side],
                    side,
                    self.length,
                    self.rules,
                    jacoby=self.jacoby,
                    jacoby_from=self.jacoby_from,
                    level=self.level,
                    totals=totals,
                    rates=Rates.of(totals, self.fibs_length),
                )
            )
        return out


class Tally:
    """One match's statistics and judged turns, fed its replayed games in
    order (:meth:`add`): by :func:`judge_matches`, or by the frames' walker
    during its one replay (:func:`tavlakit.analysis.collection.analyse` with
    ``statistics=True``). ``label`` is the match's short label in the
    decision rows; what it found is ``found`` (a :class:`MatchTally`)."""

    def __init__(self, match: Match, path: str, label: str, judge: Judge) -> None:
        self.match, self.path, self.label, self.judge = match, path, label, judge
        rules = judge.rules
        # the FIBS estimates are backgammon's (with the cube): none for Tavla
        fibs = match.length or 0 if rules.backgammon else 0
        players = (match.players[0], match.players[1])
        jacoby, jacoby_from = jacoby_used(match, rules)
        self.found = MatchTally(
            path,
            players,
            match.length or 0,
            rules.name,
            jacoby=jacoby,
            jacoby_from=jacoby_from,
            fibs_length=fibs,
            level=judge.level.key,
        )

    @property
    def unjudged(self) -> list[UnjudgedTurn]:
        return self.found.unjudged

    @property
    def decisions(self) -> list[DecisionRow]:
        return self.found.decisions

    def add(self, rg: ReplayedGame) -> None:
        """Judge one replayed game of the match and count its turns."""
        match = self.match
        judged = list(self.judge.game(match, rg))
        self.found.decisions.extend(decision_rows(match, self.label, self.path, judged))
        per = {0: PlayerTotals(), 1: PlayerTotals()}
        for j in judged:
            mine = per[j.player]
            if j.unjudged is not None:
                mine.unjudged += 1
                name = match.players[j.player]
                self.found.unjudged.append(
                    UnjudgedTurn(path=self.path, player=name, game=j.game, turn=j.turn, kind=j.kind, reason=j.unjudged)
                )
                mine.total_moves += j.kind == "roll"
                continue
            mine.add(j)
            if j.roll is not None:
                per[1 - j.player].luck_adjusted_result += j.roll.luck_mwc
        _result(match, rg, per, self.judge.met)
        _recorded(per, match, rg, self.judge)
        self.found.games.append((per[0], per[1]))

    def rows(self) -> list[PlayerStatistics]:
        """The match's two rows of the statistics frame (none when no game was added)."""
        return self.found.rows()


class Judging:
    """The statistics and decision rows of many matches, each judged game
    by game as it is replayed (a :class:`Tally` per match, one
    :class:`~tavlakit.analysis.judge.Judge` per rules). ``met``: a match
    equity table, or the path of one (workers load it once); default
    gnubg's (Tavla: its own)."""

    def __init__(self, met: MatchEquityTable | str | Path | None = None, level: LevelLike = DEFAULT_LEVEL) -> None:
        self.level = as_level(level)
        self.met = _load_met(str(met)) if isinstance(met, (str, Path)) else met
        self.judges: dict[Rules, Judge] = {}
        self.found: list[MatchTally] = []
        """Each match's :class:`MatchTally`, in order."""
        self.rows: list[PlayerStatistics] = []
        self.unjudged: list[UnjudgedTurn] = []
        self.decisions: list[DecisionRow] = []

    def tally(self, match: Match, path: str, label: str, rules: Rules, ev: Evaluator | None = None) -> Tally:
        """A tally for ``match`` replayed under ``rules``; :meth:`keep` it when its games are in
        (``ev``: the evaluator to share, the first time these rules come)."""
        return Tally(match, path, label, self.judge(rules, ev))

    def judge(self, rules: Rules, ev: Evaluator | None = None) -> Judge:
        """The judge of matches played under ``rules`` (made the first time
        they come; ``ev``: the evaluator it is to share then)."""
        if rules not in self.judges:
            self.judges[rules] = Judge(rules, self.met, self.level, ev)
        return self.judges[rules]

    def keep(self, tally: Tally) -> None:
        """Add a match's rows, all its games judged (or those asked for)."""
        self.found.append(tally.found)
        self.rows.extend(tally.rows())
        self.unjudged.extend(tally.unjudged)
        self.decisions.extend(tally.decisions)

    def statistics(self) -> pd.DataFrame:
        """The statistics frame (:func:`statistics_frame`) of the matches kept."""
        return statistics_from_rows(self.rows, self.unjudged, self.level.key)

    def decisions_frame(self) -> pd.DataFrame:
        """The decisions frame (:func:`decisions_frame`) of the matches kept."""
        return decisions_from_rows(self.decisions, self.level.key)


def judge_matches(
    matches: Iterable[Match] | Match,
    rules: Rules | None,
    met: MatchEquityTable | str | Path | None,
    level: LevelLike = DEFAULT_LEVEL,
) -> Judging:
    """Replay and judge each match on its own (:func:`tavlakit.analysis.collection.analyse`
    with ``statistics=True`` judges during the replay that builds its frames)."""
    judging = Judging(met, level)
    labels = Labels()
    for index, match in enumerate([matches] if isinstance(matches, Match) else matches):
        path = match.source or f"match-{index + 1}"
        tally = judging.tally(match, path, labels(path), default_rules(match, rules))
        for rg in replay(match, tally.judge.rules):
            tally.add(rg)
        judging.keep(tally)
    return judging


def decisions_frame(
    matches: Iterable[Match] | Match,
    rules: Rules | None = None,
    met: MatchEquityTable | None = None,
    level: LevelLike = DEFAULT_LEVEL,
) -> pd.DataFrame:
    """Every judged turn of ``matches`` at ``level``: the decisions frame (:mod:`.decisions`)."""
    return judge_matches(matches, rules, met, level).decisions_frame()


def statistics_frame(
    matches: Iterable[Match] | Match,
    rules: Rules | None = None,
    met: MatchEquityTable | None = None,
    level: LevelLike = DEFAULT_LEVEL,
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
    where the record holds no analysis); ``level``: the analysis level's
    key (:mod:`~tavlakit.evaluation.levels`), also in ``frame.attrs["level"]``.
    ``level`` (default world class, gnubg's own default analysis: plays and
    cube decisions at 2 plies; ``"expert"`` or ``0``: at 0 ply, fast): how
    deep plays (those gnubg's move filter keeps) and cube decisions are
    looked at; luck is judged at 0 ply, as gnubg judges it. The matches are
    replayed here for this frame alone: ``tavlakit.analysis.analyse(...,
    statistics=True)`` gives it from the replay that builds the plays and
    games frames."""
    return judge_matches(matches, rules, met, level).statistics()


def statistics_from_rows(
    rows: Sequence[PlayerStatistics], unjudged: list[UnjudgedTurn], level: str | None = None
) -> pd.DataFrame:
    """The statistics frame of per-match rows (from one process or many):
    short match labels over the whole collection, and the overall rows;
    ``level``: the key of the level they were judged at (``attrs["level"]``)."""
    return statistics_from_frame(pd.DataFrame([row.record() for row in rows]), unjudged, level)


def statistics_from_frame(frame: pd.DataFrame, unjudged: list[UnjudgedTurn], level: str | None = None) -> pd.DataFrame:
    """The statistics frame of its per-match rows as a frame (a store's
    partitions put together): :func:`statistics_from_rows`."""
    frame.attrs["unjudged"] = unjudged
    frame.attrs["level"] = level
    if frame.empty:
        return frame
    labels = Labels()
    frame["match"] = [labels(path) for path in frame["path"]]
    counted = [f.name for f in fields(PlayerTotals) if f.name != "recorded_by"]
    overall = []
    for player, group in frame.groupby("player", sort=False):
        sums: dict[str, Any] = {c: group[c].sum(min_count=1 if c in RECORDED else 0) for c in counted}
        totals = PlayerTotals(
            **sums, recorded_by=next((by for by in group["recorded_by"] if isinstance(by, str)), None)
        )
        overall.append(
            PlayerStatistics(
                "overall",
                None,
                None,
                str(player),
                None,
                None,
                None,
                jacoby=None,
                jacoby_from=None,
                level=_one(group["level"]),
                totals=totals,
                rates=Rates.of(totals, 0),
            ).record()
        )
    out = pd.concat([frame, pd.DataFrame(overall)], ignore_index=True)
    out.attrs["unjudged"] = unjudged
    out.attrs["level"] = level
    return out


def _one(values: pd.Series) -> str | None:
    """The one value of a column (a player's level over their matches), None if they differ."""
    found = values.dropna().unique().tolist()
    return str(found[0]) if len(found) == 1 else None


@lru_cache(maxsize=8)
def _load_met(path: str) -> MatchEquityTable:
    return load_met(path)


__all__ = [
    "CUBE_CATEGORIES",
    "RATINGS",
    "RECORDED",
    "STATISTICS_COLUMNS",
    "STATISTICS_FRAME_COLUMNS",
    "Judging",
    "MatchTally",
    "PlayerStatistics",
    "PlayerTotals",
    "Rates",
    "Tally",
    "UnjudgedTurn",
    "decisions_frame",
    "fibs_luck_difference",
    "judge_matches",
    "rating",
    "statistics_frame",
    "statistics_from_frame",
    "statistics_from_rows",
]
