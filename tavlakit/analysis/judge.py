"""The judging of each turn of a replayed game, as gnubg's ``analyse match`` does.

* a roll: its luck (the score of the best play of the roll thrown minus the
  average over the 36 throws; for a game's first throw under
  ``use-opening-dice``, the 30 opening throws, 15 for each starter), and the
  play's error (the best play's cubeful equity minus the played one's, at
  the analysis's depth: :class:`~tavlakit.evaluation.search.Search`), with
  gnubg's marks (:data:`SKILL_LEVELS`; luck: :func:`~tavlakit.analysis.luck.luck_mark`);
* a cube decision: the roller's turn before the dice while the cube is
  available to them (not on a game's first play), each double, take, pass
  or beaver: no double / double-take / double-pass, the right action, the
  error of the action taken and gnubg's category.

Errors are positive numbers: the equity lost (EMG; money play: points per
cube; ``*_mwc``: match winning chances, money play points). The tally of
a match's judged turns is :mod:`.statistics`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass
from typing import Literal

from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.cubeful import CubeDecision, CubeState, eq2mwc, mwc_scale
from ..evaluation.equity import Evaluator, Roll
from ..evaluation.levels import DEFAULT_LEVEL, Level, LevelLike
from ..evaluation.met import MAXSCORE, MatchEquityTable
from ..evaluation.search import DOUBTFUL, Search
from ..i18n import N_
from ..record.match import Match
from ..replay.walker import ReplayedGame, Step, replay
from .luck import luck_mark

#: gnubg 1.07's default marks of a play (``show analysis``): doubtful, bad, very bad.
SKILL_LEVELS = (DOUBTFUL, 0.06, 0.12)
#: The kinds of judged turns (translated when shown).
KINDS = (N_("roll"), N_("no double"), N_("double"), N_("take"), N_("pass"))
Kind = Literal["roll", "no double", "double", "take", "pass"]
CubeKind = Literal["no double", "double", "take", "pass"]
#: The cube action a turn of a record is, as judged (a beaver is a take).
ACTIONS: dict[str, CubeKind] = {"double": "double", "take": "take", "drop": "pass", "beaver": "take"}
#: gnubg's categories of cube errors.
CubeCategory = Literal[
    "missed_doubles_below_cp",
    "missed_doubles_above_cp",
    "wrong_doubles_below_dp",
    "wrong_doubles_above_tg",
    "wrong_takes",
    "wrong_passes",
]


def skill_mark(error: float) -> str | None:
    """gnubg's mark of a play's error (EMG): ``very bad``, ``bad``, ``doubtful`` or None.

    >>> skill_mark(0.05), skill_mark(0.2), skill_mark(0.01)
    ('doubtful', 'very bad', None)
    """
    doubtful, bad, very_bad = SKILL_LEVELS
    if error > very_bad:
        return "very bad"
    if error > bad:
        return "bad"
    if error > doubtful:
        return "doubtful"
    return None


@dataclass(slots=True)
class RollJudgement:
    """A roll judged: its luck, and the play's error when a play was made."""

    luck_emg: float
    luck_mwc: float
    luck_mark: str | None
    plays: int
    """How many legal plays the roll had (distinct positions; 1: forced)."""
    _: KW_ONLY
    moved: bool
    """Whether the roll was played (or could not be): not a roll left unplayed."""
    error_emg: float | None = None
    error_mwc: float | None = None
    mark: str | None = None
    best: str | None = None
    """The key of the best play's position at the level
    (:meth:`~tavlakit.engine.position.Position.position_key` of the board
    after it, seen by the mover), when a play was made."""


@dataclass(slots=True)
class CubeJudgement:
    """A cube decision judged (equities for the doubler, EMG; ``*_mwc``: in MWC)."""

    no_double: float
    double_take: float
    double_pass: float
    no_double_mwc: float
    double_take_mwc: float
    double_pass_mwc: float
    right_action: str
    """The right action of the side deciding: ``double``/``no double``, or ``take``/``pass``."""
    best: str
    """gnubg's words for the best action (``double, take``, ``too good to double, pass``...)."""
    cube_error_emg: float
    cube_error_mwc: float
    category: CubeCategory | None
    _: KW_ONLY
    close: bool
    """Whether gnubg counts it among the close (or actual) cube decisions."""
    pr_decision: bool
    """Whether XG's Performance Rating counts it as a decision (:func:`pr_decision`)."""


@dataclass(slots=True)
class Judged:
    """One judged turn of a match: a roll, or a cube decision; or, with
    :attr:`unjudged`, a turn that could not be judged and why."""

    game: int
    turn: int
    player: int
    kind: Kind
    roll: RollJudgement | None = None
    cube: CubeJudgement | None = None
    unjudged: str | None = None
    """Why the turn could not be judged (a message id, translated when shown)."""


