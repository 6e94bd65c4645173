"""Gibbon Match Dump (``.gmd``): read into the one record model.

Gibbon (a FIBS client) saves a running match as one event per line
(``Roll:W:: 4 2``, ``Move:B:: 1/3 12/15``, ``Double:W:``, ``Resign:W:: 2``),
parsed one line at a time by an LALR grammar (``grammars/gmd.lark``): a
line that does not parse is one located ``syntax`` problem, and the lines
around it are still read.

Gibbon's White is player 1 (the right column of a .mat) and its Black
player 0, as Gibbon's own .mat and SGF exports of the same match put them.
Moves are written in White's numbering; Black's become its own (``25 - p``).
The file writes no results: a game ends with a dropped double, an accepted
resignation (the points it offered) or the last checker borne off (points
from the board and the cube).

>>> match = read_gmd('''GMD-2 # Created by Gibbon
... Length: 3
... Player:W: Ann
... Player:B: Bob
... Game:
... Roll:-:: 4 2
... Move:W:: 8/4 6/4
... Roll:B:: 3 1
... Move:B:: 17/20 19/20
... Double:W:
... Drop:B:
... ''')
>>> match.players, match.length
(('Bob', 'Ann'), 3)
>>> [(t.player, t.kind, t.dice, str(t.play)) for t in match.games[0].turns]
[(1, 'roll', (4, 2), '8/4 6/4'), (0, 'roll', (3, 1), '8/5 6/5'), (1, 'double', None, ''), (0, 'drop', None, '')]
>>> match.games[0].result
Result(winner=1, points=1, resigned=False, line=11, column=1)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, NamedTuple

from lark import Lark, Token, Transformer, UnexpectedInput, UnexpectedToken

from .._data import grammar_text
from ..engine.play import BAR, OFF, Move
from ..engine.position import Position
from ..engine.rules import DEFAULT_RULES
from ..i18n import _
from ..record.match import Game, Match, Result, Turn, TurnKind
from ..record.problem import Reporter
from .text import load_whole, stream_source

__all__ = ["GmdReader", "read_gmd", "iter_gmd"]

#: Lines longer than this are reported and not parsed.
MAX_LINE = 4096


class Entry(NamedTuple):
    """One parsed line: its kind (the grammar rule), its tokens (the head
    first, for the kinds that have one), and its line in the text parsed."""

    kind: str
    items: list[Token]
    line: int


#: The grammar's rules: each becomes an :class:`Entry` of that kind.
KINDS = ("magic", "length", "player", "rank", "location", "rule", "game", "roll", "move", "answer", "resign")
#: A head token: the keyword, the colour, the time stamp.
_HEAD = re.compile(r"\s*([A-Za-z]+)\s*:\s*([A-Za-z01-]+)?\s*(?::\s*(-?\d+)?)?")
_SETUP = re.compile(r"([A-Za-z][A-Za-z-]*)\s*\{([^}]*)\}")
_STEP = re.compile(r"([0-9A-Za-z]+)[/-]([0-9A-Za-z]+)")
#: The set-up fields of a ``Game:`` line and how many numbers each holds. ``Cube{n}``: a
#: negative value is White's cube, a positive one Black's (``May-Double{w b}`` says it again).
_FIELDS = {"points": 26, "scores": 2, "dice": 2, "may-double": 2, "cube": 1, "turn": 1, "crawford": 1}


class _Entries(Transformer[Token, list[Entry]]):
    """Every rule of :data:`KINDS` becomes an :class:`Entry` of its tokens; the text, a list of them."""

    def start(self, entries: list[Entry]) -> list[Entry]:
        return entries


def _entry(kind: str) -> Callable[[_Entries, list[Token]], Entry]:
    def make(self: _Entries, items: list[Token]) -> Entry:
        return Entry(kind, items, items[0].line or 1)

    return make


for _kind in KINDS:
    setattr(_Entries, _kind, _entry(_kind))


_PARSER = Lark(grammar_text("gmd"), parser="lalr", lexer="contextual", transformer=_Entries(), cache=True)


def _parse(text: str) -> list[Entry]:
    """The entries of ``text`` (the transformer makes them; raises ``UnexpectedInput``)."""
    return _PARSER.parse(text)  # type: ignore[return-value]


def _head(token: Token) -> tuple[str, str, str | None]:
    """The keyword (lower case), the colour and the time stamp of a line's head token."""
    found = _HEAD.match(token)
    assert found is not None  # the grammar made sure
    return found[1].lower(), found[2] or "", found[3]


