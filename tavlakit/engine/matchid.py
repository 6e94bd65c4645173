"""GNU Backgammon Match IDs and eXtreme Gammon XGIDs.

A Match ID packs the match state into 67 bits (9 bytes, little-endian bit
order), written as 12 base64 characters; gnubg shows it beside the Position
ID. Players are gnubg's: 0 and 1, where 1 is the bottom player ("X").

>>> state = decode_match_id("cAkgAVAAAAAE")
>>> state.length, state.score, state.on_roll, state.dice
(9, (5, 0), 1, (0, 0))
>>> encode_match_id(state)
'cAkgAVAAAAAE'

An XGID is the position and the match state in one line; XG's bottom
player is gnubg's player 1 (as gnubg's ``set xgid`` reads it):

>>> pos, state = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")
>>> pos.position_id(), state.cube, state.cube_owner, state.score
('b9sBCIC5bYDQAA', 2, 0, (6, 3))
>>> format_xgid(pos, state)
'XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10'
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
from dataclasses import KW_ONLY, dataclass
from typing import Literal

from ..i18n import _
from .position import Position

GameState = Literal["none", "playing", "over", "resigned", "dropped"]
#: gnubg's ``gamestate`` values, in bit order (0-4).
GAME_STATES: tuple[str, ...] = ("none", "playing", "over", "resigned", "dropped")

#: (bit offset, width) of each Match ID field (gnubg ``matchid.c``).
_FIELDS = {
    "cube": (0, 4),  # log2 of the cube value
    "cube_owner": (4, 2),  # 0, 1, or 3 for a centred cube
    "on_roll": (6, 1),
    "crawford": (7, 1),
    "state": (8, 3),
    "turn": (11, 1),
    "doubled": (12, 1),
    "resign": (13, 2),
    "die1": (15, 3),
    "die2": (18, 3),
    "length": (21, 15),
    "score0": (36, 15),
    "score1": (51, 15),
    "no_jacoby": (66, 1),  # gnubg 1.07 on: set when the Jacoby rule is NOT used
}


@dataclass(frozen=True)
class MatchState:
    """The match and game state a Match ID (or an XGID) describes.

    ``on_roll`` is the player whose turn it is to roll or move (the board
    of a Position ID is seen by this player); ``turn`` the player who must
    act now (the opponent while a double or resignation waits for an
    answer). ``resign`` is 0 (none) or the offered kind: 1 single,
    2 gammon, 3 backgammon. ``dice`` is ``(0, 0)`` before the roll.
    ``jacoby`` is in both; ``beaver`` and ``max_cube`` are XGID fields
    only. gnubg writes the higher die first; so does :func:`encode_match_id`.
    """

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    _: KW_ONLY
    crawford: bool = False
    state: GameState = "playing"
    turn: int = 0
    doubled: bool = False
    resign: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            raise ValueError(f"cube value {self.cube} is not a power of two up to 32768")
        if self.cube_owner not in (None, 0, 1) or self.on_roll not in (0, 1) or self.turn not in (0, 1):
            raise ValueError("players are 0 and 1 (cube owner None when centred)")
        if self.state not in GAME_STATES:
            raise ValueError(f"game state must be one of {GAME_STATES}, not {self.state!r}")
        if not 0 <= self.resign <= 3:
            raise ValueError(f"resign must be 0-3, not {self.resign}")
        if len(self.dice) != 2 or not all(0 <= d <= 6 for d in self.dice) or (0 in self.dice and any(self.dice)):
            raise ValueError(f"dice {self.dice} must be two numbers 1-6, or (0, 0) before the roll")
        if not 0 <= self.length < 1 << 15 or not all(0 <= s < 1 << 15 for s in self.score):
            raise ValueError("match length and scores must be 0-32767")

    def replace(self, **changes: object) -> MatchState:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _log2(value: int) -> int:
    return value.bit_length() - 1


def encode_match_id(state: MatchState) -> str:
    """The 12-character gnubg Match ID of ``state``."""
    values = {
        "cube": _log2(state.cube),
        "cube_owner": 3 if state.cube_owner is None else state.cube_owner,
        "on_roll": state.on_roll,
        "crawford": int(state.crawford),
        "state": GAME_STATES.index(state.state),
        "turn": state.turn,
        "doubled": int(state.doubled),
        "resign": state.resign,
        "die1": max(state.dice),
        "die2": min(state.dice),
        "length": state.length,
        "score0": state.score[0],
        "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    bits = 0
    for name, (offset, width) in _FIELDS.items():
        bits |= (values[name] & ((1 << width) - 1)) << offset
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode_match_id(match_id: str) -> MatchState:
    """Read a gnubg Match ID; a ``ValueError`` says what is wrong with it."""
    text = match_id.strip()
    if len(text) != 12:
        raise ValueError(_("a Match ID has 12 characters, {text!r} has {count}").format(text=text, count=len(text)))
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(_("{text!r} is not a Match ID (base64 expected)").format(text=text)) from None
    bits = int.from_bytes(data, "little")
    v = {name: bits >> offset & ((1 << width) - 1) for name, (offset, width) in _FIELDS.items()}
    if v["state"] >= len(GAME_STATES):
        raise ValueError(_("Match ID {text!r}: game state {state} is not 0-4").format(text=text, state=v["state"]))
    if v["cube_owner"] == 2:
        raise ValueError(_("Match ID {text!r}: cube owner 2 is not a player").format(text=text))
    if v["cube"] > 15:
        raise ValueError(_("Match ID {text!r}: cube 2^{power} is too large").format(text=text, power=v["cube"]))
    if v["length"] and any(v[s] > v["length"] for s in ("score0", "score1")):
        raise ValueError(
            _("Match ID {text!r}: a score is above the match length {length}").format(text=text, length=v["length"])
        )
    try:
        return MatchState(
            cube=1 << v["cube"],
            cube_owner=None if v["cube_owner"] == 3 else v["cube_owner"],
            on_roll=v["on_roll"],
            crawford=bool(v["crawford"]),
            state=GAME_STATES[v["state"]],  # type: ignore[arg-type]
            turn=v["turn"],
            doubled=bool(v["doubled"]),
            resign=v["resign"],
            dice=(v["die1"], v["die2"]),
            length=v["length"],
            score=(v["score0"], v["score1"]),
            jacoby=not v["no_jacoby"],
        )
    except ValueError as exc:
        raise ValueError(_("Match ID {text!r}: {exc}").format(text=text, exc=exc)) from None


def gnubg_id(position: Position, state: MatchState) -> str:
    """gnubg's combined ``PositionID:MatchID``."""
    return f"{position.position_id()}:{encode_match_id(state)}"


