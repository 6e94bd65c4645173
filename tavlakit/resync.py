"""Staying in step with the writer after a fault: of the boards a faulty turn
may have left, pick the one under which the following plays are legal.

A writer's program kept playing from its own board; when a written play is
illegal (or missing, or by the wrong side), the replayer offers candidate
boards, most likely first: what the written moves physically do, then the
legal plays closest to them. :func:`choose` plays the rest of the game
ahead from each and keeps the first that fits to the end, else the one that
fits longest (a fault's boards may differ only many turns later, say when
a checker left behind must come home, so the look goes to the game's end;
:data:`BUDGET` bounds the time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .legality import judge
from .movegen import Board, flipped
from .play import Move
from .record import Game, Turn
from .rules import Rules

#: How many later plays may be judged in all for one fault (bounds the time).
BUDGET = 3000


@dataclass(frozen=True)
class Candidate:
    """A board the mover may have after a faulty turn, and how it came about."""

    board: Board
    moves: tuple[Move, ...]
    how: str
    """``written``: the written moves with the dice; ``physical``: moved as
    far as the board allows; ``legal``: a legal play; ``unchanged``."""


@dataclass
class Choice:
    """The candidate chosen and how many later rolls it fits."""

    candidate: Candidate
    fits: int
    to_end: bool


def choose(candidates: Sequence[Candidate], game: Game, index: int, player: int, rules: Rules) -> Choice:
    """The candidate under which turns ``index + 1...`` of ``game`` fit best.

    ``player`` moved at turn ``index``; ties go to the earlier candidate.
    """
    best: Choice | None = None
    budget = [BUDGET]
    seen: set[Board] = set()
    for candidate in candidates:
        if candidate.board in seen:
            continue
        seen.add(candidate.board)
        fits, to_end = _play_ahead(candidate.board, game.turns, index, player, rules, budget)
        if best is None or fits > best.fits or (to_end and not best.to_end):
            best = Choice(candidate, fits, to_end)
        if to_end or budget[0] <= 0:
            break
    assert best is not None, "no candidate board"
    return best


def _play_ahead(board: Board, turns: Sequence[Turn], index: int, player: int, rules: Rules,
                budget: list[int]) -> tuple[int, bool]:
    """How many later rolls are legal from ``board`` (``player``'s view after
    turn ``index``), and whether the game's end was reached that way.

    The look stops, as fitting, at what cannot be followed: an unknown
    play, dice that are not dice; a play not written where one was possible
    does not fit.
    """
    views = {player: board, 1 - player: flipped(board)}
    fits = 0
    last = len(turns) - 1
    for at in range(index + 1, len(turns)):
        turn = turns[at]
        if turn.kind != "roll":
            continue
        dice = turn.dice
        if turn.player not in views or dice is None or len(dice) != 2 \
                or not all(1 <= d <= 6 for d in dice) or turn.status != "play":
            return fits, True
        if max(views[turn.player]) <= 0 or max(views[1 - turn.player]) <= 0:
            return fits, False  # a turn after the game ended on this board
        budget[0] -= 1
        verdict = judge(views[turn.player], (dice[0], dice[1]), turn.moves, rules)
        if verdict.after is None:
            return fits, not turn.moves and at == last  # rolled, then resigned: the walker does not judge it
        views[turn.player] = verdict.after
        views[1 - turn.player] = flipped(verdict.after)
        fits += 1
        if budget[0] <= 0:
            return fits, False
    return fits, True