def _player(color: str) -> int | None:
    """Gibbon's colour: White is player 1, Black player 0, ``-`` nobody."""
    letter = color.upper()[:1]
    if letter == "-":
        return None
    return 1 if letter in "W0O" else 0


def _point(text: str, player: int) -> int:
    """A point of ``player``'s own numbering (25 = bar, 0 = off) from
    Gibbon's White numbering; ``ValueError`` beyond 25."""
    word = text.lower()
    if word[0] == "b":
        return BAR
    if word[0] in "ho":
        return OFF
    point = int(word)
    if point > 25:
        raise ValueError(_("point {point} is not between 0 and 25").format(point=point))
    return point if player == 1 else 25 - point


class _Game:
    """One game being read: the board (to mark hits and see the end), the
    cube, an offered double or resignation, and the roll waiting for its move."""

    def __init__(self, reader: GmdReader, number: int, line: int, score: tuple[int, int]) -> None:
        self.reader = reader
        self.game = Game(number=number, score=score, line=line)
        self.report = Reporter(self.game.problems, file=reader.source, game=number)
        self.board: Position | None = Position.initial()  # seen by player 0; None once it cannot be followed
        self.start = Position.initial()
        self.set_up = False
        self.on_roll: int | None = None
        self.value = 1  # the cube's value (the last taken double, else the starting cube)
        self.offered: int | None = None  # the doubler while a double waits for an answer
        self.resign: tuple[int, int, str, int, int] | None = None  # (player, points, text, line, column)
        self.rolled: Turn | None = None

    # -- the set-up position on the Game: line ---------------------------

    def setup(self, entry: Entry, line: int) -> None:
        """``Scores{w b} Points{...} Dice{a b} Cube{n} Turn{t} May-Double{w b} Crawford{c}``."""
        game = self.game
        may_double: list[int] | None = None
        dice: tuple[int, int] | None = None
        for field in entry.items[1:]:
            found = _SETUP.match(field)
            assert found is not None  # the grammar made sure
            name, column = found[1], field.column
            try:
                values = [int(v) for v in found[2].split()]
            except ValueError:
                self.report.error(
                    "syntax",
                    _("{name} holds {text!r}, not whole numbers").format(name=name, text=found[2]),
                    line=line,
                    column=column,
                )
                continue
            key = name.lower()
            if key not in _FIELDS:
                self.report.warning(
                    "unsupported",
                    _("the set-up field {name} is not read (kept raw)").format(name=name),
                    line=line,
                    column=column,
                )
                game.extra.setdefault(f"gmd:{name}", []).append(" ".join(map(str, values)))
                continue
            if len(values) != _FIELDS[key]:
                self.report.error(
                    "syntax",
                    _("{name} holds {count} number(s), not {expected}").format(
                        name=name, count=len(values), expected=_FIELDS[key]
                    ),
                    line=line,
                    column=column,
                )
                continue
            if key == "points":
                self.place(values, line, column)
            elif key == "scores":
                game.score = (abs(values[1]), abs(values[0]))
            elif key == "dice":
                dice = (abs(values[0]), abs(values[1]))
            elif key == "cube":
                game.cube = max(1, abs(values[0]))
                if game.cube > 1:
                    game.cube_owner = 0 if values[0] > 0 else 1
            elif key == "turn":
                self.on_roll = None if values[0] == 0 else 0 if values[0] < 0 else 1
            elif key == "may-double":
                may_double = values
            else:
                game.crawford = bool(values[0])
        self.value = game.cube
        if may_double is not None:
            white, black = (bool(v) for v in may_double)
            if game.cube > 1 and white != black:
                game.cube_owner = 1 if white else 0
            elif game.cube == 1 and not white and not black and self.reader.match.length - 1 in game.score:
                game.crawford = True
        if dice is not None:
            player = self.on_roll if self.on_roll is not None else 0
            self.rolled = Turn(player, "roll", dice, line=line, column=1, text=f"Dice{{{dice[0]} {dice[1]}}}")
            game.turns.append(self.rolled)

    def place(self, values: list[int], line: int, column: int | None) -> None:
        """``Points{white-bar p1 .. p24 black-bar}``: White's checkers positive, Black's negative."""
        white = {25: values[0]} if values[0] > 0 else {}
        black = {25: -values[25]} if values[25] < 0 else {}
        for point, count in enumerate(values[1:25], start=1):
            if count > 0:
                white[point] = count
            elif count < 0:
                black[25 - point] = -count
        try:
            self.start = Position.from_points(black, white)
        except ValueError as exc:
            self.report.error("syntax", _("set-up position: {reason}").format(reason=exc), line=line, column=column)
            return
        self.board = self.start
        self.set_up = True

    # -- events ----------------------------------------------------------

    def turn(self, player: int, kind: TurnKind, line: int, column: int, text: str, stamp: str | None) -> Turn:
        turn = Turn(player, kind, line=line, column=column, text=text)
        if stamp:
            turn.extra["gmd:time"] = [stamp]
        self.game.turns.append(turn)
        return turn

    def event(self, entry: Entry, line: int, text: str) -> None:
        """A ``Roll``, ``Move``, cube or resignation line."""
        items = entry.items
        keyword, color, stamp = _head(items[0])
        player = _player(color)
        column = items[0].column or 1
        if player is None and entry.kind != "roll":
            self.report.error(
                "syntax",
                _("{text!r} names no player ('-' is only for an opening roll)").format(text=text),
                line=line,
                column=column,
            )
            return
        if entry.kind == "roll":
            self.roll(player, items, line, column, text, stamp)
            return
        assert player is not None
        if entry.kind == "move":
            self.move(player, items[0], line, column, text)
        elif keyword in ("resign", "accept", "reject"):
            self.resignation(keyword, player, items, line, column, text)
        elif keyword == "double":
            self.turn(player, "double", line, column, text, stamp).cube = self.value * 2
            self.offered = player
        elif self.offered is None or self.offered == player:
            self.report.error("syntax", _("{text!r} answers no double").format(text=text), line=line, column=column)
        elif keyword == "take":
            self.turn(player, "take", line, column, text, stamp)
            self.offered = None
            self.value *= 2
        else:
            self.turn(player, "drop", line, column, text, stamp)
            self.offered = None
            self.end(Result(1 - player, self.value, line=line, column=column), line, text)

    def end(self, result: Result, line: int, text: str) -> None:
        """The game's result, unless it already has one."""
        if self.game.result is None:
            self.game.result = result
        else:
            self.report.error(
                "syntax",
                _("{text!r} ends a game that was already over").format(text=text),
                line=line,
                column=result.column,
            )

    def roll(
        self, player: int | None, items: list[Token], line: int, column: int, text: str, stamp: str | None
    ) -> None:
        first, second = items[1].split()
        dice = (int(first), int(second))
        if player is None:  # the opening roll: White's die, then Black's; a tie is thrown again
            if any(t.kind == "roll" for t in self.game.turns):
                self.report.error(
                    "syntax",
                    _("{text!r}: an opening roll after the game began").format(text=text),
                    line=line,
                    column=column,
                )
                return
            if dice[0] == dice[1]:
                self.game.extra.setdefault("gmd:opening-ties", []).append(f"{dice[0]}{dice[1]}")
                return
            player = 1 if dice[0] > dice[1] else 0
        turn = self.turn(player, "roll", line, column, text, stamp)
        turn.dice = dice
        self.rolled = turn

    def move(self, player: int, token: Token, line: int, column: int, text: str) -> None:
        rolled = self.rolled
        if rolled is None or rolled.player != player:
            self.report.error(
                "syntax",
                _("{text!r}: a move without a roll of that player before it").format(text=text),
                line=line,
                column=column,
            )
            return
        moves: list[Move] = []
        where = column
        try:
            for found in _STEP.finditer(token, token.index(":", token.index(":", token.index(":") + 1) + 1) + 1):
                where = column + found.start(1)
                src = _point(found[1], player)
                where = column + found.start(2)
                moves.append(Move(src, _point(found[2], player)))
        except ValueError as exc:
            self.report.error(
                "syntax",
                _("cannot read the move in {text!r}: {reason}").format(text=text.strip(), reason=exc),
                line=line,
                column=where,
            )
            rolled.status = "unknown"
            self.board = None
            self.rolled = None
            return
        self.rolled = None
        rolled.text = f"{rolled.text}\n{text}"
        rolled.moves = self.follow(player, tuple(moves), line, column)

    def follow(self, player: int, moves: tuple[Move, ...], line: int, column: int) -> tuple[Move, ...]:
        """``moves`` with hit marks from the board, and the result if the last checker is off."""
        if self.board is None:
            return moves
        view = self.board if player == 0 else self.board.flip()
        try:
            after, marked = view.played(moves)
        except ValueError:
            self.board = None
            return moves
        self.board = after if player == 0 else after.flip()
        kind = after.result_kind(self.reader.match.rules)
        if kind is not None and self.game.result is None:
            rules = self.reader.match.rules or DEFAULT_RULES
            self.game.result = Result(
                player, rules.points(kind, self.value, money=not self.reader.match.length), line=line, column=column
            )
        return tuple(marked)

    def resignation(self, kind: str, player: int, items: list[Token], line: int, column: int, text: str) -> None:
        if kind == "resign":
            self.resign = (player, int(items[-1]), text, line, column)
            return
        if self.resign is None or self.resign[0] == player:
            self.report.error(
                "syntax", _("{text!r} answers no resignation").format(text=text), line=line, column=column
            )
            return
        _offered, points, said, _line, _column = self.resign
        self.resign = None
        if kind == "accept":
            self.end(Result(player, points, resigned=True, line=line, column=column), line, text)
            return
        self.game.extra.setdefault("gmd:refused-resignations", []).append(f"{said} / {text}")
        self.report.warning(
            "unsupported",
            _("a refused resignation ({said}) is not part of the record (kept raw)").format(said=said),
            line=line,
            column=column,
        )

    def finish(self) -> Game:
        game = self.game
        if self.resign is not None:
            game.extra.setdefault("gmd:open-resignation", []).append(self.resign[2])
            self.report.warning(
                "unsupported",
                _("a resignation no one answered ({said}) is not part of the record (kept raw)").format(
                    said=self.resign[2]
                ),
                line=self.resign[3],
                column=self.resign[4],
            )
        if self.set_up:
            first = next(
                (t.player for t in game.turns if t.kind == "roll"), self.on_roll if self.on_roll is not None else 0
            )
            game.start = (self.start if first == 0 else self.start.flip()).position_id()
        return game


