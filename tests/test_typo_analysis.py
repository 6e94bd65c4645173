"""The analysis after a fault follows the one replay, as the validator does:
one typo in a move (``13/1O``) costs the analysis of that turn only.

Typos are put into gnubg's .mat exports of its own self-play
(``tests/data/gnubg``, seeded); the clean file is the reference: every other
row keeps its board, pips and luck, every other turn is judged.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pandas as pd
import pytest
from gnubg_records import DATA, dump_names
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.cli import app
from tavlakit.formats.mat import read_mat

ROW = re.compile(r"\s*\d+\)")
MOVES = re.compile(r"\d\d: (\S.*?)(?=\s{2,}|$)")
CASES = 6
#: The columns a row keeps when its board is known (luck: of the roll, which a typo does not hide).
KEPT = ["position_id", "pips_before", "opp_pips_before", "luck", "choices"]
AFTER = ["pips_after", "opp_pips_after", "hits", "error"]


def _typos() -> list[tuple[str, list[str], int, int]]:
    """(name, lines with one digit of one move made a letter, line index, column)."""
    rng = random.Random("typo-analysis")
    cells = []
    files = {name: (DATA / f"{name}.mat").read_text(encoding="utf-8").split("\n") for name in dump_names()}
    for name, lines in files.items():
        for i, line in enumerate(lines):
            # rows follow in the game, so that one legal play fits them (as the clean file played it)
            if ROW.match(line) and all(ROW.match(after) for after in lines[i + 1 : i + 4]):
                for found in MOVES.finditer(line):
                    digits = [found.start(1) + k for k, char in enumerate(found[1]) if char.isdigit()]
                    cells.extend((name, i, at) for at in digits)
    out = []
    for name, i, at in rng.sample(cells, CASES):
        lines = list(files[name])
        lines[i] = lines[i][:at] + "O" + lines[i][at + 1 :]
        out.append((name, lines, i, at))
    return out


@pytest.mark.parametrize(("name", "lines", "row", "at"), _typos())
def test_one_typo_costs_one_turn(name: str, lines: list[str], row: int, at: int) -> None:
    clean = tk.analysis.analyse(tk.read_match(DATA / f"{name}.mat"), luck=True).plays
    typo = tk.analysis.analyse(read_mat("\n".join(lines), source=str(DATA / f"{name}.mat")), luck=True).plays
    assert len(typo) == len(clean)
    match = read_mat("\n".join(lines))
    bad = [
        (g.number, k)
        for g in match.games
        for k, t in enumerate(g.turns)
        if t.line == row + 1 and "unreadable" in t.extra
    ]
    assert len(bad) == 1, bad
    at_typo = (typo["game"] == bad[0][0]) & (typo["turn"] == bad[0][1])
    assert at_typo.sum() == 1
    others = ~at_typo
    # every other row has what the clean file's row has (its board is the one the walker goes on from)
    columns = KEPT + AFTER
    assert (typo.loc[others, columns].isna() == clean.loc[others, columns].isna()).all().all()
    # where the board is the clean file's (always, unless the rows after the typo fit more than one
    # play: the walker then goes on from one of them), every figure is the clean file's
    same = others & (typo["position_id"] == clean["position_id"]).fillna(False)
    assert same.sum() >= others.sum() - 30
    pd.testing.assert_frame_equal(
        typo.loc[same, columns].reset_index(drop=True), clean.loc[same, columns].reset_index(drop=True)
    )
    # the turn itself: its board before, pips and the roll's luck are known; the play is not
    pd.testing.assert_frame_equal(typo.loc[at_typo, KEPT], clean.loc[at_typo, KEPT])
    assert typo.loc[at_typo, "error"].isna().all()


def test_the_statistics_leave_out_the_typo_turn_only(tmp_path: Path) -> None:
    name, lines, _row, _at = _typos()[0]
    path = tmp_path / f"{name}.mat"
    path.write_text("\n".join(lines), encoding="utf-8")
    clean = statistics_frame(tk.read_matches([DATA / f"{name}.mat"]), level="expert")
    typo = statistics_frame(tk.read_matches([path]), level="expert")
    assert typo.attrs.get("unjudged", []) != clean.attrs.get("unjudged", [])
    unjudged = typo.attrs.get("unjudged", [])
    assert len(unjudged) == 1 and "not legal" in str(unjudged[0]), unjudged
    result = CliRunner().invoke(app, ["stats", "--by", "match", "--level", "expert", str(path)])
    assert sum("roll not judged" in line for line in result.output.splitlines()) == 1, result.output
