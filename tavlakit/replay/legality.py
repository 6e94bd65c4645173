"""Whether a written play is legal, and if not, why: the engine's view of a
record's moves, on :mod:`tavlakit.engine.movegen`'s board array.

A written play is legal when some way of playing the thrown dice with the
written moves (merged moves split, in any die order, hops of different
checkers interleaved) reaches a board that a legal play reaches. The rules
themselves live in :mod:`tavlakit.engine.movegen` only: :func:`realise` knows the
board's physics (a checker to move, an open point, bearing off), and which
rule a play breaks is found by asking :func:`~tavlakit.engine.movegen.legal_results`
again with that rule relaxed.

>>> from tavlakit.engine.position import Position
>>> from tavlakit.engine.rules import PRESETS
>>> start = Position.initial().board
>>> judge(start, (3, 1), (Move(8, 5), Move(6, 5)), PRESETS["backgammon"]).after is not None
True
>>> verdict = judge(start, (3, 1), (Move(8, 3),), PRESETS["backgammon"])
>>> verdict.after is None, explain(verdict, (Move(8, 3),)).message
(True, 'the dice 3-1 do not reach: 4/3 is left over (roll 31)')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from operator import attrgetter

from ..engine.movegen import BAR, Board, apply_move, can_move, highest, legal_results, undo_move
from ..engine.play import Move, Play, point_name
from ..engine.rules import Rules
from ..i18n import _
from ..record.problem import Finding


@dataclass(slots=True)
class Verdict:
    """A written play judged on a board."""

    board: Board
    dice: tuple[int, int]
    rules: Rules
    after: Board | None
    """The board the play reaches when it is legal (the mover's view), else ``None``."""
    made: tuple[Move, ...] = ()
    """The single-die moves made (hits flagged), when legal."""
    reached: dict[Board, tuple[Move, ...]] | None = None
    """Boards the written moves reach with the dice, legal or not (``None``: not searched)."""
    failure: Finding | None = None
    """Why the written moves could not be played with the dice at all (the deepest failure)."""
    legal: dict[Board, tuple[Move, ...]] | None = None
    """Every legal play (``None``: not needed)."""
    readings: list[tuple[Board, tuple[Move, ...]]] = field(default_factory=list)
    """Every legal board the written moves reach, ``after`` first: more than
    one when the paths of a merged move differ in what they hit (``6/1`` with
    4-1 past a blot on 2: 6/5/1 or 6/2*/1)."""
    _: KW_ONLY
    flip: bool = False
    """Messages write the mover's points ``25 - p`` (Black in the absolute numbering)."""

    def legal_plays(self) -> dict[Board, tuple[Move, ...]]:
        """Every legal play, computed once when asked."""
        if self.legal is None:
            self.legal = legal_results(self.board, self.dice, self.rules)
        return self.legal


def judge(board: Board, dice: tuple[int, int], written: Sequence[Move], rules: Rules, *, flip: bool = False) -> Verdict:
    """Judge ``written`` for ``dice`` on ``board`` (dice must be 1-6).

    No written move is legal only when no legal move exists. With ``flip``
    the messages write points as ``25 - p`` (see :meth:`~tavlakit.engine.play.Move.text`).
    """
    if not written:
        legal = legal_results(board, dice, rules)
        if next(iter(legal.values())):
            return Verdict(board, dice, rules, None, (), None, None, legal, flip=flip)
        return Verdict(board, dice, rules, board, (), None, None, legal, [(board, ())], flip=flip)
    if rules.hit_and_run:
        fast = direct(board, dice, written)
        if fast is not None:  # every die used, so no maximal-dice question; one path per move
            return Verdict(board, dice, rules, fast[0], fast[1], readings=[fast], flip=flip)
    reached, failure = realise(board, dice, written, flip=flip)
    verdict = Verdict(board, dice, rules, None, (), reached, failure, flip=flip)
    if not reached:
        return verdict  # illegal; the legal plays are computed only if asked
    count = _dice_count(dice)
    if rules.hit_and_run and any(len(made) == count for made in reached.values()):
        verdict.readings = [(key, made) for key, made in reached.items() if len(made) == count]
    elif len(reached) == 1 and max(next(iter(reached))) <= 0:
        # the last checkers borne off: no play can use more dice, whichever die bore them off
        verdict.readings = list(reached.items())
    else:
        legal = verdict.legal_plays()
        verdict.readings = [(key, made) for key, made in reached.items() if key in legal]
    if verdict.readings:
        verdict.after, verdict.made = verdict.readings[0]
    return verdict


def hit_points(moves: Iterable[Move]) -> set[int]:
    """The points a play hits on (or marks as hit, for written moves)."""
    return {m.dst for m in moves if m.hit}


def by_marks(
    readings: list[tuple[Board, tuple[Move, ...]]], written: Sequence[Move]
) -> list[tuple[Board, tuple[Move, ...]]]:
    """The readings of a play, those hitting exactly where ``written`` marks
    hits with ``*`` first (for a record that marks hits)."""
    wrote = hit_points(written)
    return sorted(readings, key=lambda reading: hit_points(reading[1]) != wrote)


def any_roll(board: Board, rules: Rules) -> dict[Board, tuple[Move, ...]]:
    """Every board a legal play of some roll reaches (for a turn whose dice are unknown)."""
    found: dict[Board, tuple[Move, ...]] = {}
    for a in range(1, 7):
        for b in range(a, 7):
            for key, moves in legal_results(board, (a, b), rules).items():
                found.setdefault(key, moves)
    return found


def explain(verdict: Verdict, written: Sequence[Move]) -> Finding:
    """Why the judged play is illegal: the rule it breaks, in words."""
    dice, rules = verdict.dice, verdict.rules
    roll = f"{dice[0]}{dice[1]}"
    text = Play(written).notation(flip=verdict.flip)
    legal = verdict.legal_plays()
    most = max(len(m) for m in legal.values())
    if not written:
        return Finding(
            "missing-play",
            "error",
            _("no play written for {roll}, but {count} legal play(s) exist").format(roll=roll, count=len(legal)),
        )
    if most == 0:
        return Finding(
            "illegal-play",
            "error",
            _("{play} is written, but no move is possible with {roll}: the turn passes").format(play=text, roll=roll),
        )
    reached = verdict.reached or {}
    if reached:
        if not rules.hit_and_run and any(b in _relaxed(verdict, hit_and_run=True) for b in reached):
            return Finding(
                "illegal-play",
                "error",
                _(
                    "{play}: a checker that hit in the home board may not move "
                    "on in the same turn (hit-and-run is off; roll {roll})"
                ).format(play=text, roll=roll),
            )
        used = max(len(m) for m in reached.values())
        if used < most:
            return Finding(
                "not-all-dice-used",
                "error",
                _("{play} plays {used} of the dice of {roll}, but {most} can be played").format(
                    play=text, used=used, roll=roll, most=most
                ),
            )
        return Finding(
            "larger-die",
            "error",
            _("{play} plays the smaller die of {roll}; only the larger may be played here").format(
                play=text, roll=roll
            ),
        )
    if verdict.failure is not None:
        code, severity, message = verdict.failure
        return Finding(code, severity, _("{message} (roll {roll})").format(message=message, roll=roll))
    return Finding("illegal-play", "error", _("{play} cannot be played with {roll}").format(play=text, roll=roll))


def _relaxed(verdict: Verdict, **option: bool) -> dict[Board, tuple[Move, ...]]:
    return legal_results(verdict.board, verdict.dice, verdict.rules.replace(**option))


def _dice_count(dice: tuple[int, int]) -> int:
    return 4 if dice[0] == dice[1] else 2


def realise(
    board: Board, dice: tuple[int, int], written: Sequence[Move], *, flip: bool = False
) -> tuple[dict[Board, tuple[Move, ...]], Finding | None]:
    """Every board reachable by playing ``written`` with the dice, by the
    board's physics alone, and the deepest failure when none is (its message
    writes points ``25 - p`` with ``flip``).

    Each written move is a checker's path from its start to its end; a path
    may take several dice through open intermediate points, and the hops of
    different paths may interleave (``9/off 5/off`` with 6-6 is 9/3, 5/off,
    3/off). Bearing off may overshoot only on a path's last hop.
    """
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    paths = [[m.src, m.dst] for m in written]
    s = list(board)
    boards: dict[Board, tuple[Move, ...]] = {}
    deepest: list[tuple[int, Finding]] = []
    made: list[Move] = []

    def fail(depth: int, message: str) -> None:
        if not deepest or depth > deepest[0][0]:
            deepest[:] = [(depth, Finding("illegal-play", "error", message))]

    def step_ok(src: int, die: int, depth: int, move: Move) -> bool:
        hi = highest(s)
        if s[src] > 0 and (hi != BAR or src == BAR) and can_move(s, src, die, hi):
            return True
        finding = _blocked(s, src, die, hi, move, flip)
        if not deepest or depth > deepest[0][0]:
            deepest[:] = [(depth, finding)]
        return False

    def search(remaining: list[int]) -> None:
        depth = len(made)
        pending = [i for i, (cur, dst) in enumerate(paths) if cur != dst]
        if not pending:
            key = tuple(s)
            if key not in boards:
                boards[key] = tuple(made)
            return
        if not remaining:
            left = " ".join(Move(paths[i][0], paths[i][1]).text(flip=flip) for i in pending)
            fail(depth, _("the dice {dice} do not reach: {left} is left over").format(dice=_dice_text(pool), left=left))
            return
        seen: set[tuple[int, int, int]] = set()
        for i in pending:
            cur, dst = paths[i]
            for j, die in enumerate(remaining):
                if (cur, dst, die) in seen or (dst and cur - die < dst):
                    continue
                seen.add((cur, dst, die))
                if not step_ok(cur, die, depth, written[i]):
                    continue
                step = apply_move(s, cur, die)
                made.append(step)
                paths[i][0] = step.dst
                search(remaining[:j] + remaining[j + 1 :])
                paths[i][0] = cur
                made.pop()
                undo_move(s, step)

    for move in written:
        if move.dst >= move.src:
            return boards, Finding(
                "illegal-play", "error", _("{move} does not move forward").format(move=move.text(flip=flip))
            )
    try:
        search(pool)
    finally:
        # a recursive closure is a reference cycle (the function holds the cell
        # that holds it): emptied here, the garbage collector has less to do
        search = None  # type: ignore[assignment]
    return boards, deepest[0][1] if deepest else None


def _blocked(s: Sequence[int], src: int, die: int, hi: int, move: Move, flip: bool) -> Finding:
    """Why the checker on ``src`` may not move ``die`` pips (``hi``: :func:`highest`;
    ``flip``: points written ``25 - p``)."""
    dst = src - die
    text = move.text(flip=flip)
    if s[src] <= 0:
        return Finding(
            "illegal-play",
            "error",
            _("{move}: no checker of the mover on {point}").format(move=text, point=_name(src, flip)),
        )
    if hi == BAR and src != BAR:
        return Finding(
            "must-enter-first",
            "error",
            _("{move}: a checker on the bar must enter before {point} moves").format(move=text, point=_name(src, flip)),
        )
    if dst > 0:
        return Finding(
            "illegal-play",
            "error",
            _("{move}: point {point} is closed ({count} opposing checkers)").format(
                move=text, point=_name(dst, flip), count=-s[dst]
            ),
        )
    if hi > 6:
        return Finding(
            "bear-off-outside",
            "error",
            _("{move}: bearing off while a checker is still on {point}").format(move=text, point=_name(hi, flip)),
        )
    return Finding(
        "illegal-play",
        "error",
        _("{move}: a {die} bears off from {point} only when no checker is above it ({highest})").format(
            move=text, die=die, point=_name(src, flip), highest=_name(hi, flip)
        ),
    )


_source = attrgetter("src")


def direct(board: Board, dice: tuple[int, int], written: Sequence[Move]) -> tuple[Board, tuple[Move, ...]] | None:
    """The common case fast: one written move per die, each exactly a die,
    all dice used (so legal when hit-and-run is allowed). Returns the board
    and the moves made, or ``None``: then :func:`judge` decides."""
    a, b = dice
    if a == b:
        if len(written) != 4 or any(m.src - m.dst != a for m in written):
            return None
        order: Sequence[Move] = sorted(written, key=_source, reverse=True)  # (stable: ties keep their order)
    else:
        if len(written) != 2:
            return None
        first, second = written
        one, two = first.src - first.dst, second.src - second.dst
        if not ((one == a and two == b) or (one == b and two == a)):
            return None
        order = (second, first) if second.src > first.src else written
    s = list(board)
    made = []
    for move in order:
        src, dst = move.src, move.dst
        # (the highest checker looked for only to bear off: can_move needs it only then)
        if s[src] <= 0 or (s[BAR] > 0 and src != BAR) or not can_move(s, src, src - dst, highest(s) if dst <= 0 else 0):
            return None
        made.append(apply_move(s, src, src - dst))
    return tuple(s), tuple(made)


def single_hops(board: Board, dice: tuple[int, int], written: Sequence[Move]) -> tuple[Board, tuple[Move, ...]] | None:
    """The common bear-offs fast: one written move per die, each one hop
    of one die or bearing off with a larger one (``4/off 3/off`` with 6-5),
    all dice used (so legal when hit-and-run is allowed). Returns the board
    and the moves made as :func:`realise` makes them first (the moves tried
    in the written order, each with the dice in their order), or ``None``:
    then :func:`judge` decides. Every way of playing such moves leaves one
    board: it is the play's only reading."""
    a, b = dice
    pool = [a] * 4 if a == b else [a, b]
    if len(written) != len(pool) or any(m.dst >= m.src or (m.dst and m.src - m.dst not in pool) for m in written):
        return None
    s = list(board)
    made: list[Move] = []
    done = [False] * len(written)

    def search(remaining: list[int]) -> bool:
        if not remaining:
            return True
        seen: set[tuple[int, int, int]] = set()
        for i, move in enumerate(written):
            if done[i]:
                continue
            src, dst = move.src, move.dst
            for j, die in enumerate(remaining):
                if (src, dst, die) in seen or (dst and src - die < dst):
                    continue
                seen.add((src, dst, die))
                if src - die > dst:
                    continue  # a hop on the way: this move would need two dice, another none
                hi = highest(s)
                if s[src] <= 0 or (hi == BAR and src != BAR) or not can_move(s, src, die, hi):
                    continue
                step = apply_move(s, src, die)
                made.append(step)
                done[i] = True
                if search(remaining[:j] + remaining[j + 1 :]):
                    return True
                done[i] = False
                made.pop()
                undo_move(s, step)
        return False

    return (tuple(s), tuple(made)) if search(pool) else None


@dataclass(frozen=True)
class Applied:
    """What :func:`physical` could carry out of a written play."""

    board: Board
    applied: tuple[Move, ...]
    skipped: tuple[Move, ...]


def physical(board: Board, written: Iterable[Move]) -> Applied:
    """Move the checkers a written play names as far as the board allows,
    whatever the dice and the rules: backwards, with the wrong die, from the
    bar or not; a blot landed on is hit. A move is skipped only when its start
    holds no checker of the mover or its end is closed (or it goes nowhere);
    a move skipped for want of a checker is tried again once the others moved.

    >>> from tavlakit.engine.position import Position
    >>> done = physical(Position.initial().board, [Move(6, 8), Move(5, 3)])
    >>> [str(m) for m in done.applied], [str(m) for m in done.skipped]
    (['6/8'], ['5/3'])
    """
    s = list(board)
    applied: list[Move] = []
    waiting = list(written)
    for _round in range(2):
        skipped = []
        for move in waiting:
            src, dst = move.src, move.dst
            if not (0 <= dst <= 24 and 1 <= src <= 25) or src == dst or s[src] <= 0 or (dst and s[dst] < -1):
                skipped.append(move)
                continue
            s[src] -= 1
            hit = bool(dst) and s[dst] == -1
            if hit:
                s[dst] = 0
                s[0] -= 1
            if dst:
                s[dst] += 1
            applied.append(Move(src, dst, hit))
        waiting = skipped
    return Applied(tuple(s), tuple(applied), tuple(waiting))


def closest(legal: dict[Board, tuple[Move, ...]], written: Sequence[Move]) -> list[tuple[Board, tuple[Move, ...]]]:
    """The legal plays, those sharing most moves with ``written`` first."""
    want = {(m.src, m.dst) for m in written}

    def score(item: tuple[Board, tuple[Move, ...]]) -> int:
        return -len(want & {(m.src, m.dst) for m in Play(item[1]).moves})

    return sorted(legal.items(), key=score)


def notation(moves: Sequence[Move], *, flip: bool = False) -> str:
    """A play as written text, ``(no move)`` when empty (``flip``: see :meth:`~tavlakit.engine.play.Move.text`)."""
    return Play(moves).notation(flip=flip) or _("(no move)")


def _name(point: int, flip: bool = False) -> str:
    return _("the bar") if point == BAR else point_name(point, flip=flip)


def _dice_text(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice) or _("(none)")
