"""The rules engine against gnubg-nn's move generator (backgammon rules).

gnubg-nn is GNU Backgammon's C engine; its ``moves(board, d1, d2)`` lists
the position keys of every distinct position a legal play reaches. Its
boards are ``[player not on roll, player on roll]``, each 25 counts in
that player's own numbering (index 24 = bar).

Positions come from three independent sources, none of them our engine:
gnubg-nn self-play (``best_move``), random legal play chosen among
gnubg-nn's own move lists, and random boards built here (bar, bear-off,
primes, closed boards, stragglers, crowded and scattered boards).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable

import pytest

from tavlakit import Position, Rules
from tavlakit.engine.movegen import legal_results

g = pytest.importorskip("gnubg_nn")

BACKGAMMON = Rules.preset("backgammon")
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
START_ID = "4HPwATDgc/ABMA"

GnubgBoard = list[list[int]]


# --- positions from play ---------------------------------------------------


def _swap(board: GnubgBoard) -> GnubgBoard:
    return [board[1], board[0]]


def played_boards(rng: random.Random, count: int, greedy: bool) -> list[GnubgBoard]:
    """``count`` distinct boards met in whole games: gnubg-nn's best play
    (``greedy``) or a random one among gnubg-nn's legal plays; games
    restart when one ends."""
    out: list[GnubgBoard] = []
    seen: set[str] = set()
    board = [list(side) for side in g.board_from_position_id(START_ID)]
    while len(out) < count:
        ident = g.key_of_board(board)
        if ident not in seen:
            seen.add(ident)
            out.append(board)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        keys = g.moves(board, d1, d2)
        if not keys:
            board = _swap(board)
            continue
        key = g.best_move(board, d1, d2, b=1)[1] if greedy else None
        if key is None:  # random play, or gnubg reports no board
            after = g.board_from_position_key(rng.choice(keys))
            board = [list(after[1]), list(after[0])]
        else:  # best_move's board is already swapped for the next player
            board = [list(side) for side in g.board_from_position_key(key)]
        if sum(board[0]) == 0 or sum(board[1]) == 0:
            board = [list(side) for side in g.board_from_position_id(START_ID)]
    return out


# --- random boards ---------------------------------------------------------


class _Builder:
    """A gnubg board filled checker by checker, never both sides on a point."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.board: GnubgBoard = [[0] * 25, [0] * 25]

    def free(self, side: int, index: int) -> bool:
        return index == 24 or self.board[1 - side][23 - index] == 0

    def put(self, side: int, index: int, count: int = 1) -> bool:
        if not self.free(side, index) or count > self.left(side):
            return False
        self.board[side][index] += count
        return True

    def left(self, side: int) -> int:
        return 15 - sum(self.board[side])

    def scatter(self, side: int, count: int, indexes: range | list[int]) -> None:
        """Put ``count`` checkers on random free points among ``indexes``."""
        choices = [i for i in indexes if self.free(side, i)]
        for _ in range(min(count, self.left(side))):
            if not choices:
                return
            self.put(side, self.rng.choice(choices))

    def make_points(self, side: int, indexes: list[int]) -> None:
        for i in indexes:
            if self.left(side) >= 2 and self.free(side, i):
                self.put(side, i, 2)


MOVER, OPP = 1, 0


def _scattered(b: _Builder) -> None:
    for side in (MOVER, OPP):
        b.put(side, 24, b.rng.choice([0] * 6 + [1, 1, 2, 3]))
        off = b.rng.choice([0] * 6 + [1, 2, 4])
        b.scatter(side, b.left(side) - off, range(24))


def _crowded(b: _Builder) -> None:
    for side in (MOVER, OPP):
        points = b.rng.sample(range(24), b.rng.randint(2, 7))
        b.scatter(side, b.left(side), points)
        b.put(side, 24, b.rng.choice([0] * 4 + [1]))


