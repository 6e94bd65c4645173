"""Many gnubg position keys read at once into boards, and written from them.

A key (:func:`tavlakit.engine.ids.decode_position_key` reads one) is 20 letters
``A``-``P``, two per byte (high half first), of 80 bits, the lowest bit of
each byte first: for each side of the board ``[side not on roll, side on
roll]`` and each of its 25 points (index 24: the bar), as many ones as
checkers there, then a zero.

>>> start = boards_of_keys(["OAHDPAABDAOAHDPAABDA"])  # the starting position
>>> start[0, 1, [5, 7, 12, 23]].tolist()  # the side on roll's 6, 8, 13 and 24 points
[5, 3, 5, 2]
>>> after = boards_of_keys(["OAHDPAABDAOAHDPAABBC"])  # 24/21 24/23 played, seen by the mover
>>> after[0, 1, 20:24].tolist(), boards_of_keys(["OAHDPAABDAOAHDPAABBC"], flip=True)[0, 0, 20:24].tolist()
([1, 0, 1, 0], [1, 0, 1, 0])
>>> keys_of_boards(after), keys_of_boards(boards_of_keys(["OAHDPAABDAOAHDPAABBC"], flip=True), flip=True)
(['OAHDPAABDAOAHDPAABBC'], ['OAHDPAABDAOAHDPAABBC'])
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .jit import jit

#: Boards ``(n, 2, 25)``, a byte a count (an eighth of the memory of 64-bit counts: a game's plays are kept).
Boards = npt.NDArray[np.int8]


@jit
def _decode(letters: npt.NDArray[np.uint8], boards: Boards, flip: bool) -> None:
    for row in range(boards.shape[0]):
        side = point = count = 0
        for byte in range(10):
            value = (letters[row, 2 * byte] - 65) << 4 | (letters[row, 2 * byte + 1] - 65)
            for bit in range(8):
                if side == 2:
                    break
                if value >> bit & 1:
                    count += 1
                else:
                    boards[row, 1 - side if flip else side, point] = count
                    count = 0
                    point += 1
                    if point == 25:
                        side, point = side + 1, 0


@jit
def _first_rows(boards: Boards, table: npt.NDArray[np.int64], first: npt.NDArray[np.int64]) -> int:
    """``first[r]``: the first row with the board of row r (open addressing
    on a hash of the counts; ``table``: a power of two longer than
    ``boards``, all -1); how many distinct boards."""
    mask = len(table) - 1
    distinct = 0
    for r in range(len(boards)):
        board = boards[r]
        h = np.uint64(0)
        for s in range(2):
            for q in range(25):
                h = (h ^ np.uint64(board[s, q])) * np.uint64(0x100000001B3)
        at = np.int64(h >> np.uint64(33)) & mask
        while True:
            row = table[at]
            if row < 0:
                table[at] = r
                first[r] = r
                distinct += 1
                break
            same = True
            for s in range(2):
                for q in range(25):
                    same &= boards[row, s, q] == board[s, q]
            if same:
                first[r] = row
                break
            at = (at + 1) & mask
    return distinct


def distinct_boards(boards: Boards) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The rows of ``boards`` that are the first with their board, and for
    each row its board's number among those: ``boards[rows][numbers]``
    is ``boards`` again.

    >>> b = np.zeros((3, 2, 25), dtype=np.int8); b[1, 0, 5] = 1
    >>> rows, numbers = distinct_boards(b)
    >>> rows.tolist(), numbers.tolist()
    ([0, 1], [0, 1, 0])
    """
    first = np.empty(len(boards), dtype=np.int64)
    table = np.full(1 << max(4, (2 * len(boards)).bit_length()), -1, dtype=np.int64)
    _first_rows(np.ascontiguousarray(boards, dtype=np.int8), table, first)
    rows = np.flatnonzero(first == np.arange(len(boards)))
    numbers = np.empty(len(boards), dtype=np.int64)
    numbers[rows] = np.arange(len(rows))
    return rows, numbers[first]


@jit
def _encode(boards: Boards, flip: bool, data: npt.NDArray[np.uint8]) -> None:
    for row in range(boards.shape[0]):
        bit = 0
        for s in range(2):
            side = 1 - s if flip else s
            for point in range(25):
                for _ in range(boards[row, side, point]):
                    if bit < 80:  # (a board of more than 30 chequers has no key: never past the row)
                        data[row, bit >> 3] |= 1 << (bit & 7)
                    bit += 1
                bit += 1


def keys_of_boards(boards: Boards, *, flip: bool = False) -> list[str]:
    """The keys of ``boards`` ``(n, 2, 25)`` (``flip``: of the boards with
    their two sides swapped, the turn passed back): what
    :func:`boards_of_keys` reads."""
    data = np.zeros((len(boards), 10), dtype=np.uint8)
    _encode(np.ascontiguousarray(boards, dtype=np.int8), flip, data)
    letters = np.empty((len(boards), 20), dtype=np.uint8)
    letters[:, 0::2] = (data >> 4) + 65
    letters[:, 1::2] = (data & 15) + 65
    text = letters.tobytes().decode("ascii")
    return [text[at : at + 20] for at in range(0, len(text), 20)]


def boards_of_keys(keys: list[str], *, flip: bool = False) -> Boards:
    """The boards ``(n, 2, 25)`` of ``keys`` (each side's 25 counts; ``flip``:
    the two sides swapped, the turn passed)."""
    boards = np.zeros((len(keys), 2, 25), dtype=np.int8)
    if keys:
        letters = np.frombuffer("".join(keys).encode("ascii"), dtype=np.uint8).reshape(len(keys), 20)
        _decode(letters, boards, flip)
    return boards


__all__ = ["boards_of_keys", "distinct_boards", "keys_of_boards"]
