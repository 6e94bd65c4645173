"""Position IDs and keys: gnubg's own encodings as the reference; bad IDs rejected."""

from __future__ import annotations

import random

import pytest

from tavlakit import Position
from tavlakit.engine.ids import (
    decode_position_id,
    decode_position_key,
    encode_position_id,
    encode_position_key,
)

g = pytest.importorskip("gnubg_nn")


def random_sides(rng: random.Random) -> list[list[int]]:
    """Two sides of up to 15 checkers each (IDs do not care about overlap)."""
    sides = []
    for _ in range(2):
        side = [0] * 25
        for _ in range(rng.randint(0, 15)):
            side[rng.randrange(25)] += 1
        sides.append(side)
    return sides


def test_ids_and_keys_equal_gnubgs() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        board = random_sides(rng)
        pid, key = encode_position_id(*board), encode_position_key(*board)
        assert pid == g.position_id(board)
        assert key == g.key_of_board(board)
        assert list(decode_position_id(pid)) == board
        assert list(decode_position_key(key)) == board
        assert [list(side) for side in g.board_from_position_id(pid)] == board


def test_known_ids() -> None:
    """IDs printed by GNU Backgammon."""
    assert Position.initial().position_id() == "4HPwATDgc/ABMA"
    assert encode_position_id([0] * 25, [0] * 25) == "AAAAAAAAAAAAAA"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/AB", "has 14 characters"),
        ("4HPwATDgc/ABMAA", "has 14 characters"),
        ("", "has 14 characters"),
        ("4HPwATDgc/AB!A", "base64 expected"),
        ("4HPwATDgc AB A", "base64 expected"),
        ("4HPwATDgc/ABMB", "bits set after the 80"),
        ("/////////////w", "ends before both boards"),
        ("//8AAAAAAAAAAA", "16 checkers"),  # 16 for the player not on roll
        ("AAAAAAAAAAA4AA", "bits set after both boards"),
    ],
)
def test_bad_position_ids(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.from_position_id(text)


def test_position_id_must_be_text() -> None:
    with pytest.raises(ValueError, match="string"):
        Position.from_position_id(None)  # type: ignore[arg-type]


def test_impossible_id_both_sides_on_a_point() -> None:
    # both players with a checker on the same absolute point: 1 of one = 24 of the other
    pid = encode_position_id([1] + [0] * 24, [0] * 23 + [1, 0])
    with pytest.raises(ValueError, match="both sides"):
        Position.from_position_id(pid)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("AAAA", "20 letters"),
        ("Z" * 20, "20 letters"),
        ("P" * 20, "ends before both boards"),
    ],
)
def test_bad_position_keys(key: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode_position_key(key)


@pytest.mark.parametrize(
    ("side", "message"),
    [
        ([-1] + [0] * 24, "whole numbers 0-15"),
        ([16] + [0] * 24, "whole numbers 0-15"),
        ([1.5] + [0] * 24, "whole numbers 0-15"),
        ([15] * 25, "too many checkers"),
    ],
)
def test_encoding_refuses_impossible_counts(side: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        encode_position_id(side, [0] * 25)
