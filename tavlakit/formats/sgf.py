"""GNU Backgammon's SGF (``GM[6]``), read into and written from the record model.

Three layers, as in sgfmill: :mod:`.sgftree` parses and serialises SGF
trees and knows nothing of backgammon; :mod:`.sgfprops` says how each
backgammon property's values are read and written; this module maps
trees to the record model and back. Its reader and writer mirror each
other section by section (players and match information, tags, rules,
result, comments, set-up, turns), and use the same property values.

A file holds one game tree per game. White (``PW``) is player 0.

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
set :attr:`~tavlakit.engine.play.Move.hit` as a ``.mat`` transcript marks them (after a move the
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
``NoCube``) and ``CrawfordGame`` sets :attr:`~tavlakit.record.match.Game.crawford`. Every other
tag (a .mat's ``Variation "Tavla"``, ``Rules``, site-specific tags) goes
into tavlakit's own root property ``TK[Key=Value]``, which gnubg loads and
ignores.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

from ..engine.dicenames import as_roll
from ..engine.play import Move
from ..engine.position import Position
from ..engine.rules import DEFAULT_RULES
from ..i18n import _
from ..record.match import GNUBG, Candidate, Game, Match, RecordedAnalysis, Result, Turn, TurnKind
from ..record.problem import Problem, Reporter, Severity
from . import sgfprops as props
from .sgfprops import Outcome, Roll, letter_point, point_letter
from .sgftree import GameTree, Node, NodeOut, Property, parse, serialise, split
from .text import open_input, owned, put_first

__all__ = ["SgfReader", "read_sgf", "write_sgf", "point_letter", "letter_point", "ROOT_TAGS", "TAGS_PROP"]

_APP = "tavlakit"

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
#: ``RU`` words and the tag each sets (``CrawfordGame`` is the game's own).
_RULE_WORDS: dict[str, tuple[str, str]] = {
    "Crawford": ("Crawford", "On"),
    "Jacoby": ("Jacoby", "On"),
    "NoCube": ("Cube", "Off"),
    **{name: ("Variation", name) for name in ("Nackgammon", "Hypergammon1", "Hypergammon2", "Hypergammon3")},
}
#: Root properties that only describe the file; the writer writes its own.
_BOOKKEEPING = {"FF", "GM", "CA", "AP"}
_SETUP = {"AE", "AB", "AW", "PL"}


# --- players, match information and tags (root) -------------------------------


def _read_header(root: Node, match: Match) -> None:
    """Players, length, tags and comments from the first game's root. gnubg
    writes ``RU[Jacoby]`` for a money game played with the Jacoby rule: its
    money session without it was played without (a ``Jacoby`` ``Off`` tag)."""
    names = list(match.players)
    gnubg = False
    for prop in root.props:
        where = (prop.line, prop.column)
        if prop.ident == "AP":
            gnubg = prop.values[0].startswith("GNU Backgammon")
        elif prop.ident in ("PW", "PB"):
            names[prop.ident == "PB"] = prop.values[0]
        elif prop.ident == "MI":
            length = _info(prop.values).get("length")
            if isinstance(length, int):
                match.length = length
                match.length_at = where
        elif prop.ident in ROOT_TAGS:
            _set_tag(match, ROOT_TAGS[prop.ident], _date_from_sgf(prop.values[0]), where)
        elif prop.ident == "GC":
            match.comments.extend(prop.values)
        elif prop.ident == TAGS_PROP:
            for tag, value in props.PAIRS.read(prop.values):
                _set_tag(match, tag, value, where)
        elif prop.ident == "RU":
            for word in props.RULES.read(prop.values):
                if word in _RULE_WORDS:
                    _set_tag(match, *_RULE_WORDS[word], where)
    match.players = (names[0], names[1])
    if gnubg and not match.length and "Jacoby" not in match.tags:
        match.tags["Jacoby"] = "Off"


def _set_tag(match: Match, tag: str, value: str, where: tuple[int, int]) -> None:
    if tag not in match.tags:
        match.tags[tag] = value
        match.tag_lines[tag] = where


def _info(values: list[str]) -> dict[str, int | str]:
    """``MI`` as a dict, leaving out what cannot be read (reported per game)."""
    try:
        return dict(props.INFO.read(values))
    except ValueError:
        return {key: text for key, _sep, text in (value.partition(":") for value in values)}


def _match_root(match: Match, lost: Callable[[str], None]) -> NodeOut:
    """The first game's root properties from the tags (the mirror of :func:`_read_header`)."""
    known: dict[str, str] = {}
    private: list[tuple[str, str]] = []
    said = set(_RULE_WORDS.values())
    for tag, value in match.tags.items():
        if tag in _TAG_PROPS:
            known[_TAG_PROPS[tag]] = _date_to_sgf(value) if tag == "EventDate" else value
        elif (tag, value.strip().capitalize() if tag != "Variation" else value) in said:
            pass  # RU says it
        elif "=" in tag:
            lost(_("tag {tag} {value!r}: a tag name with '=' cannot be kept").format(tag=tag, value=value))
        else:
            private.append((tag, value))
    out: list[tuple[str, Sequence[str]]] = [(prop, [known[prop]]) for prop in ROOT_TAGS if prop in known]
    out.append((TAGS_PROP, props.PAIRS.write(private)))  # gnubg loads the file and leaves it alone
    out.append(("GC", match.comments))
    return out


