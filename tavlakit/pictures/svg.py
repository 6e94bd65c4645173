"""Board pictures as SVG, in the spirit of ``chess.svg``.

:func:`board` draws a :class:`~tavlakit.engine.position.Position` as one
self-contained SVG (no fonts, images or scripts from outside; a viewBox, so
it is sharp at any size). The side to move ("side 0", the first board of
:meth:`~tavlakit.engine.position.Position.points`) plays at the bottom, its home board bottom right,
as gnubg shows it; ``flipped=True`` puts it at the top.

Match-level options (``names``, ``score``, the cube owner) are given per
*player* (0 = White, the left column of a .mat; 1 = Black); ``player`` says
which player side 0 is (it picks the checker colours and the absolute
numbering). With the default ``player=0`` side and player are the same.

The picture is machine-readable: the root ``<svg>`` carries
``data-position-id``; each occupied location is a ``<g class="stack">``
with ``data-side`` (0 side to move, 1 opponent), ``data-point`` (1-24 in
that side's own numbering, 25 bar, 0 borne off) and ``data-count``.

>>> from tavlakit.engine.position import Position
>>> picture = board(Position.initial(), dice=(6, 5))
>>> picture.startswith("<svg") and 'data-position-id="4HPwATDgc/ABMA"' in picture
True
>>> picture.count("data-count=")
8

A play is drawn as arrows, in the numbering of the side that made it. The
position drawn is always ``position``: give the play of the side to move
(``play_by=0``, the default: the board before the play) or of the opponent
who has just played it (``play_by=1``: the board after the play, as a match
viewer shows a turn). The dice are drawn for the same side.

>>> from tavlakit.engine.play import Play
>>> before = Position.from_points({13: 2, 6: 3}, {20: 1})
>>> play = Play.parse("13/8 8/5*")
>>> 'data-hit="1"' in board(before, dice=(5, 3), play=play)
True
>>> after = before.play(play)
>>> board(after, dice=(5, 3), play=play, play_by=1).count('class="arrow"')
2

Two plays of the side to move (the best and the one made, say) are drawn
in two colours, with a legend under the board:

>>> two = board(before, dice=(5, 3), plays=[(play, "best: 13/8 8/5*"), (Play.parse("13/5"), "played: 13/5")])
>>> two.count('class="arrow"'), two.count('class="legend-item"'), 'data-colour="arrow2"' in two
(3, 2, True)
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from ..engine.numbering import Numbering, NumberingLike
from ..engine.play import BAR, OFF, Move, Play
from ..engine.position import Position
from ..i18n import _, language

#: The default colours, by part; ``board(colors=...)`` overrides any of them.
COLORS: dict[str, str] = {
    "background": "#f3ede2",  # around the board (labels, names)
    "text": "#2b2118",
    "frame": "#7a4a26",  # the wooden rim and the cube column
    "frame_edge": "#4a2a12",
    "felt": "#2f6b47",
    "bar": "#6a3f1f",
    "point_light": "#ecdcb6",
    "point_dark": "#a7432f",
    "tray": "#4a2c14",
    "checker0": "#f6f1e4",  # player 0 (White)
    "checker0_edge": "#5e574b",
    "checker0_text": "#2b2118",
    "checker1": "#2d2a28",  # player 1 (Black)
    "checker1_edge": "#0c0b0a",
    "checker1_text": "#f6f1e4",
    "cube": "#fbfaf4",
    "cube_text": "#1d1d1d",
    "arrow": "#ffb21e",
    "arrow_edge": "#3b2600",
    "arrow2": "#4fb8ff",  # a second play drawn beside the first (``plays=``)
    "arrow2_edge": "#062a47",
    "hit": "#e3262b",
    "on_roll": "#c0392b",
}

# Geometry, in viewBox units: a checker is 40 across.
_D = 40
_R = _D // 2
_CUBE_W = 48  # the wooden column left of the board that holds the cube
_FIELD_W = 6 * _D
_BAR_W = 48
_LEFT = _CUBE_W  # x of the left field
_BAR_X = _LEFT + _FIELD_W
_RIGHT = _BAR_X + _BAR_W
_TRAY_X = _RIGHT + _FIELD_W + 12
_TRAY_W = 48
_WIDTH = _TRAY_X + _TRAY_W + 12
_INFO = 30  # the name / pips line above and below
_LABEL = 20  # the point numbers
_RIM = 12
_TOP = _INFO + _LABEL + _RIM  # y of the playing area
_HALF = 5 * _D  # a point's depth: five checkers
_GAP = 56  # between the two halves: the dice lie here
_BOTTOM = _TOP + 2 * _HALF + _GAP
_MIDDLE = (_TOP + _BOTTOM) // 2
_HEIGHT = _BOTTOM + _RIM + _LABEL + _INFO
_CAPTION = 26
_LEGEND = 34  # a line of the legend of plays: large enough to read on a phone
_SHOWN = 5  # checkers drawn on one point before a count is written
_SLICE = 10  # a borne-off checker seen edge-on
_DIE = 34
_CUBE = 36

# pip positions of each die face, in a unit square
_FACES = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.23), (0.73, 0.23), (0.27, 0.5), (0.73, 0.5), (0.27, 0.77), (0.73, 0.77)),
}


def board(
    position: Position,
    *,
    dice: tuple[int, int] | None = None,
    play: Play | Iterable[Move] | None = None,
    play_by: int = 0,
    cube: int | tuple[int, int | None] | None = None,
    score: tuple[int, int] | None = None,
    length: int = 0,
    names: tuple[str, str] | None = None,
    player: int = 0,
    numbering: NumberingLike = Numbering.RELATIVE,
    flipped: bool = False,
    size: int | None = 400,
    colors: Mapping[str, str] | None = None,
    on_roll: bool = True,
    caption: str | None = None,
    labels_by: int = 0,
    plays: Sequence[tuple[Play | Iterable[Move], str]] = (),
    spots: bool = False,
) -> str:
    """The SVG picture of ``position`` (the side to move at the bottom).

    * ``dice``: the roll of side ``play_by``, drawn on its half ((0, 0) or
      ``None``: none).
    * ``play``: arrows from/to for each move, in the own numbering of side
      ``play_by`` (0: the side to move, whose play is still to be made on
      this board; 1: the opponent, who has just made it); hits are ringed
      (with ``play_by=0`` found on the board, else the moves' ``hit`` marks:
      for a record that writes no '*', pass ``before.mark_hits(play)``).
    * ``cube``: a value (centred) or ``(value, owner player or None)``;
      ``None`` draws no cube. A centred cube shows 64 while at 1, as on a
      real board.
    * ``score``, ``names``: per player; ``length``: the match length (0:
      money or none).
    * ``player``: the player (0 White, 1 Black) side 0 is: colours, and
      the ``absolute`` numbering (:class:`~tavlakit.engine.numbering.Numbering`:
      White's points 24->1, Black's 1->24, as ``--numbering absolute`` of
      the .mat writer); ``relative`` (or ``gnubg``) numbers the points from
      side ``labels_by`` (0: the side to move; 1: the opponent, e.g. to read
      its play just made on the labels).
    * ``flipped``: the side to move at the top (both homes stay right).
    * ``size``: the width in pixels (``None``: no width, scale with CSS).
    * ``colors``: overrides of :data:`COLORS` by part name.
    * ``on_roll``: mark the side to move as on roll (``False`` for a game
      that is over).
    * ``caption``: a line of text under the board.
    * ``plays``: up to two plays of the side to move, each with its label,
      drawn as ``play`` is (``play_by=0``) in two colours (``arrow``,
      ``arrow2``) with a legend under the board: e.g. the best play and the
      one made. Arrows both plays share are drawn side by side.
    * ``spots``: a transparent ``<rect class="spot" data-point="p">`` over
      each point of the side to move (``p`` in its own numbering), its half
      of the bar (25) and its tray (0): areas to tap, for a page that lets
      a player move (``tavlakit record``).
    """
    _check(player, play_by, labels_by, len(plays), play is not None)
    numbered = Numbering.parse(numbering)
    palette = _palette(colors)
    mover, opponent = position.points()
    counts = (mover, opponent)
    # which player's colours each side wears; which side is drawn at the bottom
    players = (player, 1 - player)
    bottom = 1 if flipped else 0
    height = _HEIGHT + (_CAPTION if caption else 0) + _LEGEND * len(plays)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}"'
        + (f' width="{size}" height="{round(size * height / _WIDTH)}"' if size else "")
        + f' class="tavlakit-board" data-position-id="{position.position_id()}"'
        ' font-family="sans-serif">',
        _static(palette, bottom, numbered.flips(player) if numbered is Numbering.ABSOLUTE else labels_by == 1, height),
    ]
    out.extend(_checkers(counts, position.off(), players, bottom, palette))
    if cube is not None:
        out.append(_cube(cube if isinstance(cube, int) else (cube[0], cube[1]), players, bottom, palette))
    if dice and all(dice):
        out.append(_dice((dice[0], dice[1]), play_by == bottom, players[play_by], palette))
    if play is not None:
        out.append(_arrows(counts, _with_hits(position, Play(play), play_by), play_by, bottom, palette))
    out.extend(_compared(position, plays, bottom, palette))
    pips = position.pips()
    who = (names[0], names[1]) if names else None
    points = (score[0], score[1]) if score else None
    for side in (0, 1):
        out.append(
            _info(
                side,
                0 if side == bottom else 1,
                players[side],
                pips[side],
                who,
                points,
                length,
                on_roll and side == 0,
                palette,
                language(),
            )
        )
    out.extend(_under(caption, [label for _play, label in plays], palette))
    if spots:
        out.append(_spots(bottom))
    out.append("</svg>")
    return "\n".join(out)


def _compared(
    position: Position, plays: Sequence[tuple[Play | Iterable[Move], str]], bottom: int, p: _Palette
) -> list[str]:
    """The arrows of the plays of ``board(plays=...)``, each in its colour;
    the moves two plays share side by side."""
    seen: dict[tuple[int, int], int] = {}
    counts = position.points()
    return [
        _arrows(counts, _with_hits(position, Play(drawn), 0), 0, bottom, p, colour, seen)
        for (drawn, _label), colour in zip(plays, _ARROWS)
    ]


def _under(caption: str | None, labels: list[str], p: _Palette) -> list[str]:
    """What is written under the board: the caption, then the legend of the plays."""
    out = []
    if caption:
        out.append(
            f'<text class="caption" x="{_WIDTH // 2}" y="{_HEIGHT + 17}" text-anchor="middle"'
            f' font-size="16" fill="{p["text"]}">{html.escape(caption)}</text>'
        )
    if labels:
        out.append(_legend(labels, _HEIGHT + (_CAPTION if caption else 0), p))
    return out


def _check(player: int, play_by: int, labels_by: int, plays: int, play: bool) -> None:
    """A ValueError for sides that are not 0 or 1, or plays that cannot be drawn together."""
    if player not in (0, 1) or play_by not in (0, 1) or labels_by not in (0, 1):
        raise ValueError("player, play_by and labels_by are 0 or 1")
    if plays > len(_ARROWS) or (plays and play):
        raise ValueError(f"plays= takes at most {len(_ARROWS)} plays, and not with play=")


def _checkers(
    counts: tuple[tuple[int, ...], tuple[int, ...]],
    off: tuple[int, int],
    players: tuple[int, int],
    bottom: int,
    palette: _Palette,
) -> list[str]:
    """Each side's stacks on the points and the bar, then the checkers borne off."""
    out = [
        _stack(side, point, count, bottom, players[side], palette)
        for side in (0, 1)
        for point, count in enumerate(counts[side], 1)
        if count
    ]
    for side in (0, 1):
        if off[side]:
            out.append(_tray(side, off[side], 0 if side == bottom else 1, players[side], palette))
    return out


