"""Legal-play generation on the engine's board array.

The board is a sequence ``s`` of 26 ints seen from the side to move:
``s[1..24]`` are points (positive: own checkers, negative: the opponent's),
``s[25]`` the mover's bar, ``-s[0]`` the opponent's bar. The mover moves
from high points to low ones and bears off below point 1.
"""

from __future__ import annotations

from typing import Sequence

from .play import Move
from .rules import Rules

Board = tuple[int, ...]


def highest(s: Sequence[int]) -> int:
    """Highest point holding a checker of the mover (25 = bar, 0 = none)."""
    for point in range(25, 0, -1):
        if s[point] > 0:
            return point
    return 0


def can_move(s: Sequence[int], src: int, die: int, hi: int) -> bool:
    """Whether the mover's checker on ``src`` may move ``die`` pips.

    ``hi`` is :func:`highest` of ``s``. Bearing off needs every checker
    home; a die larger than needed bears off only from the highest point.
    """
    dst = src - die
    if dst > 0:
        return s[dst] >= -1
    if hi > 6:
        return False
    return dst == 0 or src == hi


def apply_move(s: list[int], src: int, die: int) -> Move:
    """Move a checker ``die`` pips from ``src`` in place; return the Move made."""
    dst = src - die
    s[src] -= 1
    if dst <= 0:
        return Move(src, 0)
    if s[dst] == -1:
        s[dst] = 1
        s[0] -= 1
        return Move(src, dst, True)
    s[dst] += 1
    return Move(src, dst)


def undo_move(s: list[int], move: Move) -> None:
    """Take back :func:`apply_move`."""
    s[move.src] += 1
    if move.dst:
        if move.hit:
            s[move.dst] = -1
            s[0] += 1
        else:
            s[move.dst] -= 1


class _Search:
    """Depth-first search over die orders; results keyed by final board."""

    __slots__ = ("s", "doubles", "frozen", "results", "most")

    def __init__(self, s: list[int], doubles: bool, hit_and_run: bool) -> None:
        self.s = s
        self.doubles = doubles
        self.frozen: list[int] | None = None if hit_and_run else [0] * 26
        # final board -> (moves, dice used)
        self.results: dict[Board, tuple[tuple[Move, ...], tuple[int, ...]]] = {}
        self.most = 0

    def run(self, dice: tuple[int, ...], i: int, start: int, moves: list[Move], used: list[int]) -> None:
        s = self.s
        die = dice[i]
        frozen = self.frozen
        hi = highest(s)
        if hi == 25:
            sources: Sequence[int] = (25,) if start == 25 else ()
        else:
            sources = [p for p in range(min(start, 24), 0, -1) if s[p] > 0]
        moved = False
        last = len(dice) - 1
        for src in sources:
            if frozen is not None and s[src] <= frozen[src]:
                continue
            if not can_move(s, src, die, hi):
                continue
            moved = True
            move = apply_move(s, src, die)
            if frozen is not None and move.hit and move.dst <= 6:
                frozen[move.dst] += 1
            moves.append(move)
            used.append(die)
            if i == last:
                self.record(moves, used)
            else:
                self.run(dice, i + 1, src if self.doubles else 25, moves, used)
            moves.pop()
            used.pop()
            if frozen is not None and move.hit and move.dst <= 6:
                frozen[move.dst] -= 1
            undo_move(s, move)
        if not moved:
            self.record(moves, used)

    def record(self, moves: list[Move], used: list[int]) -> None:
        n = len(moves)
        if n < self.most:
            return
        if n > self.most:
            self.most = n
            self.results.clear()
        key = tuple(self.s)
        if key not in self.results:
            self.results[key] = (tuple(moves), tuple(used))


def legal_results(board: Board, dice: tuple[int, int], rules: Rules) -> dict[Board, tuple[Move, ...]]:
    """Every legal play for ``dice`` as ``{board after: moves}``.

    One entry per distinct resulting board (the mover's view, before the
    turn passes). A roll with no legal move gives ``{board: ()}``.
    """
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"dice must be 1-6, not {dice}")
    s = list(board)
    search = _Search(s, a == b, rules.hit_and_run)
    if a == b:
        search.run((a, a, a, a), 0, 25, [], [])
    else:
        search.run((a, b), 0, 25, [], [])
        search.run((b, a), 0, 25, [], [])
    results = search.results
    if search.most == 1 and a != b and rules.larger_die:
        big = max(a, b)
        larger = {k: v for k, v in results.items() if v[1][0] == big}
        if larger:
            results = larger
    return {key: moves for key, (moves, _) in results.items()}