class GmdReader:
    """A Gibbon Match Dump opened for reading: :attr:`~GmdReader.match` holds the
    header; :meth:`games` yields the games one at a time."""

    def __init__(self, stream: IO[str], source: str | None = None) -> None:
        self.source = source
        #: The match read so far: its header at first, its games as they are read.
        self.match = Match(source=source)
        self.report = Reporter(self.match.problems, file=source)
        self._lines = self._entries(stream)
        self._pending: tuple[int, str, Entry] | None = None
        self._magic = False
        for line, text, entry in self._lines:
            if entry.kind == "game":
                self._pending = (line, text, entry)
                break
            self._header(line, text, entry)
        if not self._magic:
            self.report.error("syntax", _("a Gibbon Match Dump starts with 'GMD-<version>'"), line=1, column=1)
        self.match.resolve_rules()

    def _entries(self, stream: IO[str]) -> Iterator[tuple[int, str, Entry]]:
        """``(line number, text, entry)`` of every line that parses, a chunk
        (the header, then each game) at a time; the others become problems."""
        chunk: list[str] = []
        first = 1
        try:
            for number, raw in enumerate(stream, 1):
                text = raw.rstrip().lstrip("\ufeff") if number == 1 else raw.rstrip()
                if chunk and text.lstrip()[:5].lower() == "game:":
                    yield from self._chunk(first, chunk)
                    chunk, first = [], number
                chunk.append(text)
        except UnicodeDecodeError as exc:
            self.report.error(
                "encoding",
                _("the text cannot be decoded ({encoding}: {reason})").format(encoding=exc.encoding, reason=exc.reason),
            )
        yield from self._chunk(first, chunk)

    def _chunk(self, first: int, lines: list[str]) -> Iterator[tuple[int, str, Entry]]:
        """The entries of the lines numbered from ``first``: parsed at once, else line by line."""
        for i, text in enumerate(lines):
            if len(text) > MAX_LINE:
                self.report.error(
                    "syntax",
                    _("line is {length} characters long; not read").format(length=len(text)),
                    line=first + i,
                    column=1,
                )
            if len(text) > MAX_LINE or text.lstrip().startswith("#"):
                lines[i] = ""
        try:
            entries = _parse("\n".join(lines) + "\n")
        except UnexpectedInput:
            entries = []
            for i, text in enumerate(lines):
                if not text.strip():
                    continue
                try:
                    [entry] = _parse(text + "\n")
                except UnexpectedInput as exc:
                    self._syntax(exc, first + i, text)
                    continue
                entries.append(entry._replace(line=i + 1))
        for entry in entries:
            yield first + entry.line - 1, lines[entry.line - 1].strip(), entry

    def _syntax(self, exc: UnexpectedInput, line: int, text: str) -> None:
        ended = isinstance(exc, UnexpectedToken) and exc.token.type in ("$END", "_NL")
        column = len(text) + 1 if ended or not (isinstance(exc.column, int) and exc.column > 0) else exc.column
        word = text.strip().partition(":")[0]
        if column == len(text) - len(text.lstrip()) + 1 and word.replace("-", "").replace("_", "").isalnum():
            self.report.warning(
                "unsupported",
                _("the line {text!r} is not a Gibbon event tavlakit knows (not read)").format(text=text.strip()[:60]),
                line=line,
                column=column,
            )
            return
        if ended:
            message = _("the line ends too early: {text!r}").format(text=text.strip()[:60])
        else:
            message = _("cannot read {text!r}").format(text=text[column - 1 : column + 19].rstrip())
        self.report.error("syntax", message, line=line, column=column)

    def _header(self, line: int, text: str, entry: Entry) -> None:
        match, items = self.match, entry.items
        if entry.kind == "magic":
            self._magic = True
            if items[0] not in ("GMD-1", "GMD-2"):
                self.report.warning(
                    "unsupported",
                    _("{magic} is a version of the format tavlakit has not seen (read as GMD-2)").format(
                        magic=items[0]
                    ),
                    line=line,
                    column=1,
                )
            if len(items) > 1:
                match.comments.append(items[1][1:].strip())
        elif entry.kind == "length":
            match.length = int(items[1]) if items[1].type == "INT" else 0
            match.length_at = (line, 1)
        elif entry.kind in ("player", "rank"):
            player = _player(_head(items[0])[1])
            value = str(items[1]).strip() if len(items) > 1 else ""
            if player is None:
                self.report.error("syntax", _("{text!r} names no player").format(text=text), line=line, column=1)
            elif entry.kind == "player":
                names = list(match.players)
                names[player] = value
                match.players = (names[0], names[1])
            else:
                match.tags[f"Player {player + 1} Rating"] = value
                match.tag_lines[f"Player {player + 1} Rating"] = (line, 1)
        elif entry.kind == "location":
            match.tags["Site"] = str(items[1]).strip() if len(items) > 1 else ""
            match.tag_lines["Site"] = (line, 1)
        elif entry.kind == "rule":
            rule = str(items[1]).strip() if len(items) > 1 else ""
            if rule.lower() == "crawford":
                match.tags["Crawford"] = "On"
            else:
                match.tags["Rule"] = rule
                self.report.warning(
                    "unsupported",
                    _("the rule {rule!r} is not one tavlakit knows (kept as a tag)").format(rule=rule),
                    line=line,
                    column=1,
                )
        else:
            self.report.error(
                "syntax", _("{text!r} before the first 'Game:' line").format(text=text), line=line, column=1
            )

    def games(self) -> Iterator[Game]:
        """The games, read one at a time."""
        number = 0
        score = (0, 0)
        while self._pending is not None:
            line, _text, entry = self._pending
            self._pending = None
            number += 1
            current = _Game(self, number, line, score)
            if len(entry.items) > 1:
                current.setup(entry, line)
            for line, text, entry in self._lines:
                if entry.kind == "game":
                    self._pending = (line, text, entry)
                    break
                if entry.kind in ("magic", "length", "player", "rank", "location", "rule"):
                    current.report.error("syntax", _("{text!r} inside a game").format(text=text), line=line, column=1)
                    continue
                current.event(entry, line, text)
            game = current.finish()
            score = game.score_after()
            yield game


def iter_gmd(stream: IO[str], source: str | None = None) -> GmdReader:
    """Open a Gibbon Match Dump for reading game by game."""
    return GmdReader(stream, stream_source(stream, source))


def read_gmd(given: str | bytes | Path | IO[str], source: str | None = None) -> Match:
    """Read a whole Gibbon Match Dump (text, bytes, a :class:`~pathlib.Path` or a stream)."""
    return load_whole(iter_gmd, given, source)
