"""A match viewer: one self-contained HTML page that steps through every turn.

The page holds, for every turn of every game, the board drawn by
:func:`tavlakit.pictures.svg.board` (one drawing: the page has no board renderer of
its own), the play, the validator's problems at that turn and, with
``analyse=True``, the luck of the roll and the error of the play. The
boards' lines (``svg.board`` writes one element a line) are stored once
each and the page's data is gzip-compressed, so a long match stays small.

>>> import tavlakit as tk
>>> from tavlakit._data import data_dir
>>> page = html(tk.read_match(data_dir("samples") / "tavla-t000.mat"))
>>> page.startswith("<!DOCTYPE html>") and 'data-role="position-id"' in page
True
"""

from __future__ import annotations

import base64
import gzip
import html as _html
import json
import re
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from functools import cache
from importlib import resources
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from ..engine.numbering import Numbering, NumberingLike
from ..engine.play import Play
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.levels import DEFAULT_LEVEL, Level, LevelLike, level as as_level
from ..i18n import N_, _, language, ngettext
from ..record.match import GNUBG, Game, Match, Turn
from ..record.problem import Problem, Reporter, counts_text, worst
from ..replay.walker import ReplayedGame, Step, default_rules, replay, report_unmarked_hits
from . import svg

if TYPE_CHECKING:  # the analysis (pandas, gnubg-nn) is imported only with analyse=True
    from ..analysis.decisions import DecisionRow
    from ..evaluation.equity import Evaluator

#: gnubg's marks of a checker play (by the equity it lost: :data:`~tavlakit.analysis.judge.SKILL_LEVELS`).
ERROR_SYMBOLS = {"doubtful": "?!", "bad": "?", "very bad": "??"}
_ICONS = {
    name: f'<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="{path}"/></svg>'
    for name, path in (
        ("first", "M2 2h2.5v12H2zM14 2v12L5 8z"),
        ("prev", "M12 2v12L3 8z"),
        ("next", "M4 2v12l9-6z"),
        ("last", "M2 2v12l9-6zM11.5 2H14v12h-2.5z"),
    )
}
LUCK_SYMBOLS = {"very lucky": "++", "lucky": "+", "unlucky": "\u2212", "very unlucky": "\u2212\u2212"}
LUCK_NAMES = {
    "very lucky": N_("very lucky"),
    "lucky": N_("lucky"),
    "unlucky": N_("unlucky"),
    "very unlucky": N_("very unlucky"),
}


@dataclass
class Frame:
    """What the page shows at one step: the board after a turn (or a game's start)."""

    board: str
    position_id: str
    """gnubg Position ID with the player to move next on roll."""
    label: str
    on_roll: int
    """The player (0 or 1) to move next."""
    step: Step | None = None
    move: str = ""
    """The turn as the move list writes it (:func:`turn_text`, in the page's numbering)."""
    problems: list[Problem] = field(default_factory=list)
    luck: float | None = None
    luck_mark: str | None = None
    error: float | None = None
    error_mark: str | None = None
    """gnubg's mark of the play's error: ``doubtful``, ``bad``, ``very bad``."""
    best: str | None = None
    equity: float | None = None
    """Cubeless equity for player 0 of the position shown (analysis only)."""
    cube: str | None = None
    """The cube decision judged at this turn (analysis only): the right
    action, the error of the one taken, the three equities."""
    unjudged: str | None = None
    """Why the turn could not be judged (analysis only; a message id)."""


@dataclass
class GameFrames:
    """One game's frames: the start, then one per turn."""

    replayed: ReplayedGame
    frames: list[Frame]
    result: str