class _Palette(dict[str, str]):
    """Colours by part, hashable so that the drawing of a part can be cached."""

    def __init__(self, colours: Mapping[str, str]) -> None:
        super().__init__(colours)
        self._hash = hash(tuple(sorted(self.items())))

    def __hash__(self) -> int:  # type: ignore[override]
        return self._hash


_DEFAULT = _Palette(COLORS)


def _with_hits(position: Position, play: Play, by: int) -> Play:
    """The play with its hits: found on the board when it is still to be made
    (``by`` 0), else as the moves are marked."""
    if by == 0:
        try:
            return position.mark_hits(play)
        except ValueError:
            pass  # not playable on this board: draw it as written
    return play


def _palette(colors: Mapping[str, str] | None) -> _Palette:
    if not colors:
        return _DEFAULT if _DEFAULT == COLORS else _Palette(COLORS)
    unknown = set(colors) - set(COLORS)
    if unknown:
        raise ValueError(f"unknown colour part(s) {sorted(unknown)}; the parts are {sorted(COLORS)}")
    return _Palette({**COLORS, **{k: html.escape(v) for k, v in colors.items()}})


def _spot(side: int, point: int, bottom: int) -> tuple[int, int]:
    """Centre x of ``side``'s own ``point`` and its row (0 bottom, 1 top)."""
    q = point if side == 0 else 25 - point  # side 0's numbering
    near = q <= 12  # side 0's half of the board
    col = 12 - q if near else q - 13  # 0..11 from the left
    row = 0 if near == (bottom == 0) else 1
    x = (_LEFT if col < 6 else _RIGHT - 6 * _D) + col * _D + _R
    return x, row


