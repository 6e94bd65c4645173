"""Jellyfish match transcripts (``.mat`` / ``.txt``): read every dialect, write gnubg's.

The reader splits the file into lines itself and reads one chunk at a
time: the header, then one game, so games are produced one at a time in
flat memory. Nearly every line is read with the grammar's own terminals
(``grammars/mat.lark``), matched as the lexer of its LALR parser matches
them; the parser is handed only the lines they do not settle. A chunk that
does not parse is parsed again line by line: a bad row gives one located
``syntax`` problem, its bad cell is kept as a roll with an unknown play, and
the rows around it are still read.

Writers place cells at different columns (``docs/formats.md``), so cells
are told apart by their order in the row; only the first cell of a row is
placed by its distance from the row number. Player 0 is always the left
column. Columns in turns, results and problems are 1-based.

>>> match = read_mat('''
...  3 point match
...
...  Game 1
...  Ann : 0                        Bob Smith : 0
...   1)                             31: 8/5 6/5
...   2) 64: 24/18 13/9               Doubles => 2
...   3)  Drops                       Wins 1 point
... ''')
>>> match.players, match.length
(('Ann', 'Bob Smith'), 3)
>>> [(t.player, t.kind, t.dice, str(t.play)) for t in match.games[0].turns]
[(1, 'roll', (3, 1), '8/5 6/5'), (0, 'roll', (6, 4), '24/18 13/9'), (1, 'double', None, ''), (0, 'drop', None, '')]
>>> match.games[0].result.winner, match.games[0].result.points
(1, 1)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import IO

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .._data import grammar_text
from ..engine.numbering import Numbering, NumberingLike
from ..engine.play import BAR, OFF, Move
from ..engine.rules import DEFAULT_RULES
from ..i18n import _, language, ngettext
from ..record.match import IN_PROGRESS_TAG, Game, Match, Result, RollStatus, Turn, TurnKind
from ..record.matchscore import ScoreKeeper
from ..record.problem import Problem, Reporter
from .text import load_whole, stream_source

__all__ = ["MatReader", "iter_mat", "read_mat", "write_mat", "MAX_LINE"]

#: Lines longer than this are reported and not parsed (real rows are < 200).
MAX_LINE = 4096

_GAME_LINE = re.compile(r"\s*Game\s+\d+\b")
_TAG = re.compile(r';\s*\[\s*(.*?)\s+"(.*)"\s*\]\s*$')
#: A FIBS client's player name: the name, a comma, the rating (``junejuly,1808``).
_FIBS_NAME = re.compile(r"(\S.*?),(\d{1,5}(?:\.\d+)?)$")
_SCORE = re.compile(r"(.*?)\s*:\s*(-?\d+)\s+(.*?)\s*:\s*(-?\d+)$")
_NUMBER = re.compile(r"\d+")
_ROW = re.compile(r"\s*(\d+)\)")
#: Where a cell may start in a row (used to set aside a cell that does not parse).
_CELL_START = re.compile(r"(?<!\S)(?:\d\d:|Doubles|Beavers|Takes|Drops|Passes|Wins|Losses)")
#: A cell whose token starts this many columns after the row number or more
#: is the right cell (left cells start 1-2 columns after it, right ones >= 29).
_RIGHT_OFFSET = 12
#: Cell kinds by the first two letters of a cell token; a cell starting with
#: a digit is a roll (``63:``) or a repeated row number (``24)``).
_CELL_KINDS = {"Do": "double", "Be": "beaver", "Ta": "take", "Dr": "drop", "Pa": "drop", "Wi": "wins", "Lo": "losses"}
_MOVE_START = frozenset("0123456789bB")
_TURN_KINDS: dict[str, TurnKind] = {
    "roll": "roll",
    "double": "double",
    "beaver": "beaver",
    "take": "take",
    "drop": "drop",
}
_STATUSES: dict[str, RollStatus] = {
    "play": "play",
    "cannot-move": "cannot-move",
    "unknown": "unknown",
    "illegal": "illegal",
}
#: On an unnumbered result line, a token from this column (1-based) on is the right player's.
_RIGHT_COLUMN = 20


#: A parsed line: its kind (the grammar rule) and its tokens.
Line = tuple[str, list[Token]]


class _Lines(Transformer[Token, list[Line]]):
    """Turn each parsed line into ``(kind, tokens)``; the reader does the rest."""

    def start(self, lines: list[Line]) -> list[Line]:
        return lines

    def tag(self, tokens: list[Token]) -> Line:
        return ("tag", tokens)

    def comment(self, tokens: list[Token]) -> Line:
        return ("comment", tokens)

    def length(self, tokens: list[Token]) -> Line:
        return ("length", tokens)

    def game(self, tokens: list[Token]) -> Line:
        return ("game", tokens)

    def score(self, tokens: list[Token]) -> Line:
        return ("score", tokens)

    def row(self, tokens: list[Token]) -> Line:
        return ("row", tokens)

    def result(self, tokens: list[Token]) -> Line:
        return ("result", tokens)


_PARSER = Lark(grammar_text("mat"), parser="lalr", lexer="contextual", transformer=_Lines(), cache=True)


def _parse_lines(text: str) -> list[Line]:
    """The lines of ``text`` parsed (the transformer makes them; raises ``UnexpectedInput``)."""
    return _PARSER.parse(text)  # type: ignore[return-value]


#: The grammar's own terminals, matched as the parser's lexer matches them, to
#: read lines without the parser: ``ROW`` (the line start, the number and the
#: first cell), ``CELL`` (each further cell), and the other terminals that
#: start a line, with their priorities.
_TERMINAL = {t.name: re.compile(t.pattern.to_regexp()) for t in _PARSER.terminals}
_ROW_TOKEN, _CELL_TOKEN = _TERMINAL["ROW"], _TERMINAL["CELL"]
_LINE_STARTS = [(t.priority, t.name, _TERMINAL[t.name]) for t in _PARSER.terminals if t.name not in ("ROW", "CELL")]
#: The grammar rule a line is, by the terminal it starts with, and how many cells may follow it.
_RULES = {
    "ROW": ("row", 3),
    "RESULT": ("result", 1),
    "TAG": ("tag", 0),
    "COMMENT": ("comment", 0),
    "LENGTH": ("length", 0),
    "GAME": ("game", 0),
    "SCORE": ("score", 0),
}


def _read_line(line: str, number: int) -> Line | None:
    """A line read without the parser, with the tokens it would make
    (``number``: the line's number in the text parsed), or ``None``: then
    the parser reads it (and says what is wrong with it). The lexer takes the
    terminal of the highest priority that matches, so a line is read here
    when only one terminal of that priority starts it (a numbered row can
    start no other line of its priority or above)."""
    text = "\n" + line
    found = _ROW_TOKEN.match(text)
    name = "ROW"
    if found is None:
        starts = [(priority, name, found) for priority, name, pattern in _LINE_STARTS if (found := pattern.match(text))]
        top = [start for start in starts if start[0] == max(priority for priority, _name, _found in starts)]
        if len(top) != 1:
            return None
        _priority, name, found = top[0]
    rule, cells = _RULES[name]
    end = found.end()
    tokens = [Token(name, found[0], end_line=number, end_column=end)]
    while end < len(text):
        found = _CELL_TOKEN.match(text, end) if len(tokens) <= cells else None
        if found is None:
            return None
        end = found.end()
        tokens.append(Token("CELL", found[0], end_line=number, end_column=end))
    return rule, tokens


def _parse_chunk(lines: list[str]) -> list[Line]:
    """The lines of a chunk parsed, as :func:`_parse_lines` parses them
    joined (behind one line break): nearly every line by :func:`_read_line`,
    the parser given only the others (the lines read left blank, so every
    line keeps its number; none left: no parser). Each line of the grammar stands alone (every line's first token
    starts with its line break), so the chunk parses if and only if the
    others do."""
    slots: list[Line | None] = [None] * len(lines)
    others = list(lines)
    left = False
    for i, line in enumerate(lines):
        if line:
            if (read := _read_line(line, i + 2)) is not None:
                slots[i] = read
                others[i] = ""
            else:
                left = True
    if left:
        for parsed in _parse_lines(("\n" + "\n".join(others)).rstrip("\n")):
            slots[(parsed[1][0].end_line or 0) - 2] = parsed
    return [line for line in slots if line is not None]


def _number(text: str) -> int:
    """The first number in ``text`` (the grammar made sure there is one)."""
    found = _NUMBER.search(text)
    assert found is not None
    return int(found[0])


@lru_cache(maxsize=4096)
def _part_moves(text: str, absolute: bool) -> tuple[Move, ...]:
    """Moves of one notation part (``24/18*``, ``bar/20``, ``6/5*(2)``, ``24/18/13``).

    With ``absolute`` numbers are player 1's absolute points and become
    ``25 - p`` (the words ``bar`` and ``off`` mean what they say).

    >>> _part_moves("6/5*(2)", False)
    (Move(src=6, dst=5, hit=True), Move(src=6, dst=5, hit=True))
    >>> _part_moves("0/5", True)
    (Move(src=25, dst=20, hit=False),)
    """
    count = 1
    if text.endswith(")"):
        text, _sep, times = text[:-1].partition("(")
        count = int(times)
    stops = []
    for piece in text.split("/"):
        hit = piece.endswith("*")
        name = piece.rstrip("*").lower()
        if name == "bar":
            point = BAR
        elif name == "off":
            point = OFF
        else:
            point = int(name)
            if point > 25:
                raise ValueError(_("point {point} is not between 0 and 25").format(point=point))
            if absolute:
                point = 25 - point
        stops.append((point, hit))
    moves = tuple(Move(src, dst, hit) for (src, _hit), (dst, hit) in itertools.pairwise(stops))
    return moves * count


@lru_cache(maxsize=16384)
def _roll_moves(text: str, absolute: bool, lang: str) -> tuple[tuple[Move, ...], str, str]:
    """What follows the dice of a roll cell: ``(moves, status, detail)``.

    ``lang`` is the interface language the messages are in (a key of the cache).

    ``detail`` is the ``Illegal play`` payload, or a message when the cell
    is wrong (status ``"error"``).

    >>> _roll_moves("bar/22 6/off", False, "en")[:2]
    ((Move(src=25, dst=22, hit=False), Move(src=6, dst=0, hit=False)), 'play')
    >>> _roll_moves("Cannot Move", False, "en")
    ((), 'cannot-move', '')
    """
    parts = text.split()
    status, detail = "play", ""
    if parts and parts[-1][0] not in _MOVE_START:
        index = next(i for i, part in enumerate(parts) if part[0] not in _MOVE_START)
        tail = " ".join(parts[index:])
        del parts[index:]
        if parts:
            return (), "error", _("moves written before {tail!r}").format(tail=tail)
        if tail.startswith("?"):
            status = "unknown"
        elif tail.startswith("Illegal"):
            status, detail = "illegal", tail[tail.index("(") + 1 : -1]
        else:
            status = "cannot-move"
    moves: list[Move] = []
    try:
        for part in parts:
            moves.extend(_part_moves(part, absolute))
    except ValueError as exc:
        return (), "error", _("cannot read the move in {text!r}: {reason}").format(text=text, reason=exc)
    return tuple(moves), status, detail


def _syntax(exc: UnexpectedInput, line: str) -> tuple[str, int]:
    """What is wrong with a line that does not parse (``exc`` from parsing
    ``"\\n" + line``), and the column (1-based)."""
    indent = len(line) - len(line.lstrip()) + 1
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        text, column = _at(exc.token)
        return _("{text!r} is not expected here").format(text=text), column
    if isinstance(exc, UnexpectedCharacters) and (exc.pos_in_stream or 0) > indent:
        column = exc.pos_in_stream or 0
        while line[column - 1] in " \t":
            column += 1
        start = max(line.rfind(" ", 0, column - 1), line.rfind("\t", 0, column - 1)) + 1  # the word it is in
        return _("cannot read {text!r}").format(text=line[start:].split(None, 1)[0][:20]), column
    if isinstance(exc, UnexpectedCharacters):
        return _("cannot read the line {text!r}").format(text=line.strip()[:40]), indent
    return _("the line ends too early: {text!r}").format(text=line.strip()[:40]), len(line) + 1


def _at(token: Token) -> tuple[str, int]:
    """A token's text without the line break and blanks it starts with, and
    its true 1-based column."""
    text = token.lstrip()
    return text, (token.end_column or 0) - len(text)


class _GameBuilder:
    """Collects one game's turns and result from parsed lines."""

    def __init__(self, reader: MatReader, number: int, line: int) -> None:
        self.reader = reader
        self.game = Game(number=number, line=line)
        #: ``(player or None, text, line, column)`` of each `Wins` / `Losses` seen
        self.wins: list[tuple[int, str, int, int]] = []
        self.losses: list[tuple[int | None, str, int, int]] = []
        self.has_score = False

        self.report = Reporter(self.game.problems, file=reader.source, game=number)

    def problem(self, message: str, line: int, column: int | None = None, move: int | None = None) -> None:
        """A ``syntax`` error in this game."""
        self.report.error("syntax", message, line=line, column=column, move=move)

    def score(self, token: Token, line: int) -> None:
        text, column = _at(token)
        found = _SCORE.match(text)
        if self.has_score or not found:
            self.problem(_("unexpected score line {text!r}").format(text=text), line, column)
            return
        self.has_score = True
        self.game.score = (int(found[2]), int(found[4]))
        self.reader._see_players((found[1], found[3]))
        self.game.players = self.reader.match.players

    def row(self, tokens: list[Token], base: int) -> None:
        """A numbered row: cells are told apart by their order and, for the
        first one, by how far it stands from the row number."""
        head = tokens[0]
        number_text, _sep, rest = head.lstrip().partition(")")
        number = int(number_text)
        line = (head.end_line or 0) + base
        after_number = (head.end_column or 0) - len(rest)  # 1-based column just after the ")"
        side = -1
        lost: int | None = None
        for token in tokens if rest else tokens[1:]:
            text = (rest if token is head else token).lstrip()
            column = (token.end_column or 0) - len(text)
            kind = _CELL_KINDS.get(text[:2]) or ("roll" if text[2:3] == ":" else "number")
            if kind == "number":
                continue
            if side < 0:
                side = 0 if column - after_number < _RIGHT_OFFSET else 1
            else:
                side += 1
            if kind == "wins":
                winner = 1 - lost if lost is not None else side
                if winner > 1:
                    self.problem(
                        _("a result after both cells of row {number}").format(number=number), line, column, number
                    )
                else:
                    self.wins.append((winner, text, line, column))
                continue
            if side > 1:
                self.problem(
                    _("a third cell in row {number}: {text!r}").format(number=number, text=text), line, column, number
                )
                continue
            if kind == "losses":
                lost = side
                self.losses.append((side, text, line, column))
                continue
            turn = Turn(player=side, kind=_TURN_KINDS[kind], number=number, line=line, column=column, text=text)
            if kind == "roll":
                self._roll(turn, text)
            elif kind == "double" or kind == "beaver":
                turn.cube = _number(text)
            self.game.turns.append(turn)

    def _roll(self, turn: Turn, text: str) -> None:
        turn.dice = (int(text[0]), int(text[1]))
        if len(text) > 3:
            turn.moves, status, detail = _roll_moves(text[3:], self.reader._numbering.flips(turn.player), language())
            if status == "error":
                self.problem(detail, turn.line or 0, turn.column, turn.number)
                turn.status = "unknown"
                turn.extra["unreadable"] = [text[3:].strip()]
            elif status == "unknown" and (cell := (turn.line or 0, turn.column or 0)) in self.reader._unread:
                turn.status = "unknown"  # a cell the reader could not read (reported): kept as written
                turn.text = self.reader._unread.pop(cell)
                turn.extra["unreadable"] = [turn.text[3:].strip()]
            elif status != "play":
                turn.status = _STATUSES[status]
                if status == "illegal":
                    turn.extra["illegal"] = [detail]

    def result_line(self, tokens: list[Token], base: int) -> None:
        """`Wins` / `Losses` on a line of their own: the column tells whose
        `Wins` it is; an unnumbered `Losses` (Galaxy) says nothing about who."""
        for token in tokens:
            text, column = _at(token)
            line = (token.end_line or 0) + base
            if text.startswith("Wins"):
                self.wins.append((0 if column < _RIGHT_COLUMN else 1, text, line, column))
            elif text.startswith("Losses"):
                self.losses.append((None, text, line, column))
            else:
                self.problem(_("{text!r} after a result, outside a numbered row").format(text=text), line, column)

    def finish(self) -> Game:
        """The game with its result worked out from the `Wins` and `Losses` seen."""
        game = self.game
        if not self.has_score:
            self.problem(_("game {number} has no score line").format(number=game.number), game.line or 0)
        for _w, text, line, column in self.wins[1:]:
            self.problem(_("a second result {text!r}").format(text=text), line, column)
        for _l, text, line, column in self.losses[1:]:
            self.problem(_("a second resignation {text!r}").format(text=text), line, column)
        if self.wins:
            winner, text, line, column = self.wins[0]
            game.result = Result(winner, _number(text), line=line, column=column)
        if self.losses:
            loser, text, line, column = self.losses[0]
            points = _number(text)
            if game.result is None:
                if loser is None:
                    self.problem(
                        _("{text!r} without a 'Wins' line: cannot tell who resigned").format(text=text), line, column
                    )
                    return game
                game.result = Result(1 - loser, points, line=line, column=column)
            elif loser == game.result.winner or points != game.result.points:
                self.report.error(
                    "result-mismatch",
                    _("{text!r} does not agree with 'Wins {points}' for player {winner}").format(
                        text=text, points=game.result.points, winner=game.result.winner
                    ),
                    line=line,
                    column=column,
                )
            game.result.resigned = True
        return game


class MatReader:
    """A transcript opened for reading: :attr:`~MatReader.match` holds the header (players,
    length, tags, comments); :meth:`games` yields the games one at a time."""

    def __init__(self, lines: Iterable[str], source: str | None = None) -> None:
        self.source = source
        #: The match read so far: its header at first, its games as they are read.
        self.match = Match(source=source)
        self.report = Reporter(self.match.problems, file=source)
        self._numbering = Numbering.RELATIVE
        self._players_seen = False
        self._lines: Iterator[tuple[int, str]] = enumerate(lines, 1)
        #: roll cells set aside by :meth:`_salvage`: (line, column) -> the cell as written
        self._unread: dict[tuple[int, int], str] = {}
        self._decoded = True  # False once a line could not be decoded
        self._after: tuple[int, int] | None = None  # the score after the last game read, when it has a result
        self._next_game: tuple[int, str] | None = None
        self._empty = True
        self._open: int | None = None  # the last line read, when no line end followed it (the file may cut it)
        header, first = self._chunk()
        self._length_seen = False
        self._header(header, first)
        if self._next_game and not self._length_seen:
            line, text = self._next_game
            self.report.error(
                "missing-length",
                _(
                    "no 'N point match' line before {game!r}: the games are read as "
                    "a money session (gnubg does not read such a file)"
                ).format(game=text.strip()),
                line=line,
                column=len(text) - len(text.lstrip()) + 1,
            )
        self._first = self._read_game() if self._next_game else None
        if self._empty and not self.match.problems:
            self.report.error("empty", _("the file holds no match"))
        elif self._first is None and not self.match.length:
            self._not_a_transcript()

    # -- chunks of lines -------------------------------------------------

    def _chunk(self) -> tuple[list[str], int]:
        """Lines up to the next ``Game N`` line (kept in ``_next_game``), and the first one's number."""
        lines: list[str] = []
        first = 0
        self._next_game = None
        try:
            for number, raw in self._lines:
                line = raw.rstrip()
                self._open = number if raw == line or not raw.endswith(("\n", "\r")) else None
                if not first:
                    first = number
                    if number == 1:
                        line = line.lstrip("\ufeff")
                if line and self._empty:
                    self._empty = False
                if "Game" in line and _GAME_LINE.match(line):
                    self._next_game = (number, line)
                    break
                lines.append(line)
        except UnicodeDecodeError as exc:
            self._lines = iter(())
            self._decoded = False
            self.report.error(
                "encoding",
                _(
                    "the text cannot be decoded after line {line} ({encoding}: {reason}); "
                    "open the file in binary and use decode()"
                ).format(line=(first or 1) + len(lines) - 1, encoding=exc.encoding, reason=exc.reason),
            )
        return lines, first or 1

    def _parse(self, lines: list[str], first: int, report: Reporter) -> Iterator[tuple[int, list[Line]]]:
        """``(line offset, parsed lines)`` for a chunk; bad lines become problems.

        Tokens know their line in the text parsed, which starts with an
        extra line break: the offset turns that into the file's line number.
        """
        for i, line in enumerate(lines):
            if len(line) > MAX_LINE:
                report.error(
                    "syntax",
                    _("line is {length} characters long; not read").format(length=len(line)),
                    line=first + i,
                    column=1,
                )
                lines[i] = ""
        try:
            yield first - 2, _parse_chunk(lines)
            return
        except UnexpectedInput:
            pass
        for i, line in enumerate(lines):
            if not line:
                continue
            try:
                parsed = _parse_lines("\n" + line)
            except UnexpectedInput as exc:
                message, column = _syntax(exc, line)
                salvaged = self._salvage(line, column) if isinstance(exc, UnexpectedCharacters) else None
                if salvaged is not None:
                    parsed, note, cell = salvaged
                    message = _("{problem}; {what}").format(problem=message, what=note)
                    if cell is not None:
                        self._unread[(first + i, cell[0])] = cell[1]
                row = _ROW.match(line)
                report.error("syntax", message, line=first + i, column=column, move=int(row[1]) if row else None)
                if salvaged is None:
                    continue
            yield first + i - 2, parsed

    @staticmethod
    def _salvage(line: str, column: int) -> tuple[list[Line], str, tuple[int, str] | None] | None:
        """Parse a row again with the cell that holds ``column`` (1-based)
        written as an unknown play (``31: ???``), or left out when it is not
        a roll, so the other cell and the turn order survive a typo. Also
        returns the roll cell set aside, ``(column, text)``."""
        if not _ROW.match(line):
            return None
        starts = [found.start() for found in _CELL_START.finditer(line)]
        before = [start for start in starts if start <= column - 1]
        if not before:
            return None
        start = before[-1]
        end = next((after for after in starts if after > start and after >= column - 1), len(line))
        cell = line[start:end]
        roll = cell[2] == ":"
        stand_in = cell[:3] + " ???" if roll else ""
        try:
            parsed = _parse_lines("\n" + (line[:start] + stand_in.ljust(end - start) + line[end:]).rstrip())
        except UnexpectedInput:
            return None
        if roll:
            return parsed, _("the roll is read as an unknown play"), (start + 1, cell.strip())
        return parsed, _("{cell!r} is left out").format(cell=cell.strip()), None

    # -- header and games -------------------------------------------------

    def _header(self, lines: list[str], first: int) -> None:
        match = self.match
        for base, parsed in self._parse(lines, first, self.report):
            for kind, tokens in parsed:
                text, column = _at(tokens[0])
                line = (tokens[0].end_line or 0) + base
                found = _TAG.match(text) if kind == "tag" else None
                if found:
                    match.tags[found[1]] = found[2]
                    match.tag_lines[found[1]] = (line, column)
                elif kind == "tag" or kind == "comment":
                    match.comments.append(text[1:].strip())
                elif kind == "length":
                    if self._length_seen:
                        self.report.error(
                            "syntax", _("a second match length {text!r}").format(text=text), line=line, column=column
                        )
                    match.length = _number(text)
                    match.length_at = (line, column)  # the text starts with the number
                    self._length_seen = True
                else:
                    self.report.error(
                        "syntax", _("{text!r} outside any game").format(text=text), line=line, column=column
                    )
        self._numbering = match.numbering = self._read_numbering()
        match.resolve_rules()

    def _read_numbering(self) -> Numbering:
        """The numbering the tag says, popped from the tags (it describes the
        file, not the match); one it does not name is a ``bad-tag`` warning."""
        text = self.match.tags.pop("Numbering", None)
        try:
            return Numbering.RELATIVE if text is None else Numbering.parse(text)
        except ValueError as exc:
            line, column = self.match.tag_lines.get("Numbering", (None, None))
            self.report.warning(
                "bad-tag",
                _("tag Numbering: {error}; the points are read as relative").format(error=exc),
                line=line,
                column=column,
            )
            return Numbering.RELATIVE

    def _not_a_transcript(self) -> None:
        """No length line and no game: one problem for the file, not one per line."""
        problems = self.match.problems
        unread = [p for p in problems if p.code == "syntax"]
        if not unread:  # only comments or tags: nothing is dropped without a word
            if not any(p.severity == "error" for p in problems):
                self.report.error("empty", _("the file holds no match"))
            return
        first = unread[0]
        problems[:] = [p for p in problems if p.code != "syntax"]
        self.report.error(
            "empty",
            _(
                "no match here: no 'N point match' line and no 'Game N' line; {count} line(s) "
                "not understood, the first: {first}"
            ).format(count=len(unread), first=first.message),
            line=first.line,
            column=first.column,
            move=first.move,
        )

    def _see_players(self, names: tuple[str, str]) -> None:
        """The players' names from the first score line; a FIBS client's
        ``name,1808`` is the name and the rating (a ``Player N Rating`` tag), as gnubg reads it."""
        if not self._players_seen:
            self._players_seen = True
            split = [_FIBS_NAME.match(name) for name in names]
            for number, found in enumerate(split, 1):
                if found:
                    self.match.tags.setdefault(f"Player {number} Rating", found[2])
            self.match.players = (
                split[0][1] if split[0] else names[0],
                split[1][1] if split[1] else names[1],
            )

    def _read_game(self) -> Game:
        assert self._next_game is not None
        line, text = self._next_game
        builder = _GameBuilder(self, _number(text), line)
        lines, _first = self._chunk()
        lines.insert(0, text)
        for base, parsed in self._parse(lines, line, builder.report):
            for kind, tokens in parsed:
                if kind == "row":
                    builder.row(tokens, base)
                elif kind == "score":
                    builder.score(tokens[0], (tokens[0].end_line or 0) + base)
                elif kind == "result":
                    builder.result_line(tokens, base)
                elif kind == "game":
                    continue
                else:
                    text, column = _at(tokens[0])
                    if kind == "comment" or kind == "tag":
                        builder.game.comments.append(text[1:].strip())
                    else:
                        builder.problem(
                            _("{text!r} inside a game").format(text=text), (tokens[0].end_line or 0) + base, column
                        )
        game = builder.finish()
        if self._next_game is None and game.result is None and self._decoded:
            recording = self.match.tags.get(IN_PROGRESS_TAG[0]) == IN_PROGRESS_TAG[1]
            if not (recording and game.turns and self._open is None):  # (a recording goes on: a whole last line)
                self._cut_short(builder, lines, line)
        self._unread.clear()
        self._after = game.score_after() if game.result is not None else None
        return game

    def _cut_short(self, builder: _GameBuilder, lines: list[str], first: int) -> None:
        """The file ends inside the game (``lines`` from its ``Game`` line,
        line ``first``): one ``truncated`` error at the last line, which may
        be cut mid-cell, so what cannot be read there is said in it instead.
        A score line cut off is the score the previous game left."""
        game = builder.game
        if not builder.has_score and self._after is not None:
            game.score = self._after
        last = max(i for i, text in enumerate(lines) if text.strip())
        at = first + last
        # a cut score line leaves the game without one
        cut = [
            p
            for p in game.problems
            if (p.code == "syntax" and p.line == at) or (not game.turns and p.line == game.line)
        ]
        game.problems[:] = [p for p in game.problems if not any(p is q for q in cut)]
        if game.turns:
            message = _("the file ends inside game {game}, after row {row}: the game has no result").format(
                game=game.number, row=game.turns[-1].number
            )
        else:
            message = _("the file ends inside game {game}, before its first row").format(game=game.number)
        if cut and last:
            message = _("{problem}; the last line {text!r} is cut short").format(
                problem=message, text=lines[last].strip()[:40]
            )
        # a last cell with no line end after it may be cut mid-play: the error points at it (the
        # replayer leaves that cell alone); a whole last row is judged like any other
        cell = game.turns[-1] if game.turns and game.turns[-1].line == at == self._open else None
        column = cell.column if cell is not None else None
        Reporter(game.problems, file=self.source, game=game.number).error("truncated", message, line=at, column=column)

    def games(self) -> Iterator[Game]:
        """The games, read one at a time (memory does not grow with the file)."""
        if self._first is not None:
            first, self._first = self._first, None
            yield first
        while self._next_game is not None:
            yield self._read_game()


def iter_mat(stream: IO[str] | Iterable[str], source: str | None = None) -> MatReader:
    """Open a transcript for streaming; reads the header and the first game now."""
    return MatReader(stream, stream_source(stream, source))


def read_mat(given: str | bytes | Path | IO[str], source: str | None = None) -> Match:
    """Read a whole transcript (text, bytes, a :class:`~pathlib.Path` or a stream) into a :class:`Match`."""
    return load_whole(iter_mat, given, source)


# -- writing ---------------------------------------------------------------------


def _points(points: int) -> str:
    return f"{points} point" if points == 1 else f"{points} points"


def _one_line(text: str) -> str:
    """``text`` with line breaks turned into blanks."""
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


class _Writer:
    """Writes a match in gnubg's layout and keeps track of what it cannot hold."""

    def __init__(self, match: Match, numbering: Numbering) -> None:
        self.match = match
        self.numbering = numbering
        self.problems: list[Problem] = []
        #: the Crawford game as a reader of the transcript finds it (the score and the rules of the tags)
        self.scores = ScoreKeeper(match.length)
        self.rules = match.rules or DEFAULT_RULES
        #: what the format cannot hold, and what is done instead -> game numbers (0: the header)
        self.lost: dict[tuple[str, str], list[int]] = {}

    def lose(self, what: str, instead: str, game: int) -> None:
        self.lost.setdefault((what, instead), []).append(game)

    def header(self) -> list[str]:
        tags = dict(self.match.tags)
        if self.numbering is Numbering.ABSOLUTE:
            tags["Numbering"] = Numbering.ABSOLUTE.value
        else:
            tags.pop("Numbering", None)
        out = []
        for key, value in tags.items():
            if _one_line(key + value) != key + value:
                self.lose(_("line breaks in tag {key!r}").format(key=key), _("written as blanks"), 0)
            out.append(f'; [{_one_line(key)} "{_one_line(value)}"]')
        out.extend(self.comments(self.match.comments, 0))
        out.extend(["", f" {self.match.length} point match", ""])
        return out

    def comments(self, comments: list[str], game: int) -> list[str]:
        out: list[str] = []
        for comment in comments:
            lines = [line.strip() for line in comment.splitlines()] or [""]
            if len(lines) > 1 or lines[0] != comment:
                self.lose(_("comments with line breaks or outer blanks"), _("split into lines and stripped"), game)
            out.extend(f"; {line}" if line else ";" for line in lines)
        return out

    def players(self) -> tuple[str, str]:
        names = tuple(_one_line(name).replace(":", ";").strip() for name in self.match.players)
        if names != self.match.players:
            self.lose(
                _("player names {names!r}").format(names=self.match.players),
                _("written as {names!r}").format(names=names),
                0,
            )
        return names  # type: ignore[return-value]

    def cell(self, turn: Turn, game: int, cube: int) -> str:
        if turn.kind in ("double", "beaver"):
            word = "Doubles" if turn.kind == "double" else "Beavers"
            return f" {word} => {turn.cube or 2 * cube}"
        if turn.kind == "take":
            return " Takes"
        if turn.kind == "drop":
            return " Drops"
        assert turn.dice is not None
        dice = f"{turn.dice[0]}{turn.dice[1]}:"
        if turn.status == "cannot-move":
            return f"{dice} Cannot Move"
        if turn.status == "unknown":
            return f"{dice} {turn.extra.get('unreadable', ['???'])[0]}"  # a cell that could not be read: as written
        if turn.status == "illegal":
            return f"{dice} Illegal play ({turn.extra.get('illegal', [''])[0]})"
        flip = self.numbering.flips(turn.player)
        parts = [dice]
        for move in turn.moves:
            src, dst = (25 - move.src, 25 - move.dst) if flip else (move.src, move.dst)
            parts.append(f"{src}/{dst}{'*' if move.hit else ''}")
        return " ".join(parts)

    def game(self, game: Game, players: tuple[str, str]) -> list[str]:
        rows = _Rows(
            [f" Game {game.number}", f" {f'{players[0]} : {game.score[0]}':<31}{players[1]} : {game.score[1]}"]
        )
        self.setup_lost(game)
        cube = 1
        cells = rows.cells
        for turn in game.turns:
            if not self.writable(turn, game.number):
                continue
            if turn.player == 0 and (cells[0] is not None or cells[1] is not None):
                rows.flush()
            cells[turn.player] = self.cell(turn, game.number, cube)
            if turn.kind in ("double", "beaver"):
                cube = turn.cube or 2 * cube
            if turn.player == 1:
                rows.flush()
        if game.result is not None:
            rows.result(game.result)
        rows.flush()
        rows.out.extend(self.comments(game.comments, game.number))
        rows.out.append("")
        return rows.out

    def setup_lost(self, game: Game) -> None:
        """Say what of the game's set-up a transcript cannot hold."""
        if game.start is not None:
            self.lose(_("set-up start positions"), _("left out"), game.number)
        if game.cube != 1 or game.cube_owner is not None:
            self.lose(_("starting cube values and owners"), _("left out"), game.number)
        score, _found = self.scores.score(game)
        if game.crawford is not None and game.crawford != self.scores.by_score(score, self.rules):
            self.lose(_("Crawford marks"), _("left out"), game.number)

    def writable(self, turn: Turn, game: int) -> bool:
        """Whether ``turn`` has a cell (saying what of it is lost)."""
        if turn.player not in (0, 1):
            self.lose(_("turns by a player numbered {player}").format(player=turn.player), _("left out"), game)
            return False
        if turn.kind == "roll" and (turn.dice is None or not all(0 <= die <= 9 for die in turn.dice)):
            self.lose(_("rolls without two one-digit dice"), _("left out"), game)
            return False
        if turn.comment is not None:
            self.lose(_("turn comments"), _("left out"), game)
        if turn.analysis is not None:
            self.lose(_("the analysis the record holds"), _("left out"), game)
        return True

    def lost_problems(self) -> list[Problem]:
        report = Reporter(file=self.match.source)
        for (what, instead), games in self.lost.items():
            where = [g for g in dict.fromkeys(games) if g]
            numbers = ", ".join(map(str, where[:10])) + (" ..." if len(where) > 10 else "")
            if where:
                message = ngettext(
                    "{what} (game {games}) cannot be written in a .mat transcript; {instead}",
                    "{what} (games {games}) cannot be written in a .mat transcript; {instead}",
                    len(where),
                )
            else:
                message = _("{what} cannot be written in a .mat transcript; {instead}")
            report.warning(
                "lost-on-write",
                message.format(what=what, games=numbers, instead=instead),
                game=where[0] if where else None,
            )
        return report.problems


class _Rows:
    """The numbered rows of a game's transcript: a left (player 0) and a
    right (player 1) cell each."""

    __slots__ = ("out", "cells", "number")

    def __init__(self, out: list[str]) -> None:
        self.out = out
        self.cells: list[str | None] = [None, None]
        """The row begun: its left and right cells (emptied in place by :meth:`flush`)."""
        self.number = 0

    def flush(self) -> None:
        """Write the row begun, if any."""
        left, right = cells = self.cells
        if left is None and right is None:
            return
        self.number += 1
        self.out.append(f"{self.number:3d}) {left or '':<27} {right or ''}".rstrip())
        cells[0] = cells[1] = None

    def result(self, result: Result) -> None:
        """The ``Wins`` line: at column 6 on a line of its own, column 34 in
        a right cell; a resignation the Galaxy way (``Losses`` in the
        loser's cell first)."""
        wins = f"Wins {_points(result.points)}"
        losses = f" Losses {_points(result.points)}"
        if result.resigned and result.winner == 1:
            self.flush()
            self.cells[:] = [losses, f" {wins}"]
            self.flush()
        elif result.resigned:
            self.cells[1] = losses
            self.flush()
            self.out.append(f"      {wins}")
        elif result.winner == 1 and self.cells[0] is not None:
            self.cells[1] = f" {wins}"
            self.flush()
        else:
            self.flush()
            self.out.append(f"{' ' * (6 if result.winner == 0 else 34)}{wins}")


def write_mat(match: Match, stream: IO[str], *, numbering: NumberingLike = Numbering.RELATIVE) -> list[Problem]:
    """Write ``match`` in gnubg's layout; returns what could not be written
    (``lost-on-write`` warnings: turn comments, set-up starts, Crawford
    marks other than the score says, ...).

    ``numbering="absolute"`` (:class:`~tavlakit.engine.numbering.Numbering`, a
    ``ValueError`` for a name it does not know) writes player 1's points as ``25 - p`` (for
    sources where one side moves 1 -> 24) and adds ``; [Numbering "absolute"]``.
    A resignation is written the Galaxy way (``Losses N points`` in the
    loser's cell before the ``Wins`` line), which this reader reads back;
    gnubg reads it as a resignation too. A double without a cube value is
    written as doubling the cube in play.
    """
    writer = _Writer(match, Numbering.parse(numbering))
    stream.write("\n".join(writer.header()) + "\n")
    players = writer.players()
    for game in match.games:
        stream.write("\n".join(writer.game(game, players)) + "\n")
    return writer.lost_problems()
