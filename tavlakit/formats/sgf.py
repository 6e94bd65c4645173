"""GNU Backgammon's SGF (``GM[6]``), read into and written from the record model.

A file holds one game tree per game. Points are letters in White's
numbering: White's point ``p`` is ``'a' + p - 1``, Black's point ``p`` is
``'x' - (p - 1)``; ``y`` is the bar and ``z`` off. White (``PW``) is player 0.

>>> match = read_sgf("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[B+1]"
...                  ";W[31fehe];B[64aggk];W[double];B[drop])")
>>> match.players, match.length
(('Ann', 'Bob'), 3)
>>> [t.play.notation(merge=False) for t in match.games[0].turns[:2]]
['6/5 8/5', '24/18 18/14']
>>> match.games[0].result == Result(winner=1, points=1)
True
>>> point_letter(13, 1), letter_point("l", 1)
('l', 13)

Hits are not written in SGF: the reader replays the moves on a board to
set :attr:`Move.hit` as a ``.mat`` transcript marks them (after a move the
board cannot make, the rest of the game keeps ``hit=False``; judging the
play is the replayer's job). Properties the
record has no field for are kept as raw text in ``extra`` dictionaries so a
rewrite keeps them (gnubg's analysis ``A``, ``DA``, ``LU``, ``GS`` ...):

* ``Game.extra["sgf:ID"]``: a root property;
* ``Game.extra["sgf-setup:ID"]``: a property of a set-up node before the
  first play that the record does not hold (``CV``, ``CP``, markup);
* ``Turn.extra["sgf:ID"]``: a property of the turn's node;
* ``Turn.extra["sgf-after:ID"]``: a property of a node without a move that
  follows the turn (written back as one node after it).

Root properties ``DT``, ``EV``, ``RO``, ``PC``, ``AN``, ``WR``, ``BR`` become
the tags ``EventDate`` (``YYYY.MM.DD``), ``Event``, ``Round``, ``Site``,
``Transcriber``, ``Player 1 Rating``, ``Player 2 Rating``; ``GC`` becomes
``Match.comments``. ``RU`` words become tags (``Crawford``/``Jacoby`` ``On``,
``Variation`` for Nackgammon and Hypergammon, ``Cube`` ``Off`` for
``NoCube``) and ``CrawfordGame`` sets :attr:`Game.crawford`. Every other
tag (a .mat's ``Variation "Tavla"``, ``Rules``, site-specific tags) goes
into tavlakit's own root property ``TK[Key=Value]``, which gnubg loads and
ignores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterator, Sequence

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .._data import grammar_text
from ..i18n import N_, _
from ..play import BAR, OFF, Move
from ..position import Position
from ..problem import Problem
from ..record import Game, Match, Result, Turn
from ..rules import Rules
from .text import read_input

__all__ = ["SgfReader", "read_sgf", "write_sgf", "point_letter", "letter_point"]

_APP = "tavlakit"
_BACKGAMMON = Rules.preset("backgammon")

#: Root properties that become match tags, in gnubg's writing order.
ROOT_TAGS: dict[str, str] = {
    "WR": "Player 1 Rating",
    "BR": "Player 2 Rating",
    "DT": "EventDate",
    "EV": "Event",
    "RO": "Round",
    "PC": "Site",
    "AN": "Transcriber",
}
_TAG_PROPS = {tag: prop for prop, tag in ROOT_TAGS.items()}
#: tavlakit's private root property for the other tags, as ``Key=Value``
#: (``TK[Variation=Tavla][Rules=tavla-outside-home]``), so a Tavla match
#: keeps its rules through SGF.
TAGS_PROP = "TK"
#: ``CP`` values: the cube's owner at a set-up.
_OWNERS: dict[str, int | None] = {"c": None, "w": 0, "b": 1}
_VARIATIONS = ("Nackgammon", "Hypergammon1", "Hypergammon2", "Hypergammon3")
#: Root properties that only describe the file; the writer writes its own.
_BOOKKEEPING = {"FF", "GM", "CA", "AP"}
_SETUP = {"AE", "AB", "AW", "PL"}
_MOVE = re.compile(r"([1-6])([1-6])((?:[a-z][a-z])*)")


# --- points -----------------------------------------------------------------


def point_letter(point: int, player: int) -> str:
    """The SGF letter of ``point`` (mover's numbering; 25 bar, 0 off) for ``player``."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    if not 1 <= point <= 24:
        raise ValueError(_("point {point} is not 0-25").format(point=point))
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


def letter_point(letter: str, player: int) -> int:
    """The point (mover's numbering; 25 bar, 0 off) of an SGF letter for ``player``."""
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    if not "a" <= letter <= "x":
        raise ValueError(_("{letter!r} is not an SGF point letter a-z").format(letter=letter))
    return ord(letter) - ord("a") + 1 if player == 0 else ord("x") - ord(letter) + 1


# --- parsing into raw trees ---------------------------------------------------


@dataclass
class _Prop:
    ident: str
    values: list[str]
    line: int
    column: int
    text: str


@dataclass
class _Node:
    line: int
    column: int
    props: list[_Prop]


@dataclass
class _Tree:
    line: int
    column: int
    nodes: list[_Node]
    variations: list[_Tree]


_ESCAPE = re.compile(r"\\([\s\S])")


def _unescape(raw: str) -> str:
    return _ESCAPE.sub(r"\1", raw)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


class _Trees(Transformer):
    """Builds light node lists, no parse tree."""

    def start(self, children: list[_Tree]) -> list[_Tree]:
        return children

    def game(self, children: list) -> _Tree:
        lpar = children[0]
        nodes = [c for c in children if isinstance(c, _Node)]
        variations = [c for c in children if isinstance(c, _Tree)]
        return _Tree(lpar.line, lpar.column, nodes, variations)

    variation = game

    def node(self, children: list) -> _Node:
        semi = children[0]
        return _Node(semi.line, semi.column, children[1:])

    def prop(self, children: list[Token]) -> _Prop:
        ident, values = children[0], children[1:]
        name = "".join(c for c in ident if c.isupper())
        text = str(ident) + "".join(values)
        return _Prop(name, [_unescape(v[1:-1]) for v in values], ident.line, ident.column, text)


_PARSER = Lark(grammar_text("sgf"), parser="lalr", lexer="contextual", transformer=_Trees(), cache=True)

_NAMES = {"LPAR": "'('", "RPAR": "')'", "SEMI": "';'", "IDENT": N_("a property name"), "VALUE": N_("a [value]"),
          "$END": N_("the end of the file")}


def _parse(text: str, source: str | None) -> tuple[list[_Tree], list[Problem]]:
    """Parse, recovering from errors by dropping what cannot be read."""
    problems: list[Problem] = []
    reported: set[int] = set()

    def on_error(exc: UnexpectedInput) -> bool:
        if exc.line not in reported:  # one problem per line
            reported.add(exc.line)
            problems.append(Problem("syntax", "error", _error_message(exc), file=source,
                                    line=exc.line, column=exc.column))
        if isinstance(exc, UnexpectedToken):
            _repair(exc)
        return True

    try:
        trees = _PARSER.parse(text, on_error=on_error)
    except UnexpectedInput as exc:
        problems.append(Problem("syntax", "error", _("{message}; the rest is not read").format(message=_error_message(exc)),
                                file=source, line=exc.line, column=exc.column))
        trees = []
    return trees, problems


def _repair(exc: UnexpectedToken) -> None:
    """Close what a bad token or the end of the file left open."""
    parser = exc.interactive_parser
    if exc.token.type == "$END":
        for _ in range(10_000):
            accepts = parser.accepts()
            if "$END" in accepts:
                return
            if "SEMI" in accepts and "RPAR" not in accepts:
                parser.feed_token(Token("SEMI", ";"))
            elif "RPAR" in accepts:
                parser.feed_token(Token("RPAR", ")"))
            else:
                return
    elif exc.token.type == "RPAR" and "SEMI" in exc.expected:
        parser.feed_token(Token("SEMI", ";"))  # "()": an empty tree
        parser.feed_token(exc.token)


def _error_message(exc: UnexpectedInput) -> str:
    if isinstance(exc, UnexpectedCharacters):
        return _("unexpected character {char!r}").format(char=exc.char)
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return _("the file ends inside a game tree (a ')' is missing)")
        expected = _(" or ").join(sorted(_(_NAMES.get(e, e)) for e in exc.expected))
        return _("unexpected {token!r}; expected {expected}").format(token=str(exc.token)[:20], expected=expected)
    return str(exc).splitlines()[0]


# --- trees into games ----------------------------------------------------------


class SgfReader:
    """Read an SGF collection game by game.

    ``match`` holds the header (players, length, tags: from the first game's
    root) and the problems found outside any game; :meth:`games` converts
    the game trees one at a time.
    """

    def __init__(self, stream_or_text: str | bytes | Path | IO, source: str | None = None) -> None:
        text, source, problems = read_input(stream_or_text, source)
        text = text.replace("\r\n", "\n")
        self.source = source
        trees, syntax = _parse(text, source)
        self.match = Match(source=source, problems=problems + syntax)
        self._trees: list[_Tree] = []
        for tree in trees:
            gm = _root_value(tree, "GM")
            if gm.strip() == "6":
                self._trees.append(tree)
            else:
                what = _("GM[{gm}] is not backgammon").format(gm=gm) if gm else _("no GM[6]")
                self.match.problems.append(Problem(
                    "unsupported", "warning", _("game tree skipped: {why}").format(why=what),
                    file=source, line=tree.line, column=tree.column))
        if self._trees:
            self._header(self._trees[0].nodes[0])
        else:
            self.match.problems.append(Problem("empty", "error", _("no backgammon game tree (GM[6]) in the file"),
                                               file=source))

    def _header(self, root: _Node) -> None:
        """Players, length, tags and comments from the first game's root."""
        match = self.match
        names = list(match.players)
        for prop in root.props:
            value = prop.values[0]
            if prop.ident in ("PW", "PB"):
                names[prop.ident == "PB"] = value
            elif prop.ident == "MI":
                for info in prop.values:
                    key, _, number = info.partition(":")
                    if key == "length" and number.strip().isdigit():
                        match.length = int(number)
            elif prop.ident in ROOT_TAGS:
                text = _date_from_sgf(value) if prop.ident == "DT" else value
                match.tags.setdefault(ROOT_TAGS[prop.ident], text)
            elif prop.ident == "GC":
                match.comments.extend(prop.values)
            elif prop.ident == TAGS_PROP:
                for text in prop.values:
                    tag, _, tag_value = text.partition("=")
                    match.tags.setdefault(tag, tag_value)
            elif prop.ident == "RU":
                _rule_words(value, match.tags)
        match.players = (names[0], names[1])

    def games(self) -> Iterator[Game]:
        """The games, converted one by one."""
        for index, tree in enumerate(self._trees):
            yield _GameReader(self, tree, index).read()


def read_sgf(stream_or_text: str | bytes | Path | IO, source: str | None = None) -> Match:
    """Read a whole SGF file (text, bytes, a :class:`~pathlib.Path` or a stream)."""
    reader = SgfReader(stream_or_text, source)
    reader.match.games = list(reader.games())
    return reader.match


def _root_value(tree: _Tree, ident: str) -> str:
    for prop in tree.nodes[0].props if tree.nodes else ():
        if prop.ident == ident:
            return prop.values[0]
    return ""


class _Board:
    """The board seen by White, kept while a game is read or written (for hits)."""

    def __init__(self, white: Position) -> None:
        self.white = white
        self.ok = True

    def view(self, player: int) -> Position:
        return self.white if player == 0 else self.white.flip()

    def play(self, player: int, moves: Sequence[Move]) -> tuple[Move, ...]:
        """``moves`` with hit flags from the board; the board stops being
        followed at the first move it cannot make."""
        if not self.ok:
            return tuple(moves)
        pos = self.view(player)
        marked = []
        try:
            for move in moves:
                hit = 0 < move.dst < 25 and pos.board[move.dst] == -1
                pos = pos.apply([move])
                marked.append(Move(move.src, move.dst, hit))
        except ValueError:
            self.ok = False
            return tuple(moves)
        self.white = pos if player == 0 else pos.flip()
        return tuple(marked)


_START = {point: n for point, n in enumerate(Position.initial().points()[0], start=1) if n}


@dataclass
class _Setup:
    """Each side's checkers by its own point numbers while set-up nodes are read."""

    boards: list[dict[int, int]] = field(default_factory=lambda: [dict(_START), dict(_START)])
    touched: bool = False
    on_roll: int | None = None


class _GameReader:
    def __init__(self, reader: SgfReader, tree: _Tree, index: int) -> None:
        self.match = reader.match
        self.source = reader.source
        self.tree = tree
        self.index = index
        self.game = Game(number=index + 1, line=tree.line)
        self.setup = _Setup()
        self.board: _Board | None = None
        self.cube = 1
        self.offered: tuple[int, int] | None = None  # (doubler, value)
        self.dice_only: Turn | None = None
        self.resign: tuple[int, int] | None = None

    def problem(self, code: str, severity: str, message: str, line: int | None, column: int | None = None,
                move: int | None = None) -> None:
        self.game.problems.append(Problem(code, severity, message, file=self.source, line=line, column=column,
                                          game=self.game.number, move=move))  # type: ignore[arg-type]

    def read(self) -> Game:
        nodes = self.main_line(self.tree)
        self.root(nodes[0])
        for number, node in enumerate(nodes[1:], start=1):
            self.node(node, number)
        self.finish()
        return self.game

    def main_line(self, tree: _Tree) -> list[_Node]:
        nodes = list(tree.nodes)
        while tree.variations:
            for side in tree.variations[1:]:
                self.problem("unsupported", "warning", _("a side variation is not read (only the main line)"),
                             side.line, side.column)
            tree = tree.variations[0]
            nodes.extend(tree.nodes)
        return nodes

    # root -------------------------------------------------------------------
    def root(self, node: _Node) -> None:
        game, match = self.game, self.match
        for prop in node.props:
            ident, values = prop.ident, prop.values
            value = values[0]
            if ident in _BOOKKEEPING:
                continue
            if ident == "MI":
                self.match_info(prop)
            elif ident in ("PW", "PB"):
                who = 0 if ident == "PW" else 1
                if value != match.players[who]:
                    self.problem("syntax", "warning", _("{property} differs from the first game's {name!r}; the first "
                                                        "name is kept").format(property=f"{ident}[{value}]",
                                                                               name=match.players[who]),
                                 prop.line, prop.column)
            elif ident in ROOT_TAGS:
                tag = ROOT_TAGS[ident]
                text = _date_from_sgf(value) if ident == "DT" else value
                if tag not in match.tags:
                    match.tags[tag] = text
                elif match.tags[tag] != text:
                    game.extra.setdefault(f"sgf:{ident}", []).extend(values)
            elif ident == "GC":
                if self.index:  # the first game's is the match comment
                    game.extra.setdefault("sgf:GC", []).extend(values)
            elif ident == "RU":
                self.rules(prop)
            elif ident == "RE":
                self.result(prop)
            elif ident == "C":
                game.comments.extend(values)
            else:
                game.extra.setdefault(f"sgf:{ident}", []).extend(values)

    def match_info(self, prop: _Prop) -> None:
        score = list(self.game.score)
        for value in prop.values:
            key, _colon, number = value.partition(":")
            try:
                n = int(number)
            except ValueError:
                self.problem("syntax", "error", _("MI[{value}]: {number!r} is not a number").format(value=value, number=number),
                             prop.line, prop.column)
                continue
            if key == "length":
                if n != self.match.length:
                    self.problem("syntax", "warning", _("MI length {length} differs from the first game's {first}")
                                 .format(length=n, first=self.match.length), prop.line, prop.column)
            elif key == "game":
                self.game.number = n + 1
            elif key in ("ws", "bs"):
                score[0 if key == "ws" else 1] = n
            else:
                self.game.extra.setdefault("sgf:MI", []).append(value)
        self.game.score = (score[0], score[1])

    def rules(self, prop: _Prop) -> None:
        crawford_game, unknown = _rule_words(prop.values[0], self.match.tags)
        if unknown:
            self.game.extra["sgf:RU"] = [":".join(unknown)]
            self.problem("unsupported", "warning", _("unknown rule words {words} kept raw").format(words=":".join(unknown)),
                         prop.line, prop.column)
        if crawford_game:
            self.game.crawford = True
        elif self.match.tags.get("Crawford") == "On":
            self.game.crawford = False

    def result(self, prop: _Prop) -> None:
        value = prop.values[0].strip()
        found = re.fullmatch(r"([WBwb])\+(\d*)((?:R|Resign)?)", value, re.IGNORECASE)
        if not found:
            self.game.extra["sgf:RE"] = [value]
            self.problem("syntax", "warning", _("RE[{value}] is not W+n or B+n; kept raw").format(value=value),
                         prop.line, prop.column)
            return
        points = int(found[2]) if found[2] else 1
        if not found[2]:
            self.problem("syntax", "warning", _("RE[{value}] gives no points; read as 1 like gnubg").format(value=value),
                         prop.line, prop.column)
        self.game.result = Result(0 if found[1].upper() == "W" else 1, points, bool(found[3]),
                                  line=prop.line, column=prop.column)

    # nodes ------------------------------------------------------------------
    def on_roll(self) -> int:
        for turn in reversed(self.game.turns):
            if turn.kind == "roll":
                return 1 - turn.player
        return self.setup.on_roll if self.setup.on_roll is not None else 0

    def played(self) -> bool:
        return any(t is not self.dice_only for t in self.game.turns)

    def node(self, node: _Node, number: int) -> None:
        moves = [p for p in node.props if p.ident in ("W", "B")]
        for extra in moves[1:]:
            self.problem("syntax", "warning", _("a second move {move} in one node is ignored (as gnubg does)").format(
                move=extra.text),
                         extra.line, extra.column, number)
        if moves:
            turn = self.move(moves[0], number)
            rest = [p for p in node.props if p is not moves[0] and p not in moves[1:]]
            if turn is not None:
                self.keep(turn, rest, "sgf")
            elif rest:
                self.loose(rest, number)
            return
        self.loose(node.props, number)

    def keep(self, turn: Turn, props: list[_Prop], prefix: str) -> None:
        for prop in props:
            if prop.ident == "C" and prefix == "sgf":
                turn.comment = "\n".join(filter(None, [turn.comment, *prop.values]))
            else:
                turn.extra.setdefault(f"{prefix}:{prop.ident}", []).extend(prop.values)

    def loose(self, props: list[_Prop], number: int) -> None:
        """A node without a move: set-up, dice, markup."""
        played = self.played()
        rest: list[_Prop] = []
        dice_turn: Turn | None = None
        has_dice = any(p.ident == "DI" for p in props)
        for prop in props:
            if prop.ident == "PL" and has_dice:
                continue  # gnubg's ;PL[B]DI[51]: whose dice (read by set_dice)
            if prop.ident in _SETUP and not played:
                self.set_up(prop)
            elif prop.ident == "DI":
                dice_turn = self.set_dice(prop, props, number)
            elif prop.ident == "CV" and prop.values[0].strip().isdigit() and not played:
                self.cube = self.game.cube = int(prop.values[0])
            elif prop.ident == "CP" and prop.values[0].strip().lower() in _OWNERS and not played:
                self.game.cube_owner = _OWNERS[prop.values[0].strip().lower()]
            elif prop.ident in ("CV", "CP", "CO"):
                self.problem("unsupported", "warning",
                             _("cube set-up {property} is kept raw; the record's replay does not use it").format(property=prop.text),
                             prop.line, prop.column, number)
                rest.append(prop)
            else:
                if prop.ident in _SETUP:
                    self.problem("unsupported", "warning",
                                 _("a set-up {property} in the middle of a game is kept raw; the record's replay "
                                   "ignores it").format(property=prop.text[:30]), prop.line, prop.column, number)
                rest.append(prop)
        if dice_turn is not None:
            self.keep(dice_turn, rest, "sgf")
        elif not played and not self.game.turns:
            for prop in rest:
                if prop.ident == "C":
                    self.game.comments.extend(prop.values)
                else:
                    self.game.extra.setdefault(f"sgf-setup:{prop.ident}", []).extend(prop.values)
        elif rest:
            self.keep(self.game.turns[-1], rest, "sgf-after")

    def set_up(self, prop: _Prop) -> None:
        setup = self.setup
        if prop.ident == "PL":
            side = prop.values[0].strip()[:1].upper()
            if side not in ("W", "B"):
                self.problem("syntax", "error", _("PL[{value}] is not W or B").format(value=prop.values[0]), prop.line,
                             prop.column)
                return
            setup.on_roll = 0 if side == "W" else 1
            return
        setup.touched = True
        try:
            letters = _point_list(prop.values)
        except ValueError as exc:
            self.problem("syntax", "error", f"{prop.ident}: {exc}", prop.line,
                         prop.column)
            return
        for letter in letters:
            if letter == "z":
                continue
            if prop.ident == "AE":
                for player in (0, 1):
                    setup.boards[player].pop(letter_point(letter, player), None)
            else:
                player = 0 if prop.ident == "AW" else 1
                point = letter_point(letter, player)
                setup.boards[player][point] = setup.boards[player].get(point, 0) + 1

    def set_dice(self, prop: _Prop, props: list[_Prop], number: int) -> Turn | None:
        value = prop.values[0].strip()
        if not re.fullmatch(r"[1-6][1-6]", value):
            self.problem("syntax", "error", _("DI[{value}] is not two dice 1-6").format(value=value), prop.line,
                         prop.column, number)
            return None
        player = self.on_roll()
        for other in props:
            if other.ident == "PL" and other.values[0].strip()[:1].upper() in ("W", "B"):
                player = 0 if other.values[0].strip()[:1].upper() == "W" else 1
        turn = Turn(player, "roll", (int(value[0]), int(value[1])), number=number, line=prop.line,
                    column=prop.column, text=prop.text)
        self.game.turns.append(turn)
        self.dice_only = turn
        return turn

    def move(self, prop: _Prop, number: int) -> Turn | None:
        player = 0 if prop.ident == "W" else 1
        value = prop.values[0].strip()
        where = {"number": number, "line": prop.line, "column": prop.column, "text": prop.text}
        if value in ("double", "beaver"):
            if self.offered and self.offered[0] != player:
                kind, offer = "beaver", self.offered[1] * 2
            else:
                kind, offer = value, self.cube * 2
            self.offered = (player, offer)
            return self.add(Turn(player, kind, cube=offer, **where))  # type: ignore[arg-type]
        if value in ("take", "drop"):
            if value == "take" and self.offered:
                self.cube = self.offered[1]
            self.offered = None
            return self.add(Turn(player, value, **where))  # type: ignore[arg-type]
        if value.startswith("resign") or value in ("accept", "reject"):
            self.resignation(player, value, prop, number)
            return None
        found = _MOVE.fullmatch(value)
        if not found:
            self.problem("syntax", "error", _("{property} is not a move (dice and point letters), double, take or "
                                              "drop").format(property=prop.text[:40]), prop.line, prop.column, number)
            return None
        dice = (int(found[1]), int(found[2]))
        letters = found[3]
        moves = []
        for i in range(0, len(letters), 2):
            src, dst = letter_point(letters[i], player), letter_point(letters[i + 1], player)
            if not 0 <= dst < src <= 25 or src == OFF or dst == BAR:
                self.problem("syntax", "error", _("{letters} in {property} is not a move from a point to a lower "
                                                  "one").format(letters=letters[i:i + 2], property=prop.text),
                             prop.line, prop.column, number)
                return None
            moves.append(Move(src, dst))
        if self.board is None:
            self.board = _Board(self.start_position(0) or Position.initial())
        marked = self.board.play(player, moves)
        pending = self.dice_only
        if pending is not None and pending is self.game.turns[-1] and pending.player == player \
                and sorted(pending.dice or ()) == sorted(dice):
            self.game.turns.pop()  # gnubg's DI set the dice this move was made with
            self.dice_only = None
            turn = Turn(player, "roll", dice, marked, comment=pending.comment, extra=pending.extra, **where)
            return self.add(turn)
        return self.add(Turn(player, "roll", dice, marked, **where))

    def add(self, turn: Turn) -> Turn:
        self.dice_only = None
        self.game.turns.append(turn)
        return turn

    def resignation(self, player: int, value: str, prop: _Prop, number: int) -> None:
        """Gibbon's ``resign:N`` / ``accept`` nodes: the result says the same."""
        if value.startswith("resign"):
            points = value.partition(":")[2]
            self.resign = (player, int(points) if points.isdigit() else 1)
            return
        if value == "accept" and self.resign and self.resign[0] != player:
            result = self.game.result
            if result is None or result.winner != player or not result.resigned:
                self.problem("syntax", "warning", _("the accepted resignation does not match RE[...]"),
                             prop.line, prop.column, number)
            return
        self.problem("unsupported", "warning", _("{property}: a refused or unmatched resignation is not kept").format(
            property=prop.text),
                     prop.line, prop.column, number)

    def start_position(self, viewer: int) -> Position | None:
        """The set-up position seen by ``viewer``, or None when not set up."""
        if not self.setup.touched:
            return None
        white, black = self.setup.boards
        try:
            pos = Position.from_points(white, black)
        except ValueError as exc:
            self.problem("syntax", "error", _("set-up position: {error}").format(error=exc), self.tree.line)
            self.setup.touched = False
            return None
        return pos if viewer == 0 else pos.flip()

    def finish(self) -> None:
        game = self.game
        first = self.setup.on_roll if self.setup.on_roll is not None else 0
        if game.turns:
            turn = game.turns[0]
            first = turn.player if turn.kind in ("roll", "double") else 1 - turn.player
        elif self.setup.on_roll == 1:  # who is on roll; White unless said
            game.extra["sgf-setup:PL"] = ["B"]
        start = self.start_position(first)
        if start is not None and start != Position.initial():
            game.start = start.position_id()


def _rule_words(value: str, tags: dict[str, str]) -> tuple[bool, list[str]]:
    """Set the tags an ``RU`` value names; returns (``CrawfordGame`` said,
    unknown words)."""
    unknown = []
    crawford_game = False
    for word in value.split(":"):
        if word == "Crawford":
            tags["Crawford"] = "On"
        elif word == "CrawfordGame":
            crawford_game = True
        elif word == "Jacoby":
            tags["Jacoby"] = "On"
        elif word in _VARIATIONS:
            tags["Variation"] = word
        elif word == "NoCube":
            tags["Cube"] = "Off"
        elif word:
            unknown.append(word)
    return crawford_game, unknown


def _point_list(values: list[str]) -> list[str]:
    """Point letters of a list of values, ranges ``a:g`` expanded."""
    out = []
    for value in values:
        low, sep, high = value.strip().partition(":")
        high = high if sep else low
        if not (len(low) == len(high) == 1 and "a" <= low <= "z" and "a" <= high <= "z" and low <= high):
            raise ValueError(_("[{value}] is not a point or range of points a-z").format(value=value))
        out.extend(chr(c) for c in range(ord(low), ord(high) + 1))
    return out


def _date_from_sgf(value: str) -> str:
    return value.replace("-", ".") if re.fullmatch(r"\d{4}-\d\d-\d\d", value) else value


def _date_to_sgf(value: str) -> str:
    return value.replace(".", "-") if re.fullmatch(r"\d{4}\.\d\d\.\d\d", value) else value


# --- writing -------------------------------------------------------------------


def write_sgf(match: Match, stream: IO[str]) -> list[Problem]:
    """Write ``match`` as gnubg's SGF; returns ``lost-on-write`` problems for
    what SGF cannot hold."""
    writer = _Writer(match)
    root = writer.match_root()
    for index, game in enumerate(match.games):
        stream.write(writer.game(game, index, root if index == 0 else ""))
    if writer.hit_marks:
        writer.lost(_("{count} play(s) mark hits other than the board's; SGF has no hit marks (a reader marks the "
                      "hits the board makes)").format(count=writer.hit_marks))
    if writer.cannot_move:
        writer.lost(_("{count} roll(s) marked 'Cannot Move' are written as plain dances").format(
            count=writer.cannot_move))
    return writer.problems


class _Writer:
    def __init__(self, match: Match) -> None:
        self.match = match
        self.problems: list[Problem] = []
        self.lost_keys: set[str] = set()
        self.hit_marks = 0
        self.cannot_move = 0

    def lost(self, message: str, game: Game | None = None, turn: Turn | None = None) -> None:
        self.problems.append(Problem("lost-on-write", "warning", message, file=self.match.source,
                                     line=turn.line if turn else game.line if game else None,
                                     game=game.number if game else None,
                                     move=turn.number if turn else None))

    def match_root(self) -> str:
        """First game's root properties from the tags; rules are per game."""
        tags = self.match.tags
        props: dict[str, str] = {}
        private: list[str] = []
        for tag, value in tags.items():
            if tag in _TAG_PROPS:
                props[_TAG_PROPS[tag]] = _date_to_sgf(value) if tag == "EventDate" else value
            elif tag in ("Crawford", "Jacoby") and value.strip().lower() == "on":
                pass  # RU says it
            elif tag == "Variation" and value in _VARIATIONS:
                pass  # RU says it
            elif tag == "Cube" and value.strip().lower() == "off":
                pass  # RU[NoCube] says it
            elif "=" in tag:
                self.lost(_("tag {tag} {value!r}: a tag name with '=' cannot be kept").format(tag=tag, value=value))
            else:
                private.append(f"{tag}={value}")
        text = "".join(f"{prop}[{_escape(props[prop])}]" for prop in ROOT_TAGS if prop in props)
        if private:  # tavlakit's own property; gnubg loads the file and leaves it alone
            text += TAGS_PROP + "".join(f"[{_escape(t)}]" for t in private)
        if self.match.comments:
            text += "GC" + "".join(f"[{_escape(c)}]" for c in self.match.comments)
        return text

    def rules(self, game: Game) -> str:
        tags = self.match.tags
        words = []
        if tags.get("Cube", "").lower() == "off":
            words.append("NoCube")
        crawford = tags.get("Crawford", "").lower() == "on"
        if crawford:
            words.append("Crawford")
        if game.crawford:
            words.append("CrawfordGame")
        elif game.crawford is False and not crawford:
            self.lost(_("crawford=False without the Crawford rule cannot be written"), game)
        if tags.get("Jacoby", "").lower() == "on":
            words.append("Jacoby")
        if tags.get("Variation") in _VARIATIONS:
            words.append(tags["Variation"])
        words.extend(game.extra.get("sgf:RU", []))
        return f"RU[{':'.join(words)}]" if words else ""

    def extras(self, extra: dict[str, list[str]], prefix: str, where: Game | Turn, game: Game) -> str:
        out = []
        for key, values in extra.items():
            kind, _colon, ident = key.partition(":")
            if kind != prefix or (prefix == "sgf" and ident == "RU"):
                continue
            if not re.fullmatch(r"[A-Z]{1,8}", ident) or not values:
                self.lost(_("extra {key!r} is not an SGF property").format(key=key), game)
                continue
            out.append(ident + "".join(f"[{_escape(v)}]" for v in values))
        return "".join(out)

    def foreign(self, extra: dict[str, list[str]], game: Game, turn: Turn | None = None) -> None:
        for key in extra:
            if key.partition(":")[0] not in ("sgf", "sgf-setup", "sgf-after") and key not in self.lost_keys:
                self.lost_keys.add(key)
                self.lost(_("extra {key!r} from another format has no SGF property").format(key=key), game, turn)

    def game(self, game: Game, index: int, match_root: str) -> str:
        match = self.match
        number = game.number - 1 if game.number is not None else index
        info = [f"length:{match.length}", f"game:{number}", f"ws:{game.score[0]}", f"bs:{game.score[1]}",
                *game.extra.get("sgf:MI", [])]
        parts = [f"(;FF[4]GM[6]CA[UTF-8]AP[{_APP}]MI", "".join(f"[{_escape(v)}]" for v in info),
                 f"PW[{_escape(match.players[0])}]PB[{_escape(match.players[1])}]", match_root,
                 self.rules(game)]
        result = game.result
        if result is not None:
            if result.winner in (0, 1) and result.points >= 1:
                parts.append(f"RE[{'WB'[result.winner]}+{result.points}{'R' if result.resigned else ''}]")
            else:
                self.lost(_("result {result} cannot be written").format(result=f"{result.winner}+{result.points}"), game)
        root_extra = {k: v for k, v in game.extra.items() if k != "sgf:MI"}
        parts.append(self.extras(root_extra, "sgf", game, game))
        self.foreign(game.extra, game)
        if game.comments:
            parts.append("C" + "".join(f"[{_escape(c)}]" for c in game.comments))
        first = _first_player(game)
        board = self.setup(game, first, parts)
        for turn in game.turns:
            self.turn(game, turn, board, parts)
        parts.append(")\n")
        return "".join(parts)

    def setup(self, game: Game, first: int, parts: list[str]) -> _Board:
        setup = dict(game.extra)
        start = Position.initial()
        if game.start:
            try:
                start = Position.from_position_id(game.start)
            except ValueError as exc:
                self.lost(_("start position: {error}").format(error=exc), game)
            else:
                mover, opponent = start.points()
                boards = (mover, opponent) if first == 0 else (opponent, mover)
                setup.pop("sgf-setup:PL", None)
                parts.append(f"\n;PL[{'WB'[first]}]AE[a:y]")
                for player, ident in ((0, "AW"), (1, "AB")):
                    letters = "".join(f"[{point_letter(i + 1, player)}]" * n for i, n in enumerate(boards[player]))
                    parts.append(f"{ident}{letters}" if letters else "")
        if game.cube != 1:
            parts.append(f"\n;CV[{game.cube}]")
        if game.cube_owner is not None:
            parts.append(f"\n;CP[{'wb'[game.cube_owner]}]")
        text = self.extras(setup, "sgf-setup", game, game)
        if text:
            parts.append("\n;" + text)
        return _Board(start if first == 0 else start.flip())

    def turn(self, game: Game, turn: Turn, board: _Board, parts: list[str]) -> None:
        if turn.player not in (0, 1):
            self.lost(_("a turn by player {player} cannot be written").format(player=turn.player), game, turn)
            return
        color = "WB"[turn.player]
        if turn.kind == "roll":
            dice = turn.dice
            if dice is None or len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
                self.lost(_("a roll with dice {dice!r} cannot be written").format(dice=dice), game, turn)
                return
            roll = f"{dice[0]}{dice[1]}"
            if turn.status in ("unknown", "illegal"):
                self.lost(_("the play status {status!r} is not kept (written as the roll alone)").format(status=turn.status),
                          game, turn)
            elif turn.status == "cannot-move":
                self.cannot_move += 1
            if turn.moves:
                if len(turn.moves) > 4:
                    self.lost(_("gnubg reads only four moves of a play"), game, turn)
                try:
                    letters = "".join(point_letter(m.src, turn.player) + point_letter(m.dst, turn.player)
                                      for m in turn.moves)
                except ValueError as exc:
                    self.lost(_("play {play}: {error}").format(play=turn.play, error=exc), game, turn)
                    return
                marked = board.play(turn.player, turn.moves)
                if board.ok and [m.hit for m in marked] != [m.hit for m in turn.moves]:
                    self.hit_marks += 1
                parts.append(f"\n;{color}[{roll}{letters}]")
            elif turn is game.turns[-1] and board.ok \
                    and any(p.moves for p in board.view(turn.player).legal_plays(dice, _BACKGAMMON)):
                parts.append(f"\n;PL[{color}]DI[{roll}]")  # rolled, then the game was resigned
            else:
                parts.append(f"\n;{color}[{roll}]")
        else:
            parts.append(f"\n;{color}[{'double' if turn.kind == 'beaver' else turn.kind}]")
        parts.append(self.extras(turn.extra, "sgf", turn, game))
        if turn.comment is not None:
            parts.append(f"C[{_escape(turn.comment)}]")
        self.foreign(turn.extra, game, turn)
        after = self.extras(turn.extra, "sgf-after", turn, game)
        if after:
            parts.append("\n;" + after)


def _first_player(game: Game) -> int:
    if game.turns:
        turn = game.turns[0]
        return turn.player if turn.kind in ("roll", "double") else 1 - turn.player
    pl = game.extra.get("sgf-setup:PL", ["W"])
    return 1 if pl and pl[0].upper().startswith("B") else 0
