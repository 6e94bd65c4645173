"""The Jacoby rule of a money session: what the record says, else what its
results show, else what GNU Backgammon assumes.

Under the Jacoby rule (money play only) a gammon or backgammon counts single
while the cube has not been turned. GNU Backgammon 1.07 plays and analyses
money sessions with it unless told otherwise, and a ``.mat`` money session
rarely says which rule it was played by, so:

1. the record's word: a ``Jacoby`` tag (``; [Jacoby "On"]``, gnubg's SGF
   ``RU[Jacoby]``) or the ``Rules`` tag's ``jacoby=`` option;
2. else its results: an undoubled game written as worth 2 or 3 points
   counted a gammon the Jacoby rule would have counted single: no Jacoby;
3. else gnubg's default: the Jacoby rule.

The replayer follows the results game by game as well (:func:`jacoby_shown`,
so a file read game by game is judged alike): where the record does not
say, the first undoubled gammon decides (1 point: Jacoby, 2: not), and a
later one that fits neither is an error.

>>> from tavlakit.record.match import Game, Match, Result
>>> jacoby_of(Match(games=[Game(1, result=Result(0, 1))]))
(True, 'gnubg')
>>> jacoby_of(Match(games=[Game(1, result=Result(0, 2))]))
(False, 'results')
>>> jacoby_of(Match(tags={"Jacoby": "Off"}))
(False, 'record')
"""

from __future__ import annotations

from typing import Literal

from ..engine.rules import ResultKind, Rules
from ..record.match import Game, Match, jacoby_said

JacobyFrom = Literal["record", "results", "gnubg"]
"""Where a money session's Jacoby rule came from: its tags, its results, gnubg's default."""


def jacoby_of(match: Match) -> tuple[bool, JacobyFrom]:
    """Whether ``match`` (a money session) was played with the Jacoby rule, and how that is known."""
    said = jacoby_said(match.tags)
    if said is not None:
        return said, "record"
    if any(gammon_counted(game) for game in match.games):
        return False, "results"
    return True, "gnubg"


def money_rules(match: Match, rules: Rules) -> Rules:
    """``rules`` with the Jacoby rule of ``match`` when it is a money session
    played with the cube (:func:`jacoby_of`: the session's own rule, whatever
    ``rules`` say of it); else ``rules`` as they are."""
    if match.length or not rules.cube:
        return rules
    jacoby = jacoby_of(match)[0]
    return rules if rules.jacoby == jacoby else rules.replace(jacoby=jacoby)


def jacoby_used(match: Match, rules: Rules) -> tuple[bool | None, JacobyFrom | None]:
    """The Jacoby rule ``match`` is judged by under ``rules``
    (:func:`money_rules`') and where it came from; ``(None, None)`` for a
    match or a game without the cube, which never play it."""
    if match.length or not rules.cube:
        return None, None
    return rules.jacoby, jacoby_of(match)[1]


def undoubled(game: Game) -> bool:
    """The game's cube was never turned (no take, no beaver, no automatic double)."""
    return game.cube == 1 and not any(turn.kind in ("take", "beaver") for turn in game.turns)


def gammon_counted(game: Game) -> bool:
    """An undoubled game written as worth 2 or 3 points: a gammon or
    backgammon counted while the cube was at 1, which the Jacoby rule forbids."""
    result = game.result
    return result is not None and 2 <= result.points <= 3 and undoubled(game)


def jacoby_shown(game: Game, cube: int, kind: ResultKind | None) -> bool | None:
    """What a replayed game of a money session shows of the Jacoby rule
    (``cube``: its cube at the end; ``kind``: how the board says it was
    won): an undoubled game written as worth 2 or 3 points, not (False); an
    undoubled gammon or backgammon written as worth 1, the rule (True); else
    nothing (None)."""
    result = game.result
    if result is None or cube != 1:
        return None
    if gammon_counted(game):
        return False
    if result.points == 1 and undoubled(game) and kind in ("mars", "backgammon"):
        return True
    return None


__all__ = ["JacobyFrom", "gammon_counted", "jacoby_of", "jacoby_shown", "jacoby_used", "money_rules", "undoubled"]
