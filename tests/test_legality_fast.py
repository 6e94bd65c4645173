"""The replay's quick ways (``legality.direct``: one written move per die;
``legality.single_hops``: a bear-off) against the full search
(``legality.realise``, through which ``legality.judge`` answered the
walker before): for written plays of random boards, the same board and the
same moves in the same order, or ``None`` where the search finds another
answer (a merged move, a play at fault)."""

from __future__ import annotations

import itertools
import random

from tavlakit.engine.movegen import legal_results
from tavlakit.engine.play import Move
from tavlakit.engine.rules import Rules
from tavlakit.replay.legality import direct, judge, realise, single_hops

RULES = Rules.preset("backgammon")


def home_board(rng: random.Random) -> tuple[int, ...]:
    """The mover's checkers on 1-6 (some borne off, now and then one left outside), a few of the opponent's."""
    s = [0] * 26
    for _ in range(rng.randint(1, 15)):
        s[rng.choice((1, 2, 3, 4, 5, 6, 6, 5, 4, 7 if rng.random() < 0.05 else 6))] += 1
    for point in rng.sample(range(1, 7), rng.randint(0, 2)):
        if s[point] == 0:
            s[point] = -rng.randint(1, 2)
    return tuple(s)


def written_plays(rng: random.Random, board: tuple[int, ...], dice: tuple[int, int]) -> list[tuple[Move, ...]]:
    """Legal plays as a record writes them (hit marks dropped, in any order), and a few at fault."""
    out = []
    for moves in legal_results(board, dice, RULES).values():
        plain = [Move(m.src, m.dst) for m in moves]
        out.extend(tuple(order) for order in itertools.islice(itertools.permutations(plain), 3))
        if plain:
            wrong = list(plain)
            wrong[0] = Move(rng.randint(1, 6), 0)
            out.append(tuple(wrong))
    return out


def contact_board(rng: random.Random) -> tuple[int, ...]:
    """The mover's 15 checkers anywhere (now and then some on the bar or borne off), the opponent's on other points."""
    s = [0] * 26
    for _ in range(15 - (rng.randint(0, 14) if rng.random() < 0.1 else 0)):
        s[25 if rng.random() < 0.04 else rng.randint(1, 24)] += 1
    for _ in range(15):
        point = rng.randint(1, 24)
        if s[point] <= 0:
            s[point] -= 1
    return tuple(s)


def shape(moves: tuple[Move, ...]) -> tuple[list[tuple[int, int]], set[int]]:
    """A play's moves as (from, to) in order, and the points it hit."""
    return sorted((m.src, m.dst) for m in moves), {m.dst for m in moves if m.hit}


def one_die_moves(rng: random.Random, board: tuple[int, ...], dice: tuple[int, int]) -> list[tuple[Move, ...]]:
    """Plays of one move per die from random points of the mover, legal or not (a checker left on the bar, a
    point closed, a bear-off too soon)."""
    sources = [point for point in range(1, 26) if board[point] > 0]
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    return [
        tuple(Move(src, max(src - die, 0)) for src, die in zip(rng.choices(sources, k=len(pool)), pool))
        for _ in range(3)
    ]


def test_direct_is_the_search_first_reading() -> None:
    rng = random.Random(35)
    fast = slow = 0
    for _ in range(400):
        board = home_board(rng) if rng.random() < 0.3 else contact_board(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for written in written_plays(rng, board, dice) + one_die_moves(rng, board, dice):
            quick = direct(board, dice, written)
            count = 4 if dice[0] == dice[1] else 2
            full = [(key, made) for key, made in realise(board, dice, written)[0].items() if len(made) == count]
            if quick is not None:
                fast += 1
                # the same board, moves and points hit (the moves played from the highest point first: which of
                # two checkers landing on a blot hit it may differ)
                assert [(key, shape(made)) for key, made in full] == [(quick[0], shape(quick[1]))], (board, dice)
            elif full and sorted(m.src - m.dst for m in written) == sorted(dice * (count // 2)):
                raise AssertionError(f"the quick way missed a play of one die a move: {board} {dice} {written}")
            else:
                slow += 1
    assert fast > 1000 and slow > 100, (fast, slow)


def test_single_hops_is_the_search_first_reading() -> None:
    rng = random.Random(36)
    fast = slow = 0
    for _ in range(600):
        board = home_board(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for written in written_plays(rng, board, dice):
            quick = single_hops(board, dice, written)
            count = 4 if dice[0] == dice[1] else 2
            full = [(key, made) for key, made in realise(board, dice, written)[0].items() if len(made) == count]
            if quick is not None:
                fast += 1
                assert full == [quick], (board, dice, written)
                assert judge(board, dice, written, RULES).after == quick[0]
            elif full and len(written) == count and all(m.dst == 0 or m.src - m.dst in dice for m in written):
                raise AssertionError(f"the quick way missed a play of single hops: {board} {dice} {written}")
            else:
                slow += 1
    assert fast > 1000 and slow > 100, (fast, slow)


def test_the_last_checkers_borne_off_are_legal_without_the_legal_plays() -> None:
    """A play bearing off the mover's last checkers with fewer dice than
    thrown is read without listing the legal plays: the board it leaves is
    always one of theirs (under every option)."""
    rng = random.Random(38)
    ended = 0
    for _ in range(3000):
        board = home_board(rng)
        if sum(v for v in board if v > 0) > 3 or board[7] > 0:
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for rules in (RULES, Rules.preset("tavla"), Rules.preset("tavla").replace(larger_die=False)):
            for made in legal_results(board, dice, rules).values():
                written = tuple(Move(m.src, m.dst) for m in made)
                reached = realise(board, dice, written)[0]
                if (
                    len(reached) == 1
                    and max(next(iter(reached))) <= 0
                    and len(written) < (4 if dice[0] == dice[1] else 2)
                ):
                    ended += 1
                    verdict = judge(board, dice, written, rules)
                    legal = legal_results(board, dice, rules)
                    assert verdict.readings == [(k, m) for k, m in reached.items() if k in legal], (
                        board,
                        dice,
                        written,
                    )
    assert ended > 200, ended