def _rule_words(match: Match, game: Game, lost: Callable[[str], None]) -> list[str]:
    """``RU`` for a game (the mirror of :meth:`_GameReader.rules`), in gnubg's order."""
    tags = match.tags
    words = ["NoCube"] if _tag_is(tags, "Cube", "Off") else []
    crawford = _tag_is(tags, "Crawford", "On")
    if crawford:
        words.append("Crawford")
    if game.crawford:
        words.append("CrawfordGame")
    elif game.crawford is False and not crawford:
        lost(_("crawford=False without the Crawford rule cannot be written"))
    if _tag_is(tags, "Jacoby", "On"):
        words.append("Jacoby")
    variation = tags.get("Variation", "")
    if _RULE_WORDS.get(variation) == ("Variation", variation):
        words.append(variation)
    return words + game.extra.get("sgf:RU", [])


def _tag_is(tags: dict[str, str], tag: str, value: str) -> bool:
    written = tags.get(tag, "")
    return written == value if tag == "Variation" else written.strip().lower() == value.lower()


def _date_from_sgf(value: str) -> str:
    return value.replace("-", ".") if re.fullmatch(r"\d{4}-\d\d-\d\d", value) else value


def _date_to_sgf(value: str) -> str:
    return value.replace(".", "-") if re.fullmatch(r"\d{4}\.\d\d\.\d\d", value) else value


# --- reading -------------------------------------------------------------------


class SgfReader:
    """Read an SGF collection game by game.

    ``match`` holds the header (players, length, tags: from the first game's
    root) and the problems found outside any game; :meth:`games` reads and
    converts the game trees one at a time (memory does not grow with the
    file). Opening reads up to the first backgammon game tree.
    """

    def __init__(self, given: str | bytes | Path | IO[str], source: str | None = None) -> None:
        self.stream, source, decoding = open_input(given, source)
        self.match = Match(source=source)
        self._report = Reporter(self.match.problems, file=source)
        self._trees = self._backgammon_trees()
        self._first = next(self._trees, None)
        if self._first is not None:
            _read_header(self._first.nodes[0], self.match)
        else:
            self._report.error("empty", _("no backgammon game tree (GM[6]) in the file"))
        self.match.resolve_rules()
        put_first(decoding, self.match.problems)

    def _backgammon_trees(self) -> Iterator[GameTree]:
        for piece, line, column in split(self.stream):
            for tree in parse(piece, self._report, line, column):
                gm = _root_value(tree, "GM")
                if gm.strip() == "6":
                    yield tree
                else:
                    what = _("GM[{gm}] is not backgammon").format(gm=gm) if gm else _("no GM[6]")
                    self._report.warning(
                        "unsupported",
                        _("game tree skipped: {what}").format(what=what),
                        line=tree.line,
                        column=tree.column,
                    )

    def games(self) -> Iterator[Game]:
        """The games, read and converted one by one."""
        if self._first is None:
            return
        first, self._first = self._first, None
        yield _GameReader(self.match, first, 0).read()
        for index, tree in enumerate(self._trees, start=1):
            yield _GameReader(self.match, tree, index).read()


def read_sgf(given: str | bytes | Path | IO[str], source: str | None = None) -> Match:
    """Read a whole SGF file (text, bytes, a :class:`~pathlib.Path` or a stream)."""
    reader = SgfReader(given, source)
    with owned(given, reader.stream):
        reader.match.games = list(reader.games())
    return reader.match


def _root_value(tree: GameTree, ident: str) -> str:
    prop = tree.nodes[0].get(ident) if tree.nodes else None
    return prop.values[0] if prop else ""


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
        try:
            pos, marked = self.view(player).played(moves)
        except ValueError:
            self.ok = False
            return tuple(moves)
        self.white = pos if player == 0 else pos.flip()
        return tuple(marked)