@dataclass
class MatchFrames:
    """What :func:`page` shows of a match: every game's frames, and the
    problems of the whole match (the reader's and the validator's)."""

    match: Match
    games: list[GameFrames]
    problems: list[Problem]
    _: KW_ONLY
    analysed: bool = False
    level: Level | None = None
    """The level the turns were judged at (``None``: not analysed)."""

    @property
    def problem_count(self) -> int:
        """The problems the page shows: the match's and those of every turn."""
        return len(self.shown())

    def shown(self) -> list[Problem]:
        """Every problem the page shows: the match's, then those of every turn."""
        return self.problems + [p for gf in self.games for f in gf.frames for p in f.problems]


# --- the turns ------------------------------------------------------------------


def turn_text(turn: Turn, *, flip: bool = False) -> str:
    """A turn as the move list writes it: ``52: 13/8 24/22``, ``Doubles => 2``
    (``flip``: the points written ``25 - p``, Black's in the absolute numbering)."""
    if turn.kind == "roll":
        dice = f"{turn.dice[0]}{turn.dice[1]}" if turn.dice and len(turn.dice) == 2 else "??"
        if turn.status == "unknown":
            return f"{dice}: {turn.extra.get('unreadable', ['???'])[0]}"  # as written when it could not be read
        if turn.status == "illegal":
            return _("{dice}: illegal play").format(dice=dice)
        play = Play(turn.moves).notation(flip=flip)
        return f"{dice}: {play}" if play else _("{dice}: no move").format(dice=dice)
    if turn.kind == "double":
        return _("Doubles => {cube}").format(cube=turn.cube) if turn.cube else _("Doubles")
    return {"take": _("Takes"), "drop": _("Drops"), "beaver": _("Beavers")}[turn.kind]


def result_text(game: Game, names: Sequence[str]) -> str:
    """``Alpha wins 2 points`` (or that the game has no result)."""
    result = game.result
    if result is None or result.winner not in (0, 1):
        return _("no result")
    return ngettext("{name} wins {points} point", "{name} wins {points} points", result.points).format(
        name=names[result.winner], points=result.points
    )


class _Drawer:
    """Calls :func:`svg.board` with the match's fixed options."""

    def __init__(self, match: Match, numbering: Numbering, rules: Rules) -> None:
        self.names = match.players
        self.length = match.length
        self.numbering: Numbering = numbering
        self.cube = rules.cube

    def flip(self, player: int) -> bool:
        """Whether ``player``'s moves are written ``25 - p`` (Black's, in the absolute numbering)."""
        return self.numbering.flips(player)

    def draw(
        self,
        view: Position,
        on_roll: int,
        game: Game,
        cube: tuple[int, int | None],
        over: bool = False,
        dice: tuple[int, int] | None = None,
        play: Play | None = None,
        rolled: bool = False,
    ) -> str:
        """``view`` is seen by ``on_roll``, the player to move next; dice and
        play are those the other player has just ``rolled`` (the points are
        then numbered for that player, as the play is written). Player 0
        stays at the bottom."""
        return svg.board(
            view,
            dice=dice,
            play=play,
            play_by=1,
            cube=cube if self.cube else None,
            score=game.score,
            length=self.length,
            names=self.names,
            player=on_roll,
            numbering=self.numbering,
            flipped=on_roll == 1,
            size=None,
            on_roll=not over,
            labels_by=1 if rolled else 0,
        )


def _game_frames(drawer: _Drawer, rg: ReplayedGame, names: Sequence[str]) -> list[Frame]:
    """The start and one frame per step, each with the problems the replay placed there."""
    game = rg.game
    starter = rg.starter if rg.starter is not None else 0
    start = rg.start
    frames = [
        Frame(
            drawer.draw(start, starter, game, (game.cube, game.cube_owner)),
            start.position_id(),
            _("Game {number}: the start").format(number=game.number),
            starter,
            problems=list(rg.start_problems),
        )
    ]
    for step in rg.steps:
        turn = step.turn
        view = step.next_view
        over = turn.kind == "drop" or view.winner() is not None
        play = Play(turn.moves) if turn.moves and step.played else None
        board = drawer.draw(
            view, step.on_roll, game, (step.cube_after, step.owner_after), over, step.dice, play, turn.kind == "roll"
        )
        move = turn_text(turn, flip=drawer.flip(step.player))
        label = _("{player} {turn}").format(player=names[step.player], turn=move)
        frames.append(Frame(board, view.position_id(), label, step.on_roll, step, move, list(step.problems)))
    frames[-1].problems.extend(rg.end_problems)
    return frames


