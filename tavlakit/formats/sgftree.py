"""Smart Game Format (FF[4]) collections as trees of nodes and properties.

This layer knows SGF's syntax only, nothing of any game: a collection is
a list of :class:`GameTree`, each a sequence of :class:`Node` and its side
variations; a node holds :class:`Property` values as raw text (escapes
removed). The LALR grammar is ``grammars/sgf.lark``; its parser is built
once, with the ``_Trees`` transformer, so no parse tree is kept.

>>> from tavlakit.record.problem import Reporter
>>> [tree] = parse(r"(;GM[6]C[a \\] b];W[31fehe])", Reporter())
>>> tree.nodes[0].get("C").values, tree.nodes[1].props[0].ident
(['a ] b'], 'W')
>>> serialise([[("GM", ["6"]), ("C", ["a ] b"])], [("W", ["31fehe"])]])
'(;GM[6]C[a \\\\] b]\\n;W[31fehe])\\n'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .._data import grammar_text
from ..i18n import _
from ..record.problem import Reporter

__all__ = ["GameTree", "Node", "Property", "escape", "parse", "serialise", "split"]


@dataclass
class Property:
    """A property as written: its name, its values, where it starts."""

    ident: str
    values: list[str]
    line: int
    column: int
    text: str
    """The property as written, escapes and all."""


@dataclass
class Node:
    """A node (``;`` and its properties)."""

    line: int
    column: int
    props: list[Property]

    def get(self, ident: str) -> Property | None:
        """The first property called ``ident``, if any."""
        return next((prop for prop in self.props if prop.ident == ident), None)


@dataclass
class GameTree:
    """A game tree: its nodes, then its side variations (the first is the main line)."""

    line: int
    column: int
    nodes: list[Node]
    variations: list[GameTree]


_ESCAPE = re.compile(r"\\([\s\S])")


def _unescape(raw: str) -> str:
    return _ESCAPE.sub(r"\1", raw)


def escape(text: str) -> str:
    """``text`` as an SGF value holds it (``\\`` and ``]`` escaped)."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


_Child = Token | Node | GameTree | Property


class _Trees(Transformer[Token, list[GameTree]]):
    """Builds the light trees above while the parser runs."""

    def start(self, children: list[GameTree]) -> list[GameTree]:
        return children

    def game(self, children: list[_Child]) -> GameTree:
        lpar = children[0]
        assert isinstance(lpar, Token)
        nodes = [c for c in children if isinstance(c, Node)]
        variations = [c for c in children if isinstance(c, GameTree)]
        return GameTree(lpar.line or 0, lpar.column or 0, nodes, variations)

    variation = game

    def node(self, children: list[_Child]) -> Node:
        semi = children[0]
        assert isinstance(semi, Token)
        return Node(semi.line or 0, semi.column or 0, [c for c in children[1:] if isinstance(c, Property)])

    def prop(self, children: list[Token]) -> Property:
        ident, values = children[0], children[1:]
        name = "".join(c for c in ident if c.isupper())  # FF[3]'s lower-case letters are ignored
        text = str(ident) + "".join(values)
        return Property(name, [_unescape(v[1:-1]) for v in values], ident.line or 0, ident.column or 0, text)


_PARSER = Lark(grammar_text("sgf"), parser="lalr", lexer="contextual", transformer=_Trees(), cache=True)

_NAMES = {
    "LPAR": "'('",
    "RPAR": "')'",
    "SEMI": "';'",
    "IDENT": "a property name",
    "VALUE": "a [value]",
    "$END": "the end of the file",
}