def _bear_off(b: _Builder) -> None:
    b.scatter(MOVER, b.rng.randint(1, 15), range(6))
    kind = b.rng.randrange(3)
    if kind == 0:  # a race
        b.scatter(OPP, b.rng.randint(1, 15), range(6))
    elif kind == 1:  # contact: opponent checkers still in the mover's home
        b.scatter(OPP, b.rng.randint(1, 3), range(18, 24))
        b.put(OPP, 24, b.rng.randint(0, 1))
        b.scatter(OPP, b.left(OPP), range(12))
    else:
        b.scatter(OPP, b.left(OPP), range(24))


def _almost_home(b: _Builder) -> None:
    """All home but one or two checkers: bear-off may start mid-turn."""
    b.scatter(MOVER, b.rng.randint(1, 2), range(6, 12))
    b.put(MOVER, 24, b.rng.choice([0] * 5 + [1]))
    b.scatter(MOVER, b.rng.randint(1, 13), range(6))
    b.scatter(OPP, b.rng.randint(4, 15), range(24))


def _primed(b: _Builder) -> None:
    """The opponent holds a 4- to 6-point prime; mover checkers behind it."""
    length = b.rng.randint(4, 6)
    first = b.rng.randint(0, 17)  # opponent's own index of the prime's low end
    b.make_points(OPP, list(range(first, min(first + length, 24))))
    # behind the prime from the mover's view: the opponent's lower indexes
    behind = [23 - i for i in range(0, first)] or [24]
    b.scatter(MOVER, b.rng.randint(1, 4), behind)
    b.put(MOVER, 24, b.rng.choice([0] * 3 + [1]))
    b.scatter(MOVER, b.left(MOVER), range(24))
    b.scatter(OPP, b.left(OPP), range(24))


def _closed(b: _Builder) -> None:
    """The opponent's home board closed; the mover on the bar."""
    b.make_points(OPP, list(range(6)))
    b.put(MOVER, 24, b.rng.randint(1, 3))
    b.scatter(MOVER, b.left(MOVER), range(24))
    b.scatter(OPP, b.left(OPP), range(6, 24))


def _on_bar(b: _Builder) -> None:
    """Mover checkers on the bar against a partly made home board."""
    b.make_points(OPP, b.rng.sample(range(6), b.rng.randint(1, 5)))
    b.put(MOVER, 24, b.rng.randint(1, 4))
    b.scatter(MOVER, b.left(MOVER) - b.rng.randint(0, 3), range(24))
    b.scatter(OPP, b.left(OPP), range(24))


def _stragglers(b: _Builder) -> None:
    """One or two checkers outside home, the rest deep in it (they cannot
    move until all are home), against scattered opposing points: often only
    one die can be played."""
    b.scatter(MOVER, b.rng.randint(1, 2), range(6, 24))
    b.scatter(MOVER, b.rng.randint(0, 13), range(3))
    b.make_points(OPP, b.rng.sample(range(23), b.rng.randint(3, 7)))
    b.scatter(OPP, b.rng.randint(0, 3), range(24))


KINDS: dict[str, Callable[[_Builder], None]] = {
    "scattered": _scattered,
    "crowded": _crowded,
    "bear-off": _bear_off,
    "almost-home": _almost_home,
    "primed": _primed,
    "closed": _closed,
    "on-bar": _on_bar,
    "stragglers": _stragglers,
}


def boards_of_kind(rng: random.Random, kind: str, count: int) -> list[GnubgBoard]:
    """``count`` random boards of one kind where both sides still have a
    checker (a finished game has no roll)."""
    out = []
    while len(out) < count:
        b = _Builder(rng)
        KINDS[kind](b)
        if sum(b.board[MOVER]) and sum(b.board[OPP]):
            out.append(b.board)
    return out


