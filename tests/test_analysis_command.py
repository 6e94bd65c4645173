"""``tavlakit stats`` and the plots."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit._data import data_dir
from tavlakit.analysis import Analysis, analyse, plots
from tavlakit.analysis.dice import face_counts
from tavlakit.analysis.luck import cumulative_luck
from tavlakit.analysis.pips import pip_race
from tavlakit.cli.stats import stats

TAVLA = data_dir("samples") / "tavla-t000.mat"
GNUBG = Path(__file__).parent / "data" / "gnubg"


def app() -> typer.Typer:
    """The command as the lead registers it: ``app.command()(stats)``."""
    app = typer.Typer()
    app.command()(stats)
    app.command()(lambda: None)  # a second command keeps 'stats' a subcommand, as in cli.py
    return app


@pytest.fixture(scope="module")
def tavla() -> Analysis:
    return analyse(tk.read_match(TAVLA))


def test_stats_by_player_json_csv_plot(tmp_path: Path) -> None:
    csv_path, png = tmp_path / "s.csv", tmp_path / "s.png"
    files = [str(TAVLA), str(GNUBG / "selfplay-3p-1.mat")]
    result = CliRunner().invoke(app(), ["stats", *files, "--json", "--csv", str(csv_path), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    by_name = {r["player"]: r for r in rows}
    # the Tavla sample: 6 games, 3 wins each (read from its transcript)
    assert by_name["Ayşe"]["games"] == 6 and by_name["Ayşe"]["wins"] + by_name["Mehmet Ali"]["wins"] == 6
    assert {"Alpha", "Bravo"} <= set(by_name)
    assert all(
        r["luck_rating"] in ("Go to bed", "Bad dice, man!", "Average dice", "Good dice, man!", "Go to Las Vegas")
        for r in rows
    )
    assert len(pd.read_csv(csv_path)) == len(rows)
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_stats_by_file_table_and_rules(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app(), ["stats", str(GNUBG / "selfplay-3p-1.mat"), "--by", "file", "--no-luck", "--rules", "tavla"]
    )
    assert result.exit_code == 0, result.output
    assert "1 file(s)" in result.output


def test_stats_bad_arguments(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "400"})  # no wrapping of the error box
    missing = runner.invoke(app(), ["stats", str(tmp_path / "nope.mat")])
    assert missing.exit_code != 0 and "no such file or folder" in missing.output
    bad_by = runner.invoke(app(), ["stats", str(TAVLA), "--by", "colour"])
    assert bad_by.exit_code != 0 and "--by must be" in bad_by.output
    bad_rules = runner.invoke(app(), ["stats", str(TAVLA), "--rules", "chess"])
    assert bad_rules.exit_code != 0 and "unknown rules" in bad_rules.output
    empty = runner.invoke(app(), ["stats", str(tmp_path)])
    assert empty.exit_code != 0 and "no record files" in empty.output


def test_stats_names_unreadable_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"not a match\x00\xff")
    result = CliRunner().invoke(app(), ["stats", str(junk), str(TAVLA), "--no-luck", "--json"])
    assert result.exit_code == 2, result.output  # an input nothing could be read from, as in validate
    assert f"{junk}: encoding:" in result.output  # said on stderr, not dropped
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert {r["player"] for r in rows} == {"Ayşe", "Mehmet Ali"}
    assert all(r["luck"] is None for r in rows)  # no luck computed, not zero


def test_plots_draw_the_computed_numbers(tavla: Analysis) -> None:
    plays, games = tavla.plays, tavla.games
    ax = plots.plot_pip_race(plays, game=1)
    race = pip_race(plays, game=1)
    assert list(ax.lines[0].get_ydata()) == race["player0"].tolist()
    ax = plots.plot_luck(plays)
    luck = cumulative_luck(plays)
    assert list(ax.lines[0].get_ydata()) == pytest.approx(luck[luck.columns[2]].tolist())
    # the running totals end at each player's luck over the match
    total = plays.groupby("name")["luck"].sum()
    assert luck[luck.columns[2]].iloc[-1] == pytest.approx(total[luck.columns[2]])
    ax = plots.plot_dice(plays)
    assert [p.get_height() for p in ax.patches] == face_counts(plays).tolist()
    assert ax.lines[0].get_ydata()[0] == pytest.approx(face_counts(plays).sum() / 6)
    ax = plots.plot_mars_rates(games)
    assert len(ax.patches) == 3  # two players and overall
    ax = plots.plot_mars_rates(games, top=1)
    assert len(ax.patches) == 2 and ax.get_yticklabels()[0].get_text() == "overall"


def test_luck_needs_luck_columns() -> None:
    plays = analyse(tk.read_match(TAVLA), luck=False).plays
    with pytest.raises(ValueError, match="luck=False"):
        cumulative_luck(plays)


def test_stats_on_files_without_games(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"\0\1\2 not a match")
    result = CliRunner().invoke(app(), ["stats", str(junk)])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "no game could be read" in result.output


@pytest.mark.parametrize("by", ["player", "file"])
def test_stats_of_games_without_a_roll(tmp_path: Path, by: str) -> None:
    """A game with its result and no roll (found by fuzzing: the dice table
    had no ``player`` column, a KeyError): the table says its game, no luck, no dice."""
    path = tmp_path / "results-only.sgf"
    path.write_text("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+2])", encoding="utf-8")
    result = CliRunner().invoke(app(), ["stats", "--no-luck", "--json", "--by", by, str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert {row["player"]: row["games"] for row in rows} == {"Ann": 1, "Bob": 1}
    assert all(row.get("faces_p") is None for row in rows)