def cube_error(d: CubeDecision, kind: CubeKind) -> tuple[float, CubeCategory | None]:
    """The equity (EMG, >= 0) the action ``kind`` lost at decision ``d``, and
    gnubg's category of the error (None: no error)."""
    category: CubeCategory | None = None
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


#: XG counts a cube decision not to double in its Performance Rating when
#: doubling would have cost less than this (EMG), or when it was an error.
PR_CLOSE = 0.2


def pr_decision(kind: CubeKind, error: float, no_double: float, double_take: float, double_pass: float) -> bool:
    """Whether XG's Performance Rating counts a cube decision: every double,
    take and pass; a no double only when it was an error or when doubling
    would have cost less than :data:`PR_CLOSE` (equities for the doubler, EMG).

    >>> pr_decision("no double", 0.0, 0.5, -0.1, 1.0), pr_decision("no double", 0.0, 0.5, 0.35, 1.0)
    (False, True)
    """
    return kind != "no double" or error > 0.0 or no_double - min(double_take, double_pass) < PR_CLOSE


def right_action(d: CubeDecision, kind: CubeKind) -> str:
    """The right action for the side deciding: the doubler's, or the taker's."""
    if kind in ("take", "pass"):
        return "take" if d.right_take else "pass"
    return "double" if d.optimal > d.no_double else "no double"


class Judge:
    """Judges the turns of matches played under one set of rules, at the
    level of its :class:`~tavlakit.evaluation.search.Search` (:mod:`~tavlakit.evaluation.levels`)."""

    def __init__(
        self,
        rules: Rules,
        met: MatchEquityTable | None = None,
        level: LevelLike = DEFAULT_LEVEL,
        ev: Evaluator | None = None,
    ) -> None:
        self.search = Search(rules, met, level, ev)

    @property
    def rules(self) -> Rules:
        return self.search.rules

    @property
    def met(self) -> MatchEquityTable:
        return self.search.met

    @property
    def level(self) -> Level:
        return self.search.level

    def state(self, match: Match, rg: ReplayedGame, player: int, value: int, owner: int | None) -> CubeState:
        """The cube state of ``player``'s turn in a game of ``match`` (cube ``value``, ``owner``)."""
        cube = self.rules.cube
        return CubeState(
            value=value if cube else 1,
            owner=owner if cube else None,
            mover=player,
            length=match.length or 0,
            score=rg.game.score if match.length else (0, 0),
            crawford=rg.crawford or not self.search.live,
            jacoby=self.rules.jacoby,
            beavers=self.rules.beaver,
            met=self.met,
        )

    def judge(self, match: Match) -> Iterator[Judged]:
        """Every judged turn of ``match``; turns that cannot be judged carry
        :attr:`Judged.unjudged`, the reason."""
        for rg in replay(match, self.rules):
            yield from self.game(match, rg)

    def game(self, match: Match, rg: ReplayedGame, *, rolls: bool = True) -> Iterator[Judged]:
        """The judged turns of one replayed game; ``rolls=False`` judges the
        cube decisions only (the luck and play of each roll are left out)."""
        number = rg.game.number
        if match.length > MAXSCORE:  # beyond every match equity table
            reason = N_("a match longer than the match equity table's 64 points")
            for step in rg.steps:
                kind: Kind = "roll" if step.turn.kind == "roll" else ACTIONS[step.turn.kind]
                yield Judged(number, step.index, step.player, kind, unjudged=reason)
            return
        states = [self.state(match, rg, step.player, step.cube, step.owner) for step in rg.steps]
        self._prepare_game(rg, states, rolls)
        walk = _GameWalk(self, number, rolls)
        for step, state in zip(rg.steps, states):
            yield from walk.roll(step, state) if step.turn.kind == "roll" else walk.cube(step, state)

    def _prepare_game(self, rg: ReplayedGame, states: list[CubeState], rolls: bool) -> None:
        """Score every judgeable roll of a game in one batch
        (:meth:`~tavlakit.evaluation.search.Search.prepare`; ``rolls=False``:
        none) and decide its cube decisions in another (a few more than are
        asked for); ``states``: each step's cube state."""
        opening = self.rules.opening == "use-opening-dice"
        wanted, cubes = [], []
        for step, state in zip(rg.steps, states):
            if not step.known or (step.turn.kind == "roll" and (step.dice is None or not step.legal)):
                continue
            if self.rules.cube and self.level.cube_plies == 0 and step.turn.kind in ("roll", "double"):
                cubes.append((step.before, state))
            if rolls and step.turn.kind == "roll":
                wanted.append((step.before, state))
                if opening and step.before == Position.initial():  # the opening's luck: both sides' rolls
                    wanted.append((step.before.flip(), state.flipped()))
        self.search.prepare(wanted)
        self.search.prepare_cubes(cubes)

    def _roll(self, game: int, step: Step, dice: Roll, state: CubeState, opening: bool) -> Judged:
        search = self.search
        scale = mwc_scale(state)
        scores = search.scores(step.before, dice, state)
        luck = search.luck(step.before, dice, state, first=opening)
        judged = RollJudgement(luck, luck * scale, luck_mark(luck), len(scores.keys), moved=False)
        if step.after != step.before or len(scores.keys) == 1:  # a play, or no play possible (not a roll left unplayed)
            key = step.after.position_key()
            played = scores.value_of(key)
            if played is None:
                played = search.played(step.after.flip(), state)
            if self.level.chequer_plies and len(scores.keys) > 1:
                best, played, best_key = search.deep_play(scores.ranked(), key, state)
            else:
                best, best_key = scores.best, scores.keys[int(scores.values.argmax())]
            error = max(0.0, best - played)
            judged.error_emg, judged.error_mwc, judged.mark, judged.moved, judged.best = (
                error,
                error * scale,
                skill_mark(error),
                True,
                best_key,
            )
        return Judged(game, step.index, step.player, "roll", roll=judged)

    def _decision(self, game: int, turn: int, player: int, kind: CubeKind, d: CubeDecision, state: CubeState) -> Judged:
        error, category = cube_error(d, kind)

        def mwc(emg: float) -> float:
            return eq2mwc(emg, state) if state.length else emg * state.value

        judged = CubeJudgement(
            no_double=d.no_double,
            double_take=d.double_take,
            double_pass=d.double_pass,
            no_double_mwc=mwc(d.no_double),
            double_take_mwc=mwc(d.double_take),
            double_pass_mwc=mwc(d.double_pass),
            right_action=right_action(d, kind),
            best=d.action,
            cube_error_emg=error,
            cube_error_mwc=error * mwc_scale(state),
            category=category,
            close=kind != "no double" or d.close(),
            pr_decision=pr_decision(kind, error, d.no_double, d.double_take, d.double_pass),
        )
        return Judged(game, turn, player, kind, cube=judged)