class _Context:
    """What the parts of a game's reader share: the match, the game, and
    where its problems go."""

    def __init__(self, match: Match, game: Game) -> None:
        self.match = match
        self.game = game

    @property
    def report(self) -> Reporter:
        return Reporter(self.game.problems, file=self.match.source, game=self.game.number)

    def value(self, kind: props.Value[props.T], prop: Property, move: int | None = None) -> props.T | None:
        """``prop``'s values read as ``kind``; ``None`` after a located problem."""
        try:
            return kind.read(prop.values)
        except ValueError as exc:
            severity: Severity = "warning" if prop.ident == "RE" else "error"
            self.report.report(
                "syntax",
                severity,
                _("{prop}: {why}").format(prop=prop.text[:40], why=exc),
                line=prop.line,
                column=prop.column,
                move=move,
            )
            return None


class _Root:
    """A game's root properties: match information, players, tags, rules,
    result, comments (the mirror of :meth:`_Writer.root`)."""

    def __init__(self, context: _Context, index: int) -> None:
        self.context = context
        self.match = context.match
        self.game = context.game
        self.index = index

    def read(self, node: Node) -> None:
        for prop in node.props:
            if prop.ident in _BOOKKEEPING:
                continue
            read = _ROOT_READERS.get(prop.ident)
            if read is not None:
                read(self, prop)
            elif prop.ident in ROOT_TAGS:
                self.tag(prop)
            else:
                self.game.extra.setdefault(f"sgf:{prop.ident}", []).extend(prop.values)

    def match_info(self, prop: Property) -> None:
        pairs = self.context.value(props.INFO, prop)
        if pairs is None:
            return
        score = list(self.game.score)
        for key, value in pairs:
            if key == "length":
                if value != self.match.length:
                    self.context.report.warning(
                        "syntax",
                        _("MI length {length} differs from the first game's {first}").format(
                            length=value, first=self.match.length
                        ),
                        line=prop.line,
                        column=prop.column,
                    )
            elif key == "game" and isinstance(value, int):
                self.game.number = value + 1
            elif key in ("ws", "bs") and isinstance(value, int):
                score[key == "bs"] = value
            else:
                self.game.extra.setdefault("sgf:MI", []).append(f"{key}:{value}")
        self.game.score = (score[0], score[1])

    def player(self, prop: Property) -> None:
        who = prop.ident == "PB"
        if prop.values[0] != self.match.players[who]:
            self.context.report.warning(
                "syntax",
                _("{ident}[{name}] differs from the first game's {first!r}; the first name is kept").format(
                    ident=prop.ident, name=prop.values[0], first=self.match.players[who]
                ),
                line=prop.line,
                column=prop.column,
            )

    def tag(self, prop: Property) -> None:
        tag, text = ROOT_TAGS[prop.ident], _date_from_sgf(prop.values[0])
        if tag not in self.match.tags:
            self.match.tags[tag] = text
        elif self.match.tags[tag] != text:
            self.game.extra.setdefault(f"sgf:{prop.ident}", []).extend(prop.values)

    def match_comment(self, prop: Property) -> None:
        if self.index:  # the first game's is the match comment
            self.game.extra.setdefault("sgf:GC", []).extend(prop.values)

    def rules(self, prop: Property) -> None:
        words = props.RULES.read(prop.values)
        for word in words:
            if word in _RULE_WORDS:
                self.match.tags.setdefault(*_RULE_WORDS[word])
        unknown = [word for word in words if word not in _RULE_WORDS and word != "CrawfordGame"]
        if unknown:
            self.game.extra["sgf:RU"] = [":".join(unknown)]
            self.context.report.warning(
                "unsupported",
                _("unknown rule words {words} kept raw").format(words=":".join(unknown)),
                line=prop.line,
                column=prop.column,
            )
        if "CrawfordGame" in words:
            self.game.crawford = True
        elif self.match.tags.get("Crawford") == "On":
            self.game.crawford = False

    def result(self, prop: Property) -> None:
        outcome = self.context.value(props.RESULT, prop)
        if outcome is None:
            self.game.extra["sgf:RE"] = [prop.values[0].strip()]
            return
        if not outcome.said:
            self.context.report.warning(
                "syntax",
                _("RE[{value}] gives no points; read as 1 like gnubg").format(value=prop.values[0].strip()),
                line=prop.line,
                column=prop.column,
            )
        self.game.result = Result(
            outcome.winner, outcome.points, resigned=outcome.resigned, line=prop.line, column=prop.column
        )

    def comments(self, prop: Property) -> None:
        self.game.comments.extend(prop.values)


_ROOT_READERS: dict[str, Callable[[_Root, Property], None]] = {
    "MI": _Root.match_info,
    "PW": _Root.player,
    "PB": _Root.player,
    "GC": _Root.match_comment,
    "RU": _Root.rules,
    "RE": _Root.result,
    "C": _Root.comments,
}

