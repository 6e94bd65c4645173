"""XG's Performance Rating: XG's own, from an .xg file's recorded analysis,
beside tavlakit's at the default (world-class) level.

XG's files hold every error XG found, but not the PR XG displays; it is
worked out as XG works it out (docs/analysis-levels.md): the errors in EMG
per decision XG counts, times 500. tavlakit counts its own decisions the
same way, with its own equities: the two counts come from two engines.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import tavlakit as tk


@pytest.fixture(scope="module")
def xg_statistics(corpus_dir: Path) -> pd.DataFrame:
    """The statistics of every match of the corpus's .xg files with XG's analysis, at the default level."""
    files = sorted(p for p in (corpus_dir / "xg").glob("*.xg") if tk.read_match(p).games)
    assert len(files) >= 4
    frame = tk.analysis.analyse(files, statistics=True, luck=False, jobs=None).statistics
    return frame[frame["scope"] == "match"]


def test_xgs_own_pr_beside_ours(xg_statistics: pd.DataFrame) -> None:
    rows = xg_statistics
    assert set(rows["level"]) == {"world-class"} and set(rows["recorded_by"]) == {"XG"}
    assert rows["recorded_pr"].notna().all()
    # XG's own PR is its recorded errors per decision it counts, times 500
    xg = 500 * (rows["recorded_checker_error"] + rows["recorded_cube_error"]) / rows["recorded_decisions"]
    assert rows["recorded_pr"].tolist() == pytest.approx(xg.tolist())
    # the decisions: XG's count from XG's own lists and equities, ours from our engine, nearly the same
    assert ((rows["pr_decisions"] - rows["recorded_decisions"]).abs() <= 0.05 * rows["recorded_decisions"]).all()
    # the bound: within 0.5 of XG's own PR on average
    assert (rows["pr"] - rows["recorded_pr"]).abs().mean() < 0.5
