"""Mutation test on real .mat text: GNU Backgammon self-play matches with one
fault injected; the validator must report it on the right line and column
with the right code, and nothing else.

The turn to corrupt is chosen from gnubg's own record of the match (its
``gnubg.match()`` dump: boards and moves), and its row is found in gnubg's
.mat export by gnubg's layout (one cell per action, left = X, right = O),
independently of our reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from gnubg_records import DATA, dump_names, gnubg_dump

import tavlakit as tk
from tavlakit.formats.mat import load_mat
from tavlakit.position import Position
from tavlakit.replay import validate

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


def _layout(name: str) -> tuple[list[str], list[Cell]]:
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
            cells.append(Cell(name, number, index, line, cell % 2, Position.from_position_id(action["board"]),
                              tuple(action["dice"]), action["player"]))
    return lines, cells


@pytest.fixture(scope="module")
def layouts() -> dict[str, tuple[list[str], list[Cell]]]:
    return {name: _layout(name) for name in dump_names()}


def _mutate(lines: list[str], cell: Cell, text: str) -> tuple[str, int]:
    """Write ``text`` in the cell, end the game there (the other side
    resigns a single game) and drop the later games. Returns the new text
    and the 1-based column of the cell."""
    out = lines[: cell.line]
    row = lines[cell.line]
    prefix = row[:RIGHT] if cell.side else row[:LEFT]
    out.append(prefix + text)
    winner_indent = 34 if cell.side else 6  # the mover wins: the opponent resigned
    out.append(" " * winner_indent + "Wins 1 point")
    return "\n".join(out) + "\n", (RIGHT if cell.side else LEFT) + 1


def _errors_for(text: str, name: str):
    match = load_mat(text, source=name)
    return validate(match, BG)


def _inject(layouts, predicate, code: str) -> None:
    for name, (lines, cells) in layouts.items():
        for cell in cells:
            if cell.action < 2:
                continue
            text = predicate(cell)
            if text is None:
                continue
            mutated, column = _mutate(lines, cell, text)
            report = _errors_for(mutated, f"{name}.mat")
            got = [(p.code, p.line, p.column, p.game) for p in report.errors]
            assert got == [(code, cell.line + 1, column, cell.game)], (name, cell.line + 1, text, report.problems)
            assert {p.code for p in report.warnings} <= {"hit-mark"}
            return
    pytest.fail(f"no turn in the reference matches suits a {code} fault")


def _dice(cell: Cell) -> str:
    return f"{cell.dice[0]}{cell.dice[1]}:"


def test_clean_exports_have_no_errors() -> None:
    for name in dump_names():
        text = (DATA / f"{name}.mat").read_text(encoding="utf-8")
        report = _errors_for(text, name)
        assert report.errors == [], report.errors[:3]
        assert report.games == len(gnubg_dump(name)["games"])


def test_empty_point(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        s, d = cell.board.board, cell.dice[0]
        if s[25]:
            return None
        for p in range(24, d, -1):
            if s[p] <= 0 and s[p - d] >= 0:
                return f"{_dice(cell)} {p}/{p - d}"
        return None

    _inject(layouts, pred, "illegal-play")


def test_blocked_point(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        s, d = cell.board.board, cell.dice[0]
        if s[25]:
            return None
        for p in range(24, d, -1):
            if s[p] > 0 and s[p - d] <= -2:
                return f"{_dice(cell)} {p}/{p - d}"
        return None

    _inject(layouts, pred, "illegal-play")


def test_wrong_distance(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        s = cell.board.board
        a, b = cell.dice
        if s[25] or a == b:
            return None
        for p in range(24, 8, -1):
            k = a + b + 1
            if s[p] > 0 and p - k > 0 and s[p - k] >= 0:
                return f"{_dice(cell)} {p}/{p - k}"
        return None

    _inject(layouts, pred, "illegal-play")


def test_backwards(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        s = cell.board.board
        if s[25]:
            return None
        for p in range(1, 20):
            if s[p] > 0 and s[p + 2] >= 0:
                return f"{_dice(cell)} {p}/{p + 2}"
        return None

    _inject(layouts, pred, "illegal-play")


def test_must_enter_first(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        s = cell.board.board
        a, b = cell.dice
        if not s[25] or a == b:
            return None
        for p in range(24, a, -1):
            if s[p] > 0 and s[p - a] >= 0:
                return f"{_dice(cell)} {p}/{p - a}"
        return None

    _inject(layouts, pred, "must-enter-first")


def test_bear_off_outside(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        s = cell.board.board
        a, _ = cell.dice
        if s[25] or s[a] <= 0 or all(s[p] <= 0 for p in range(7, 25)):
            return None
        return f"{_dice(cell)} {a}/0"

    _inject(layouts, pred, "bear-off-outside")


def test_not_all_dice_used(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        a, b = cell.dice
        if a == b:
            return None
        plays = [p for p in cell.board.legal_plays(cell.dice, BG) if len(p) == 2]
        for play in plays:
            first = play.moves[0]
            if first.src - first.dst == a and not first.hit:
                return f"{_dice(cell)} {first.src if first.src != 25 else 25}/{first.dst}"
        return None

    _inject(layouts, pred, "not-all-dice-used")


def test_missing_play_then_more(layouts) -> None:
    """An empty roll followed by another turn is a missing play."""
    name = dump_names()[0]
    lines, cells = layouts[name]
    cell = next(c for c in cells if c.action >= 2 and c.side == 0 and c.board.legal_plays(c.dice, BG)[0].moves)
    row = lines[cell.line]
    mutated = lines[: cell.line] + [row[:LEFT] + _dice(cell).ljust(28) + row[RIGHT:]] + lines[cell.line + 1 :]
    report = _errors_for("\n".join(mutated), name)
    first = report.errors[0]
    assert (first.code, first.line, first.column) == ("missing-play", cell.line + 1, LEFT + 1)


def test_bad_dice(layouts) -> None:
    def pred(cell: Cell) -> str | None:
        return "72: 24/17" if cell.side == 0 else None

    name, (lines, cells) = next(iter(layouts.items()))
    cell = next(c for c in cells if c.action >= 2 and c.side == 0)
    mutated, column = _mutate(lines, cell, pred(cell))
    report = _errors_for(mutated, name)
    assert [(p.code, p.line) for p in report.errors] == [(report.errors[0].code, cell.line + 1)]
    assert report.errors[0].code in ("bad-dice", "syntax")


def _game_lines(lines: list[str], number: int) -> tuple[int, int]:
    headers = [i for i, line in enumerate(lines) if re.fullmatch(r"\s*Game \d+\s*", line)]
    start = headers[number - 1]
    end = headers[number] if number < len(headers) else len(lines)
    return start, end


def test_result_mismatch_on_written_points() -> None:
    for name in dump_names():
        dump = gnubg_dump(name)
        for number, entry in enumerate(dump["games"], 1):
            info = entry["info"]
            if info["resigned"] or any(a["action"] in ("double", "drop") for a in entry["game"]):
                continue
            lines = (DATA / f"{name}.mat").read_text(encoding="utf-8").split("\n")
            start, end = _game_lines(lines, number)
            wins = next(i for i in range(start, end) if "Wins" in lines[i])
            lines[wins] = re.sub(r"Wins \d+ points?", f"Wins {info['points-won'] + 1} points", lines[wins])
            text = "\n".join(lines[:end])
            report = _errors_for(text, name)
            assert [(p.code, p.line, p.game) for p in report.errors] == [("result-mismatch", wins + 1, number)]
            return
    pytest.fail("no game ended on the board")


def test_score_line_mismatch() -> None:
    name = next(n for n in dump_names() if len(gnubg_dump(n)["games"]) >= 3)
    lines = (DATA / f"{name}.mat").read_text(encoding="utf-8").split("\n")
    start, _ = _game_lines(lines, 2)
    score_line = start + 1
    lines[score_line] = re.sub(r": (\d+)\s*$", lambda m: f": {int(m.group(1)) + 1}", lines[score_line])
    report = _errors_for("\n".join(lines), name)
    # one typo, one error: later score lines follow from the computed score
    assert [(p.code, p.game, p.line) for p in report.errors] == [("score-mismatch", 2, start + 1)]


def test_absurd_points() -> None:
    name = dump_names()[0]
    lines = (DATA / f"{name}.mat").read_text(encoding="utf-8").split("\n")
    last = max(i for i, line in enumerate(lines) if "Wins" in line)
    lines[last] = re.sub(r"Wins \d+ points?", "Wins 4016 points", lines[last])
    report = _errors_for("\n".join(lines), name)
    assert [(p.code, p.line) for p in report.errors] == [("absurd-points", last + 1)]


def test_match_over() -> None:
    """A game appended after the match was won."""
    name = dump_names()[0]
    text = (DATA / f"{name}.mat").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    dump = gnubg_dump(name)
    start, end = _game_lines(lines, 1)
    final = [dump["games"][-1]["info"]["score-X"], dump["games"][-1]["info"]["score-O"]]
    last = dump["games"][-1]["info"]
    final["XO".index(last["winner"])] += last["points-won"]
    game = lines[start:end]
    game[0] = f" Game {len(dump['games']) + 1}"
    game[1] = re.sub(r"(: )0(\s+\S.*: )0", lambda m: f"{m.group(1)}{final[0]}{m.group(2)}{final[1]}", game[1])
    mutated = "\n".join(lines + [""] + game) + "\n"
    report = _errors_for(mutated, name)
    assert [(p.code, p.game) for p in report.errors] == [("match-over", len(dump["games"]) + 1)]
