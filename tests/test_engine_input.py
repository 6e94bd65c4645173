"""Impossible positions and bad arguments raise a ValueError naming the fault."""

from __future__ import annotations

import pytest

from tavlakit import Move, Position, Rules

START = {24: 2, 13: 5, 8: 3, 6: 5}


@pytest.mark.parametrize(
    ("mover", "opponent", "message"),
    [
        ({**START, 2: 1}, START, "side to move has 16 checkers"),
        (START, {**START, 25: 1}, "opponent has 16 checkers"),
        ({6: 16}, {}, "point 6 of the side to move holds 16 checkers"),
        ({6: -1, 5: 3}, START, "point 6 of the side to move holds -1 checkers"),
        (START, {25: -2}, "the bar of the opponent holds -2 checkers"),
        ({6: 2}, {19: 2}, "point 6 of the side to move .the opponent's 19. holds checkers of both sides"),
        ({6: 1.5}, {}, "holds 1.5 checkers; a whole number"),
        ({0: 1}, {}, "point 0 of the side to move is not 1-24 or 25"),
        ({}, {26: 1}, "point 26 of the opponent is not 1-24 or 25"),
        ([0] * 24, {}, "25 entries"),
    ],
)
def test_impossible_positions(mover: object, opponent: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.from_points(mover, opponent)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ([0] * 25, "26 entries"),
        ([0] * 25 + [-1], "side to move has -1 checkers on the bar"),
        ([1] + [0] * 25, "opponent has -1 checkers on the bar"),
        ([0] + [2] * 8 + [0] * 17, "side to move has 16 checkers"),
        ([0] * 27, "26 entries"),
        ([0.5] * 26, "whole numbers"),
    ],
)
def test_impossible_board_arrays(board: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position(board)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dice", "message"),
    [((0, 3), "1-6"), ((7, 1), "1-6"), ((1, 2, 3), "two dice"), (("a", 2), "whole numbers")],
)
def test_bad_dice(dice: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.initial().legal_plays(dice, Rules())  # type: ignore[arg-type]


def test_apply_refuses_impossible_steps() -> None:
    pos = Position.initial()
    with pytest.raises(ValueError, match="no checker of the side to move on 20"):
        pos.apply([Move(20, 14)])
    with pytest.raises(ValueError, match="point 19 is closed"):
        pos.apply([Move(24, 19)])  # the opponent's 6-point
    with pytest.raises(ValueError, match="no checker"):
        pos.apply([Move(6, 8)])  # backwards


def test_unknown_rules() -> None:
    with pytest.raises(ValueError, match="unknown rules 'chess'"):
        Rules.preset("chess")
    with pytest.raises(ValueError, match="mars must be one of"):
        Rules(mars="never")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opening must be one of"):
        Rules(opening="coin")  # type: ignore[arg-type]