def parse_gnubg_id(text: str) -> tuple[Position, MatchState]:
    """Read ``PositionID:MatchID``; the position is seen by ``state.on_roll``."""
    pos_id, sep, match_id = text.strip().partition(":")
    if not sep:
        raise ValueError(_("a gnubg ID is 'PositionID:MatchID', not {text!r}").format(text=text))
    return Position.from_position_id(pos_id), decode_match_id(match_id)


# --- XGID ------------------------------------------------------------------------
# Field order: position, cube (log2), cube owner (1 bottom, -1 top, 0 centre),
# turn (1 bottom, -1 top), dice ("00", "D" doubled, or two digits), bottom
# score, top score, Crawford (match) / Jacoby+2*beaver (money), match length,
# max cube (log2). Position: [0] top player's bar, [1..24] points seen from the
# bottom player, [25] bottom player's bar; 'A'.. bottom's checkers, 'a'.. top's.

_BOTTOM, _TOP = 1, 0  # gnubg players


def _side(xg: str, text: str) -> int:
    if xg == "1":
        return _BOTTOM
    if xg == "-1":
        return _TOP
    raise ValueError(_("XGID {text!r}: a side is 1 or -1, not {xg!r}").format(text=text, xg=xg))


def _xgid_board(board: str, text: str) -> tuple[list[int], list[int]]:
    """The chequers of an XGID's 26 characters: the bottom player's and the
    top player's counts on their own points 1-24 (index 0-23) and bar (24)."""
    bottom_side = [0] * 25
    top_side = [0] * 25
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "P":
            count, side = ord(char) - ord("A") + 1, bottom_side
            point = 24 if index == 25 else index - 1
        elif "a" <= char <= "p":
            count, side = ord(char) - ord("a") + 1, top_side
            point = 24 if index == 0 else 24 - index
        else:
            raise ValueError(
                _("XGID {text!r}: {char!r} at {index} is not '-', A-P or a-p").format(text=text, char=char, index=index)
            )
        if index in (0, 25) and side is not (top_side if index == 0 else bottom_side):
            raise ValueError(
                _("XGID {text!r}: {char!r} cannot be on the other side's bar").format(text=text, char=char)
            )
        side[point] = count
    return bottom_side, top_side


