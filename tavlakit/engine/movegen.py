"""Legal-play generation on the engine's board array.

The board is a sequence ``s`` of 26 ints seen from the side to move:
``s[1..24]`` are points (positive: own checkers, negative: the opponent's),
``s[25]`` the mover's bar, ``-s[0]`` the opponent's bar. The mover moves
from high points to low ones and bears off below point 1.

>>> from tavlakit.engine.position import Position
>>> start = Position.initial().board
>>> len(legal_results(start, (3, 1), Rules()))
16
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import neg

from .play import Move
from .rules import Rules

Board = tuple[int, ...]

HOME = 6
BAR = 25

# Every Move the search can make, built once: _MOVES[src][dst][hit].
_MOVES = [[(Move(src, dst), Move(src, dst, True)) for dst in range(25)] for src in range(26)]


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
    if hi > HOME:
        return False
    return dst == 0 or src == hi


def apply_move(s: list[int], src: int, die: int) -> Move:
    """Move a checker ``die`` pips from ``src`` in place; return the Move made."""
    dst = src - die
    s[src] -= 1
    if dst <= 0:
        return _MOVES[src][0][False]
    if s[dst] == -1:
        s[dst] = 1
        s[0] -= 1
        return _MOVES[src][dst][True]
    s[dst] += 1
    return _MOVES[src][dst][False]


def undo_move(s: list[int], move: Move) -> None:
    """Take back :func:`apply_move`."""
    s[move.src] += 1
    if move.dst:
        if move.hit:
            s[move.dst] = -1
            s[0] += 1
        else:
            s[move.dst] -= 1


def flipped(s: Board) -> Board:
    """The board array seen from the other side: ``t[i] = -s[25 - i]``."""
    return tuple(map(neg, s[::-1]))


def _occupied(s: Sequence[int]) -> list[int]:
    """The points a move may start from: the bar alone while it holds a
    checker, else every point holding one, highest first."""
    if s[BAR] > 0:
        return [BAR]
    return [p for p in range(24, 0, -1) if s[p] > 0]


class _Search:
    """Depth-first search over the dice; results keyed by the final board.

    ``outside`` counts the mover's checkers outside home (bar included), so
    whether bearing off is allowed is known without scanning the board.
    """

    __slots__ = ("s", "dice", "doubles", "swapped", "frozen", "path", "results", "most")

    def __init__(self, s: list[int], hit_and_run: bool) -> None:
        self.s = s
        self.dice: tuple[int, ...] = ()
        self.doubles = False
        self.swapped = False
        # checkers that hit in the mover's home, per point, when they must stop
        self.frozen: list[int] | None = None if hit_and_run else [0] * 26
        self.path: list[Move] = []
        self.results: dict[Board, tuple[Move, ...]] = {}
        self.most = 0  # most dice used by a play found so far

    def start(self, dice: tuple[int, ...], swapped: bool = False) -> None:
        """Search every way of playing ``dice`` in this order.

        ``swapped`` marks the second order of a non-double: see :meth:`after`.
        """
        s = self.s
        self.dice = dice
        self.doubles = len(dice) > 2
        self.swapped = swapped
        outside = sum(v for v in s[HOME + 1 :] if v > 0)
        self.run(0, _occupied(s), outside)

    def run(self, i: int, sources: Sequence[int], outside: int) -> None:
        """Play ``dice[i]`` from each of ``sources`` that can, then go on;
        a play that can go no further is recorded where it stops."""
        s = self.s
        frozen = self.frozen
        path = self.path
        die = self.dice[i]
        last = i == len(self.dice) - 1
        moved = False
        for k, src in enumerate(sources):
            if s[src] <= 0 or (frozen is not None and s[src] <= frozen[src]):
                continue
            dst = src - die
            if dst > 0:
                if s[dst] < -1:
                    continue
            elif outside or (dst < 0 and any(s[p] > 0 for p in range(src + 1, HOME + 1))):
                continue  # not all home, or a checker above must use the die
            else:
                dst = 0
            moved = True
            s[src] -= 1
            hit = dst > 0 and s[dst] == -1
            if hit:
                s[dst] = 1
                s[0] -= 1
                if frozen is not None and dst <= HOME:
                    frozen[dst] += 1
            elif dst:
                s[dst] += 1
            path.append(_MOVES[src][dst][hit])
            if last:
                self.record()
            else:
                left = outside - (src > HOME >= dst)
                self.run(i + 1, self.after(sources, k, src, dst), left)
            path.pop()
            s[src] += 1
            if hit:
                s[dst] = -1
                s[0] += 1
                if frozen is not None and dst <= HOME:
                    frozen[dst] -= 1
            elif dst:
                s[dst] -= 1
        if not moved:
            self.record()

    def after(self, sources: Sequence[int], k: int, src: int, dst: int) -> Sequence[int]:
        """Where the next move may start after ``sources[k]`` = ``src`` moved
        to ``dst``.

        - Doubles are searched with starting points never rising, which
          reaches every result once: the rest of ``sources`` plus ``dst``.
        - A non-double's second order (``b`` then ``a``) only needs what the
          first order (``a`` then ``b``) cannot give: the same checker going
          on, or a bear-off (which may have become legal only now). Any other
          ``a`` move was legal before ``b`` (same checker count, its landing
          point no worse) and ``b`` stays legal after it, so that play has
          been found. Entering from the bar changes what may move: no cut.
        """
        s = self.s
        if s[BAR] > 0:
            return sources
        if src == BAR:
            return _occupied(s)
        new = [dst] if dst and s[dst] == 1 else []
        if self.doubles:
            return sorted([*sources[k:], *new], reverse=True) if new else sources[k:]
        if not self.swapped:
            return [*sources, *new]
        die = self.dice[1]
        bear = [p for p in range(min(die, HOME), 0, -1) if p != dst and s[p] > 0]
        return [dst, *bear] if dst else bear

    def record(self) -> None:
        """Keep the current board if its play uses the most dice so far."""
        n = len(self.path)
        if n < self.most:
            return
        if n > self.most:
            self.most = n
            self.results.clear()
        key = tuple(self.s)
        if key not in self.results:
            self.results[key] = tuple(self.path)


def _stuck(s: Sequence[int], a: int, b: int) -> bool:
    """Whether no checker of the mover can move ``a`` or ``b`` pips: then
    the only legal play is no move, whatever the rules."""
    hi = highest(s)
    sources = (BAR,) if hi == BAR else range(hi, 0, -1)
    return not any(s[src] > 0 and can_move(s, src, die, hi) for die in (a, b) for src in sources)


def legal_results(board: Board, dice: tuple[int, int], rules: Rules) -> dict[Board, tuple[Move, ...]]:
    """Every legal play for ``dice`` as ``{board after: moves}``.

    One entry per distinct resulting board (the mover's view, before the
    turn passes). A roll with no legal move gives ``{board: ()}``.
    """
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"dice must be 1-6, not {dice}")
    if _stuck(board, a, b):  # (a dance, a closed board: found without a search)
        return {tuple(board): ()}
    search = _Search(list(board), rules.hit_and_run)
    if a == b:
        search.start((a, a, a, a))
        return search.results
    search.start((a, b))
    search.start((b, a), swapped=True)
    if search.most == 1 and rules.larger_die:
        # only one die can be played: the larger one if it can be
        larger = _Search(list(board), rules.hit_and_run)
        larger.start((max(a, b),))
        if larger.most:
            return larger.results
    return search.results
