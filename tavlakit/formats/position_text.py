"""Analysed positions as eXtreme Gammon, BGBlitz and GNU Backgammon export them as text.

Three writers, one result: a :class:`PositionRecord` per analysed decision
with the position (seen by the side on roll), the dice, the cube, the score
and the candidates the analyser listed (checker plays, or the cube actions
no double, double/take, double/pass), each with the equity, probabilities and
error the file gives, in the file's order.

* ``xg-position``: XG's "copy position" text, ``XGID=...`` on the first line,
  in any interface language (the numbers and the ID do not change).
* ``bgblitz-position``: BGBlitz's position text: the board, then a gnubg
  Position ID and Match ID and an XGID.
* ``gnubg-text``: gnubg's "export game text" with analysis: one block per
  move (``Move number N:``) with a Position ID and Match ID; each block gives
  a cube decision (``Cube analysis``) and/or a checker play (``Rolled 51:``).
  After ``X doubles to 2`` the decision is the opponent's take or pass
  (``state.doubled``): the position is still seen by the doubler, the
  equities are the responder's, as gnubg writes them.

The position comes from the file's own IDs (all of them, which must agree)
and is checked against the board the file draws; a disagreement is a
located ``position-mismatch`` error. Scores, the cube owner and names are
given as (side on roll, opponent), like :meth:`~tavlakit.engine.position.Position.pips`.

>>> record = read_position('''XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10
...
...     1. 3-ply       13/8 13/11                  eq:+0.009
...       Player:   50.10% (G:14.20% B:0.70%)
...       Opponent: 49.90% (G:13.50% B:0.60%)
...
...     2. 3-ply       24/22 24/19                 eq:-0.012 (-0.021)
...       Player:   49.50% (G:13.90% B:0.60%)
...       Opponent: 50.50% (G:13.80% B:0.70%)
... ''')
>>> record.dice, record.length, [(c.text, c.equity, c.error) for c in record.candidates]
((5, 2), 0, [('13/8 13/11', 0.009, 0.0), ('24/22 24/19', -0.012, 0.021)])
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import IO, Literal

from ..engine.matchid import MatchState, decode_match_id, parse_xgid
from ..engine.play import Play
from ..engine.position import Position
from ..i18n import _
from ..record.match import Game, Match
from ..record.problem import Problem, ProblemError, Reporter
from .text import open_input, owned

__all__ = [
    "PositionCandidate",
    "PositionRecord",
    "PositionReader",
    "FORMAT_NAMES",
    "position_kind",
    "read_position",
    "read_positions",
    "sniff",
]

CubeAction = Literal["no-double", "double-take", "double-pass"]
Kind = Literal["checker", "cube"]
#: Win, win gammon, win backgammon, lose, lose gammon, lose backgammon (0-1), for the side on roll.
Probabilities = tuple[float, float, float, float, float, float]

#: What each format is, for messages.
FORMAT_NAMES = {
    "xg-position": "eXtreme Gammon position text",
    "bgblitz-position": "BGBlitz position text",
    "gnubg-text": "GNU Backgammon game text export with analysis",
}

_NUM = r"[+-]?\d+(?:[.,]\d+)?"
_XG_PLAY = re.compile(rf"^\s*(\d+)\.\s+(.+?)\s{{2,}}(.+?)\s+[eé]q:\s*({_NUM})(?:\s*\(({_NUM})\))?\s*$")
_XG_CHANCES = re.compile(rf"({_NUM})%\s*\(G:\s*({_NUM})%\s*B:\s*({_NUM})%\)")
_XG_CUBE = re.compile(rf"^\s+([^:=]+?)\s*:\s*({_NUM})(?:\s*\(({_NUM})\))?\s*$")
_LEVEL = re.compile(r"XG Roller\+*|\d+-ply|Rollout\S*")
_BGB_PLAY = re.compile(rf"^\s*(\d+)\.\s+(?:({_NUM})\s+mwp\s*/\s*)?({_NUM})(?:\s+\(\s*({_NUM})\))?\s+(\S.*?)\s*$")
_BGB_CUBE = re.compile(rf"^\s*(\S.*?)\s*:\s*({_NUM})\s*\(\s*({_NUM})\)\s+({_NUM})\s*\(\s*({_NUM})\)\s*$")
_BGB_CHANCES = re.compile(rf"^\s*(\S.*?)\s+({_NUM})\s+({_NUM})\s+({_NUM})\s*$")
_SIX = re.compile(rf"^\s*({_NUM})\s+({_NUM})\s+({_NUM})\s+-\s+({_NUM})\s+({_NUM})\s+({_NUM})\s*$")
_GNUBG_PLAY = re.compile(rf"^(\*)?\s*(\d+)\.\s+(.+?)\s{{2,}}(.+?)\s+Eq\.:\s*({_NUM})(?:\s*\(({_NUM})\))?\s*$")
_GNUBG_CUBE = re.compile(rf"^\s*(\d+)\.\s+(.+?)\s{{2,}}({_NUM})(?:\s+\(({_NUM})\))?\s*$")
_GNUBG_NONE = re.compile(r"^\*?\s+Cannot move\s*$", re.IGNORECASE)
_GNUBG_CUBELESS = re.compile(r"^\s*(\d+-ply|Rollout\S*)\s+cubeless", re.IGNORECASE)
_POSITION_ID = re.compile(r"Position[- ]ID:\s*([A-Za-z0-9+/]{14})")
_MATCH_ID = re.compile(r"Match[- ]ID\s*:\s*([A-Za-z0-9+/]{12})")
_XGID = re.compile(r"XGID=\S+")
_LABELS = re.compile(r"^\s*\+(?:\d\d?-+)+\d\d?-\+")
_MARK_NAME = re.compile(r"\s([XO]):\s+(.*?)\s*(?:\s\d+)?\s*$")
#: Words of the take and pass in the interface languages seen (XG, BGBlitz, gnubg).
_PASS_WORDS = ("pass", "drop", "ablehnen", "refuser", "passe", "降り", "パス", "reject")
_TAKE_WORDS = ("take", "annehmen", "prend", "受け", "テイク", "accept")


def sniff(head: str) -> str | None:
    """Which position text format ``head`` (the start of a file, blanks
    removed) is, or ``None``."""
    if head.startswith("XGID="):
        return "xg-position"
    if _LABELS.match(head) and "Position-ID:" in head and "XGID=" in head:
        return "bgblitz-position"
    if "Move number" in head and "GNU Backgammon  Position ID:" in head:
        return "gnubg-text"
    return None


def position_kind(path: Path) -> str | None:
    """The position text format of the file at ``path``, if it is one (read from its first bytes)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    return sniff(head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n"))


@dataclass
class PositionCandidate:
    """One analysed play or cube action, as the file writes it."""

    text: str
    """The play or the cube action as written (``19/18 14/12``, ``Double/Take``)."""
    equity: float
    """The analyser's equity (XG and gnubg: cubeful; BGBlitz: its EMG column);
    NaN where the file gives none (gnubg's forced ``Cannot move``)."""
    error: float
    """How much less than the file's best candidate this one is worth to the
    side on roll: the file's difference with its sign turned (0 for the best).
    For double/pass it can be below 0: passing is the opponent's error."""
    probabilities: Probabilities | None = None
    level: str | None = None
    """The analysis level as written (``4-ply``, ``XG Roller++``, ``Cubeful 0-ply``)."""
    play: Play | None = None
    """A checker play, read (``None`` for a cube action, or a play that cannot be read)."""
    action: CubeAction | None = None
    mwc: float | None = None
    """Match winning chances BGBlitz writes beside the equity."""
    _: KW_ONLY
    played: bool = False
    """gnubg marks the play or action made with ``*``."""
    line: int | None = None


@dataclass
class PositionRecord:
    """One analysed decision: a checker play (``dice`` set) or a cube action."""

    position: Position
    """Seen by the side on roll, which moves next."""
    dice: tuple[int, int] | None
    cube: tuple[int, int | None]
    """Value and owner: 0 = the side on roll, 1 = the opponent, ``None`` centred."""
    score: tuple[int, int]
    """Side on roll, opponent."""
    length: int
    """Match length; 0 for money."""
    level: str | None
    """The analysis level as written (the first candidate's, or the cube analysis's)."""
    candidates: list[PositionCandidate]
    kind: Kind
    format: str
    state: MatchState
    """gnubg's match state (players as gnubg numbers them: 1 is XG's X, the bottom)."""
    names: tuple[str, str] | None = None
    """Side on roll, opponent, when the file names them."""
    probabilities: Probabilities | None = None
    """The position's own chances, when the file gives them once (cube decisions)."""
    played: str | None = None
    """What was done, when the file says (gnubg: ``24/23 13/8``, ``doubles``)."""
    source: str | None = None
    line: int | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def best(self) -> PositionCandidate | None:
        """The candidate the file ranks best (its error is 0), else the first."""
        return next((c for c in self.candidates if c.error == 0), self.candidates[0] if self.candidates else None)

    @property
    def crawford(self) -> bool:
        """Whether this is the Crawford game."""
        return self.state.crawford

    def __repr__(self) -> str:
        what = f"{self.dice[0]}{self.dice[1]}" if self.dice else "cube"
        return f"<PositionRecord {self.format} {self.position.position_id()} {what}, {len(self.candidates)} candidates>"


def _float(text: str) -> float:
    return float(text.replace(",", "."))


def _cube_action(label: str, index: int) -> CubeAction:
    """The action a cube candidate's label names; XG's order (no double,
    double/take, double/pass) where the words are not known."""
    low = label.lower()
    if "/" not in low and "," not in low:
        return "no-double"
    after = re.split(r"[/,]", low, maxsplit=1)[1]
    if any(word in after for word in _PASS_WORDS):
        return "double-pass"
    if any(word in after for word in _TAKE_WORDS):
        return "double-take"
    return ("no-double", "double-take", "double-pass")[min(index, 2)]


def _play(text: str) -> Play | None:
    try:
        return Play.parse(text.replace(",", " "))
    except ValueError:
        return None


class _Drawing:
    """The board a file draws: checkers per mark (``X``/``O``) by label, and on
    the bar. A number in a stack is its count (XG, gnubg), or with ``hidden``
    the checkers not drawn (BGBlitz: four drawn, then ``2`` for six)."""

    def __init__(self, lines: list[str], top: int, hidden: bool) -> None:
        self.line = top + 1
        self.points: dict[str, dict[int, int]] = {"X": {}, "O": {}}
        self.bar = {"X": 0, "O": 0}
        self.complete = False
        bottom = next((i for i in range(top + 1, min(top + 16, len(lines))) if _LABELS.match(lines[i])), None)
        if bottom is None:
            return
        middle = next((i for i in range(top + 1, bottom) if "BAR" in lines[i]), None)
        if middle is None:
            return
        bar_col = lines[middle].index("BAR") + 1
        columns = [{m.end() - 1: int(m[0]) for m in re.finditer(r"\d+", lines[row])} for row in (top, bottom)]
        numbers: dict[int, int] = {}
        for row in range(top + 1, bottom):
            if row == middle:
                continue
            labels = columns[0] if row < middle else columns[1]
            text = lines[row]
            for col, label in labels.items():
                char = text[col] if col < len(text) else " "
                if char in self.points:
                    self.points[char][label] = self.points[char].get(label, 0) + 1
                elif char.isdigit():
                    numbers[label] = int(text[col - 1 : col + 1].strip())
            mark = text[bar_col] if bar_col < len(text) else " "
            if mark in self.bar:
                self.bar[mark] += 1
        for label, number in numbers.items():  # a stack's number, read once its checkers are
            mark = "X" if label in self.points["X"] else "O"
            self.points[mark][label] = number + (self.points[mark].get(label, 0) if hidden else 0)
        self.complete = True

    def board(self, on_roll: str, numbering: str) -> tuple[dict[int, int], dict[int, int]]:
        """Each side's own points (25 = bar): the side on roll (mark ``on_roll``),
        then the opponent; labels are the numbering of mark ``numbering``."""
        sides = []
        for mark in (on_roll, "O" if on_roll == "X" else "X"):
            own = {(p if mark == numbering else 25 - p): n for p, n in self.points[mark].items()}
            if self.bar[mark]:
                own[25] = self.bar[mark]
            sides.append(own)
        return sides[0], sides[1]


def _sides(position: Position) -> tuple[dict[int, int], dict[int, int]]:
    mover, opponent = position.points()
    return ({p + 1: n for p, n in enumerate(mover) if n}, {p + 1: n for p, n in enumerate(opponent) if n})


class _Parser:
    """What the three formats share: the lines, the problems, the IDs and the board."""

    def __init__(self, lines: list[str], source: str | None, fmt: str) -> None:
        self.lines = lines
        self.source = source
        self.format = fmt
        self.report = Reporter(file=source)

    def find(
        self, pattern: re.Pattern[str], start: int = 0, end: int | None = None
    ) -> tuple[int, re.Match[str]] | None:
        for i in range(start, len(self.lines) if end is None else end):
            found = pattern.search(self.lines[i])
            if found:
                return i, found
        return None

    def ids(self, start: int, end: int) -> tuple[Position, MatchState] | None:
        """The position and state from the IDs in lines ``start..end``; all
        that are there must agree."""
        read: list[tuple[Position, MatchState, str, int]] = []
        xgid = self.find(_XGID, start, end)
        if xgid:
            try:
                position, state = parse_xgid(xgid[1][0])
                read.append((position, state, "XGID", xgid[0]))
            except ValueError as exc:
                self.report.error("syntax", str(exc), line=xgid[0] + 1, column=xgid[1].start() + 1)
        pos_id, match_id = self.find(_POSITION_ID, start, end), self.find(_MATCH_ID, start, end)
        if pos_id:
            try:
                position = Position.from_position_id(pos_id[1][1])
                state = decode_match_id(match_id[1][1]) if match_id else MatchState()
                read.append((position, state, "Position ID", pos_id[0]))
            except ValueError as exc:
                where = match_id if match_id and "Match ID" in str(exc) else pos_id
                self.report.error("syntax", str(exc), line=where[0] + 1, column=where[1].start(1) + 1)
        if not read:
            return None
        position, state, name, _line = read[0]
        for other, other_state, other_name, line in read[1:]:
            same = (
                other == position
                and other_state.on_roll == state.on_roll
                and sorted(other_state.dice) == sorted(state.dice)
                and other_state.cube == state.cube
                and other_state.cube_owner == state.cube_owner
                and other_state.score == state.score
                and other_state.length == state.length
            )
            if not same:
                self.report.error(
                    "position-mismatch",
                    _("the {other} does not describe the position and match state of the {first}").format(
                        other=other_name, first=name
                    ),
                    line=line + 1,
                )
        return position, state

    def check_board(
        self, position: Position | None, on_roll: str, numbering: str, start: int, end: int
    ) -> Position | None:
        """Compare the drawn board (the first in lines ``start..end``) with
        ``position``; with no ID, the drawing is the position."""
        top = self.find(_LABELS, start, end)
        drawing = _Drawing(self.lines, top[0], self.format == "bgblitz-position") if top else None
        if drawing is None or not drawing.complete:
            if position is None:
                return None
            if top:
                self.report.error("syntax", _("the board drawing is cut short"), line=top[0] + 1)
            return position
        drawn = drawing.board(on_roll, numbering)
        if position is None:
            try:
                position = Position.from_points(*drawn)
            except ValueError as exc:
                self.report.error("syntax", _("the board drawing: {reason}").format(reason=exc), line=drawing.line)
                return None
            self.report.warning(
                "syntax", _("no ID: the position is read from the board drawing alone"), line=drawing.line
            )
            return position
        if drawn != _sides(position):
            mover, opponent = _sides(position)
            differ = sorted(
                {p for p in (*mover, *drawn[0]) if mover.get(p) != drawn[0].get(p)}
                | {25 - p for p in (*opponent, *drawn[1]) if opponent.get(p) != drawn[1].get(p)}
            )
            self.report.error(
                "position-mismatch",
                _(
                    "the board drawn does not agree with the ID: points {points} (the side on roll's numbering) differ"
                ).format(points=", ".join(map(str, differ))),
                line=drawing.line,
            )
        return position

    def record(
        self,
        position: Position,
        state: MatchState,
        kind: Kind,
        candidates: list[PositionCandidate],
        line: int,
        *,
        level: str | None = None,
        names: tuple[str, str] | None = None,
        probabilities: Probabilities | None = None,
        played: str | None = None,
    ) -> PositionRecord:
        """The decision, with the state turned to the side on roll's view."""
        me = state.on_roll
        owner = None if state.cube_owner is None else (0 if state.cube_owner == me else 1)
        dice = state.dice if kind == "checker" and all(state.dice) else None
        level = level or next((c.level for c in candidates if c.level), None)
        return PositionRecord(
            position,
            dice,
            (state.cube, owner),
            (state.score[me], state.score[1 - me]),
            state.length,
            level,
            candidates,
            kind,
            self.format,
            state,
            names,
            probabilities,
            played,
            self.source,
            line,
            self.report.problems,
        )

    def six(self, index: int) -> Probabilities | None:
        found = _SIX.match(self.lines[index]) if index < len(self.lines) else None
        if not found:
            return None
        a, b, c, d, e, f = (_float(v) for v in found.groups())
        return a, b, c, d, e, f

    def cut(self, actions: list[PositionCandidate]) -> None:
        """A cube analysis lists three actions; fewer means the text was cut."""
        if actions and len(actions) < 3:
            self.report.error(
                "syntax",
                _("{count} of the 3 cube actions: the text is cut short").format(count=len(actions)),
                line=actions[-1].line,
            )

    def read(self) -> Iterator[PositionRecord]:
        """Every analysed decision, in the file's order."""
        raise NotImplementedError  # each format's parser reads its own layout

    def need(self, found: object, what: str, line: int) -> None:
        if not found:
            self.report.error(
                "syntax",
                _("no {what} found: the file is cut short or not a {format}").format(
                    what=what, format=FORMAT_NAMES[self.format]
                ),
                line=line,
            )


class _XG(_Parser):
    def read(self) -> Iterator[PositionRecord]:
        starts = [i for i, t in enumerate(self.lines) if t.startswith("XGID=")] or [0]
        for n, start in enumerate(starts):
            record = self.segment(start, starts[n + 1] if n + 1 < len(starts) else len(self.lines))
            if record is not None:
                yield record

    def segment(self, start: int, end: int) -> PositionRecord | None:
        """One position: ``XGID=`` on its first line, up to the next one."""
        found = self.ids(start, start + 1)
        top = self.find(_LABELS, start, end)
        bottom = self.find(_LABELS, top[0] + 1, end) if top else None
        mover = self.find(re.compile(r"^([XO])\b"), bottom[0] + 1 if bottom else end, end)
        mark = mover[1][1] if mover else "X" if found is None or found[1].on_roll == 1 else "O"
        position = self.check_board(found[0] if found else None, mark, "X", start, end)
        if position is None:
            if not self.report.problems:
                self.report.error("syntax", _("no XGID and no board"), line=start + 1)
            return None
        state = found[1] if found else MatchState(on_roll=1)
        named = self.find(re.compile(r"^X:(.*?)\s{2,}O:(.*)$"), start, end)
        names = None
        if named:
            names = (named[1][1].strip(), named[1][2].strip())
            names = names if mark == "X" else (names[1], names[0])
        candidates = self.plays(start, end)
        kind: Kind = "checker"
        chances = None
        level = None
        if not candidates:
            kind = "cube"
            candidates, chances, level = self.cube(start, end)
        self.need(candidates, _("analysed plays or cube actions"), end)
        if candidates and not self.find(re.compile(r"^eXtreme Gammon Version"), start, end):
            self.report.warning(
                "syntax", _("no closing 'eXtreme Gammon Version' line: the text may be cut short"), line=end
            )
        return self.record(
            position, state, kind, candidates, start + 1, level=level, probabilities=chances, names=names
        )

    def plays(self, start: int, end: int) -> list[PositionCandidate]:
        out = []
        for i in range(start, end):
            found = _XG_PLAY.match(self.lines[i])
            if not found:
                continue
            mine = _XG_CHANCES.search(self.lines[i + 1]) if i + 1 < end else None
            theirs = _XG_CHANCES.search(self.lines[i + 2]) if i + 2 < end else None
            chances = None
            if mine and theirs:
                a, b, c = (_float(v) / 100 for v in mine.groups())
                d, e, f = (_float(v) / 100 for v in theirs.groups())
                chances = (a, b, c, d, e, f)
            else:
                self.report.error(
                    "syntax", _("the chances of play {rank} are missing").format(rank=found[1]), line=i + 2
                )
            play = _play(found[3])
            if play is None:
                self.report.error(
                    "syntax", _("cannot read the play {text!r}").format(text=found[3].strip()), line=i + 1
                )
            out.append(
                PositionCandidate(
                    found[3].strip(),
                    _float(found[4]),
                    0.0 - _float(found[5]) if found[5] else 0.0,
                    chances,
                    found[2].strip(),
                    play=play,
                    line=i + 1,
                )
            )
        return out

    def cube(self, start: int, end: int) -> tuple[list[PositionCandidate], Probabilities | None, str | None]:
        chances: list[tuple[float, float, float]] = []
        level = None
        out: list[PositionCandidate] = []
        for i in range(start + 1, end):
            text = self.lines[i]
            found = _XG_CHANCES.search(text)
            if found and len(chances) < 2:
                a, b, c = (_float(v) / 100 for v in found.groups())
                chances.append((a, b, c))
                continue
            if level is None and not chances and (lv := _LEVEL.search(text)):
                level = lv[0]
            cube = _XG_CUBE.match(text) if chances else None
            if cube and len(out) < 3:
                out.append(
                    PositionCandidate(
                        cube[1].strip(),
                        _float(cube[2]),
                        0.0 - _float(cube[3]) if cube[3] else 0.0,
                        action=_cube_action(cube[1], len(out)),
                        line=i + 1,
                        level=level,
                    )
                )
        probabilities: Probabilities | None = None
        if len(chances) == 2:
            (a, b, c), (d, e, f) = chances
            probabilities = (a, b, c, d, e, f)
        for candidate in out:
            candidate.probabilities = probabilities
        self.cut(out)
        return out, probabilities, level


class _BGBlitz(_Parser):
    def read(self) -> Iterator[PositionRecord]:
        found = self.ids(0, len(self.lines))
        on_roll = "X" if found is None or found[1].on_roll == 1 else "O"
        position = self.check_board(found[0] if found else None, on_roll, "X", 0, len(self.lines))
        if position is None:
            if not self.report.problems:
                self.report.error("syntax", _("no IDs and no board"), line=1)
            return
        state = found[1] if found else MatchState(on_roll=1)
        marks = {m[1]: m[2] for m in (_MARK_NAME.search(t) for t in self.lines[:20]) if m}
        names = (marks[on_roll], marks["O" if on_roll == "X" else "X"]) if len(marks) == 2 else None
        candidates = self.plays()
        kind: Kind = "checker"
        chances = None
        if not candidates:
            kind = "cube"
            candidates = self.cube()
            chances = self.chances(names[0] if names else None)
            for candidate in candidates:
                candidate.probabilities = chances
        self.need(candidates, _("analysed plays or cube actions"), len(self.lines))
        yield self.record(position, state, kind, candidates, 1, names=names, probabilities=chances)

    def plays(self) -> list[PositionCandidate]:
        out = []
        for i, text in enumerate(self.lines):
            found = _BGB_PLAY.match(text)
            if not found or "XGID" in text:
                continue
            chances = self.six(i + 1)
            if chances is None:
                self.report.error(
                    "syntax", _("the chances of play {rank} are missing").format(rank=found[1]), line=i + 2
                )
            play = _play(found[5])
            if play is None:
                self.report.error("syntax", _("cannot read the play {text!r}").format(text=found[5]), line=i + 1)
            out.append(
                PositionCandidate(
                    found[5],
                    _float(found[3]),
                    0.0 - _float(found[4]) if found[4] else 0.0,
                    chances,
                    play=play,
                    mwc=_float(found[2]) if found[2] else None,
                    line=i + 1,
                )
            )
        return out

    def cube(self) -> list[PositionCandidate]:
        out: list[PositionCandidate] = []
        for i, text in enumerate(self.lines):
            found = _BGB_CUBE.match(text)
            if found:
                out.append(
                    PositionCandidate(
                        found[1],
                        _float(found[4]),
                        0.0 - _float(found[5]),
                        mwc=_float(found[2]),
                        action=_cube_action(found[1], len(out)),
                        line=i + 1,
                    )
                )
        self.cut(out)
        return out

    def chances(self, mover: str | None) -> Probabilities | None:
        rows = {
            m[1]: (_float(m[2]) / 100, _float(m[3]) / 100, _float(m[4]) / 100)
            for m in (_BGB_CHANCES.match(t) for t in self.lines)
            if m and ":" not in m[1]
        }
        if mover is None or mover not in rows or len(rows) != 2:
            return None
        (a, b, c), (d, e, f) = rows[mover], next(v for k, v in rows.items() if k != mover)
        return a, b, c, d, e, f


class _Gnubg(_Parser):
    def read(self) -> Iterator[PositionRecord]:
        starts = [i for i, t in enumerate(self.lines) if t.startswith("Move number")]
        self.need(starts, _("'Move number' block"), 1)
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(self.lines)
            yield from self.block(start, end)

    def block(self, start: int, end: int) -> Iterator[PositionRecord]:
        found = self.ids(start, end)
        if found is None:
            self.report.error("syntax", _("the block has no Position ID"), line=start + 1)
            return
        position, state = found
        mark = "X" if state.on_roll == 1 else "O"
        self.check_board(position, mark, mark, start, end)
        marks = {m[1]: m[2] for m in (_MARK_NAME.search(t) for t in self.lines[start : start + 20]) if m}
        names = (marks[mark], marks["O" if mark == "X" else "X"]) if len(marks) == 2 else None
        played = next((t[2:].strip() for t in self.lines[start:end] if t.startswith("* ")), None)
        acted = played if played and not re.search(r"\bmoves\b|cannot move", played) else None
        cube = self.find(re.compile(r"^Cube analysis"), start, end)
        if cube:
            level = self.find(_GNUBG_CUBELESS, cube[0], end)
            chances = self.six(level[0] + 1) if level else None
            candidates = []
            for i in range(cube[0], end):
                line = self.lines[i]
                if line.startswith("Rolled"):
                    break
                got = _GNUBG_CUBE.match(line)
                if got:
                    candidates.append(
                        PositionCandidate(
                            got[2].strip(),
                            _float(got[3]),
                            0.0 - _float(got[4]) if got[4] else 0.0,
                            chances,
                            level[1][1] if level else None,
                            action=_cube_action(got[2], int(got[1]) - 1),
                            line=i + 1,
                        )
                    )
            self.need(candidates, _("cube actions"), cube[0] + 1)
            yield self.record(
                position,
                state.replace(dice=(0, 0)),
                "cube",
                candidates,
                start + 1,
                names=names,
                probabilities=chances,
                played=acted,
            )
        rolled = self.find(re.compile(r"^Rolled \d\d:"), start, end)
        if rolled:
            candidates = []
            for i in range(rolled[0] + 1, end):
                got = _GNUBG_PLAY.match(self.lines[i])
                if _GNUBG_NONE.match(self.lines[i]):  # a forced dance: nothing to weigh
                    candidates.append(
                        PositionCandidate(
                            self.lines[i].strip(" *"), math.nan, 0.0, play=Play(), played=True, line=i + 1
                        )
                    )
                if got:
                    play = _play(got[4])
                    if play is None and "cannot" not in got[4].lower():
                        self.report.error("syntax", _("cannot read the play {text!r}").format(text=got[4]), line=i + 1)
                    candidates.append(
                        PositionCandidate(
                            got[4].strip(),
                            _float(got[5]),
                            0.0 - _float(got[6]) if got[6] else 0.0,
                            self.six(i + 1),
                            got[3].strip(),
                            play=play or Play(),
                            played=bool(got[1]),
                            line=i + 1,
                        )
                    )
            self.need(candidates, _("analysed plays"), rolled[0] + 1)
            yield self.record(position, state, "checker", candidates, start + 1, names=names, played=played)


_PARSERS: dict[str, type[_Parser]] = {"xg-position": _XG, "bgblitz-position": _BGBlitz, "gnubg-text": _Gnubg}


def _parse(text: str, source: str | None, problems: list[Problem]) -> _Parser:
    head = text.lstrip("\ufeff \t\r\n")
    fmt = sniff(head[:4096])
    if fmt is None:
        raise ProblemError(
            Reporter(file=source).report(
                "syntax",
                "error",
                _("not a position text tavlakit reads (an XG or BGBlitz position, or gnubg's exported game text)"),
                line=1,
            )
        )
    lines = text.lstrip("\ufeff").splitlines()
    parser = _PARSERS[fmt](lines, source, fmt)
    parser.report.problems[:0] = problems
    return parser


def _text(given: str | Path | IO[str]) -> tuple[str, str | None, list[Problem]]:
    if (
        isinstance(given, str)
        and "\n" not in given
        and len(given) < 4096
        and (Path(given).is_file() or given.lower().endswith(".txt"))
    ):
        given = Path(given)  # a path (a missing one raises OSError, as read_match does)
    stream, source, problems = open_input(given)
    with owned(given, stream):
        return stream.read(), source, problems


def read_positions(given: str | Path | IO[str]) -> list[PositionRecord]:
    """Every analysed decision of a position text (a path, a stream or the text
    itself), in the file's order. A text that holds no position raises
    :class:`~tavlakit.record.problem.ProblemError` (a ``ValueError``) with the located
    problem; a file that cannot be opened, ``OSError``."""
    text, source, problems = _text(given)
    parser = _parse(text, source, problems)
    found = list(parser.read())
    if not found:
        raise _none_found(parser, source)
    return found


def read_position(given: str | Path | IO[str]) -> PositionRecord:
    """The analysed position of an XG or BGBlitz position text, or the first
    decision of a gnubg game export (:func:`read_positions` gives them all)."""
    text, source, problems = _text(given)
    parser = _parse(text, source, problems)
    found = next(parser.read(), None)
    if found is None:
        raise _none_found(parser, source)
    return found


def _none_found(parser: _Parser, source: str | None) -> ProblemError:
    """The error of a text in which no position was found: the parser's first, else ``empty``."""
    errors = [p for p in parser.report.problems if p.severity == "error"]
    first = errors[0] if errors else None
    return ProblemError(
        first or Reporter(file=source).report("empty", "error", _("the file holds no analysed position"), line=1)
    )


class PositionReader:
    """A position text opened where a match was expected: no games, one
    ``position`` note naming what it is (and the problems found in it)."""

    def __init__(self, stream: IO[str], source: str | None, fmt: str) -> None:
        self.match = Match(source=source)
        report = Reporter(self.match.problems, file=source)
        records: list[PositionRecord] = []
        found: list[Problem] = []
        try:
            parser = _parse(stream.read(), source, [])
            records = list(parser.read())
            found = parser.report.problems
        except ProblemError as exc:
            found = [exc.problem]
        kinds = sorted({_("a checker play") if r.kind == "checker" else _("a cube decision") for r in records})
        report.info(
            "position",
            _("{format}: {count} analysed decision(s) ({kinds}), not a match; tavlakit board and moves read it").format(
                format=FORMAT_NAMES[fmt], count=len(records), kinds=", ".join(kinds) or _("none readable")
            ),
            line=1,
        )
        self.match.problems.extend(found)

    def games(self) -> Iterator[Game]:
        return iter(())