def random_boards(rng: random.Random, count: int) -> list[GnubgBoard]:
    """``count`` random boards, the kinds in turn."""
    per_kind = -(-count // len(KINDS))
    mixed = zip(*(boards_of_kind(rng, kind, per_kind) for kind in KINDS))
    return [board for group in mixed for board in group][:count]


# --- comparison -----------------------------------------------------------


def to_array(board: tuple[tuple[int, ...], tuple[int, ...]] | GnubgBoard) -> tuple[int, ...]:
    """gnubg board -> the engine's 26-int array, written out independently."""
    opp, mover = board
    return (-opp[24], *map(operator.sub, mover[:24], opp[23::-1]), mover[24])


def mismatches(boards: list[GnubgBoard], rolls: list[tuple[int, int]]) -> list[str]:
    """Every (position, roll) where our set of resulting boards differs."""
    bad = []
    decode = g.board_from_position_key
    for board in boards:
        s = to_array(board)
        for d1, d2 in rolls:
            theirs = {to_array(decode(key)) for key in g.moves(board, d1, d2)} or {s}
            ours = set(legal_results(s, (d1, d2), BACKGAMMON))
            if ours != theirs:
                bad.append(
                    f"{g.position_id(board)} {d1}-{d2}: {len(ours)} ours, {len(theirs)} gnubg, "
                    f"only ours {sorted(ours - theirs)[:2]}, only gnubg {sorted(theirs - ours)[:2]}"
                )
    return bad


# 3300 + 3300 distinct positions from play + 8 x 450 random boards, each with all 21 rolls
SELF_PLAY = RANDOM_PLAY = 3300
PER_KIND = 450


def test_self_play_positions() -> None:
    boards = played_boards(random.Random(2), SELF_PLAY, greedy=True)
    assert mismatches(boards, ROLLS) == []


def test_random_play_positions() -> None:
    boards = played_boards(random.Random(3), RANDOM_PLAY, greedy=False)
    assert mismatches(boards, ROLLS) == []


@pytest.mark.parametrize("kind", list(KINDS))
def test_random_boards(kind: str) -> None:
    boards = boards_of_kind(random.Random(kind), kind, PER_KIND)
    assert mismatches(boards, ROLLS) == []


def test_generators_reach_the_hard_cases() -> None:
    """The random boards really contain what they are meant to test."""
    boards = random_boards(random.Random(7), 700)
    arrays = [to_array(b) for b in boards]
    assert sum(s[25] > 0 for s in arrays) > 150  # mover on the bar
    assert sum(all(v <= 0 for v in s[7:26]) for s in arrays) > 80  # bearing off
    closed = [s for s in arrays if s[25] and all(v <= -2 for v in s[19:25])]
    assert len(closed) > 50  # dancing
    assert all(set(legal_results(s, (6, 6), BACKGAMMON)) == {s} for s in closed)


def test_ids_and_keys_round_trip() -> None:
    rng = random.Random(11)
    boards = played_boards(rng, 300, greedy=False) + random_boards(rng, 700)
    for board in boards:
        pos = Position.from_points(board[1], board[0])
        assert pos.position_id() == g.position_id(board)
        assert pos.position_key() == g.key_of_board(board)
        back = g.board_from_position_id(pos.position_id())
        assert [list(side) for side in back] == [list(side) for side in board]
        assert Position.from_position_id(g.position_id(board)) == pos
        assert pos.board == to_array(board)
        # pip counts: each checker's distance from off in its owner's numbering
        assert pos.pips() == tuple(
            sum(n * count for n, count in enumerate(side, start=1)) for side in (board[1], board[0])
        )


def test_public_api_gives_gnubgs_positions() -> None:
    """``Position.legal_plays``/``legal_positions`` with gnubg's own keys:
    the after-positions (opponent on roll), seen back from the mover."""
    rng = random.Random(13)
    boards = played_boards(rng, 120, greedy=False) + random_boards(rng, 80)
    for board in boards:
        pos = Position.from_position_id(g.position_id(board))
        for dice in ROLLS:
            after = pos.legal_positions(dice, BACKGAMMON)
            plays = pos.legal_plays(dice, BACKGAMMON)
            assert [pos.play(play) for play in plays] == after
            keys = {p.flip().position_key() for p in after}
            assert keys == (set(g.moves(board, *dice)) or {pos.position_key()})