# --- analysis ---------------------------------------------------------------------


def _analyse(match: Match, rules: Rules, games: list[GameFrames], drawer: _Drawer, level: Level) -> None:
    """Each roll's luck, play error and best play, and each cube decision,
    judged at ``level`` as gnubg's ``analyse match`` judges them (cubeful, at
    the match score: :class:`~tavlakit.analysis.judge.Judge`, the steps
    shown judged once); player 0's cubeless 0-ply equity at every frame
    whose board is known, for the chart."""
    from ..analysis.decisions import decision_rows
    from ..analysis.judge import Judge
    from ..analysis.luck import closed_out
    from ..evaluation.equity import Evaluator

    ev = Evaluator(rules)
    judge = Judge(rules, level=level, ev=ev)
    path = match.source or "match-1"
    for gf in games:
        judged = list(judge.game(match, gf.replayed))
        rolls = {j.turn: j.roll for j in judged if j.roll is not None}
        unjudged = {j.turn: j.unjudged for j in judged if j.unjudged is not None}
        cubes = {row["turn"]: row for row in decision_rows(match, path, path, judged) if row["kind"] != "roll"}
        start = gf.frames[0]
        start.equity = _equity(ev, gf.replayed.start, start.on_roll)
        for frame in gf.frames[1:]:
            step = frame.step
            assert step is not None
            frame.unjudged = unjudged.get(step.index)
            roll = rolls.get(step.index)
            if roll is not None and not closed_out(step.before):  # every throw dances: no luck, no play to judge
                frame.luck, frame.luck_mark = roll.luck_emg, roll.luck_mark
                frame.error, frame.error_mark = roll.error_emg, roll.mark
                if roll.error_emg is not None and roll.error_emg >= 0.0005 and roll.best and step.dice:
                    frame.best = _best_play(step.before, step.dice, rules, roll.best, drawer.flip(step.player))
            cube = cubes.get(step.index)
            if cube is not None and isinstance(cube.get("right_action"), str):
                frame.cube = _cube_text(cube)
            if step.known_after:
                frame.equity = _equity(ev, step.next_view, frame.on_roll)


def _equity(ev: Evaluator, view: Position, on_roll: int) -> float:
    """Player 0's cubeless equity of ``view``, seen by ``on_roll``."""
    value = ev.equity(view)
    return value if on_roll == 0 else -value


#: The cube decisions' and actions' words, translated when shown.
CUBE_WORDS = {"no double": N_("no double"), "double": N_("double"), "take": N_("take"), "pass": N_("pass")}


def _cube_text(row: DecisionRow) -> str:
    """One cube decision as the page says it (a row of the decisions frame)."""
    error = float(row["cube_error_emg"])
    text = _("Cube: {kind}; right: {right}").format(
        kind=_(CUBE_WORDS[row["kind"]]), right=_(CUBE_WORDS[row["right_action"]])
    )
    if error > 0.0005:
        text += " " + _("(error {error:.3f})").format(error=error)
    return (
        text
        + " \u00b7 "
        + _("for the doubler: no double {nd:+.3f}, double/take {dt:+.3f}, double/pass {dp:+.3f}").format(
            nd=row["no_double"], dt=row["double_take"], dp=row["double_pass"]
        )
    )


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and value == value else None


def _best_play(before: Position, dice: tuple[int, int], rules: Rules, key: str, flip: bool) -> str:
    """The legal play that leads to the position ``key`` (the judged best
    play's; ``flip``: see :func:`turn_text`)."""
    best = next((p for p in before.legal_plays(dice, rules) if before.apply(p).position_key() == key), None)
    return (best.notation(flip=flip) if best is not None else "") or _("no move")


