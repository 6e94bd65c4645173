"""gnubg's own analysis in its SGF files (``A``, ``LU``) as the turns' recorded analysis."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.formats.mat import write_mat
from tavlakit.formats.sgf import read_sgf, write_sgf


@pytest.fixture(scope="module")
def xg_dir(corpus_dir: Path) -> Path:
    return corpus_dir / "xg"


def test_each_analysed_play_has_gnubgs_error_and_luck(xg_dir: Path) -> None:
    match = read_sgf(xg_dir / "test.sgf")
    rolls = [t for g in match.games for t in g.turns if t.kind == "roll"]
    assert rolls and all(t.analysis is not None and t.analysis.program == "gnubg" for t in rolls)
    # by hand from test.sgf: Maxence Job's 41 played lppq, the third of gnubg's plays:
    # A[2][aeqr ... -0.229428 ...][aers ... -0.263944 ...][lppq ... -0.409815 ...] LU[-0.00222]
    found = [t for t in rolls if t.analysis and t.analysis.luck == -0.00222 and t.dice == (4, 1)]
    assert len(found) == 1 and found[0].player == 1
    assert found[0].analysis.error == pytest.approx(-0.229428 + 0.409815, abs=1e-9)
    assert all(t.analysis.error >= 0 for t in rolls if t.analysis and t.analysis.error is not None)


def test_gnubgs_totals_beside_xgs_and_ours(xg_dir: Path) -> None:
    """The same match analysed by gnubg (the SGF), XG (the .xg) and tavlakit
    (0 ply): the checker errors are one story (XG's own file against gnubg's:
    within 10%)."""
    sgf = statistics_frame([tk.read_match(xg_dir / "test.sgf")])
    xg = statistics_frame([tk.read_match(xg_dir / "test.xg")])
    for side in (0, 1):
        g, x = (f[(f["scope"] == "match") & (f["side"] == side)].iloc[0] for f in (sgf, xg))
        assert g["recorded_by"] == "gnubg" and x["recorded_by"] == "XG"
        assert g["recorded_checker_error"] == pytest.approx(x["recorded_checker_error"], rel=0.1)
        assert g["checker_error_emg"] == pytest.approx(g["recorded_checker_error"], rel=0.15)
        assert g["luck_emg"] == pytest.approx(g["recorded_luck"], rel=0.05)  # both gnubg's luck at 0 ply


def test_gnubgs_analysis_is_written_back_not_lost(xg_dir: Path) -> None:
    match = read_sgf(xg_dir / "test.sgf")
    out = io.StringIO()
    notes = write_sgf(match, out)
    assert not any("analysis" in n.message for n in notes)
    again = read_sgf(out.getvalue())
    first = [t.analysis for g in match.games for t in g.turns]
    assert first == [t.analysis for g in again.games for t in g.turns]
    notes = write_mat(match, io.StringIO())
    assert any("analysis" in n.message for n in notes)  # a .mat has no room for it: said
