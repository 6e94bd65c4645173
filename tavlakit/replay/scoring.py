"""Judging results and score lines: does the written outcome follow from the
board, the cube and the earlier games?

>>> from tavlakit.record.match import Game, Result
>>> from tavlakit.engine.rules import PRESETS
>>> game = Game(1, result=Result(0, 2))
>>> [f.code for f in judge_result(game, PRESETS["backgammon"], 5, Ending(cube=1, winner=0, kind="single"),
...                               ("A", "B"))]
['result-mismatch']
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from ..engine.rules import ResultKind, Rules
from ..i18n import _
from ..record.match import Game
from ..record.matchscore import absurd_points
from ..record.problem import Finding


@dataclass
class Ending:
    """How a game ended as replayed."""

    cube: int
    """The cube value at the end."""
    most: int | None = None
    """The highest value the game could be worth (a pending double counted; ``None``: ``cube``)."""
    dropped_by: int | None = None
    winner: int | None = None
    """Who bore off all checkers (``None``: nobody, or the board is not known)."""
    kind: ResultKind | None = None
    _: KW_ONLY
    known: bool = True
    """Whether the final board is known (``False`` after an unknown play)."""


def judge_result(
    game: Game, rules: Rules, length: int, end: Ending, names: tuple[str, str], *, jacoby_open: bool = False
) -> list[Finding]:
    """What is wrong with the written result of ``game`` (a missing one
    included). ``jacoby_open``: a money session whose record does not say
    whether the Jacoby rule is played and whose results have not shown it
    yet: a gammon at cube 1 may count single or not
    (:mod:`tavlakit.replay.jacoby`)."""
    result = game.result
    if result is None:
        if not game.turns:
            return []
        over = end.winner is not None
        message = _("the game has no result") if over else _("the game has no result (it stops before it is over)")
        return [Finding("missing-result", "error" if over else "warning", message)]
    absurd = absurd_points(result.points)
    if absurd is not None:
        return [absurd]
    cube = end.cube
    most = 3 * max(end.most or cube, 1)
    if length and end.winner is None and result.points > most and result.points == length - game.score[result.winner]:
        return [
            Finding(
                "forfeit",
                "warning",
                _(
                    "Wins {points} point(s) at cube {cube}: the points {winner} needed to "
                    "win the match, as Backgammon Galaxy writes a match forfeited by a "
                    "player who left"
                ).format(points=result.points, cube=cube, winner=names[result.winner]),
            )
        ]
    if result.points > most or result.points < 1:
        return [
            Finding(
                "absurd-points",
                "error",
                _("Wins {points} point(s): a game at cube {cube} is worth at most {most}").format(
                    points=result.points, cube=cube, most=3 * cube
                ),
            )
        ]
    money = length == 0
    if end.dropped_by is not None:
        if result.winner != 1 - end.dropped_by:
            return [
                Finding(
                    "result-mismatch",
                    "error",
                    _("{winner} wins, but {loser} dropped the double").format(
                        winner=names[result.winner], loser=names[end.dropped_by]
                    ),
                )
            ]
        return _points(game, length, {cube}, _("a dropped double at cube {cube} wins {cube}").format(cube=cube))
    if end.winner is not None:
        return _borne_off(game, rules, length, end, names, jacoby_open)
    if not end.known:
        return []
    # the game did not end on the board: a resignation
    allowed = _worth(rules, ("single", "mars", "backgammon"), cube, money, jacoby_open)
    values = _(" or ").join(str(p) for p in sorted(allowed))  # the separator of "2 or 4 or 6"
    return _points(
        game, length, allowed, _("a resigned game at cube {cube} is worth {values}").format(cube=cube, values=values)
    )


def _borne_off(
    game: Game, rules: Rules, length: int, end: Ending, names: tuple[str, str], jacoby_open: bool
) -> list[Finding]:
    """What is wrong with the result of a game won on the board (``end.winner`` bore off)."""
    result, cube, winner = game.result, end.cube, end.winner
    assert result is not None and winner is not None
    kind = end.kind or "single"
    if result.winner != winner:
        return [
            Finding(
                "result-mismatch",
                "error",
                _("{winner} is written as the winner, but {other} bore off all checkers").format(
                    winner=names[result.winner], other=names[winner]
                ),
            )
        ]
    worth = _worth(rules, (kind,), cube, length == 0, jacoby_open)
    if len(worth) > 1:
        why = _(
            "a {kind} win at cube {cube} is worth {values} (with the Jacoby rule or without: the record does not say)"
        ).format(kind=kind, cube=cube, values=_(" or ").join(str(p) for p in sorted(worth)))
    else:
        why = _("a {kind} win at cube {cube} is worth {points} under {rules} rules").format(
            kind=kind, cube=cube, points=min(worth), rules=rules.name
        )
    return _points(game, length, worth, why)


def _worth(rules: Rules, kinds: tuple[ResultKind, ...], cube: int, money: bool, jacoby_open: bool) -> set[int]:
    """What a game ending in one of ``kinds`` is worth; with ``jacoby_open``
    with the Jacoby rule or without."""
    both = (rules, rules.replace(jacoby=not rules.jacoby)) if jacoby_open and money else (rules,)
    return {r.points(kind, cube, money=money) for r in both for kind in kinds}


def _points(game: Game, length: int, allowed: set[int], why: str) -> list[Finding]:
    """Check the written points against the values the game can have.

    Some programs write only the points the winner needed to win the
    match; that is a warning, not an error.
    """
    result = game.result
    assert result is not None
    if result.points in allowed:
        return []
    capped = length and game.score[result.winner] + result.points >= length and result.points < max(allowed)
    if capped:
        return [
            Finding(
                "points-capped",
                "warning",
                _("Wins {points} point(s): {why}; the writer capped the points of the match-winning game").format(
                    points=result.points, why=why
                ),
            )
        ]
    return [
        Finding(
            "result-mismatch", "error", _("Wins {points} point(s), but {why}").format(points=result.points, why=why)
        )
    ]
