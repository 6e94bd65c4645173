"""Many gnubg position keys at once: boards from keys and keys from boards.

A key (:func:`tavlakit.ids.decode_position_key` reads one) is 20 letters
``A``-``P``, two per byte (high half first), of 80 bits, the lowest bit of
each byte first: for each side of the board ``[side not on roll, side on
roll]`` and each of its 25 points (index 24: the bar), as many ones as
checkers there, then a zero.

>>> start = boards_of_keys(["OAHDPAABDAOAHDPAABDA"])  # the starting position
>>> start[0, 1, [5, 7, 12, 23]].tolist()  # the side on roll's 6, 8, 13 and 24 points
[5, 3, 5, 2]
>>> keys_of_boards(start)
['OAHDPAABDAOAHDPAABDA']
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .jit import jit

Boards = npt.NDArray[np.int64]


@jit
def _decode(letters: npt.NDArray[np.uint8], boards: Boards) -> None:
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
                    boards[row, side, point] = count
                    count = 0
                    point += 1
                    if point == 25:
                        side, point = side + 1, 0


@jit
def _encode(boards: Boards, letters: npt.NDArray[np.uint8]) -> None:
    for row in range(boards.shape[0]):
        data = np.zeros(10, dtype=np.uint8)
        at = 0
        for side in range(2):
            for point in range(25):
                for _ in range(boards[row, side, point]):
                    data[at >> 3] |= 1 << (at & 7)
                    at += 1
                at += 1  # the zero that ends the point
        for byte in range(10):
            letters[row, 2 * byte] = 65 + (data[byte] >> 4)
            letters[row, 2 * byte + 1] = 65 + (data[byte] & 15)


def boards_of_keys(keys: list[str]) -> Boards:
    """The boards ``(n, 2, 25)`` of ``keys`` (each side's 25 counts)."""
    boards = np.zeros((len(keys), 2, 25), dtype=np.int64)
    if keys:
        letters = np.frombuffer("".join(keys).encode("ascii"), dtype=np.uint8).reshape(len(keys), 20)
        _decode(letters, boards)
    return boards


def keys_of_boards(boards: Boards) -> list[str]:
    """The keys of ``boards`` ``(n, 2, 25)``."""
    letters = np.empty((len(boards), 20), dtype=np.uint8)
    _encode(np.ascontiguousarray(boards, dtype=np.int64), letters)
    text = letters.tobytes().decode("ascii")
    return [text[i : i + 20] for i in range(0, len(text), 20)]


__all__ = ["boards_of_keys", "keys_of_boards"]
