"""A player's worst decisions, to study: each with its position, the
candidates as gnubg's hint lists them, and the equity it lost.

The decisions are the judged turns of :attr:`Analysis.decisions
<tavlakit.analysis.frames.Analysis.decisions>` (gnubg's ``analyse match``
at the analysis' level): chequer plays by their error, cube decisions by
theirs, in EMG (the equity lost, normalised to the cube: gnubg's unit),
largest first. Each is then worked out again at the same level for its
candidates: a play's legal plays ranked by the mover's cubeful equity
(:meth:`Search.candidates <tavlakit.evaluation.search.Search.candidates>`),
a cube decision's no double, double/take and double/pass.

In Jupyter a :class:`Mistakes` shows as a table with a board in each row:
the pictures layer draws it (:func:`tavlakit.pictures.study.table`, which
registers itself with :func:`drawn_by` when imported; ``tk.analysis``
imports it). The analysis never imports the pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Protocol

import pandas as pd

from ..engine.matchid import MatchState, format_xgid, gnubg_id
from ..engine.play import Play
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.levels import EXPERT, Level
from ..i18n import N_, _
from ..record.match import Match
from ..replay.walker import ReplayedGame, Step, default_rules, replay
from .judge import Judge, skill_mark
from .statistics import Judging

#: The kinds of cube decision (the decisions frame's ``kind``), each with the turn's action.
CUBE_KINDS = ("no double", "double", "take", "pass")
#: gnubg's names of the three cube equities, in its hint's order.
CUBE_CHOICES = (N_("No double"), N_("Double, take"), N_("Double, pass"))
#: gnubg's words for the right cube action (:func:`~tavlakit.evaluation.cubeful.cube_decision_many`), for translation.
ACTIONS = (
    N_("double, take"),
    N_("double, pass"),
    N_("double, beaver"),
    N_("no double, take"),
    N_("no double, beaver"),
    N_("too good to double, take"),
    N_("too good to double, pass"),
    N_("redouble, take"),
    N_("redouble, pass"),
    N_("redouble, beaver"),
    N_("no redouble, take"),
    N_("no redouble, beaver"),
    N_("too good to redouble, take"),
    N_("too good to redouble, pass"),
)


class Analysed(Protocol):
    """What :func:`mistakes` reads of an :class:`~tavlakit.analysis.frames.Analysis`."""

    @property
    def decisions(self) -> pd.DataFrame: ...

    source: Any


class UnknownPlayer(ValueError):
    """A player name that is not in the analysis (the message lists the names there)."""


@dataclass(frozen=True)
class Choice:
    """One candidate of a decision, as gnubg's hint lists it."""

    text: str
    """A play's notation (from the mover's view), or a cube choice of :data:`CUBE_CHOICES`."""
    equity: float
    """The decider's cubeful equity after it (EMG; cube decisions: the doubler's)."""
    difference: float
    """The equity minus the best candidate's (<= 0 for a play)."""
    plies: int
    """The plies it was judged at (gnubg judges the plays its filter drops at 0)."""
    _: KW_ONLY
    played: bool = False
    play: Play | None = None
    """The moves, for a play."""


@dataclass(frozen=True)
class RolledOut:
    """A mistake's decision rolled out (:func:`tavlakit.analysis.rollouts.verified`)."""

    equities: dict[int, tuple[float, float]]
    """The rolled-out equity and its standard error of each candidate
    rolled out, by its index in :attr:`Mistake.candidates` (the same unit as
    :attr:`Choice.equity`)."""
    margin: float
    """How much more the level's best choice rolled out than the one made, for the decider (EMG)."""
    sigma: float
    """The standard error of :attr:`margin` (the two rollouts' combined)."""
    _: KW_ONLY
    trials: int
    truncate: int
    seed: int
    level: str
    """The level the trials were played at."""
    cubeful: bool = True

    @property
    def reversed(self) -> bool:
        """Whether the rollout reverses the verdict: the choice made rolled
        out as good as the best within two standard errors, or better."""
        return self.margin <= 2.0 * self.sigma