_START = {point: n for point, n in enumerate(Position.initial().points()[0], start=1) if n}


class _Setup:
    """Set-up nodes before the first play: checkers (``AE``, ``AW``,
    ``AB``), who is on roll (``PL``), the cube (``CV``, ``CP``); the mirror
    of :meth:`_Writer.setup`. Each side's checkers are kept by its own
    point numbers."""

    def __init__(self, context: _Context) -> None:
        self.context = context
        self.boards = [dict(_START), dict(_START)]
        self.touched = False
        self.on_roll: int | None = None

    def read(self, prop: Property) -> bool:
        """Take a set-up property; ``False`` for a cube set-up that cannot be read."""
        game = self.context.game
        try:
            if prop.ident == "CV":
                game.cube = props.NUMBER.read(prop.values)
            elif prop.ident == "CP":
                game.cube_owner = props.OWNER.read(prop.values)
            elif prop.ident == "PL":
                color = self.context.value(props.COLOR, prop)
                self.on_roll = self.on_roll if color is None else color
            else:
                self.place(prop)
        except ValueError:
            return False
        return True

    def place(self, prop: Property) -> None:
        self.touched = True
        for letter in self.context.value(props.POINTS, prop) or ():
            if letter == "z":
                continue
            if prop.ident == "AE":
                for player in (0, 1):
                    self.boards[player].pop(letter_point(letter, player), None)
            else:
                player = 0 if prop.ident == "AW" else 1
                point = letter_point(letter, player)
                self.boards[player][point] = self.boards[player].get(point, 0) + 1

    def position(self, viewer: int, line: int) -> Position | None:
        """The set-up position seen by ``viewer``, or None when not set up."""
        if not self.touched:
            return None
        white, black = self.boards
        try:
            pos = Position.from_points(white, black)
        except ValueError as exc:
            self.context.report.error("syntax", _("set-up position: {reason}").format(reason=exc), line=line)
            self.touched = False
            return None
        return pos if viewer == 0 else pos.flip()


class _Turns:
    """Moves, cube actions and dice (``W``, ``B``, ``DI``) into turns; the
    mirror of :meth:`_Writer.turn`."""

    def __init__(self, context: _Context, setup: _Setup, line: int) -> None:
        self.context = context
        self.setup = setup
        self.line = line
        self.turns = context.game.turns
        self.board: _Board | None = None
        self.offered: tuple[int, int] | None = None  # (doubler, value)
        self.taken: int | None = None  # the cube's value after the last take (before: the game's starting cube)
        self.dice_only: Turn | None = None
        self.resign: tuple[int, int] | None = None

    def on_roll(self) -> int:
        for turn in reversed(self.turns):
            if turn.kind == "roll":
                return 1 - turn.player
        return self.setup.on_roll if self.setup.on_roll is not None else 0

    def played(self) -> bool:
        return any(t is not self.dice_only for t in self.turns)

    def move(self, prop: Property, number: int) -> Turn | None:
        player = "WB".index(prop.ident)
        action = self.context.value(props.MOVES[player], prop, number)
        if action is None:
            return None
        if isinstance(action, Roll):
            return self.roll(player, action, prop, number)
        if action.startswith("resign") or action in ("accept", "reject"):
            self.resignation(player, action, prop, number)
            return None
        kind, cube = self.cube_action(player, action)
        return self.add(
            Turn(player, kind, cube=cube, number=number, line=prop.line, column=prop.column, text=prop.text)
        )

    def cube_action(self, player: int, action: str) -> tuple[TurnKind, int | None]:
        """The turn kind and offered cube value of ``double``, ``beaver``, ``take``, ``drop``."""
        if action in ("take", "drop"):
            if action == "take" and self.offered:
                self.taken = self.offered[1]
            self.offered = None
            return ("take" if action == "take" else "drop"), None
        if self.offered and self.offered[0] != player:
            kind: TurnKind = "beaver"
            cube = self.offered[1] * 2
        else:
            kind, cube = ("beaver" if action == "beaver" else "double"), (self.taken or self.context.game.cube) * 2
        self.offered = (player, cube)
        return kind, cube

    def roll(self, player: int, roll: Roll, prop: Property, number: int) -> Turn:
        if self.board is None:
            self.board = _Board(self.setup.position(0, self.line) or Position.initial())
        marked = self.board.play(player, roll.moves)
        turn = Turn(
            player, "roll", roll.dice, marked, number=number, line=prop.line, column=prop.column, text=prop.text
        )
        pending = self.dice_only
        if (
            pending is not None
            and pending is self.turns[-1]
            and pending.player == player
            and sorted(pending.dice or ()) == sorted(roll.dice)
        ):
            self.turns.pop()  # gnubg's DI set the dice this move was made with
            turn.comment, turn.extra = pending.comment, pending.extra
        return self.add(turn)

    def add(self, turn: Turn) -> Turn:
        self.dice_only = None
        self.turns.append(turn)
        return turn

    def dice(self, prop: Property, node: list[Property], number: int) -> Turn | None:
        """gnubg's ``;PL[B]DI[51]``: a roll not (yet) played."""
        dice = self.context.value(props.DICE, prop, number)
        if dice is None:
            return None
        player = self.on_roll()
        for other in node:
            if other.ident == "PL":
                with contextlib.suppress(ValueError):
                    player = props.COLOR.read(other.values)
        turn = Turn(player, "roll", dice, number=number, line=prop.line, column=prop.column, text=prop.text)
        self.turns.append(turn)
        self.dice_only = turn
        return turn

    def resignation(self, player: int, value: str, prop: Property, number: int) -> None:
        """Gibbon's ``resign:N`` / ``accept`` nodes: the result says the same."""
        report = self.context.report
        if value.startswith("resign"):
            points = value.partition(":")[2]
            self.resign = (player, int(points) if points.isdigit() else 1)
            return
        if value == "accept" and self.resign and self.resign[0] != player:
            result = self.context.game.result
            if result is None or result.winner != player or not result.resigned:
                report.warning(
                    "syntax",
                    _("the accepted resignation does not match RE[...]"),
                    line=prop.line,
                    column=prop.column,
                    move=number,
                )
            return
        report.warning(
            "unsupported",
            _("{prop}: a refused or unmatched resignation is not kept").format(prop=prop.text),
            line=prop.line,
            column=prop.column,
            move=number,
        )