# --- the page ---------------------------------------------------------------------------


class _Lines:
    """Distinct lines of the boards (:func:`svg.board` writes one element a
    line), each stored once; a board is the list of its lines' numbers."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def refs(self, board: str) -> list[int]:
        index = self.index
        return [index.setdefault(line, len(index)) for line in board.split("\n")]


def pack(data: Any) -> str:
    """``data`` as the page embeds it: JSON, gzip, base64."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, 6, mtime=0)).decode("ascii")


def page_data(page: str) -> dict[str, Any]:
    """The data embedded in a viewer page (boards as line lists, labels,
    Position IDs, problems), for scripts and tests.

    >>> import tavlakit as tk
    >>> from tavlakit._data import data_dir
    >>> data = page_data(html(tk.read_match(data_dir("samples") / "tavla-t000.mat")))
    >>> data["games"][0]["frames"][0]["id"]
    '4HPwATDgc/ABMA'
    """
    found = re.search(r'<script type="application/octet-stream" id="tk-data">([^<]*)</script>', page)
    if found is None:
        raise ValueError("not a tavlakit viewer page")
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(found.group(1))))
    return data


@cache
def _asset(name: str) -> str:
    return (resources.files("tavlakit.pictures") / "static" / name).read_text(encoding="utf-8")


def _esc(text: object) -> str:
    return _html.escape(str(text), quote=True)


def _problem_json(problem: Problem) -> list[str]:
    """Severity, code, message and where (the file's name, line and column)."""
    short = problem.replace(file=PurePath(problem.file).name) if problem.file else problem
    return [problem.severity, problem.code, problem.message, short.location()]


def _analysis_text(frame: Frame) -> str:
    parts = []
    if frame.luck is not None:
        if frame.luck_mark:
            parts.append(_("Luck {luck:+.3f} ({mark})").format(luck=frame.luck, mark=_(LUCK_NAMES[frame.luck_mark])))
        else:
            parts.append(_("Luck {luck:+.3f}").format(luck=frame.luck))
    if frame.best and frame.error is not None:
        mark = ERROR_SYMBOLS.get(frame.error_mark or "", "")
        parts.append(
            _("Error {error:.3f}{mark}; best play {best}").format(
                error=frame.error, mark=f" {mark}" if mark else "", best=frame.best
            )
        )
    elif frame.error is not None:
        parts.append(_("The best play"))
    if frame.cube:
        parts.append(frame.cube)
    if frame.unjudged:
        parts.append(_("not judged: {reason}").format(reason=_(frame.unjudged)))
    return " \u00b7 ".join(parts)


def _recorded_text(turn: Turn, unit: str) -> str:
    """What the record's own analyser wrote of a turn, saying whose it is:
    ``XG: error 0.056; best play 24/23 23/22(2) · luck -0.035 (XG Roller++)``;
    cube options as written, in ``unit`` for gnubg's (MWC in a match), in
    EMG for XG's (normalised to the cube, as XG writes them)."""
    found = turn.analysis
    if found is None:
        return ""
    parts = []
    if found.cube_error:
        parts.append(_("no double: error {error:.3f}").format(error=found.cube_error))
    options = found.cube_options or (found.candidates if turn.kind != "roll" and found.error is None else ())
    if len(options) >= 2:
        parts.append(
            _("no double {no_double:.3f}, double/take {take:.3f} {unit}").format(
                no_double=options[0].equity, take=options[1].equity, unit=unit if found.program == GNUBG else "EMG"
            )
        )
    if found.error is not None:
        best = found.candidates[0] if found.error > 0 and found.played != 0 and found.candidates else None
        if best is not None and best.action is None:
            parts.append(
                _("error {error:.3f}; best play {best}").format(
                    error=found.error, best=Play(best.moves).notation() or _("no move")
                )
            )
        else:
            parts.append(_("error {error:.3f}").format(error=found.error))
    if found.luck is not None:
        parts.append(_("luck {luck:+.3f}").format(luck=found.luck))
    if not parts:
        return ""
    text = _("{program}: {figures}").format(program=found.program, figures=" \u00b7 ".join(parts))
    return f"{text} ({found.level})" if found.level else text