def _slot_y(row: int, index: int) -> int:
    """Centre y of the ``index``-th checker from the rim in ``row``."""
    return _BOTTOM - _R - index * _D if row == 0 else _TOP + _R + index * _D


def _bar_y(row: int, index: int) -> int:
    """Centre y of a bar checker: from the middle outwards, on its own half."""
    step = _GAP // 2 + _R + index * _D
    return _MIDDLE + step if row == 0 else _MIDDLE - step


@lru_cache(maxsize=64)
def _static(p: _Palette, bottom: int, mirrored_labels: bool, height: int) -> str:
    """Everything that does not depend on the checkers: frame, felt, points, labels
    (``mirrored_labels``: point q of the side to move is labelled 25 - q)."""
    out = [
        f'<rect class="background" width="{_WIDTH}" height="{height}" fill="{p["background"]}"/>',
        (
            f'<rect class="frame" x="0" y="{_TOP - _RIM}" width="{_WIDTH}" height="{_BOTTOM - _TOP + 2 * _RIM}"'
            f' rx="8" fill="{p["frame"]}" stroke="{p["frame_edge"]}" stroke-width="2"/>'
        ),
    ]
    for x in (_LEFT, _RIGHT):
        out.append(
            f'<rect class="felt" x="{x}" y="{_TOP}" width="{_FIELD_W}" height="{_BOTTOM - _TOP}"'
            f' fill="{p["felt"]}" stroke="{p["frame_edge"]}" stroke-width="1.5"/>'
        )
    out.append(
        f'<rect class="bar" x="{_BAR_X}" y="{_TOP - _RIM}" width="{_BAR_W}"'
        f' height="{_BOTTOM - _TOP + 2 * _RIM}" fill="{p["bar"]}" stroke="{p["frame_edge"]}"'
        ' stroke-width="1.5"/>'
    )
    for y in (_TOP, _MIDDLE + _GAP // 2):
        out.append(
            f'<rect class="tray" x="{_TRAY_X}" y="{y}" width="{_TRAY_W}" height="{_HALF - _GAP // 2}"'
            f' rx="3" fill="{p["tray"]}" stroke="{p["frame_edge"]}" stroke-width="1.5"/>'
        )
    tip = _HALF - 10
    for q in range(1, 25):
        x, row = _spot(0, q, bottom)
        col = (x - _R - (_LEFT if x < _BAR_X else _RIGHT - 6 * _D)) // _D
        shade = "dark" if (col + row) % 2 else "light"
        base = _BOTTOM if row == 0 else _TOP
        apex = base - tip if row == 0 else base + tip
        out.append(
            f'<polygon class="point point-{shade}" data-point="{q}"'
            f' points="{x - _R + 1},{base} {x + _R - 1},{base} {x},{apex}"'
            f' fill="{p["point_" + shade]}"/>'
        )
        label = 25 - q if mirrored_labels else q
        y = _BOTTOM + _RIM + 17 if row == 0 else _TOP - _RIM - 4
        out.append(
            f'<text class="label" x="{x}" y="{y}" text-anchor="middle" font-size="16" fill="{p["text"]}">{label}</text>'
        )
    return "\n".join(out)


def _checker(x: float, y: float, colour: int, p: Mapping[str, str], r: float = _R - 1) -> str:
    return (
        f'<circle class="checker checker-{colour}" cx="{x}" cy="{y}" r="{r}" fill="{p[f"checker{colour}"]}"'
        f' stroke="{p[f"checker{colour}_edge"]}" stroke-width="1.6"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.68:.1f}" fill="none" stroke="{p[f"checker{colour}_edge"]}"'
        ' stroke-opacity="0.45" stroke-width="1.2"/>'
    )


@lru_cache(maxsize=8192)
def _stack(side: int, point: int, count: int, bottom: int, colour: int, p: _Palette) -> str:
    """The checkers of ``side`` on its own ``point`` (25: the bar)."""
    if point == BAR:
        x, row, place, shown = _BAR_X + _BAR_W // 2, 0 if side == bottom else 1, _bar_y, min(count, _SHOWN - 1)
    else:
        (x, row), place, shown = _spot(side, point, bottom), _slot_y, min(count, _SHOWN)
    out = [f'<g class="stack side-{side}" data-side="{side}" data-point="{point}" data-count="{count}">']
    for i in range(shown):
        out.append(_checker(x, place(row, i), colour, p))
    if count > shown:
        y = place(row, shown - 1)
        out.append(
            f'<text class="count" x="{x}" y="{y + 6}" text-anchor="middle" font-size="18"'
            f' font-weight="bold" fill="{p[f"checker{colour}_text"]}">{count}</text>'
        )
    out.append("</g>")
    return "".join(out)


@lru_cache(maxsize=1024)
def _tray(side: int, count: int, row: int, colour: int, p: _Palette) -> str:
    out = [f'<g class="stack tray-stack side-{side}" data-side="{side}" data-point="0" data-count="{count}">']
    for i in range(count):
        y = _BOTTOM - 3 - (i + 1) * _SLICE if row == 0 else _TOP + 3 + i * _SLICE
        out.append(
            f'<rect class="checker checker-{colour}" x="{_TRAY_X + 4}" y="{y}" width="{_TRAY_W - 8}"'
            f' height="{_SLICE - 1}" rx="2" fill="{p[f"checker{colour}"]}"'
            f' stroke="{p[f"checker{colour}_edge"]}" stroke-width="1"/>'
        )
    edge = _BOTTOM - 3 - count * _SLICE if row == 0 else _TOP + 3 + count * _SLICE
    y = edge - 8 if row == 0 else edge + 22
    out.append(
        f'<text class="count off-count" x="{_TRAY_X + _TRAY_W // 2}" y="{y}" text-anchor="middle"'
        f' font-size="17" font-weight="bold" fill="{p["checker0"]}">{count}</text></g>'
    )
    return "".join(out)


@lru_cache(maxsize=1024)
def _cube(cube: int | tuple[int, int | None], players: tuple[int, int], bottom: int, p: _Palette) -> str:
    value, owner = (cube, None) if isinstance(cube, int) else cube
    if value < 1:
        raise ValueError(f"a cube value is 1 or more, not {value}")
    if owner is None:
        y = _MIDDLE
    else:
        owner_side = players.index(owner)
        y = _BOTTOM - _CUBE // 2 - 4 if owner_side == bottom else _TOP + _CUBE // 2 + 4
    shown = 64 if value == 1 and owner is None else value
    x = _CUBE_W // 2
    font = 20 if shown < 100 else 14 if shown < 10000 else 10
    return (
        f'<g class="cube" data-value="{value}" data-owner="{"" if owner is None else owner}">'
        f'<rect x="{x - _CUBE // 2}" y="{y - _CUBE // 2}" width="{_CUBE}" height="{_CUBE}" rx="5"'
        f' fill="{p["cube"]}" stroke="{p["frame_edge"]}" stroke-width="1.5"/>'
        f'<text x="{x}" y="{y + font * 0.36:.1f}" text-anchor="middle" font-size="{font}" font-weight="bold"'
        f' fill="{p["cube_text"]}">{shown}</text></g>'
    )


@lru_cache(maxsize=1024)
def _dice(dice: tuple[int, int], at_bottom: bool, colour: int, p: _Palette) -> str:
    centre = (_RIGHT if at_bottom else _LEFT) + _FIELD_W // 2
    out = [f'<g class="dice" data-dice="{dice[0]}{dice[1]}">']
    fill, edge, spot = p[f"checker{colour}"], p[f"checker{colour}_edge"], p[f"checker{colour}_text"]
    for i, value in enumerate(dice):
        if not 1 <= value <= 6:
            raise ValueError(f"a die shows 1-6, not {value}")
        x0 = centre - _DIE - 4 + i * (_DIE + 8)
        y0 = _MIDDLE - _DIE // 2
        out.append(
            f'<g class="die" data-value="{value}"><rect x="{x0}" y="{y0}" width="{_DIE}" height="{_DIE}"'
            f' rx="6" fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
        )
        for fx, fy in _FACES[value]:
            out.append(f'<circle cx="{x0 + fx * _DIE:.1f}" cy="{y0 + fy * _DIE:.1f}" r="3.4" fill="{spot}"/>')
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


@lru_cache(maxsize=2)
def _spots(bottom: int) -> str:
    """The areas to tap of the side to move: a half column per point, its half of the bar, its tray."""
    near = bottom == 0  # the side to move at the bottom

    def half(x: int, width: int, point: int, row: int) -> str:
        y, height = (_MIDDLE, _BOTTOM - _MIDDLE) if row == 0 else (_TOP, _MIDDLE - _TOP)
        return (
            f'<rect class="spot" data-point="{point}" x="{x}" y="{y}" width="{width}" height="{height}"'
            ' fill="#ffffff" fill-opacity="0"/>'
        )

    out = ['<g class="spots">']
    for point in range(1, 25):
        x, row = _spot(0, point, bottom)
        out.append(half(x - _R, _D, point, row))
    out.append(half(_BAR_X, _BAR_W, BAR, 0 if near else 1))
    out.append(half(_TRAY_X, _TRAY_W, OFF, 0 if near else 1))
    out.append("</g>")
    return "".join(out)


Counts = tuple[tuple[int, ...], tuple[int, ...]]


def _anchor(counts: Counts, side: int, point: int, bottom: int) -> tuple[float, float, bool]:
    """Where an arrow starts or ends on ``side``'s own ``point`` (bar, off too):
    the top checker there, or the rim of an empty point; and whether a
    checker is there (an arrow keeps clear of it)."""
    mover, opponent = counts
    row = 0 if side == bottom else 1
    if point == OFF:
        off = 15 - sum(counts[side])
        y = _BOTTOM - 3 - off * _SLICE - 4 if row == 0 else _TOP + 3 + off * _SLICE + 4
        return _TRAY_X + _TRAY_W / 2, y, True
    if point == BAR:
        count = counts[side][24]
        return _BAR_X + _BAR_W / 2, _bar_y(row, max(0, min(count, _SHOWN - 1) - 1)), count > 0
    x, row = _spot(side, point, bottom)
    q = point if side == 0 else 25 - point
    count = mover[q - 1] or opponent[24 - q]
    return x, _slot_y(row, max(0, min(count, _SHOWN) - 1)), count > 0


_CLEAR = 14  # how far an arrow keeps from the centre of the checkers it joins


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


#: The colour parts of the plays of ``board(plays=...)``, in order.
_ARROWS = ("arrow", "arrow2")


def _arrows(
    counts: Counts,
    play: Play,
    by: int,
    bottom: int,
    p: _Palette,
    colour: str = "arrow",
    seen: dict[tuple[int, int], int] | None = None,
) -> str:
    """The arrows of ``play`` in the ``colour`` part; a move met before in
    ``seen`` (this play's, or another's drawn on the same board) is drawn
    beside the earlier one."""
    out = [f'<g class="play" data-colour="{colour}">']
    seen = {} if seen is None else seen
    for move in play:
        (x1, y1, held), (x2, y2, taken) = _anchor(counts, by, move.src, bottom), _anchor(counts, by, move.dst, bottom)
        # off the checkers' centres; an empty point (a hop the checker went on from) is reached
        start, end = _CLEAR if held else 0, _CLEAR if taken else 0
        repeat = seen.get((move.src, move.dst), 0)
        seen[(move.src, move.dst)] = repeat + 1
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        # a bow towards the middle of the board, so that arrows along a row clear the checkers
        bow = min(60.0, 0.25 * length) * (1 if (y1 + y2) / 2 < _MIDDLE else -1)
        nx, ny = -dy / length, dx / length
        if ny * bow < 0:
            nx, ny = -nx, -ny
        shift = 7 * repeat
        x1, y1, x2, y2 = x1 + nx * shift, y1 + ny * shift, x2 + nx * shift, y2 + ny * shift
        cx, cy = (x1 + x2) / 2 + nx * abs(bow), (y1 + y2) / 2 + ny * abs(bow)
        # start and end off the checkers' centres, clear of a count written there
        sx, sy = _unit(cx - x1, cy - y1)
        ux, uy = _unit(x2 - cx, y2 - cy)
        hx, hy = x2 - ux * end, y2 - uy * end
        bx, by_ = hx - ux * 16, hy - uy * 16
        head = f"{hx:.1f},{hy:.1f} {bx - uy * 9:.1f},{by_ + ux * 9:.1f} {bx + uy * 9:.1f},{by_ - ux * 9:.1f}"
        path = f"M{x1 + sx * start:.1f},{y1 + sy * start:.1f} Q{cx:.1f},{cy:.1f} {bx:.1f},{by_:.1f}"
        arrow = [
            (
                f'<g class="arrow" data-from="{move.src}" data-to="{move.dst}" data-hit="{int(move.hit)}">'
                f'<path d="{path}" fill="none" stroke="{p[colour + "_edge"]}" stroke-width="8"'
                ' stroke-linecap="round" stroke-opacity="0.55"/>'
                f'<path d="{path}" fill="none" stroke="{p[colour]}" stroke-width="5" stroke-linecap="round"/>'
                f'<polygon points="{head}" fill="{p[colour]}" stroke="{p[colour + "_edge"]}" stroke-width="1.2"'
                ' stroke-linejoin="round"/>'
            )
        ]
        if move.hit:
            arrow.append(
                f'<circle class="hit" cx="{x2:.1f}" cy="{y2:.1f}" r="{_R + 3}" fill="none"'
                f' stroke="{p["hit"]}" stroke-width="3.5" stroke-dasharray="6 3"/>'
            )
        arrow.append("</g>")
        out.append("".join(arrow))
    out.append("</g>")
    return "\n".join(out)


def _legend(labels: list[str], top: int, p: _Palette) -> str:
    """A line under the board for each play: a stroke of its colour and its label."""
    out = ['<g class="legend">']
    x = 14
    for index, (label, colour) in enumerate(zip(labels, _ARROWS)):
        y = top + _LEGEND * index + 26
        out.append(
            f'<g class="legend-item" data-colour="{colour}">'
            f'<line x1="{x}" y1="{y - 8}" x2="{x + 34}" y2="{y - 8}" stroke="{p[colour + "_edge"]}"'
            ' stroke-width="12" stroke-linecap="round" stroke-opacity="0.55"/>'
            f'<line x1="{x}" y1="{y - 8}" x2="{x + 34}" y2="{y - 8}" stroke="{p[colour]}" stroke-width="8"'
            ' stroke-linecap="round"/>'
            f'<text x="{x + 48}" y="{y}" font-size="23" fill="{p["text"]}">{html.escape(_short(label, 44))}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


@lru_cache(maxsize=4096)
def _info(
    side: int,
    row: int,
    colour: int,
    pips: int,
    names: tuple[str, str] | None,
    score: tuple[int, int] | None,
    length: int,
    on_roll: bool,
    p: _Palette,
    lang: str,
) -> str:
    """The line above (row 1) or below (row 0) the board: name, score, pips, on
    roll (``lang``, the language in use, keeps cached text apart)."""
    y = _HEIGHT - 9 if row == 0 else 22
    out = [
        f'<g class="info side-{side}" data-side="{side}">',
        _checker(14, y - 5, colour, p, r=8).replace('class="checker', 'class="token checker', 1),
    ]
    x = 28
    if names:
        out.append(
            f'<text class="name" x="{x}" y="{y}" font-size="19" font-weight="bold"'
            f' fill="{p["text"]}">{html.escape(_short(names[colour]))}</text>'
        )
    if on_roll:
        out.append(
            f'<text class="on-roll" x="{_WIDTH // 2}" y="{y}" text-anchor="middle" font-size="18"'
            f' font-weight="bold" fill="{p["on_roll"]}">' + html.escape(_("on roll")) + "</text>"
        )
    parts = []
    if score is not None:
        if length:
            parts.append(_("{score} of {length} points").format(score=score[colour], length=length))
        else:
            parts.append(_("{score} points").format(score=score[colour]))
    parts.append(_("{pips} pips").format(pips=pips))
    out.append(
        f'<text class="pips" x="{_WIDTH - 8}" y="{y}" text-anchor="end" font-size="18"'
        f' fill="{p["text"]}">{html.escape("  ·  ".join(parts))}</text></g>'
    )
    return "".join(out)


def _short(name: str, most: int = 22) -> str:
    """A name cut to fit beside the "on roll" mark."""
    return name if len(name) <= most else name[: most - 1].rstrip() + "\u2026"


__all__ = ["COLORS", "board"]