def parse(text: str, report: Reporter, line: int = 1, column: int = 1) -> list[GameTree]:
    """The game trees of ``text``, which starts at ``line`` and ``column``
    of its file; what cannot be read is dropped, with one located
    ``syntax`` problem per line through ``report``."""
    reported: set[int] = set()

    def where(exc: UnexpectedInput) -> dict[str, int]:
        return {"line": exc.line + line - 1, "column": exc.column + (column - 1 if exc.line == 1 else 0)}

    def on_error(exc: UnexpectedInput) -> bool:
        if exc.line not in reported:
            reported.add(exc.line)
            report.error("syntax", _error_message(exc), **where(exc))
        if isinstance(exc, UnexpectedToken):
            _repair(exc)
        return True

    try:
        trees: list[GameTree] = _PARSER.parse(text, on_error=on_error)  # type: ignore[assignment]
    except UnexpectedInput as exc:
        report.error("syntax", _("{error}; the rest is not read").format(error=_error_message(exc)), **where(exc))
        return []
    if line != 1 or column != 1:
        for tree in trees:
            _move(tree, line - 1, column - 1)
    return trees


def _move(tree: GameTree, lines: int, columns: int) -> None:
    """Shift where ``tree`` and all in it were written by ``lines`` (and
    ``columns`` on the first line)."""
    places: list[GameTree | Node | Property] = [tree]
    while places:
        place = places.pop()
        if place.line == 1:
            place.column += columns
        place.line += lines
        if isinstance(place, GameTree):
            places.extend(place.nodes)
            places.extend(place.variations)
        elif isinstance(place, Node):
            places.extend(place.props)


_SPECIAL = re.compile(r"[\[()]")
_VALUE_REST = re.compile(r"(?:[^\\\]]|\\[\s\S])*\]")


def split(stream: IO[str], size: int = 1 << 16) -> Iterator[tuple[str, int, int]]:
    """A collection's text read from ``stream`` piece by piece, so that a
    large file is parsed one game tree at a time: each piece ends with a
    top-level tree's ``)`` (the last holds whatever is left), and comes
    with the line and column where it starts. ``\\r\\n`` is read as ``\\n``.

    >>> import io
    >>> list(split(io.StringIO("(;C[a)b])\\n(;GM[6])(;")))
    [('(;C[a)b])', 1, 1), ('\\n(;GM[6])', 1, 10), ('(;', 2, 9)]
    """
    buffer, pos, depth, line, column, ended = "", 0, 0, 1, 1, False
    while True:
        found = _SPECIAL.search(buffer, pos)
        value = _VALUE_REST.match(buffer, found.end()) if found and found[0] == "[" else None
        if found is None or (found[0] == "[" and value is None):
            if ended:
                break
            more = stream.read(size)
            if more.endswith("\r"):
                more += stream.read(1)
            ended = not more
            buffer += more.replace("\r\n", "\n")
            continue
        if value is not None:
            pos = value.end()
            continue
        pos = found.end()
        if found[0] == "(":
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                piece, buffer, pos = buffer[:pos], buffer[pos:], 0
                yield piece, line, column
                breaks = piece.count("\n")
                line, column = line + breaks, (len(piece) - piece.rfind("\n") if breaks else column + len(piece))
    if buffer.strip():
        yield buffer, line, column


def _repair(exc: UnexpectedToken) -> None:
    """Close what a bad token or the end of the file left open."""
    parser = exc.interactive_parser
    if exc.token.type == "$END":
        for _ in range(10_000):
            accepts = parser.accepts()  # type: ignore[no-untyped-call]
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
        expected = " or ".join(sorted(_NAMES.get(e, e) for e in exc.expected))
        return _("unexpected {token!r}; expected {expected}").format(token=str(exc.token)[:20], expected=expected)
    return str(exc).splitlines()[0]


#: A node to write: its properties in order, each a name and its values.
NodeOut = Sequence[tuple[str, Sequence[str]]]


def serialise(nodes: Iterable[NodeOut]) -> str:
    """One game tree without variations, a node per line; properties
    without values are left out."""
    out = ["("]
    for node in nodes:
        out.append(";")
        for ident, values in node:
            if values:
                out.append(ident)
                out.extend("[" + escape(value) + "]" for value in values)
        out.append("\n")
    if out[-1] == "\n":
        out.pop()
    out.append(")\n")
    return "".join(out)
