"""Positions: the board seen from the side to move.

>>> pos = Position.initial()
>>> pos.pips()
(167, 167)
>>> pos.position_id()
'4HPwATDgc/ABMA'
>>> len(pos.legal_plays((6, 5), Rules.preset("backgammon")))
7
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

from ..i18n import N_, _
from . import ids
from .movegen import Board, apply_move, can_move, flipped, highest, legal_results
from .numbering import Numbering, NumberingLike
from .play import BAR, OFF, Move, Play
from .rules import DEFAULT_RULES, ResultKind, Rules

CHECKERS = 15
_START = {24: 2, 13: 5, 8: 3, 6: 5}
#: :meth:`Position.initial`, once made.
_INITIAL: Position | None = None


class Position:
    """An immutable, hashable backgammon/Tavla position.

    The side to move ("X") moves from its 24-point to its 1-point; the
    opponent ("O") the other way. ``Position.from_points`` builds one from
    each side's own point counts.
    """

    __slots__ = ("_s", "_hash")

    def __init__(self, board: Sequence[int]) -> None:
        try:
            s = tuple(map(operator.index, board))
        except TypeError:
            raise ValueError(f"a board array holds whole numbers, not {list(board)!r}") from None
        _check(s)
        self._s: Board = s
        self._hash = hash(s)

    @classmethod
    def trusted(cls, s: Board) -> Position:
        """The position of a board the engine made itself (a tuple of 26
        counts known to be valid): no check, for the replay's inner loop."""
        pos = cls.__new__(cls)
        pos._s = s
        pos._hash = hash(s)
        return pos

    @classmethod
    def initial(cls) -> Position:
        """The starting position (2 on 24, 5 on 13, 3 on 8, 5 on 6 each),
        made once (positions do not change)."""
        global _INITIAL
        if _INITIAL is None:
            _INITIAL = cls.from_points(_START, _START)
        return _INITIAL

    @classmethod
    def from_points(
        cls,
        mover: dict[int, int] | Sequence[int],
        opponent: dict[int, int] | Sequence[int],
    ) -> Position:
        """Build from each side's own view: ``{point: count}`` (25 = bar) or a
        25-long list (index 0 = point 1, index 24 = bar), as gnubg's boards.

        >>> Position.from_points({6: 2}, {1: 1}).pips()
        (12, 1)
        """
        mine = _as_list(mover, "side to move")
        theirs = _as_list(opponent, "opponent")
        s = [0] * 26
        for point in range(1, 25):
            if mine[point - 1] and theirs[24 - point]:
                raise ValueError(
                    f"point {point} of the side to move (the opponent's {25 - point}) holds checkers of both sides"
                )
            s[point] = mine[point - 1] - theirs[24 - point]
        s[25] = mine[24]
        s[0] = -theirs[24]
        return cls(s)

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Read a GNU Backgammon Position ID (the player on roll moves next)."""
        opponent, mover = ids.decode_position_id(position_id)
        return cls.from_points(mover, opponent)

    # --- views -------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The raw 26-int array (see :mod:`tavlakit.engine.movegen`)."""
        return self._s

    def points(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg-style boards ``(mover, opponent)``: 25 counts each, own view,
        index 24 = bar."""
        s = self._s
        mover = tuple([v if v > 0 else 0 for v in s[1:]])
        opponent = tuple([-v if v < 0 else 0 for v in s[24::-1]])
        return mover, opponent

    def position_id(self) -> str:
        """GNU Backgammon Position ID, bit-exact with gnubg."""
        mover, opponent = self.points()
        return ids.encode_position_id(opponent, mover)

    def position_key(self) -> str:
        """gnubg's 20-letter position key (``key_of_board``)."""
        mover, opponent = self.points()
        return ids.encode_position_key(opponent, mover)

    def flip(self) -> Position:
        """The same position seen from the other side (the opponent to move)."""
        return Position.trusted(flipped(self._s))

    def off(self) -> tuple[int, int]:
        """Checkers borne off: (side to move, opponent)."""
        s = self._s
        mine = sum(v for v in s if v > 0)
        theirs = -sum(v for v in s if v < 0)
        return CHECKERS - mine, CHECKERS - theirs

    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (side to move, opponent)."""
        return self._s[25], -self._s[0]

    def pips(self) -> tuple[int, int]:
        """Pip counts: (side to move, opponent)."""
        s = self._s
        mine = sum(p * s[p] for p in range(1, 26) if s[p] > 0)
        theirs = sum((25 - p) * -s[p] for p in range(0, 25) if s[p] < 0)
        return mine, theirs

    # --- moving ------------------------------------------------------------

    def legal_plays(self, dice: tuple[int, int], rules: Rules | None = None) -> list[Play]:
        """Every legal play for ``dice``, one per distinct resulting position
        (``rules`` default: backgammon).

        A roll with no legal move gives one empty play (the turn passes).
        """
        rules = rules or DEFAULT_RULES
        return [Play(moves) for moves in legal_results(self._s, _dice(dice), rules).values()]

    def legal_positions(self, dice: tuple[int, int], rules: Rules | None = None) -> list[Position]:
        """The positions the legal plays reach, the opponent now on roll."""
        rules = rules or DEFAULT_RULES
        return [Position.trusted(flipped(b)) for b in legal_results(self._s, _dice(dice), rules)]

    def play(self, play: Play | Iterable[Move]) -> Position:
        """Apply a play's moves (no legality check beyond each single step
        being possible on the board) and hand the turn to the opponent."""
        return self.apply(play).flip()

    def apply(self, play: Play | Iterable[Move]) -> Position:
        """Apply moves from the mover's view, keeping the mover on roll.

        Each move must start on a point holding a mover's checker and land
        on a point that is not closed; hits happen where a blot is landed on.
        """
        return Position.trusted(self._walk(play)[0])

    def mark_hits(self, play: Play | Iterable[Move]) -> Play:
        """``play`` with each move's hit mark set from this board (the side to
        move about to play it): a move hits when it lands on a lone opponent
        checker, whatever the record wrote.

        >>> Position.from_points({13: 1, 6: 1}, {20: 1}).mark_hits(Play.parse("13/8 6/5"))
        Play('13/8 6/5*')
        """
        return Play(self._walk(play)[1])

    def played(self, play: Play | Iterable[Move]) -> tuple[Position, Play]:
        """:meth:`apply` and :meth:`mark_hits` in one walk: the position after
        ``play`` and the play with its hit marks as made.

        >>> after, play = Position.from_points({13: 1, 6: 1}, {20: 1}).played(Play.parse("13/8 6/5"))
        >>> play, after.pips(), after.bar()
        (Play('13/8 6/5*'), (13, 25), (0, 1))
        """
        board, made = self._walk(play)
        return Position.trusted(board), Play(made)

    def _walk(self, play: Play | Iterable[Move]) -> tuple[Board, list[Move]]:
        """The board after the moves (mover's view) and the moves as made."""
        s = list(self._s)
        made = []
        for move in play:
            src, dst = move.src, move.dst
            if not (0 <= dst < src <= 25) or s[src] <= 0:
                raise ValueError(f"no checker of the side to move on {move.src} for {move}")
            if dst and s[dst] < -1:
                raise ValueError(f"point {dst} is closed for {move}")
            made.append(apply_move(s, src, src - dst))
        return tuple(s), made

    def can_move(self, src: int, die: int) -> bool:
        """Whether a single checker on ``src`` may move ``die`` pips now."""
        s = self._s
        hi = highest(s)
        if s[src] <= 0 or (hi == BAR and src != BAR):
            return False
        return can_move(s, src, die, hi)

    # --- end of game -------------------------------------------------------

    def winner(self) -> int | None:
        """0 if the side to move has borne off all, 1 if the opponent has, else None."""
        mine, theirs = self.off()
        if mine == CHECKERS:
            return 0
        if theirs == CHECKERS:
            return 1
        return None

    def result_kind(self, rules: Rules | None = None) -> ResultKind | None:
        """How the finished game was won, under ``rules.mars``/``backgammon``
        (default: :data:`~tavlakit.engine.rules.DEFAULT_RULES`, backgammon).

        >>> Position.from_points({}, {19: 15}).result_kind()
        'backgammon'
        >>> Position.from_points({}, {19: 15}).result_kind(Rules.preset("tavla"))
        'mars'
        """
        rules = rules or DEFAULT_RULES
        who = self.winner()
        if who is None:
            return None
        loser_view = self.flip() if who == 0 else self
        loser, _ = loser_view.points()
        mars = sum(loser) == CHECKERS if rules.mars == "none-borne-off" else any(loser[6:])
        if not mars:
            return "single"
        if rules.backgammon and any(loser[18:]):
            return "backgammon"
        return "mars"

    # --- dunder ------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._s == other._s

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r})"

    def __str__(self) -> str:
        return render(self)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (Jupyter shows a Position this way)."""
        from ..pictures import svg  # the picture is drawn on top of the engine

        return svg.board(self)


def _dice(dice: tuple[int, int] | Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2:
        raise ValueError(f"a roll has two dice, not {len(dice)}")
    try:
        return operator.index(dice[0]), operator.index(dice[1])
    except TypeError:
        raise ValueError(f"dice must be whole numbers 1-6, not {tuple(dice)}") from None


def _count(value: object, where: str) -> int:
    """A checker count: a whole number 0-15."""
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{where} holds {value!r} checkers; a whole number is expected") from None
    if not 0 <= count <= CHECKERS:
        raise ValueError(f"{where} holds {count} checkers; 0 to {CHECKERS} are possible")
    return count


def _as_list(side: dict[int, int] | Sequence[int], who: str) -> list[int]:
    """25 counts (points 1-24, bar) of one side, checked."""
    if isinstance(side, dict):
        out = [0] * 25
        for point, count in side.items():
            if not (isinstance(point, int) and 1 <= point <= 25):
                raise ValueError(f"point {point!r} of the {who} is not 1-24 or 25 (bar)")
            out[point - 1] = count
    else:
        out = list(side)
        if len(out) != 25:
            raise ValueError(f"a side's board has 25 entries (24 points and the bar), not {len(out)}")
    return [_count(v, f"{'the bar' if i == 24 else f'point {i + 1}'} of the {who}") for i, v in enumerate(out)]


def _check(s: Board) -> None:
    if len(s) != 26:
        raise ValueError(f"a board array has 26 entries, not {len(s)}")
    if s[25] < 0:
        raise ValueError(f"the side to move has {s[25]} checkers on the bar (board[25])")
    if s[0] > 0:
        raise ValueError(f"the opponent has {-s[0]} checkers on the bar (board[0] must be <= 0)")
    mine = sum(v for v in s if v > 0)
    theirs = -sum(v for v in s if v < 0)
    for who, count in (("side to move", mine), ("opponent", theirs)):
        if count > CHECKERS:
            raise ValueError(f"the {who} has {count} checkers; at most {CHECKERS} are allowed")


#: The colours of the Turkish (absolute) numbering: White moves 24 -> 1, Black 1 -> 24 (seeds 000, 002).
COLOURS = {"white": N_("White"), "black": N_("Black")}


def _frame(points: Iterable[int]) -> str:
    cells = [f"{p:->2}-" for p in points]
    return "+" + "".join(cells[:6]) + "-----" + "".join(cells[6:]) + "+"


def render(
    pos: Position, to_move: str | None = None, *, numbering: NumberingLike | None = None, player: int = 0
) -> str:
    """An ASCII board: X (to move) plays from 24 down to 1 at the bottom right.

    With ``numbering="absolute"`` (:class:`~tavlakit.engine.numbering.Numbering`)
    the board is numbered the Turkish way, the same for both sides (White
    moves 24 -> 1 and Black 1 -> 24), for ``player`` on roll (0 White, 1
    Black), and the captions name the colours. ``to_move`` ("white" or
    "black") says the same in one word: the absolute numbering, that
    colour on roll.

    >>> print(render(Position.initial()).splitlines()[0])
     +13-14-15-16-17-18------19-20-21-22-23-24-+  O: 167 pips, 0 off
    >>> print(render(Position.initial(), numbering="absolute", player=1).splitlines()[-2])
     +13-14-15-16-17-18------19-20-21-22-23-24-+  Black (X): 167 pips, 0 off (to move)
    >>> render(Position.initial(), "black") == render(Position.initial(), numbering="absolute", player=1)
    True
    """
    if to_move is not None:
        if to_move not in COLOURS:
            raise ValueError(_("to_move is 'white', 'black' or None, not {value!r}").format(value=to_move))
        if numbering is not None:
            raise ValueError(_("give to_move or numbering, not both"))
        numbering, player = Numbering.ABSOLUTE, list(COLOURS).index(to_move)
    chosen = Numbering.RELATIVE if numbering is None else Numbering.parse(numbering)
    if player not in (0, 1):
        raise ValueError(_("player is 0 (White) or 1 (Black), not {value!r}").format(value=player))
    s = pos.board
    off_x, off_o = pos.off()
    pips_x, pips_o = pos.pips()
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    label = (lambda p: 25 - p) if chosen.flips(player) else (lambda p: p)
    side_x, side_o = "X", "O"
    if chosen is Numbering.ABSOLUTE:
        mover, other = (COLOURS["white"], COLOURS["black"]) if player == 0 else (COLOURS["black"], COLOURS["white"])
        side_x, side_o = f"{_(mover)} (X)", f"{_(other)} (O)"

    def stack(count: int, mark: str, row: int) -> str:
        """Row ``row`` (0 = at the edge) of a stack; past 5 the count is shown."""
        if row >= min(count, 5):
            return "   "
        if row == 4 and count > 5:
            return f"{count:2d} "
        return f" {mark} "

    def cell(point: int, row: int) -> str:
        return stack(abs(s[point]), "X" if s[point] > 0 else "O", row)

    lines = [
        f" {_frame(map(label, top))}  "
        + _("{side}: {pips} pips, {off} off").format(side=side_o, pips=pips_o, off=off_o)
    ]
    for row in range(5):
        left = "".join(cell(p, row) for p in top[:6])
        right = "".join(cell(p, row) for p in top[6:])
        lines.append(f" |{left}|{stack(-s[0], 'O', row)}|{right}|")
    lines.append(" |                  |BAR|                  |")
    for row in range(4, -1, -1):
        left = "".join(cell(p, row) for p in bottom[:6])
        right = "".join(cell(p, row) for p in bottom[6:])
        lines.append(f" |{left}|{stack(s[25], 'X', row)}|{right}|")
    lines.append(
        f" {_frame(map(label, bottom))}  "
        + _("{side}: {pips} pips, {off} off (to move)").format(side=side_x, pips=pips_x, off=off_x)
    )
    lines.append(" " + _("Position ID: {id}").format(id=pos.position_id()))
    return "\n".join(lines)


__all__ = ["Position", "BAR", "COLOURS", "OFF", "CHECKERS", "render"]