@dataclass
class Mistake:
    """One decision, the position it was made in and what it lost."""

    path: str
    match: str
    game: int
    turn: int
    number: int | None
    player: int
    """The side (0 or 1) who decided: the columns of the record."""
    names: tuple[str, str]
    kind: str
    """``roll`` (a chequer play) or a cube decision of :data:`CUBE_KINDS`."""
    position: Position
    """The board before the roll (or the double), seen by the player on roll."""
    on_roll: int
    """The side on roll: the player, or the doubler for a take or pass."""
    dice: tuple[int, int] | None
    score: tuple[int, int]
    length: int
    cube: int
    cube_owner: int | None
    _: KW_ONLY
    crawford: bool
    rules: Rules
    error_emg: float
    error_mwc: float
    """The equity lost in MWC (money play: points, the cube counted)."""
    mark: str | None
    """gnubg's mark of the error: doubtful, bad, very bad (None: smaller)."""
    played: str
    best: str
    """The best play, or gnubg's right cube action (:data:`ACTIONS`)."""
    candidates: list[Choice] = field(default_factory=list)
    level: Level = EXPERT
    """The analysis level the decision was judged at (:mod:`~tavlakit.evaluation.levels`)."""
    rollout: RolledOut | None = None
    """The decision rolled out, when it was (:func:`tavlakit.analysis.rollouts.verified`)."""

    @property
    def name(self) -> str:
        return self.names[self.player]

    @property
    def state(self) -> MatchState:
        """The match state of the decision, as gnubg's Match ID holds it."""
        cube_decision = self.kind != "roll"
        return MatchState(
            cube=self.cube,
            cube_owner=self.cube_owner,
            on_roll=self.on_roll,
            crawford=self.crawford,
            turn=self.player,
            doubled=self.kind in ("take", "pass"),
            dice=self.dice if self.dice and not cube_decision else (0, 0),
            length=self.length,
            score=self.score,
        )

    @property
    def position_id(self) -> str:
        return self.position.position_id()

    @property
    def gnubg_id(self) -> str:
        """gnubg's ``PositionID:MatchID``; for a take or pass, of the doubler
        before the double (gnubg sets no Match ID with a double offered)."""
        return gnubg_id(self.position, self.state.replace(doubled=False, turn=self.on_roll))

    @property
    def xgid(self) -> str:
        return format_xgid(self.position, self.state)

    def best_play(self) -> Play | None:
        """The best candidate's moves (a play)."""
        return self.candidates[0].play if self.kind == "roll" and self.candidates else None

    def played_play(self) -> Play | None:
        """The moves made (a play)."""
        return next((c.play for c in self.candidates if c.played), None) if self.kind == "roll" else None


#: The columns of :attr:`Mistakes.frame`.
COLUMNS = (
    "rank",
    "match",
    "path",
    "game",
    "turn",
    "number",
    "name",
    "kind",
    "dice",
    "score",
    "cube",
    "played",
    "best",
    "error_emg",
    "error_mwc",
    "mark",
    "level",
    "position_id",
    "gnubg_id",
    "xgid",
    "candidates",
)


class Mistakes(list[Mistake]):
    """The mistakes, worst first; :attr:`frame` is the table of them and
    in Jupyter they show as that table with a board in each row."""

    @property
    def frame(self) -> pd.DataFrame:
        """One row per mistake (:data:`COLUMNS`); ``candidates`` lists
        (play, equity, difference) of each."""
        rows = [
            {
                "rank": rank,
                "match": m.match,
                "path": m.path,
                "game": m.game,
                "turn": m.turn,
                "number": m.number,
                "name": m.name,
                "kind": m.kind,
                "dice": f"{m.dice[0]}{m.dice[1]}" if m.dice and m.kind == "roll" else None,
                "score": score_text(m),
                "cube": m.cube,
                "played": m.played,
                "best": m.best,
                "error_emg": m.error_emg,
                "error_mwc": m.error_mwc,
                "mark": m.mark,
                "level": m.level.key,
                "position_id": m.position_id,
                "gnubg_id": m.gnubg_id,
                "xgid": m.xgid,
                "candidates": [(c.text, c.equity, c.difference) for c in m.candidates],
            }
            for rank, m in enumerate(self, 1)
        ]
        return pd.DataFrame(rows, columns=list(COLUMNS))

    def _repr_html_(self) -> str:
        if _DRAWERS:
            return _DRAWERS[-1](self)
        return self.frame.drop(columns="candidates").to_html(index=False)


