"""The content fingerprint of a match: the same match stored twice (a .mat
and its .sgf, two downloads) has the same fingerprint.

It hashes what was played: the match length, and per game the score, each
turn's player, kind, dice, moves (in any order), roll status and cube value,
and the result's winner and points. File names, player names, comments,
tags, line numbers and whether a game was resigned (a .mat cannot say) are
left out.

>>> from tavlakit.record.match import Game, Match, Result, Turn
>>> a = Match(games=[Game(1, turns=[Turn(0, dice=(3, 1))], result=Result(0, 1))], source="a.mat")
>>> b = Match(players=("x", "y"), games=[Game(1, turns=[Turn(0, dice=(3, 1))], result=Result(0, 1, True))])
>>> fingerprint(a) == fingerprint(b)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator

from ..i18n import _
from .match import Game, Match
from .problem import Problem


def _game_text(game: Game) -> str:
    turns = [(t.player, t.kind, t.dice, sorted(t.moves), t.status, t.cube) for t in game.turns]
    result = (game.result.winner, game.result.points) if game.result else None
    return repr((game.score, game.start, game.cube, turns, result))


class Fingerprinter:
    """Builds a fingerprint while the games stream past (memory stays flat):
    ``validate(match, games=fp.games(games))``, then :meth:`digest`."""

    def __init__(self, match: Match) -> None:
        self.hash = hashlib.blake2b(repr(match.length).encode(), digest_size=16)
        self.count = 0

    def games(self, games: Iterable[Game]) -> Iterator[Game]:
        """The games unchanged, each hashed on the way."""
        for game in games:
            self.hash.update(_game_text(game).encode())
            self.count += len(game.turns)
            yield game

    def digest(self) -> str | None:
        """The fingerprint, or ``None`` for a match without a turn (those are
        never the same match as another)."""
        return self.hash.hexdigest() if self.count else None


def fingerprint(match: Match) -> str | None:
    """The fingerprint of a whole match (``None`` when no turn was played)."""
    maker = Fingerprinter(match)
    for _game in maker.games(match.games):
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
