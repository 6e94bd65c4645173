"""The content fingerprint of a match: the same match stored twice (a .mat
and its .sgf, two downloads, a FIBS file and its conversion) has the same
fingerprint.

It hashes the game, not its notation, as the replay walked it: the match
length, and per game the score, then per turn its player, kind and dice
(in either order), the board its play left (as replayed: hit marks, the
order of the moves and a checker's run written in one move or two do not
count; a play at fault is taken as written) or the cube after a cube
action, and the result's winner and points. File names, player names, comments, tags, line numbers and
whether a game was resigned (a .mat cannot say) are left out.

>>> from tavlakit.record.match import Game, Match, Result, Turn
>>> from tavlakit.engine.play import Move
>>> a = Match(games=[Game(1, turns=[Turn(0, dice=(3, 1), moves=(Move(8, 5), Move(6, 5)))], result=Result(0, 1))])
>>> b = Match(players=("x", "y"), games=[Game(1, turns=[Turn(0, dice=(1, 3), moves=(Move(6, 5), Move(8, 5)))],
...                                          result=Result(0, 1, resigned=True))], source="b.mat")
>>> fingerprint(a) == fingerprint(b)
True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Iterator
from functools import lru_cache

from ..engine.rules import Rules
from ..i18n import _
from ..record.match import Match
from ..record.problem import Problem
from .walker import ReplayedGame, Step, replay

#: Bumped when what is hashed changes (a store analyses its files again: :mod:`tavlakit.collections.schema`).
VERSION = 2


#: A board's 26 counts as signed bytes (as ``array("b", board).tobytes()``, packed faster).
_BOARD = struct.Struct("26b")


@lru_cache(maxsize=1024)
def _roll_head(player: int, dice: tuple[int, ...] | None, status: str) -> bytes:
    """What a roll's step starts with: the player, the dice in either order, the play's status."""
    return f"|{player}{sorted(dice) if dice else ''}{status}".encode()


def _step_text(step: Step) -> bytes:
    turn = step.turn
    if turn.kind != "roll":
        return f"|{step.player}{turn.kind}{step.cube_after}{step.owner_after}".encode()
    head = _roll_head(step.player, tuple(turn.dice) if turn.dice else None, turn.status)
    if step.known_after and step.legal:  # the board the play left
        return head + _BOARD.pack(*step.after.board)
    # a play at fault, or from an unknown board: as written (the walker's guess would hide a difference)
    return head + repr(sorted(m[:2] for m in turn.moves)).encode()


def _game_text(replayed: ReplayedGame) -> bytes:
    game = replayed.game
    result = (game.result.winner, game.result.points) if game.result else None
    head = repr((game.score, game.start, game.cube, result)).encode()
    return head + b"".join(_step_text(s) for s in replayed.steps)


class Fingerprinter:
    """Builds a fingerprint while the replayed games pass (memory stays
    flat): :meth:`add` each :class:`~tavlakit.replay.walker.ReplayedGame`,
    then :meth:`digest`."""

    def __init__(self, match: Match) -> None:
        self.hash = hashlib.blake2b(repr(match.length).encode(), digest_size=16)
        self.count = 0

    def add(self, replayed: ReplayedGame) -> None:
        """Hash one replayed game."""
        self.hash.update(_game_text(replayed))
        self.count += len(replayed.steps)

    def games(self, replayed: Iterable[ReplayedGame]) -> Iterator[ReplayedGame]:
        """The replayed games unchanged, each hashed on the way."""
        for one in replayed:
            self.add(one)
            yield one

    def digest(self) -> str | None:
        """The fingerprint, or ``None`` for a match without a turn (those are
        never the same match as another)."""
        return self.hash.hexdigest() if self.count else None


def fingerprint(match: Match, rules: Rules | None = None) -> str | None:
    """The fingerprint of a whole match, replayed under ``rules`` (default:
    its own); ``None`` when no turn was played."""
    maker = Fingerprinter(match)
    for _replayed in maker.games(replay(match, rules)):
        pass
    return maker.digest()


class Twins:
    """Sources seen one by one, in order: each later source holding the same
    match as an earlier one is a twin of the first."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}
        """Each fingerprint's first source."""
        self.of: dict[str, str] = {}
        """Each twin source, mapped to the first."""

    def see(self, source: str, digest: str | None) -> str | None:
        """The first source of ``source``'s match if it came before, else None."""
        if digest is None:
            return None
        if digest not in self.first:
            self.first[digest] = source
            return None
        self.of[source] = self.first[digest]
        return self.of[source]


def duplicates(prints: Iterable[tuple[str, str | None]]) -> dict[str, str]:
    """For (source, fingerprint) pairs in order: each later source holding
    the same match as an earlier one, mapped to the first.

    >>> duplicates([("a.mat", "f1"), ("b.mat", "f2"), ("a.sgf", "f1"), ("c", None), ("d", None)])
    {'a.sgf': 'a.mat'}
    """
    twins = Twins()
    for source, digest in prints:
        twins.see(source, digest)
    return twins.of


def duplicate_problem(source: str, first: str) -> Problem:
    """The info line saying that ``source`` holds the match ``first`` holds."""
    return Problem("duplicate-match", "info", _("the same match as {first}").format(first=first), file=source)


__all__ = ["Fingerprinter", "Twins", "duplicate_problem", "duplicates", "fingerprint"]