class _GameReader:
    """One game tree into a :class:`Game`: its root, then each node's move,
    or its set-up, dice and markup."""

    def __init__(self, match: Match, tree: GameTree, index: int) -> None:
        self.tree = tree
        self.index = index
        self.game = Game(number=index + 1, line=tree.line, players=match.players)
        self.context = _Context(match, self.game)
        self.setup = _Setup(self.context)
        self.turns = _Turns(self.context, self.setup, tree.line)

    def read(self) -> Game:
        nodes = self.main_line(self.tree)
        _Root(self.context, self.index).read(nodes[0])
        for number, node in enumerate(nodes[1:], start=1):
            self.node(node, number)
        self.finish()
        return self.game

    def main_line(self, tree: GameTree) -> list[Node]:
        nodes = list(tree.nodes)
        while tree.variations:
            for side in tree.variations[1:]:
                self.context.report.warning(
                    "unsupported",
                    _("a side variation is not read (only the main line)"),
                    line=side.line,
                    column=side.column,
                )
            tree = tree.variations[0]
            nodes.extend(tree.nodes)
        return nodes

    def node(self, node: Node, number: int) -> None:
        moves = [p for p in node.props if p.ident in ("W", "B")]
        for extra in moves[1:]:
            self.context.report.warning(
                "syntax",
                _("a second move {move} in one node is ignored (as gnubg does)").format(move=extra.text),
                line=extra.line,
                column=extra.column,
                move=number,
            )
        if not moves:
            self.loose(node.props, number)
            return
        turn = self.turns.move(moves[0], number)
        rest = [p for p in node.props if p.ident not in ("W", "B")]
        if turn is not None:
            self.keep(turn, rest, "sgf")
        elif rest:
            self.loose(rest, number)

    def keep(self, turn: Turn, kept: list[Property], prefix: str) -> None:
        for prop in kept:
            if prop.ident == "C" and prefix == "sgf":
                turn.comment = "\n".join(filter(None, [turn.comment, *prop.values]))
            else:
                turn.extra.setdefault(f"{prefix}:{prop.ident}", []).extend(prop.values)
        if prefix == "sgf":
            turn.analysis = gnubg_analysis(turn.extra) if turn.kind == "roll" else gnubg_cube_analysis(turn.extra)

    def loose(self, node: list[Property], number: int) -> None:
        """A node without a move: set-up, dice, markup."""
        played = self.turns.played()
        report = self.context.report
        rest: list[Property] = []
        dice_turn: Turn | None = None
        dice = next((p for p in node if p.ident == "DI"), None)
        for prop in node:
            if prop.ident == "PL" and dice is not None:
                continue  # gnubg's ;PL[B]DI[51]: whose dice (read with them)
            if prop.ident in _SETUP | {"CV", "CP"} and not played and self.setup.read(prop):
                continue
            if prop is dice:
                dice_turn = self.turns.dice(prop, node, number)
                continue
            if prop.ident in ("CV", "CP", "CO"):
                report.warning(
                    "unsupported",
                    _("cube set-up {prop} is kept raw; the record's replay does not use it").format(prop=prop.text),
                    line=prop.line,
                    column=prop.column,
                    move=number,
                )
            elif prop.ident in _SETUP:
                report.warning(
                    "unsupported",
                    _("a set-up {prop} in the middle of a game is kept raw; the record's replay ignores it").format(
                        prop=prop.text[:30]
                    ),
                    line=prop.line,
                    column=prop.column,
                    move=number,
                )
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

    def finish(self) -> None:
        game = self.game
        first = self.setup.on_roll if self.setup.on_roll is not None else 0
        if game.turns:
            first = _first_player(game)
        elif self.setup.on_roll == 1:  # who is on roll; White unless said
            game.extra["sgf-setup:PL"] = ["B"]
        start = self.setup.position(first, self.tree.line)
        if start is not None and start != Position.initial():
            game.start = start.position_id()