def recorded_errors(match: Match) -> dict[str, list[float]]:
    """Per program, each player's total of the checker-play errors the
    record's analysis holds (what the page shows at the top)."""
    totals: dict[str, list[float]] = {}
    for game in match.games:
        for turn in game.turns:
            found = turn.analysis
            if found is not None and turn.kind == "roll" and found.error is not None and turn.player in (0, 1):
                totals.setdefault(found.program, [0.0, 0.0])[turn.player] += found.error
    return totals


def _recorded_summary(match: Match) -> str:
    """The players' total errors as the record's analyser judged them."""
    out = []
    for program, totals in recorded_errors(match).items():
        players = " \u00b7 ".join(
            f'{_esc(name)} <span data-role="recorded-error" data-program="{_esc(program)}" data-player="{side}" '
            f'data-value="{total!r}">{total:.3f}</span>'
            for side, (name, total) in enumerate(zip(match.players, totals))
        )
        title = _("{program} (in the record): checker-play error").format(program=program)
        out.append(f'<p class="recorded">{_esc(title)} {players}</p>')
    return "".join(out)


def _cell(frame: Frame, gi: int, fi: int) -> str:
    assert frame.step is not None
    classes = ["turn"]
    severities = {p.severity for p in frame.problems}
    if severities:
        classes.append("error" if "error" in severities else "warning")
    marks = ""
    if frame.luck_mark:
        marks += f'<span class="luck {frame.luck_mark.replace(" ", "-")}">{LUCK_SYMBOLS[frame.luck_mark]}</span>'
    mark = ERROR_SYMBOLS.get(frame.error_mark or "", "")
    if mark:
        marks += f'<span class="err">{mark}</span>'
    if severities:
        marks += '<span class="flag">\u26a0</span>'
    tip = " | ".join(p.message for p in frame.problems)
    title = f' title="{_esc(tip)}"' if tip else ""
    return f'<td class="{" ".join(classes)}" data-g="{gi}" data-f="{fi}"{title}>{_esc(frame.move)}{marks}</td>'


def _move_list(gf: GameFrames, gi: int, names: Sequence[str]) -> str:
    """The turns in two columns, one row per move number, as a .mat writes them."""
    rows: list[list[tuple[int, Frame] | None]] = []
    for fi, frame in enumerate(gf.frames[1:], 1):
        assert frame.step is not None
        side = frame.step.player
        if not rows or rows[-1][side] is not None or (side == 0 and rows[-1][1] is not None):
            rows.append([None, None])
        rows[-1][side] = (fi, frame)
    game = gf.replayed.game
    out = [
        f'<div class="moves-scroll"><table class="moves" data-game="{gi}"><thead><tr><th></th><th>{_esc(names[0])}</th>'
        f"<th>{_esc(names[1])}</th></tr></thead><tbody>",
        f'<tr><td></td><td colspan="2" class="turn start" data-g="{gi}" data-f="0">'
        + _esc(_("start"))
        + f" \u00b7 {game.score[0]}\u2013{game.score[1]}</td></tr>",
    ]
    for number, row in enumerate(rows, 1):
        cells = "".join(_cell(c[1], gi, c[0]) if c else "<td></td>" for c in row)
        out.append(f'<tr><td class="num">{number}</td>{cells}</tr>')
    last = len(gf.frames) - 1
    out.append(
        f'<tr><td></td><td colspan="2" class="turn result" data-g="{gi}" data-f="{last}">'
        f"{_esc(gf.result)}</td></tr></tbody></table></div>"
    )
    return "".join(out)


