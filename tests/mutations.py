"""Faults to inject into gnubg's .mat exports of its own self-play, located
by gnubg's own record of the match (not by our reader).

The turn to corrupt is chosen from gnubg's ``gnubg.match()`` dump (boards
and moves), and its row is found in gnubg's .mat export by gnubg's layout
(one cell per action, left = X, right = O). Each kind of fault is a function
of the cell that returns the text to write there (or ``None`` when the
position does not allow that fault); :data:`KINDS` names them with the
problem code the validator must give.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gnubg_records import DATA, gnubg_dump

import tavlakit as tk
from tavlakit.engine.position import Position

BG = tk.Rules.preset("backgammon")
LEFT, RIGHT = 5, 33  # 0-based columns of the cells in gnubg's export


@dataclass
class Cell:
    """Where one gnubg action was written."""

    name: str
    game: int  # 1-based
    action: int  # index in gnubg's action list
    line: int  # 0-based line in the text
    side: int  # 0 left (X), 1 right (O)
    board: Position  # before the action, seen by the mover
    dice: tuple[int, int]
    player: str
    moves: str  # the moves gnubg wrote in the cell
    last: bool  # the game's last turn written (a resignation may follow)

    @property
    def column(self) -> int:
        """1-based column of the cell."""
        return (RIGHT if self.side else LEFT) + 1


def layout(name: str) -> tuple[list[str], list[Cell]]:
    """Lines of gnubg's .mat and the cell of every move before any cube action."""
    text = (DATA / f"{name}.mat").read_text(encoding="utf-8")
    lines = text.split("\n")
    dump = gnubg_dump(name)
    headers = [i for i, line in enumerate(lines) if re.fullmatch(r"\s*Game \d+\s*", line)]
    cells = []
    for number, (entry, header) in enumerate(zip(dump["games"], headers), 1):
        actions = entry["game"]
        offset = 1 if actions[0]["player"] == "O" else 0
        for index, action in enumerate(actions):
            if action["action"] != "move":
                break  # only turns before the first cube action
            cell = index + offset
            row = cell // 2 + 1
            line = next(i for i in range(header, len(lines)) if lines[i].startswith(f"{row:3d}) "))
            written = lines[line][RIGHT:] if cell % 2 else lines[line][LEFT:RIGHT]
            cells.append(
                Cell(
                    name,
                    number,
                    index,
                    line,
                    cell % 2,
                    Position.from_position_id(action["board"]),
                    tuple(action["dice"]),
                    action["player"],
                    written.split(":", 1)[1].strip(),
                    all(a["action"] == "resign" for a in actions[index + 1 :]),
                )
            )
    return lines, cells


def replace_cell(lines: list[str], cell: Cell, text: str) -> list[str]:
    """The lines with ``text`` written in the cell, the rest of the row kept."""
    row = lines[cell.line]
    new = row[:RIGHT] + text if cell.side else (row[:LEFT] + text.ljust(RIGHT - LEFT) + row[RIGHT:]).rstrip()
    return lines[: cell.line] + [new] + lines[cell.line + 1 :]


def _dice(cell: Cell) -> str:
    return f"{cell.dice[0]}{cell.dice[1]}:"


def empty_point(cell: Cell) -> str | None:
    s, d = cell.board.board, cell.dice[0]
    if s[25]:
        return None
    for p in range(24, d, -1):
        if s[p] <= 0 and s[p - d] >= 0:
            return f"{_dice(cell)} {p}/{p - d}"
    return None


def blocked_point(cell: Cell) -> str | None:
    s, d = cell.board.board, cell.dice[0]
    if s[25]:
        return None
    for p in range(24, d, -1):
        if s[p] > 0 and s[p - d] <= -2:
            return f"{_dice(cell)} {p}/{p - d}"
    return None


def wrong_distance(cell: Cell) -> str | None:
    s = cell.board.board
    a, b = cell.dice
    if s[25] or a == b:
        return None
    for p in range(24, 8, -1):
        k = a + b + 1
        if s[p] > 0 and p - k > 0 and s[p - k] >= 0:
            return f"{_dice(cell)} {p}/{p - k}"
    return None


def backwards(cell: Cell) -> str | None:
    s = cell.board.board
    if s[25]:
        return None
    for p in range(1, 20):
        if s[p] > 0 and s[p + 2] >= 0:
            return f"{_dice(cell)} {p}/{p + 2}"
    return None


def must_enter_first(cell: Cell) -> str | None:
    s = cell.board.board
    a, b = cell.dice
    if not s[25] or a == b or not cell.board.legal_plays(cell.dice, BG)[0].moves:
        return None  # (with no legal move at all, any play is an illegal-play)
    for p in range(24, a, -1):
        if s[p] > 0 and s[p - a] >= 0:
            return f"{_dice(cell)} {p}/{p - a}"
    return None


def bear_off_outside(cell: Cell) -> str | None:
    s = cell.board.board
    a, _ = cell.dice
    if s[25] or s[a] <= 0 or all(s[p] <= 0 for p in range(7, 25)):
        return None
    return f"{_dice(cell)} {a}/0"


def not_all_dice_used(cell: Cell) -> str | None:
    a, b = cell.dice
    if a == b:
        return None
    plays = [p for p in cell.board.legal_plays(cell.dice, BG) if len(p) == 2]
    for play in plays:
        first = play.moves[0]
        if first.src - first.dst == a and not first.hit:
            return f"{_dice(cell)} {first.src}/{first.dst}"
    return None


def missing_play(cell: Cell) -> str | None:
    """Nothing written for a roll that had a legal play, more turns following
    (a last roll with nothing written is read as a resignation)."""
    if cell.last or not cell.board.legal_plays(cell.dice, BG)[0].moves:
        return None
    return _dice(cell)


def bad_dice(cell: Cell) -> str | None:
    return f"72: {cell.moves}" if cell.moves else None


#: name: (code the validator gives, the fault)
KINDS: dict[str, tuple[str, Callable[[Cell], str | None]]] = {
    "empty-point": ("illegal-play", empty_point),
    "blocked-point": ("illegal-play", blocked_point),
    "wrong-distance": ("illegal-play", wrong_distance),
    "backwards": ("illegal-play", backwards),
    "must-enter-first": ("must-enter-first", must_enter_first),
    "bear-off-outside": ("bear-off-outside", bear_off_outside),
    "not-all-dice-used": ("not-all-dice-used", not_all_dice_used),
    "missing-play": ("missing-play", missing_play),
    "bad-dice": ("bad-dice", bad_dice),
}
