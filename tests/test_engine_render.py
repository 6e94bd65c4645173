"""The ASCII board shows every checker where it is: read it back and compare."""

from __future__ import annotations

import random

from test_engine_gnubg import played_boards, random_boards

from tavlakit import Position

TOP = list(range(13, 25))  # left to right
BOTTOM = list(range(12, 0, -1))


def column(index: int) -> slice:
    """The 3 characters of point column ``index`` (0-11; 6-11 right of the bar)."""
    start = 2 + 3 * index + (5 if index >= 6 else 0)
    return slice(start, start + 3)


def stack(cells: list[str]) -> int:
    """Signed count from a column's cells, edge first (+ for X, - for O)."""
    marks = [c.strip() for c in cells]
    letters = [m for m in marks if m in ("X", "O")]
    sign = 1 if letters and letters[0] == "X" else -1
    if marks[4].isdigit():
        return sign * int(marks[4])
    return sign * len(letters)


def read_back(text: str) -> tuple[int, ...]:
    lines = text.splitlines()
    top, bottom = lines[1:6], lines[7:12][::-1]  # both edge first
    s = [0] * 26
    for half, points in ((top, TOP), (bottom, BOTTOM)):
        for index, point in enumerate(points):
            s[point] = stack([line[column(index)] for line in half])
    s[0] = stack([line[21:24] for line in top])
    s[25] = stack([line[21:24] for line in bottom])
    return tuple(s)


def test_ascii_board_reads_back() -> None:
    rng = random.Random(12)
    boards = played_boards(rng, 200, greedy=False) + random_boards(rng, 400)
    crowded_bars = [[0] * 24 + [7], [0] * 5 + [4] + [0] * 18 + [11]]  # 7 and 11 on the bars
    boards.append(crowded_bars)
    for board in boards:
        pos = Position.from_points(board[1], board[0])
        text = str(pos)
        assert read_back(text) == pos.board, text
        assert f"X: {pos.pips()[0]} pips, {pos.off()[0]} off" in text
        assert f"O: {pos.pips()[1]} pips, {pos.off()[1]} off" in text
        assert text.endswith(f"Position ID: {pos.position_id()}")
        assert len({len(line) for line in text.splitlines()[1:12]}) == 1  # aligned rows