def gnubg_analysis(extra: dict[str, list[str]]) -> RecordedAnalysis | None:
    """gnubg's own analysis of a roll as its SGF keeps it: ``A[i][play]...``
    (the index of the play made among the plays weighed, each ``move E ver
    N`` and five probabilities and the equity, EMG), ``LU[luck]`` (EMG) and
    ``DA`` (the cube decision before the roll, :func:`gnubg_cube_options`);
    None where the node holds none of them. Plays analysed some other way
    (a rollout) give no error.

    >>> a = gnubg_analysis({"sgf:A": ["1", "ab E ver 3 .5 .1 0 .1 0 0.25 2C", "cd E ver 3 .5 .1 0 .1 0 0.20 2C"],
    ...                     "sgf:LU": ["0.031"]})
    >>> a.program, round(a.error, 6), a.luck, a.cube_options
    ('gnubg', 0.05, 0.031, ())
    """
    plays, luck = extra.get("sgf:A", []), extra.get("sgf:LU", [])
    error = None
    made = int(plays[0]) + 1 if plays and plays[0].isdigit() else 0
    if 0 < made < len(plays):  # gnubg lists the plays best first: the best's equity less the one made
        best, mine = _equity(plays[1]), _equity(plays[made])
        if best is not None and mine is not None:
            error = max(0.0, best - mine)
    found = None
    if luck:
        with contextlib.suppress(ValueError):
            found = _finite(float(luck[0]))  # gnubg writes LU[-inf] for a roll whose luck it did not weigh
    cube = gnubg_cube_options(extra.get("sgf:DA", []))
    if error is None and found is None and not cube:
        return None
    return RecordedAnalysis(GNUBG, error, found, cube_options=cube)


def gnubg_cube_analysis(extra: dict[str, list[str]]) -> RecordedAnalysis | None:
    """gnubg's analysis of a double, take or drop (its node's ``DA``): the
    cube options as candidates; None where the node holds none. The error
    is left to the judge, who knows the match score (gnubg writes match
    winning chances)."""
    options = gnubg_cube_options(extra.get("sgf:DA", []))
    return RecordedAnalysis(GNUBG, candidates=options, level=options[0].level) if options else None


def gnubg_cube_options(values: Sequence[str]) -> tuple[Candidate, ...]:
    """gnubg's ``DA[E ver N {plies}C ...]`` (an evaluation; a rollout gives
    nothing): ``no double`` and ``double/take``, each with gnubg's five
    probabilities and its cubeful equity for the side to double (match
    winning chances in match play, EMG in money play: the last of each set
    of seven numbers).

    >>> nd, dt = gnubg_cube_options(["E ver 3 0C 1 0.000000 1 0.53 0.16 0.01 0.12 0.007 0.13 0.516 "
    ...                              "0.53 0.16 0.01 0.12 0.007 0.13 0.487"])
    >>> nd.action, nd.equity, dt.action, dt.equity, dt.level
    ('no double', 0.516, 'double/take', 0.487, '0-ply')
    """
    words = values[0].split() if values else []
    if len(words) != 21 or words[:3] != ["E", "ver", "3"] or not words[3].rstrip("C").isdigit():
        return ()  # (a rollout, or a layout other than gnubg 1.07's and 1.08's version 3: kept raw only)
    try:
        numbers = [float(w) for w in words[-14:]]
    except ValueError:
        return ()
    if not all(map(math.isfinite, numbers)):
        return ()  # (no figures: what gnubg did not work out)
    level = f"{words[3].rstrip('C')}-ply"
    no_double, take = numbers[:7], numbers[7:]
    return (
        Candidate(no_double[6], action="no double", probabilities=_five(no_double), level=level),
        Candidate(take[6], action="double/take", probabilities=_five(take), level=level),
    )


