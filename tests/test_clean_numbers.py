"""No floating noise in a frame, a table or the viewer: a closed-out dance
has no luck (not -2.9e-07), a rate of 0 has an interval from exactly 0
(not 5.55e-17), and the viewer shows no luck line for a forced dance."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit import Position
from tavlakit.analysis.outcomes import wilson
from tavlakit.cli import app
from tavlakit.engine.play import Play
from tavlakit.pictures import viewer
from tavlakit.record.match import Game, Match, Result, Turn

SELFPLAY = Path(__file__).resolve().parent / "data" / "gnubg" / "selfplay-7p-5.mat"
#: White on the bar against Black's six closed home points.
CLOSED_OUT = Position.from_points({25: 1, 13: 5, 8: 4, 6: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})


def closed_out_match() -> Match:
    """White dances twice against a closed board; Black plays 13/9 between."""
    black = Play.parse("13/9")
    assert CLOSED_OUT.flip().play(black) in CLOSED_OUT.flip().legal_positions((3, 1))  # Black's play is legal
    turns = [
        Turn(0, dice=(6, 6), status="cannot-move"),
        Turn(1, dice=(3, 1), moves=black.moves),
        Turn(0, dice=(5, 2), status="cannot-move"),
    ]
    return Match(("White", "Black"), 0, [Game(1, turns=turns, start=CLOSED_OUT.position_id(), result=Result(1, 1))])


def tiny(frame: pd.DataFrame) -> dict[str, list[float]]:
    """Float values of ``frame`` that are not 0 but smaller than a millionth."""
    out = {}
    for column in frame.columns:
        if pd.api.types.is_float_dtype(frame[column]):
            values = frame[column].to_numpy(dtype=float)
            noise = values[(np.abs(values) > 0) & (np.abs(values) < 1e-6)]
            if noise.size:
                out[column] = noise.tolist()
    return out


def test_a_closed_out_dance_has_no_luck() -> None:
    plays = tk.analysis.plays_frame(closed_out_match())
    dances = plays[plays["name"] == "White"]
    assert dances["dance"].tolist() == [True, True]
    assert dances["luck"].tolist() == [0.0, 0.0] and dances["error"].isna().all()  # nothing to judge
    assert tiny(plays) == {}


def test_the_viewer_shows_no_luck_line_for_a_forced_dance() -> None:
    data = viewer.page_data(viewer.html(closed_out_match(), analyse=True, level="expert"))
    frames = data["games"][0]["frames"]
    assert [f["t"] for f in frames[1:]] == ["White 66: no move", "Black 31: 13/9", "White 52: no move"]
    # before: "Luck -0.000 · The best play"; a cube decision before the roll may still be shown
    assert all("Luck" not in frames[i].get("a", "") and "best play" not in frames[i].get("a", "") for i in (1, 3))
    assert frames[2]["a"].startswith("Luck ")


def test_wilson_intervals_end_exactly_at_0_and_1() -> None:
    for n in range(1, 60):
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    for n in range(2, 60):
        low, high = wilson(n // 2, n)
        assert 0.0 < low < high < 1.0


def test_stats_tables_hold_no_noise(tmp_path: Path) -> None:
    """In gnubg's 7-point self-play match each player won 3 games, none by
    mars: the interval's low end is 0 (before: 5.55e-17)."""
    out = tmp_path / "stats.csv"
    result = CliRunner().invoke(app, ["stats", "--no-luck", "-j", "1", "--csv", str(out), str(SELFPLAY)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(row["wins"], row["mars_for"], row["low_for"]) for row in rows] == [("3", "0", "0.0")] * 2
    assert "e-" not in out.read_text(encoding="utf-8")
    analysed = tk.analysis.analyse(str(SELFPLAY), luck=False)
    assert tiny(tk.analysis.mars_rates(analysed.games)) == {}
