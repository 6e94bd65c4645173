"""Numbers no match can have (a match to 10**23 points, a score, a win or a
row number of 10**20): a located ``absurd-number`` error in validate; in
stats and analyse the file is one error line and the other files are analysed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.cli import app

REPO = Path(__file__).resolve().parents[1]
GNUBG_MAT = REPO / "tests" / "data" / "gnubg" / "selfplay-5p-2.mat"
HUGE = "99999999999999999999"
runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _lines() -> list[str]:
    return GNUBG_MAT.read_text(encoding="utf-8").split("\n")


def _edit(lines: list[str], kind: str) -> tuple[list[str], int, int]:
    """The file's lines with one number made huge, with the (1-based) line and column it is at."""
    out = list(lines)
    for i, line in enumerate(out):
        if kind == "length" and "point match" in line:
            number = line.split()[0]
            out[i] = line.replace(number, HUGE + "000", 1)
            return out, i + 1, line.index(number) + 1
        if kind == "score" and i > 0 and out[i - 1].strip() == "Game 2":
            out[i] = re.sub(r"(:\s*)\d+", rf"\g<1>{HUGE}", line, count=1)
            return out, i, 2  # the game's line: where its score problems are
        if kind == "row" and line.startswith("  2) "):
            out[i] = f" {HUGE})" + line[4:]
            return out, i + 1, 2
        if kind == "points" and "Wins" in line:
            column = line.index("Wins")
            out[i] = line[:column] + f"Wins {HUGE} points"
            return out, i + 1, column + 1
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["length", "score", "points", "row"])
def test_validate_locates_a_number_no_match_can_have(kind: str, tmp_path: Path) -> None:
    lines, line, column = _edit(_lines(), kind)
    bad = tmp_path / f"{kind}.mat"
    bad.write_text("\n".join(lines), encoding="utf-8")
    result = run("validate", "--json", bad)
    assert result.exit_code == 1, result.output
    found = [json.loads(row) for row in result.output.splitlines() if row.startswith("{")]
    problems = [p for row in found for p in row.get("problems", [row])]
    absurd = [p for p in problems if p.get("code") == "absurd-number"]
    assert len(absurd) == 1, problems
    assert absurd[0]["line"] == line and absurd[0]["severity"] == "error"
    if kind not in ("score", "row"):  # (a score line and a row number are located by their line)
        assert absurd[0]["column"] == column
    assert HUGE in absurd[0]["message"]
    # nothing is made of the huge number downstream: no match-over, no score-mismatch after a huge win
    assert not [p for p in problems if p.get("code") in ("match-over", "score-mismatch")], problems


@pytest.mark.parametrize("kind", ["length", "score", "points", "row"])
@pytest.mark.parametrize("by", ["player", "match"])
def test_stats_says_one_line_and_analyses_the_others(kind: str, by: str, tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "good.mat").write_bytes(GNUBG_MAT.read_bytes())
    lines, _line, _column = _edit(_lines(), kind)
    (folder / "huge.mat").write_text("\n".join(lines), encoding="utf-8")
    level = ["--level", "expert"] if by == "match" else []  # (the check is of the file, not of the depth)
    result = run("stats", "--by", by, *level, "--json", folder)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and "internal" not in result.output
    out = [line for line in result.output.splitlines() if "huge.mat" in line]
    assert len(out) == 1 and "absurd-number" in out[0], result.output
    rows = [json.loads(row) for row in result.output.splitlines() if row.startswith("{")]
    good = tk.read_match(GNUBG_MAT).players
    assert {row.get("player") for row in rows} >= set(good)


def test_analyse_stores_the_good_files(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "good.mat").write_bytes(GNUBG_MAT.read_bytes())
    lines, _line, _column = _edit(_lines(), "length")
    (folder / "huge.mat").write_text("\n".join(lines), encoding="utf-8")
    store = tmp_path / "store"
    result = run("analyse", "--no-luck", "--store", store, folder)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    analysis = tk.analysis.open_store(store)
    assert set(analysis.games["path"]) == {str(folder / "good.mat")}
    assert len(analysis.games) == len(tk.read_match(GNUBG_MAT).games)
    files = tk.analysis.store.files_frame(store)
    huge = files[files["path"] == str(folder / "huge.mat")]
    assert len(huge) == 1 and "absurd-number" in str(huge.iloc[0].to_dict())


def test_analysis_of_a_match_object_leaves_it_out() -> None:
    """The library says the same: the match holding the huge number has no rows and one problem."""
    lines, _line, _column = _edit(_lines(), "points")
    huge = tk.formats.mat.read_mat("\n".join(lines), source="huge.mat")
    good = tk.read_match(GNUBG_MAT)
    result = tk.analysis.analyse([good, huge], luck=False)
    assert set(result.games["path"]) == {str(GNUBG_MAT)}
    assert [p.code for p in result.problems if p.file == "huge.mat"] == ["absurd-number"]
    assert isinstance(result.games, pd.DataFrame)
