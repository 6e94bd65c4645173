"""Files cut short and one typo, injected into gnubg's .mat exports of its
own self-play (``tests/data/gnubg``), with seeded randomness:

* a file cut at a random place of a random row (mid-cell included) gives
  exactly one error, ``truncated``, on the last line left;
* one digit of one move replaced by a letter (``13/1O``) gives exactly one
  problem, a ``syntax`` error on its line: the rest of the game is still
  checked from the board the following rows fit, and nothing else is said.
"""

from __future__ import annotations

import random
import re

import pytest
from gnubg_records import DATA, dump_names

from tavlakit.formats.mat import read_mat
from tavlakit.replay.walker import validate

CASES = 40  # per test (bounds the time: about a second each)
ROW = re.compile(r"\s*\d+\)")
MOVES = re.compile(r"\d\d: (\S.*?)(?=\s{2,}|$)")  # the moves of a roll cell


@pytest.fixture(scope="module")
def files() -> dict[str, list[str]]:
    return {name: (DATA / f"{name}.mat").read_text(encoding="utf-8").split("\n") for name in dump_names()}


def test_cut_files_give_one_error_at_the_cut(files) -> None:
    rng = random.Random("cut")
    rows = [(name, i) for name, lines in files.items() for i, line in enumerate(lines) if ROW.match(line)]
    for name, i in rng.sample(rows, CASES):
        lines = files[name]
        cut = lines[:i] + [lines[i][: rng.randrange(len(lines[i]) + 1)]]
        last = max(n for n, line in enumerate(cut) if line.strip()) + 1
        report = validate(read_mat("\n".join(cut), source=name))
        assert [(p.code, p.line) for p in report.problems] == [("truncated", last)], (
            name,
            cut[-1],
            [str(p) for p in report.problems],
        )


def test_a_game_without_result_before_another_stays_a_warning(files) -> None:
    lines = files["selfplay-3p-1"]
    result = next(i for i, line in enumerate(lines) if "Wins" in line)
    report = validate(read_mat("\n".join(lines[:result] + lines[result + 1 :])))
    assert [(p.severity, p.code) for p in report.problems][:1] == [("warning", "missing-result")]
    assert report.errors == [] or {p.code for p in report.errors} <= {"score-mismatch"}


def test_one_typo_is_one_syntax_error_on_its_line(files) -> None:
    rng = random.Random("typo")
    cells = []
    for name, lines in files.items():
        for i, line in enumerate(lines):
            if ROW.match(line):
                for found in MOVES.finditer(line):
                    digits = [found.start(1) + k for k, char in enumerate(found[1]) if char.isdigit()]
                    cells.extend((name, i, at) for at in digits)
    for name, i, at in rng.sample(cells, CASES):
        lines = list(files[name])
        lines[i] = lines[i][:at] + rng.choice("OlSZ") + lines[i][at + 1 :]
        report = validate(read_mat("\n".join(lines), source=name))
        assert [(p.code, p.line) for p in report.problems] == [("syntax", i + 1)], (
            name,
            lines[i],
            [str(p) for p in report.problems],
        )
        assert "???" not in report.problems[0].message


def test_a_file_cut_in_a_game_header_is_one_error(files) -> None:
    """Cut after a ``Game N`` line or inside its score line: the game has
    no row; one truncated error, and the score line cut off is taken as the
    score the previous game left (no score-mismatch)."""
    lines = files["selfplay-5p-2"]
    header = next(i for i, line in enumerate(lines) if line.strip() == "Game 2")
    for cut in (lines[: header + 1], lines[: header + 1] + [lines[header + 1][:12]]):
        report = validate(read_mat("\n".join(cut)))
        assert [(p.code, p.line) for p in report.problems] == [("truncated", len(cut))], report.problems
        assert "before its first row" in report.problems[0].message


@pytest.mark.parametrize(("join", "end"), [("\n", "\n"), ("\r\n", "\r\n"), ("\n", "\n\n  \n")])
def test_a_whole_last_row_of_a_cut_file_is_judged(files, join: str, end: str) -> None:
    """The file ends after a whole row (its line ended): its last play is
    judged like any other; only a row the file may have cut is left alone."""
    lines = files["selfplay-5p-2"]
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) "))
    illegal = lines[row][:5] + "32: 10/7 10/8"  # from points the side does not hold
    cut = [*lines[:row], illegal]
    report = validate(read_mat(join.join(cut) + end, source="cut.mat"))
    assert sorted((p.code, p.line) for p in report.problems) == [("illegal-play", row + 1), ("truncated", row + 1)]
    # the same row with no line end after it may be cut mid-cell ("10/8" of "10/8*"...): not judged
    report = validate(read_mat("\n".join(cut), source="cut.mat"))
    assert [(p.code, p.line) for p in report.problems] == [("truncated", row + 1)]