def _chart(gf: GameFrames, gi: int, names: Sequence[str]) -> str:
    """Player 0's cubeless equity and net luck (player 0's luck minus player
    1's, summed) over one game, as a small inline SVG; a click jumps there."""
    frames = gf.frames
    n = max(len(frames) - 1, 1)
    width, height, left, right, top_y, plot_h = 360.0, 150.0, 8.0, 34.0, 8.0, 112.0
    luck = 0.0
    net: list[float] = [0.0]
    for frame in frames[1:]:
        if frame.luck is not None and frame.step is not None:
            luck += frame.luck if frame.step.player == 0 else -frame.luck
        net.append(luck)
    equity = [(i, f.equity) for i, f in enumerate(frames) if f.equity is not None]
    top = max([1.0] + [abs(v) for v in net] + [abs(v) for _i, v in equity])

    def x(i: int) -> float:
        return left + (width - left - right) * i / n

    def y(v: float) -> float:
        return top_y + plot_h / 2 * (1 - v / top)

    def line(points: list[tuple[int, float]], cls: str) -> str:
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
        return f'<polyline class="{cls}" points="{path}"/>' if len(points) > 1 else ""

    def tick(v: float, text: str) -> str:
        return (
            f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
            f'<text class="tick" x="{width - right + 4}" y="{y(v) + 4:.1f}">{text}</text>'
        )

    legend_y = top_y + plot_h + 22
    return "".join(
        [
            f'<svg class="chart" data-game="{gi}" data-n="{n}" data-x0="{left}" data-x1="{width - right}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" xmlns="http://www.w3.org/2000/svg" role="img">',
            tick(top, f"+{top:.1f}"),
            tick(0, "0"),
            tick(-top, f"\u2212{top:.1f}"),
            line(equity, "equity"),
            line(list(enumerate(net)), "netluck"),
            f'<line class="cursor" x1="{left}" x2="{left}" y1="{top_y - 4}" y2="{top_y + plot_h + 4}"/>',
            f'<line class="equity" x1="{left}" x2="{left + 18}" y1="{legend_y - 4}" y2="{legend_y - 4}"/>',
            f'<text x="{left + 22}" y="{legend_y}">'
            + _esc(_("equity of {name} (0 ply)").format(name=names[0]))
            + "</text>",
            f'<line class="netluck" x1="{width / 2}" x2="{width / 2 + 18}" y1="{legend_y - 4}" y2="{legend_y - 4}"/>',
            f'<text x="{width / 2 + 22}" y="{legend_y}">'
            + _esc(_("net luck of {name}").format(name=names[0]))
            + "</text>",
            "</svg>",
        ]
    )


def build(
    match: Match,
    *,
    rules: Rules | None = None,
    analyse: bool = False,
    numbering: NumberingLike | None = None,
    level: LevelLike = DEFAULT_LEVEL,
) -> MatchFrames:
    """Every game's frames (boards drawn, problems placed, analysis added:
    ``analyse`` judges every turn at ``level``, :mod:`~tavlakit.evaluation.levels`,
    default world class, gnubg's own default analysis).

    Every problem :func:`~tavlakit.replay.walker.validate` reports is shown: at its
    turn, its game's start or end, or (about the whole match) at the top.
    The labels, the moves and the problems write the points in ``numbering``
    (:class:`~tavlakit.engine.numbering.Numbering`; default: the file's,
    :attr:`~tavlakit.record.match.Match.numbering`).
    """
    chosen = Numbering.parse(match.numbering if numbering is None else numbering)
    rules = default_rules(match, rules)
    names = match.players
    drawer = _Drawer(match, chosen, rules)
    games = []
    for rg in replay(match, rules, numbering=chosen):
        frames = _game_frames(drawer, rg, names)
        games.append(GameFrames(rg, frames, result_text(rg.game, names)))
    chosen_level = as_level(level)
    if analyse:
        _analyse(match, rules, games, drawer, chosen_level)
    # every problem of a game is placed at one of its turns: what is left
    # is the match's own, and the warning validate adds for unmarked hits
    rest = Reporter(list(match.problems), file=match.source)
    report_unmarked_hits(rest, [gf.replayed.unmarked_hits for gf in games])
    return MatchFrames(match, games, rest.problems, analysed=analyse, level=chosen_level if analyse else None)