def _xgid_dice(dice: str, text: str) -> tuple[int, int]:
    """An XGID's dice: (0, 0) before the roll or at a double."""
    if dice.upper() in ("B", "R"):
        raise ValueError(_("XGID {text!r}: beaver/raccoon states are not supported").format(text=text))
    if dice.upper() == "D" or dice == "00":
        return (0, 0)
    if len(dice) == 2 and dice.isdigit():
        return (int(dice[0]), int(dice[1]))
    raise ValueError(_("XGID {text!r}: dice {dice!r} are not '00', 'D' or two digits").format(text=text, dice=dice))


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """Read an XGID (with or without ``XGID=``): the position seen by the
    player on roll and the match state."""
    body = text.strip()
    if body.upper().startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    if len(fields) < 9:
        raise ValueError(
            _("an XGID has 10 fields separated by ':', {text!r} has {count}").format(text=text, count=len(fields))
        )
    board, cube, owner, turn, dice, bottom, top, flags, length = fields[:9]
    max_cube = fields[9] if len(fields) > 9 else "10"
    if len(board) != 26:
        raise ValueError(
            _("XGID {text!r}: the position has 26 characters, not {count}").format(text=text, count=len(board))
        )
    bottom_side, top_side = _xgid_board(board, text)
    try:
        numbers = [int(v) for v in (cube, owner, bottom, top, flags, length, max_cube)]
    except ValueError:
        raise ValueError(
            _("XGID {text!r}: cube, owner, scores, flags and length must be numbers").format(text=text)
        ) from None
    log_cube, owner_n, bottom_score, top_score, flag, match_length, log_max = numbers
    on_roll = _side(turn, text)
    doubled = dice.upper() == "D"
    rolled = _xgid_dice(dice, text)
    mover, opponent = (bottom_side, top_side) if on_roll == _BOTTOM else (top_side, bottom_side)
    try:
        position = Position.from_points(mover, opponent)
        state = MatchState(
            cube=1 << log_cube,
            cube_owner=None if owner_n == 0 else _side(str(owner_n), text),
            on_roll=on_roll,
            crawford=bool(flag & 1) and match_length > 0,
            turn=1 - on_roll if doubled else on_roll,
            doubled=doubled,
            dice=rolled,
            length=match_length,
            score=(top_score, bottom_score),
            jacoby=bool(flag & 1) and match_length == 0,
            beaver=bool(flag & 2) and match_length == 0,
            max_cube=1 << log_max,
        )
    except ValueError as exc:
        raise ValueError(_("XGID {text!r}: {exc}").format(text=text, exc=exc)) from None
    return position, state


def parse_id(text: str) -> tuple[Position, MatchState | None]:
    """A position (seen by the player on roll) from a Position ID, gnubg's
    ``PositionID:MatchID`` or an XGID and, when the ID carries one, the
    match state; a ``ValueError`` says what is wrong with the ID.

    >>> parse_id("4HPwATDgc/ABMA")[1] is None
    True
    >>> parse_id("4HPwATDgc/ABMA:cAkgAVAAAAAE")[1].length
    9
    """
    body = text.strip()
    if body.upper().startswith("XGID=") or body.count(":") > 1:
        return parse_xgid(body)
    if ":" in body:
        return parse_gnubg_id(body)
    return Position.from_position_id(body), None


def format_xgid(position: Position, state: MatchState) -> str:
    """The XGID of ``position`` (seen by ``state.on_roll``) and ``state``."""
    mover, opponent = position.points()
    bottom, top = (mover, opponent) if state.on_roll == _BOTTOM else (opponent, mover)
    chars = ["-"] * 26
    for point in range(24):
        if bottom[point]:
            chars[point + 1] = chr(ord("A") + bottom[point] - 1)
        if top[point]:
            chars[24 - point] = chr(ord("a") + top[point] - 1)
    if top[24]:
        chars[0] = chr(ord("a") + top[24] - 1)
    if bottom[24]:
        chars[25] = chr(ord("A") + bottom[24] - 1)
    side = {_BOTTOM: "1", _TOP: "-1"}
    owner = "0" if state.cube_owner is None else side[state.cube_owner]
    dice = "D" if state.doubled else f"{state.dice[0]}{state.dice[1]}"
    flags = int(state.crawford) if state.length else int(state.jacoby) + 2 * int(state.beaver)
    fields = [
        "".join(chars),
        str(_log2(state.cube)),
        owner,
        side[state.on_roll],
        dice,
        str(state.score[_BOTTOM]),
        str(state.score[_TOP]),
        str(flags),
        str(state.length),
        str(_log2(state.max_cube)),
    ]
    return "XGID=" + ":".join(fields)