def _five(numbers: list[float]) -> tuple[float, float, float, float, float]:
    return numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]


def _equity(play: str) -> float | None:
    """The equity of one play of gnubg's ``A`` (``move E ver N`` p0..p4 equity ...); None if not so."""
    words = play.split(maxsplit=10)
    if len(words) < 10 or words[1] != "E" or words[2] != "ver":
        return None
    try:
        return _finite(float(words[9]))
    except ValueError:
        return None


def _finite(value: float) -> float | None:
    """``value``, or None for what is no figure (gnubg's ``-inf`` and ``nan`` for what it did not work out).

    >>> _finite(0.25), _finite(float("-inf")), _finite(float("nan"))
    (0.25, None, None)
    """
    return value if math.isfinite(value) else None


# --- writing -------------------------------------------------------------------


#: The properties gnubg keeps its analysis of a turn in.
_ANALYSIS_PROPS = ("sgf:A", "sgf:LU", "sgf:DA")


def _carried(turn: Turn) -> bool:
    """Is the turn's analysis gnubg's, written back with the node's own ``A``, ``LU`` and ``DA``?"""
    analysis = turn.analysis
    return analysis is not None and analysis.program == GNUBG and any(k in turn.extra for k in _ANALYSIS_PROPS)


def write_sgf(match: Match, stream: IO[str]) -> list[Problem]:
    """Write ``match`` as gnubg's SGF; returns ``lost-on-write`` problems for
    what SGF cannot hold."""
    writer = _Writer(match)
    for index, game in enumerate(match.games):
        stream.write(serialise(writer.game(game, index)))
    if writer.cannot_move:
        writer.lost(
            _("{count} roll(s) marked 'Cannot Move' are written as plain dances").format(count=writer.cannot_move)
        )
    if writer.analysed:
        writer.lost(_("the analysis the record holds of {count} turn(s) is left out").format(count=writer.analysed))
    return writer.report.problems


