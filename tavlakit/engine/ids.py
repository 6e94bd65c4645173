"""GNU Backgammon Position IDs and position keys.

A Position ID packs both sides' boards (the player *not* on roll first,
then the player on roll; for each, points 1..24 and the bar of its own
view) as "n ones then a zero" per point into 80 bits, little-endian,
then base64 without padding: 14 characters.

>>> encode_position_id([0] * 25, [0] * 25)
'AAAAAAAAAAAAAA'
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence

from ..i18n import _

Side = Sequence[int]

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


# "n ones then a zero" for each possible count, as bit characters
_RUNS = {count: "1" * count + "0" for count in range(16)}
# each byte as gnubg's two key letters A-P
_KEY_LETTERS = [chr(65 + (byte >> 4)) + chr(65 + (byte & 15)) for byte in range(256)]


def _pack(first: Side, second: Side) -> bytes:
    try:
        bits = "".join([_RUNS[count] for count in first] + [_RUNS[count] for count in second])
    except (KeyError, TypeError):
        raise ValueError(f"checker counts must be whole numbers 0-15: {first}, {second}") from None
    if len(bits) > 80:
        raise ValueError("too many checkers for a Position ID")
    # the first bit is the lowest: read the string backwards as a binary number
    return int(bits[::-1], 2).to_bytes(10, "little")


def encode_position_id(first: Side, second: Side) -> str:
    """Position ID of gnubg boards ``first`` (not on roll), ``second`` (on roll)."""
    return base64.b64encode(_pack(first, second)).decode("ascii")[:14]


def encode_position_key(first: Side, second: Side) -> str:
    """gnubg's 20-letter key: the same 10 bytes, each as two letters A-P."""
    return "".join([_KEY_LETTERS[byte] for byte in _pack(first, second)])


def _unpack(data: bytes, what: str) -> tuple[list[int], list[int]]:
    bits = int.from_bytes(data, "little")
    sides: list[list[int]] = [[], []]
    pos = 0
    for side in sides:
        while len(side) < 25:
            count = 0
            while pos < 80 and bits >> pos & 1:
                count += 1
                pos += 1
            if pos >= 80:
                raise ValueError(f"{what} ends before both boards are complete")
            pos += 1
            side.append(count)
    for name, side in zip(("player not on roll", "player on roll"), sides):
        if sum(side) > 15:
            raise ValueError(f"{what} gives the {name} {sum(side)} checkers (at most 15)")
    if bits >> pos:
        raise ValueError(f"{what} has bits set after both boards")
    return sides[0], sides[1]


def decode_position_id(position_id: str) -> tuple[list[int], list[int]]:
    """Boards ``(not on roll, on roll)`` from a Position ID.

    >>> decode_position_id("4HPwATDgc/ABMA")[1][5]
    5
    >>> decode_position_id("4HPwATDgc/ABMB")
    Traceback (most recent call last):
    ...
    ValueError: Position ID '4HPwATDgc/ABMB' has bits set after the 80 it holds (last character)
    """
    if not isinstance(position_id, str):
        raise ValueError(_("a Position ID is a string of 14 characters, not {value!r}").format(value=position_id))
    text = position_id.strip()
    if len(text) != 14:
        raise ValueError(_("a Position ID has 14 characters, {text!r} has {count}").format(text=text, count=len(text)))
    try:
        data = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(_("{text!r} is not a Position ID (base64 expected)").format(text=text)) from None
    # 14 characters carry 84 bits; the last character's low 4 are padding
    if _B64.index(text[-1]) & 15:
        raise ValueError(
            _("Position ID {text!r} has bits set after the 80 it holds (last character)").format(text=text)
        )
    return _unpack(data, f"Position ID {text!r}")


def decode_position_key(key: str) -> tuple[list[int], list[int]]:
    """Boards ``(not on roll, on roll)`` from a 20-letter position key."""
    if not isinstance(key, str):
        raise ValueError(f"a position key is a string of 20 letters A-P, not {key!r}")
    text = key.strip()
    if len(text) != 20 or any(not "A" <= c <= "P" for c in text):
        raise ValueError(f"a position key is 20 letters A-P, not {text!r}")
    data = bytes((ord(text[i]) - 65) << 4 | (ord(text[i + 1]) - 65) for i in range(0, 20, 2))
    return _unpack(data, f"position key {text!r}")