#: What draws the mistakes in a notebook, the latest registered last.
_DRAWERS: list[Callable[[Sequence[Mistake]], str]] = []


def drawn_by(draw: Callable[[Sequence[Mistake]], str]) -> None:
    """Let ``draw`` make the HTML a notebook shows for a :class:`Mistakes`
    (the pictures' table with a board in each row); until one is
    registered, a notebook shows the plain table of :attr:`Mistakes.frame`."""
    if draw not in _DRAWERS:
        _DRAWERS.append(draw)


def score_text(m: Mistake) -> str:
    """The score, the player's first: ``3-5 of 7``, ``3-5`` (money: points)."""
    mine, theirs = m.score[m.player], m.score[1 - m.player]
    if m.length:
        return _("{mine}-{theirs} of {length}").format(mine=mine, theirs=theirs, length=m.length)
    return f"{mine}-{theirs}"


def judged_errors(decisions: pd.DataFrame) -> pd.DataFrame:
    """The judged decisions with an error: their keys and names, ``error_emg``
    and ``error_mwc`` (a cube decision's: its cube error) and a cube
    decision's three equities and gnubg's right action, in the frame's order."""
    cube = decisions["kind"].isin(CUBE_KINDS)
    out = decisions[["match", "path", "game", "turn", "player", "name", "kind", *_CUBE_VALUES]].copy()
    out["error_emg"] = decisions["cube_error_emg"].where(cube, decisions["error_emg"])
    out["error_mwc"] = decisions["cube_error_mwc"].where(cube, decisions["error_mwc"])
    return out[out["error_emg"].notna()]


#: A cube decision's columns of the decisions frame a mistake shows.
_CUBE_VALUES = ("no_double", "double_take", "double_pass", "best")


def worst(
    decisions: pd.DataFrame, player: str | None = None, top: int | None = 20, min_error: float = 0.0
) -> pd.DataFrame:
    """The rows of :func:`judged_errors` of ``player`` (a name; None: both
    players) that lost more than nothing and at least ``min_error`` EMG,
    largest first (equal errors in the frame's order), the first ``top``
    of them (None: all)."""
    errors = judged_errors(decisions)
    if player is not None:
        names = list(dict.fromkeys(decisions["name"].dropna()))
        if player not in names:
            raise UnknownPlayer(
                _("no player {name!r} in the files; the players there: {names}").format(
                    name=player, names=", ".join(names) or _("none")
                )
            )
        errors = errors[errors["name"] == player]
    errors = errors[(errors["error_emg"] > 0) & (errors["error_emg"] >= min_error)]
    ranked = errors.sort_values("error_emg", ascending=False, kind="stable")
    return ranked if top is None else ranked.head(top)


def mistakes(analysis: Analysed, player: str | None = None, top: int | None = 20, min_error: float = 0.0) -> Mistakes:
    """The worst decisions of ``player`` (a name; None: both players), see
    :func:`worst`, each with its position and candidates at the level of the
    analysis (``analyse(..., level=...)``). The matches are read again (only
    those with a mistake) to find the positions: ``analysis`` must know
    its source (paths, or matches given as a list); a stream of matches
    cannot be."""
    source = analysis.source
    if source is None:
        raise ValueError("the matches were a stream: analyse a list of matches or paths")
    chosen = worst(analysis.decisions, player, top, min_error)
    judging = Judging(source.met, source.level)
    found: dict[tuple[str, int, int, str], Mistake] = {}
    for path, rows in chosen.groupby("path", sort=False):
        match = _match(source, str(path))
        rules = default_rules(match, source.rules)  # (a money session: its own Jacoby rule, as the judging)
        wanted: dict[tuple[int, int, str], Any] = {_key(r)[1:]: r for r in rows.itertuples(index=False)}
        for mistake in _mistakes(match, rules, judging.judge(rules), wanted):
            found[(str(path), mistake.game, mistake.turn, mistake.kind)] = mistake
    return Mistakes(found[_key(r)] for r in chosen.itertuples(index=False))


def _key(row: Any) -> tuple[str, int, int, str]:
    """A decision row's (path, game, turn, kind)."""
    return str(row.path), int(row.game), int(row.turn), str(row.kind)


