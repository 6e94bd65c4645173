"""One fault, one error: a fault injected into a gnubg self-play .mat, with
the rest of the game and of the match kept, gives exactly one error, on the
faulty cell; the replayer goes on from the board gnubg had, so no later
(correct) play, result or score line is reported.

The cells are sampled with a fixed seed over every game of the five
reference matches (faults from ``mutations.py``, the same kinds as the
cut-off tests of ``test_validate_mat.py``).
"""

from __future__ import annotations

import random

import pytest
from gnubg_records import dump_names
from mutations import BG, KINDS, Cell, layout, replace_cell

from tavlakit.formats.mat import read_mat
from tavlakit.replay.walker import validate

PER_KIND = 25  # cells per fault kind (bounds the time: a few seconds in all)


@pytest.fixture(scope="module")
def cells() -> list[tuple[list[str], Cell]]:
    out = []
    for name in dump_names():
        lines, found = layout(name)
        out.extend((lines, cell) for cell in found if cell.action >= 1)
    return out


@pytest.mark.parametrize("kind", list(KINDS))
def test_one_fault_one_error(cells, kind: str) -> None:
    code, fault = KINDS[kind]
    rng = random.Random(f"resync-{kind}")
    suitable = [(lines, cell, text) for lines, cell in cells if (text := fault(cell)) is not None]
    assert len(suitable) >= PER_KIND // 2, f"too few cells suit a {kind} fault"
    for lines, cell, text in rng.sample(suitable, min(PER_KIND, len(suitable))):
        mutated = "\n".join(replace_cell(lines, cell, text))
        report = validate(read_mat(mutated, source=cell.name), BG)
        got = [(p.code, p.line, p.column) for p in report.errors]
        assert got == [(code, cell.line + 1, cell.column)], (
            cell.name,
            cell.line + 1,
            text,
            [str(p) for p in report.errors],
        )
        assert {p.code for p in report.warnings} <= {"hit-mark", "unknown-play"}, report.warnings


def test_wakagashira_is_one_problem_per_game(corpus_dir) -> None:
    """The FIBS file whose client stopped writing one player's plays: one
    missing-play error per game where it happened, and the other side's plays
    fit the board rebuilt from the legal plays (no illegal-play)."""
    path = corpus_dir / "bglib" / "Wakagashira-nori-2009Feb092123.txt"
    report = validate(read_mat(path.read_bytes(), source=path.name))
    assert [(p.code, p.game, p.line) for p in report.errors] == [("missing-play", 2, 36), ("missing-play", 3, 55)]
    assert "later roll(s) of Wakagashira in this game" in report.errors[0].message  # (FIBS's rating is a tag)