@dataclass
class _GameWalk:
    """The judging of one game's turns in order: whether the next roll is
    the game's first, and the double being answered (its decision and the
    doubler's cube state)."""

    judge: Judge
    number: int
    rolls: bool
    first: bool = True
    pending: tuple[CubeDecision, CubeState] | None = None

    def roll(self, step: Step, state: CubeState) -> Iterator[Judged]:
        """A roll: the cube decision before it (when the cube was available), then its luck and play."""
        judge, number = self.judge, self.number
        if not step.known or step.dice is None or not step.legal:
            reason = N_("the board is not known") if not step.known else N_("a play or dice that are not legal")
            yield Judged(number, step.index, step.player, "roll", unjudged=reason)
            return
        roll: Roll = (max(step.dice), min(step.dice))
        opening = self.first and step.before == Position.initial()
        if judge.rules.cube and not opening and state.available() and self.pending is None:
            decision = judge.search.cube(step.before, state)
            yield judge._decision(number, step.index, step.player, "no double", decision, state)
        self.pending = None
        self.first = False
        if self.rolls:
            yield judge._roll(number, step, roll, state, opening and judge.rules.opening == "use-opening-dice")

    def cube(self, step: Step, state: CubeState) -> Iterator[Judged]:
        """A double, or the answer to one."""
        judge, number = self.judge, self.number
        action = ACTIONS[step.turn.kind]
        if not step.known:
            yield Judged(number, step.index, step.player, action, unjudged=N_("the board is not known"))
        elif action == "double":
            if not step.legal or not judge.rules.cube:
                reason = N_("a double the rules or the cube's state do not allow")
                yield Judged(number, step.index, step.player, "double", unjudged=reason)
                self.pending = None
                return
            decision = judge.search.cube(step.before, state)
            self.pending = (decision, state)
            yield judge._decision(number, step.index, step.player, "double", decision, state)
        elif self.pending is None or not step.legal:
            yield Judged(number, step.index, step.player, action, unjudged=N_("no double to answer"))
        else:
            decision, doubler_state = self.pending
            if action == "pass":
                self.pending = None
            yield judge._decision(number, step.index, step.player, action, decision, doubler_state)


__all__ = [
    "ACTIONS",
    "PR_CLOSE",
    "KINDS",
    "SKILL_LEVELS",
    "CubeJudgement",
    "Judge",
    "Judged",
    "RollJudgement",
    "cube_error",
    "pr_decision",
    "right_action",
    "skill_mark",
]
