"""Mutation test on real .mat text: GNU Backgammon self-play matches with one
fault injected; the validator must report it on the right line and column
with the right code, and nothing else.

The faults and how their cells are found are in ``mutations.py`` (from
gnubg's own record of the match, independently of our reader); here the game
is cut after the fault. ``test_resync.py`` keeps the rest of the game.
"""

from __future__ import annotations

import re

import pytest
from gnubg_records import DATA, dump_names, gnubg_dump
from mutations import BG, KINDS, LEFT, RIGHT, Cell, layout, replace_cell

from tavlakit.formats.mat import read_mat
from tavlakit.replay.walker import validate


@pytest.fixture(scope="module")
def layouts() -> dict[str, tuple[list[str], list[Cell]]]:
    return {name: layout(name) for name in dump_names()}


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
    return "\n".join(out) + "\n", cell.column


def _errors_for(text: str, name: str):
    match = read_mat(text, source=name)
    return validate(match, BG)


def _inject(layouts, kind: str) -> None:
    code, fault = KINDS[kind]
    for name, (lines, cells) in layouts.items():
        for cell in cells:
            if cell.action < 2:
                continue
            text = fault(cell)
            if text is None:
                continue
            mutated, column = _mutate(lines, cell, text)
            report = _errors_for(mutated, f"{name}.mat")
            got = [(p.code, p.line, p.column, p.game) for p in report.errors]
            assert got == [(code, cell.line + 1, column, cell.game)], (name, cell.line + 1, text, report.problems)
            assert {p.code for p in report.warnings} <= {"hit-mark"}
            return
    pytest.fail(f"no turn in the reference matches suits a {code} fault")


def test_clean_exports_have_no_errors() -> None:
    for name in dump_names():
        text = (DATA / f"{name}.mat").read_text(encoding="utf-8")
        report = _errors_for(text, name)
        assert report.errors == [], report.errors[:3]
        assert report.games == len(gnubg_dump(name)["games"])


@pytest.mark.parametrize("kind", [k for k in KINDS if k not in ("missing-play", "bad-dice")])
def test_fault(layouts, kind: str) -> None:
    _inject(layouts, kind)


def test_missing_play_then_more(layouts) -> None:
    """An empty roll followed by another turn is a missing play."""
    name = dump_names()[0]
    lines, cells = layouts[name]
    cell = next(c for c in cells if c.action >= 2 and c.side == 0 and KINDS["missing-play"][1](c))
    report = _errors_for("\n".join(replace_cell(lines, cell, KINDS["missing-play"][1](cell) or "")), name)
    first = report.errors[0]
    assert (first.code, first.line, first.column) == ("missing-play", cell.line + 1, LEFT + 1)


def test_bad_dice(layouts) -> None:
    name, (lines, cells) = next(iter(layouts.items()))
    cell = next(c for c in cells if c.action >= 2 and c.side == 0)
    mutated, _column = _mutate(lines, cell, "72: 24/17")
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
