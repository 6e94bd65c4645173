"""Whole records with legal plays, for format round trips: a hypothesis
strategy (:func:`matches`) and the same generator driven by a seeded
``random.Random`` (:func:`random_match`, for batches sent to gnubg).

Plays come from :meth:`Position.legal_plays`, so every roll has real moves
(with the engine's hit flags) that SGF can carry and a reader can replay.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from typing import Protocol, TypeVar

from hypothesis import strategies as st

from tavlakit.engine.position import Position
from tavlakit.engine.rules import Rules
from tavlakit.record.match import Game, Match, Result, Turn

BACKGAMMON = Rules.preset("backgammon")
T = TypeVar("T")
# Text without "\r" (SGF readers fold CR LF) but with the characters SGF escapes.
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=12)
NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
_RANDOM_TEXT = string.ascii_letters + string.digits + " ]\\:[;()\nçşğ"


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int: ...
    def sample(self, items: Sequence[T]) -> T: ...
    def text(self, name: bool = False) -> str: ...


class _Draw:
    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def sample(self, items: Sequence[T]) -> T:
        return self.draw(st.sampled_from(items))

    def text(self, name: bool = False) -> str:
        return self.draw(NAMES if name else TEXT)


class _Random:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def sample(self, items: Sequence[T]) -> T:
        return self.rng.choice(items)

    def text(self, name: bool = False) -> str:
        chars = _RANDOM_TEXT.replace("\n", "") if name else _RANDOM_TEXT
        return "".join(self.rng.choice(chars) for _ in range(self.rng.randint(1, 12)))


def _dice(c: Chooser) -> tuple[int, int]:
    return c.integer(1, 6), c.integer(1, 6)


def _game(c: Chooser, number: int, length: int, crawford_rule: bool, sgf: bool) -> Game:
    first = c.integer(0, 1)
    pos = Position.initial()
    start = None
    if c.integer(0, 4) == 0:  # a set-up start: the position after a few random plays
        for _ in range(c.integer(1, 6)):
            pos = pos.play(c.sample(pos.legal_plays(_dice(c), BACKGAMMON)))
        start = pos.position_id()
    score_max = length - 1 if length else 20
    game = Game(
        number=number,
        score=(c.integer(0, score_max), c.integer(0, score_max)),
        start=start,
        crawford=bool(c.integer(0, 1)) if crawford_rule else None,
    )
    if start is not None and c.integer(0, 2) == 0:  # a set-up may start with the cube turned
        game.cube = 2 ** c.integer(1, 3)
        game.cube_owner = c.integer(0, 1)
    player, cube, owner = first, game.cube, game.cube_owner
    ended = False
    for _ in range(c.integer(0, 40)):
        if (owner is None or owner == player) and c.integer(0, 9) == 0:
            cube *= 2
            game.turns.append(Turn(player, "double", cube=cube))
            if c.integer(0, 3) == 0:
                game.turns.append(Turn(1 - player, "drop"))
                game.result = Result(player, cube // 2)
                ended = True
                break
            game.turns.append(Turn(1 - player, "take"))
            owner = 1 - player
        dice = _dice(c)
        play = c.sample(pos.legal_plays(dice, BACKGAMMON))
        comment = c.text() if c.integer(0, 5) == 0 else None
        game.turns.append(Turn(player, "roll", dice, play.moves, comment=comment))
        pos = pos.play(play)
        if pos.winner() is not None:
            game.result = Result(player, cube * c.integer(1, 3))
            ended = True
            break
        player = 1 - player
    if not ended and c.integer(0, 1):
        if game.turns and c.integer(0, 1):  # rolled, then resigned without playing
            game.turns.append(Turn(player, "roll", _dice(c)))
        game.result = Result(1 - player, cube * c.integer(1, 3), resigned=True)
    if c.integer(0, 3) == 0:
        game.comments.append(c.text())
    if not sgf and c.integer(0, 1):
        game.extra["other:note"] = [c.text()]
    return game


def _match(c: Chooser, sgf: bool) -> Match:
    crawford = bool(c.integer(0, 1))
    tags: dict[str, str] = {"Crawford": "On"} if crawford else {}
    for _ in range(c.integer(0, 2)):
        tag = c.sample(["Event", "Round", "Site", "Transcriber"]) if sgf else c.text(name=True)
        tags[tag] = c.text()
    if sgf and c.integer(0, 1):
        tags["EventDate"] = c.sample(["2025.11.08", "1999.01.31"])
    match = Match(
        players=(c.text(name=True), c.text(name=True)),
        length=c.sample([0, 1, 3, 5, 7, 25]),
        tags=tags,
        comments=[c.text()] if c.integer(0, 1) else [],
    )
    for number in range(1, c.integer(1, 3) + 1):
        match.games.append(_game(c, number, match.length, crawford, sgf))
    return match


@st.composite
def matches(draw: st.DrawFn, sgf: bool = False) -> Match:
    """A match; ``sgf=True`` keeps to what SGF can hold (its tags, no
    foreign extras)."""
    return _match(_Draw(draw), sgf)


def random_match(seed: int, sgf: bool = False) -> Match:
    """The same kind of match from a seeded random generator."""
    return _match(_Random(random.Random(seed)), sgf)