def _match(source: Any, path: str) -> Match:
    """The match of ``path`` in an analysis' source: read again, or found among the matches given."""
    if getattr(source, "paths", False):
        from ..formats import read_match

        return read_match(path)
    for index, match in enumerate(source):
        if isinstance(match, Match) and (match.source or f"match-{index + 1}") == path:
            return match
    raise ValueError(f"no match {path!r} among the matches analysed")


def _mistakes(match: Match, rules: Rules, judge: Judge, wanted: dict[tuple[int, int, str], Any]) -> Iterator[Mistake]:
    """The mistakes of one match at the (game, turn, kind) ``wanted``, each from its decision row."""
    games = {game for game, _turn, _kind in wanted}
    for rg in replay(match, rules):
        if rg.game.number not in games:
            continue
        for step in rg.steps:
            for kind in ("roll", *CUBE_KINDS):
                row = wanted.get((rg.game.number, step.index, kind))
                if row is not None:
                    yield _mistake(match, rules, judge, rg, step, row)


def _mistake(match: Match, rules: Rules, judge: Judge, rg: ReplayedGame, step: Step, row: Any) -> Mistake:
    kind = str(row.kind)
    taker = kind in ("take", "pass")
    mistake = Mistake(
        path=str(row.path),
        match=str(row.match),
        game=rg.game.number,
        turn=step.index,
        number=step.turn.number,
        player=step.player,
        names=(match.players[0], match.players[1]),
        kind=kind,
        position=step.before.flip() if taker else step.before,
        on_roll=1 - step.player if taker else step.player,
        dice=step.dice,
        score=rg.game.score if match.length else (0, 0),
        length=match.length or 0,
        cube=step.cube,
        cube_owner=step.owner,
        crawford=rg.crawford,
        rules=rules,
        error_emg=float(row.error_emg),
        error_mwc=float(row.error_mwc),
        mark=skill_mark(float(row.error_emg)),
        played="",
        best="",
        level=judge.level,
    )
    if kind == "roll":
        _plays(mistake, rules, judge, step, judge.state(match, rg, step.player, step.cube, step.owner))
    else:
        _cube(mistake, row)
    return mistake


def _plays(mistake: Mistake, rules: Rules, judge: Judge, step: Step, state: Any) -> None:
    """A chequer play's candidates, the best and the one played."""
    assert step.dice is not None
    dice = (max(step.dice), min(step.dice))
    played = step.after.position_key()
    moves = {step.before.apply(play).position_key(): play for play in step.before.legal_plays(dice, rules)}
    ranked = judge.search.candidates(step.before, dice, state, played)
    best = ranked[0][0]
    mistake.candidates = [
        Choice(
            moves[key].notation() if key in moves else "",
            equity,
            equity - best,
            plies,
            played=key == played,
            play=moves.get(key),
        )
        for equity, key, plies in ranked
    ]
    mistake.best = mistake.candidates[0].text
    mistake.played = next((c.text for c in mistake.candidates if c.played), "")


def _cube(mistake: Mistake, row: Any) -> None:
    """A cube decision's three equities (the doubler's, as gnubg's hint
    lists them), the right action and the one taken."""
    values = (float(row.no_double), float(row.double_take), float(row.double_pass))
    optimal = max(values[0], min(values[1:]))  # the doubler's best, the taker answering best
    taken = {"no double": 0, "take": 1, "pass": 2}.get(mistake.kind)
    if taken is None:  # a double: the answer it gets is the taker's better one
        taken = 1 if values[1] <= values[2] else 2
    mistake.candidates = [
        Choice(text, value, value - optimal, mistake.level.cube_plies, played=index == taken)
        for index, (text, value) in enumerate(zip(CUBE_CHOICES, values))
    ]
    mistake.best = str(row.best)
    mistake.played = mistake.kind


__all__ = [
    "ACTIONS",
    "COLUMNS",
    "CUBE_CHOICES",
    "CUBE_KINDS",
    "Choice",
    "Mistake",
    "Mistakes",
    "RolledOut",
    "UnknownPlayer",
    "drawn_by",
    "judged_errors",
    "mistakes",
    "score_text",
    "worst",
]