def _title(match: Match) -> str:
    names = " \u2013 ".join(match.players)
    if match.length:
        return ngettext("{names}, {length}-point match", "{names}, {length}-point match", match.length).format(
            names=names, length=match.length
        )
    return _("{names}, money game").format(names=names)


def _button(action: str, text: str) -> str:
    return f'<button data-go="{action}" title="{_esc(text)}" aria-label="{_esc(text)}">{_ICONS[action]}</button>'


def _game_option(gf: GameFrames, gi: int) -> str:
    game = gf.replayed.game
    errors = sum(1 for f in gf.frames for p in f.problems if p.severity == "error")
    flag = " \u26a0" if errors else ""
    text = _("Game {number} ({score0}\u2013{score1}): {result}").format(
        number=game.number, score0=game.score[0], score1=game.score[1], result=gf.result
    )
    return f'<option value="{gi}">{_esc(text + flag)}</option>'


def _data(games: list[GameFrames], analyse: bool, unit: str) -> dict[str, Any]:
    lines = _Lines()
    out_games = []
    for gf in games:
        frames = []
        for frame in gf.frames:
            item: dict[str, Any] = {"s": lines.refs(frame.board), "id": frame.position_id, "t": frame.label}
            comments = (
                [frame.step.turn.comment]
                if frame.step and frame.step.turn.comment
                else (gf.replayed.game.comments if frame.step is None else [])
            )
            if comments:
                item["c"] = "\n".join(comments)
            if frame.problems:
                item["p"] = [_problem_json(p) for p in frame.problems]
            texts = [_recorded_text(frame.step.turn, unit)] if frame.step is not None else []
            if analyse and frame.step is not None and (frame.step.turn.kind == "roll" or frame.cube or frame.unjudged):
                texts.append(_analysis_text(frame))
            if any(texts):
                item["a"] = "\n".join(text for text in texts if text)
            frames.append(item)
        frames[-1]["r"] = gf.result
        out_games.append({"frames": frames})
    return {"lines": list(lines.index), "games": out_games}


def html(
    match: Match,
    *,
    rules: Rules | None = None,
    analyse: bool = False,
    numbering: NumberingLike | None = None,
    game: int | None = None,
    title: str | None = None,
    level: LevelLike = DEFAULT_LEVEL,
) -> str:
    """The whole viewer page for ``match``: one self-contained HTML file.

    ``game`` (a game number) is shown first; ``analyse`` adds luck, play
    errors, cube decisions and a chart per game, judged at ``level``
    (slower); ``numbering``: see :func:`build`.
    """
    built = build(match, rules=rules, analyse=analyse, numbering=numbering, level=level)
    return page(built, game=game, title=title)


