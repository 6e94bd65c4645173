"""Staying in step with the writer after a fault: of the boards a faulty turn
may have left, pick the one under which the following plays are legal.

A writer's program kept playing from its own board; when a written play is
illegal (or missing, or by the wrong side), the replayer offers candidate
boards, most likely first: what the written moves physically do, then the
legal plays closest to them. :func:`choose` plays the rest of the game
ahead from all of them and keeps the one that fits longest (a fault's boards
may differ only many turns later, say when a checker left behind must come
home, so the look goes to the game's end; :data:`BUDGET` and
:data:`GAME_BUDGET` bound the time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

from ..engine.dicenames import as_roll
from ..engine.movegen import Board, flipped
from ..engine.play import Move
from ..engine.rules import Rules
from ..record.match import Game, Turn
from .legality import judge

#: How many later plays may be judged for one fault (bounds the time) ...
BUDGET = 20000
#: ... and for all the faults of one game.
GAME_BUDGET = 100000


@dataclass(frozen=True)
class Guess:
    """A board the mover may have after a faulty turn, and how it came about."""

    board: Board
    moves: tuple[Move, ...]
    how: str
    """``written``: the written moves with the dice; ``physical``: moved as
    far as the board allows; ``legal``: a legal play; ``extra-turn``: the
    written play after one more, unwritten turn of the mover; ``unchanged``."""


@dataclass
class Choice:
    """The guess chosen and how many later rolls it fits."""

    guess: Guess
    fits: int
    _: KW_ONLY
    to_end: bool
    spent: int = 0
    """Later plays judged to choose it."""


def choose(
    candidates: Sequence[Guess],
    game: Game,
    index: int,
    player: int,
    rules: Rules,
    budget: int = BUDGET,
    *,
    decide: bool = False,
) -> Choice:
    """The candidate under which turns ``index + 1...`` of ``game`` fit best.

    ``player`` moved at turn ``index``. All candidates are played ahead
    together, roll by roll, and dropped at the first roll that does not fit:
    the last to go (or the first of those fitting to the end, or to the point
    where the record cannot be followed) is chosen; ties go to the earlier
    candidate. A later play that reads two ways (paths that hit differently,
    :attr:`~tavlakit.replay.legality.Verdict.readings`) is followed both ways. With
    ``decide`` the look stops as soon as one candidate is left (``fits`` then
    counts the rolls looked at).
    """
    alive: list[tuple[Guess, Board]] = []  # each with the board of the side that moved last
    seen: set[Board] = set()
    for candidate in candidates:
        if candidate.board not in seen:
            seen.add(candidate.board)
            alive.append((candidate, candidate.board))
    assert alive, "no candidate board"
    last = player
    fits = 0
    left = budget
    turns = game.turns
    for at in range(index + 1, len(turns)):
        if decide and all(candidate is alive[0][0] for candidate, _board in alive):
            break
        turn = turns[at]
        if turn.kind != "roll":
            continue
        dice = as_roll(turn.dice)
        if dice is None or left <= 0 or not _followable(turn, last_turn=at == len(turns) - 1):
            break  # cannot be followed further (or a resignation): every survivor fits
        survivors, judged = _survivors(alive, turn, dice, rules, flip=turn.player != last)
        left -= judged
        last = turn.player
        if not survivors:
            return Choice(alive[0][0], fits, to_end=False, spent=budget - left)
        alive = survivors
        fits += 1
    return Choice(alive[0][0], fits, to_end=True, spent=budget - left)


def _followable(turn: Turn, *, last_turn: bool) -> bool:
    """Whether a roll can be played ahead: a known player and a play as
    written (not a roll then a resignation, the game's last turn)."""
    return turn.player in (0, 1) and turn.status in ("play", "cannot-move") and (bool(turn.moves) or not last_turn)


def _survivors(
    alive: list[tuple[Guess, Board]], turn: Turn, dice: tuple[int, int], rules: Rules, *, flip: bool
) -> tuple[list[tuple[Guess, Board]], int]:
    """The candidates under which ``turn``'s play fits, each with every board
    it reads to (``flip``: the boards are the other side's), and how many
    were judged."""
    survivors = []
    seen: set[Board] = set()
    judged = 0
    for candidate, board in alive:
        mover = flipped(board) if flip else board
        if max(mover) <= 0 or min(mover) >= 0:
            continue  # a turn after the game ended on this board
        judged += 1
        for after, _made in judge(mover, dice, turn.moves, rules).readings:
            if after not in seen:
                seen.add(after)
                survivors.append((candidate, after))
    return survivors, judged
