"""Moves, plays and their notation; applying gnubg-nn's own checker steps."""

from __future__ import annotations

import random

import pytest

from tavlakit import BAR, OFF, Move, Play, Position, Rules
from tavlakit.engine.play import parse_part

g = pytest.importorskip("gnubg_nn")


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("24/18", [(24, 18, False)]),
        ("13/7*/1", [(13, 7, True), (7, 1, False)]),
        ("bar/22*", [(BAR, 22, True)]),
        ("6/off", [(6, OFF, False)]),
        ("8/5(2)", [(8, 5, False)] * 2),
        ("6/2*(2)", [(6, 2, True)] * 2),
        ("BAR/20", [(BAR, 20, False)]),
    ],
)
def test_parse_part(text: str, moves: list[tuple[int, int, bool]]) -> None:
    assert parse_part(text) == [Move(*m) for m in moves]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24-18", "cannot read move"),
        ("24/", "cannot read move"),
        ("18/24", "does not go forward"),
        ("26/20", "point 26 is not between 0 and 25"),
        ("*24/18", "cannot read move"),
        ("24*/18", "hit mark belongs after a destination"),
        ("8/5(0)", "at least 1"),
        ("off/3", "cannot read move"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Play.parse(text)


@pytest.mark.parametrize(
    ("written", "standard"),
    [
        ("24/18 18/13", "24/13"),
        ("24/18* 18/13", "24/18*/13"),
        ("6/5 6/5", "6/5(2)"),
        ("13/9 13/9 9/5 9/5", "13/5(2)"),
        ("6/off 5/off", "6/off 5/off"),
        ("bar/22 22/16", "bar/16"),
        ("8/2 6/2", "8/2 6/2"),
    ],
)
def test_standard_notation(written: str, standard: str) -> None:
    assert str(Play.parse(written)) == standard


def test_notation_with_numbers_for_bar_and_off() -> None:
    assert Play.parse("bar/20 3/off").notation(bar="25", off="0") == "25/20 3/0"


def test_gnubg_steps_reach_gnubgs_positions() -> None:
    """gnubg-nn's checker steps, applied by Position.apply, give its keys;
    our notation of each legal play reads back to the same position."""
    rng = random.Random(4)
    board = [list(side) for side in g.board_from_position_id("4HPwATDgc/ABMA")]
    rules = Rules.preset("backgammon")
    checked = 0
    for _ in range(600):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        pos = Position.from_points(board[1], board[0])
        options = g.moves(board, d1, d2, 1)
        for key, steps in options:
            after = pos.apply(Move(src, dst) for src, dst in steps)
            assert after.position_key() == key
            checked += 1
        for play, result in zip(pos.legal_plays((d1, d2), rules), pos.legal_positions((d1, d2), rules)):
            assert pos.play(Play.parse(str(play))) == result
        if not options:
            board = [board[1], board[0]]
            continue
        after_key = rng.choice(options)[0]
        after = g.board_from_position_key(after_key)
        board = [list(after[1]), list(after[0])]
        if not sum(board[0]) or not sum(board[1]):
            board = [list(side) for side in g.board_from_position_id("4HPwATDgc/ABMA")]
    assert checked > 5000