def page(frames: MatchFrames, *, game: int | None = None, title: str | None = None) -> str:
    """The page for the frames :func:`build` made."""
    match, games, analyse = frames.match, frames.games, frames.analysed
    start = 0
    if game is not None:
        numbers = [gf.replayed.game.number for gf in games]
        if game not in numbers:
            raise ValueError(
                _("the match has no game {number} (games: {numbers})").format(
                    number=game, numbers=", ".join(map(str, numbers)) or _("none")
                )
            )
        start = numbers.index(game)
    names = match.players
    title = title or _title(match)
    keys = _(
        "Keys: Left/Right turn by turn, Home/End start and end of the game, "
        "PageUp/PageDown previous and next game, N next problem."
    )
    judged = _("judged at {level}, cubeful equity at the score").format(
        level=frames.level.describe() if frames.level else ""
    )
    legend = (
        '<div class="legend">'
        + _esc(_("++ + lucky, \u2212 \u2212\u2212 unlucky roll; ?! doubtful, ? bad, ?? very bad play") + f" ({judged})")
        + "</div>"
    )
    too_old = _("This browser is too old to show the viewer (it lacks DecompressionStream).")
    data = _data(games, analyse, "MWC" if match.length else "EMG")
    data["start"] = start
    data["text"] = {"of": _("turn {n} of {total}")}
    match_problems = "".join(
        f'<li class="{sev}"><b>{_esc(code)}</b> {_esc(message)} <small>{_esc(where)}</small></li>'
        for sev, code, message, where in map(_problem_json, frames.problems)
    )
    shown = frames.shown()
    summary = counts_text(shown) or _("no problems")
    worst_shown = worst(shown)
    next_problem = _("go to the next turn with a problem (N)")
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{language()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">",
        f"<title>{_esc(title)}</title><style>{_asset('viewer.css')}</style></head>",
        f'<body class="{"analysed" if analyse else "plain"}" data-too-old="{_esc(too_old)}">'
        f"<header><h1>{_esc(title)}</h1>",
        (
            f'<button class="summary {worst_shown}" data-go="nextProblem" title="{_esc(next_problem)}">'
            f"{_esc(summary)} \u25b8</button></header>"
            if shown
            else f'<span class="summary">{_esc(summary)}</span></header>'
        ),
        f'<ul class="match-problems">{match_problems}</ul>' if match_problems else "",
        _recorded_summary(match),
        '<main><section class="stage"><nav>',
        '<select class="game" aria-label="'
        + _esc(_("game"))
        + '">'
        + "".join(_game_option(gf, gi) for gi, gf in enumerate(games))
        + "</select>",
        _button("first", _("start of the game (Home)")),
        _button("prev", _("previous turn (Left)")),
        _button("next", _("next turn (Right)")),
        _button("last", _("end of the game (End)")),
        '<span class="counter"></span></nav>',
        '<div class="board"></div>',
        f"<footer>{_esc(keys)}</footer></section>",
        '<aside><div class="turn-info"><div class="turn-head"><span class="turn-label"></span>',
        '<span class="pid">' + _esc(_("Position ID")) + ' <code data-role="position-id"></code></span></div>',
        '<div class="analysis"></div><div class="comment"></div><div class="problems"></div></div>',
        "".join(
            f'<div class="game-pane" data-game="{gi}">'
            + (_chart(gf, gi, names) + legend if analyse else "")
            + _move_list(gf, gi, names)
            + "</div>"
            for gi, gf in enumerate(games)
        ),
        "</aside></main>",
        f'<script type="application/octet-stream" id="tk-data">{pack(data)}</script>',
        f"<script>{_asset('viewer.js')}</script></body></html>",
    ]
    return "\n".join(p for p in parts if p)


class Viewer:
    """The viewer for Jupyter: shows the page in an isolated ``<iframe srcdoc>``.

    >>> import tavlakit as tk
    >>> from tavlakit._data import data_dir
    >>> Viewer(tk.read_match(data_dir("samples") / "tavla-t000.mat"))._repr_html_()[:7]
    '<iframe'
    """

    def __init__(self, match: Match, *, height: int = 760, **options: Any) -> None:
        self.match = match
        self.height = height
        self.options = options

    def html(self) -> str:
        """The page (see :func:`html`)."""
        return html(self.match, **self.options)

    def _repr_html_(self) -> str:
        return (
            f'<iframe srcdoc="{_esc(self.html())}" style="width:100%;height:{self.height}px;border:0" '
            f'sandbox="allow-scripts"></iframe>'
        )


__all__ = [
    "Frame",
    "GameFrames",
    "MatchFrames",
    "Viewer",
    "build",
    "html",
    "page",
    "page_data",
    "recorded_errors",
    "turn_text",
]