class _Writer:
    """A match into SGF trees, section by section as :class:`_GameReader` reads them."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.rules = match.rules or DEFAULT_RULES
        self.report = Reporter(file=match.source)
        self.lost_keys: set[str] = set()
        self.cannot_move = 0
        self.analysed = 0

    def lost(self, message: str, game: Game | None = None, turn: Turn | None = None) -> None:
        self.report.warning(
            "lost-on-write",
            message,
            line=turn.line if turn else game.line if game else None,
            game=game.number if game else None,
            move=turn.number if turn else None,
        )

    def game(self, game: Game, index: int) -> list[NodeOut]:
        match = self.match
        number = game.number - 1 if game.number is not None else index
        info: list[tuple[str, int | str]] = [
            ("length", match.length),
            ("game", number),
            ("ws", game.score[0]),
            ("bs", game.score[1]),
        ]
        root: list[tuple[str, Sequence[str]]] = [
            ("FF", ["4"]),
            ("GM", ["6"]),
            ("CA", ["UTF-8"]),
            ("AP", [_APP]),
            ("MI", props.INFO.write(info) + game.extra.get("sgf:MI", [])),
            ("PW", [match.players[0]]),
            ("PB", [match.players[1]]),
        ]
        if index == 0:
            root.extend(_match_root(match, self.lost))
        root.append(("RU", props.RULES.write(_rule_words(match, game, lambda text: self.lost(text, game)))))
        root.append(("RE", self.result(game)))
        root.extend(self.extras(game.extra, "sgf", game, skip=("MI", "RU")))
        self.foreign(game.extra, game)
        root.append(("C", game.comments))
        nodes: list[NodeOut] = [root]
        first = _first_player(game)
        board = self.setup(game, first, nodes)
        for turn in game.turns:
            nodes.extend(self.turn(game, turn, board))
        return nodes

    def result(self, game: Game) -> list[str]:
        result = game.result
        if result is None:
            return []
        if result.winner in (0, 1) and result.points >= 1:
            return props.RESULT.write(Outcome(result.winner, result.points, result.resigned))
        self.lost(
            _("result {winner}+{points} cannot be written").format(winner=result.winner, points=result.points), game
        )
        return []

    def extras(
        self, extra: dict[str, list[str]], prefix: str, game: Game, skip: tuple[str, ...] = ()
    ) -> list[tuple[str, Sequence[str]]]:
        out: list[tuple[str, Sequence[str]]] = []
        for key, values in extra.items():
            kind, _sep, ident = key.partition(":")
            if kind != prefix or ident in skip:
                continue
            if not re.fullmatch(r"[A-Z]{1,8}", ident) or not values:
                self.lost(_("extra {key!r} is not an SGF property").format(key=key), game)
                continue
            out.append((ident, values))
        return out

    def foreign(self, extra: dict[str, list[str]], game: Game, turn: Turn | None = None) -> None:
        for key in extra:
            if key.partition(":")[0] not in ("sgf", "sgf-setup", "sgf-after") and key not in self.lost_keys:
                self.lost_keys.add(key)
                self.lost(_("extra {key!r} from another format has no SGF property").format(key=key), game, turn)

    def setup(self, game: Game, first: int, nodes: list[NodeOut]) -> _Board:
        """Set-up nodes (the mirror of :meth:`_GameReader.loose` before the first play)."""
        start = Position.initial()
        skip: tuple[str, ...] = ()
        if game.start:
            try:
                start = Position.from_position_id(game.start)
            except ValueError as exc:
                self.lost(_("start position: {reason}").format(reason=exc), game)
            else:
                mover, opponent = start.points()
                boards = (mover, opponent) if first == 0 else (opponent, mover)
                skip = ("PL",)
                nodes.append(
                    [("PL", props.COLOR.write(first)), ("AE", ["a:y"])]
                    + [
                        (ident, [point_letter(i + 1, player) for i, n in enumerate(boards[player]) for _n in range(n)])
                        for player, ident in ((0, "AW"), (1, "AB"))
                    ]
                )
        if game.cube != 1:
            nodes.append([("CV", props.NUMBER.write(game.cube))])
        if game.cube_owner is not None:
            nodes.append([("CP", props.OWNER.write(game.cube_owner))])
        extra = self.extras(game.extra, "sgf-setup", game, skip)
        if extra:
            nodes.append(extra)
        return _Board(start if first == 0 else start.flip())

    def turn(self, game: Game, turn: Turn, board: _Board) -> list[NodeOut]:
        """A turn's node, and the node after it (the mirror of :meth:`_GameReader.node`)."""
        if turn.player not in (0, 1):
            self.lost(_("a turn by player {player} cannot be written").format(player=turn.player), game, turn)
            return []
        ident = "WB"[turn.player]
        node: list[tuple[str, Sequence[str]]]
        if turn.analysis is not None and not _carried(turn):
            self.analysed += 1
        if turn.kind != "roll":
            node = [(ident, props.MOVES[turn.player].write("double" if turn.kind == "beaver" else turn.kind))]
        else:
            rolled = self.roll(game, turn, board)
            if rolled is None:
                return []
            node = rolled
        if turn.extra:
            node.extend(self.extras(turn.extra, "sgf", game))
        if turn.comment is not None:
            node.append(("C", [turn.comment]))
        if not turn.extra:
            return [node]
        self.foreign(turn.extra, game, turn)
        after = self.extras(turn.extra, "sgf-after", game)
        return [node, after] if after else [node]

    def roll(self, game: Game, turn: Turn, board: _Board) -> list[tuple[str, Sequence[str]]] | None:
        dice = as_roll(turn.dice)
        if dice is None:
            self.lost(_("a roll with dice {dice!r} cannot be written").format(dice=turn.dice), game, turn)
            return None
        ident = "WB"[turn.player]
        if turn.status in ("unknown", "illegal"):
            self.lost(
                _("the play status {status!r} is not kept (written as the roll alone)").format(status=turn.status),
                game,
                turn,
            )
        elif turn.status == "cannot-move":
            self.cannot_move += 1
        if turn.moves:
            if len(turn.moves) > 4:
                self.lost(_("gnubg reads only four moves of a play"), game, turn)
            try:
                value = props.MOVES[turn.player].write(Roll(dice, turn.moves))
            except ValueError as exc:
                self.lost(_("play {play}: {reason}").format(play=turn.play, reason=exc), game, turn)
                return None
            board.play(turn.player, turn.moves)  # SGF has no hit marks: a reader finds the board's hits
            return [(ident, value)]
        if (
            turn is game.turns[-1]
            and board.ok
            and any(p.moves for p in board.view(turn.player).legal_plays(dice, self.rules))
        ):
            return [("PL", props.COLOR.write(turn.player)), ("DI", props.DICE.write(dice))]  # rolled, then resigned
        return [(ident, props.MOVES[turn.player].write(Roll(dice, ())))]


def _first_player(game: Game) -> int:
    if game.turns:
        turn = game.turns[0]
        return turn.player if turn.kind in ("roll", "double") else 1 - turn.player
    pl = game.extra.get("sgf-setup:PL", ["W"])
    return 1 if pl and pl[0].upper().startswith("B") else 0
