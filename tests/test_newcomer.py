"""The stumbles a newcomer met in the analysis (issue 12), one test each.

References are independent of the code under test: gnubg-nn's own decoding
of Position IDs and its own best move, the transcripts read by eye, and
matplotlib's measured extents of what it drew.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import gnubg_nn
import matplotlib.pyplot
import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit._data import data_dir
from tavlakit.analysis import Analysis, analyse, players_frame, plots
from tavlakit.analysis.luck import play_error
from tavlakit.cli.stats import stats
from tavlakit.evaluation.equity import Evaluator, net_board

SAMPLES = data_dir("samples")
FIBS = SAMPLES / "fibs-bluenote-nori.txt"
STUDIO = SAMPLES / "studio-magic-lasse-5pt.txt"
TAVLA = SAMPLES / "tavla-t000.mat"


def app() -> typer.Typer:
    app = typer.Typer()
    app.command()(stats)
    app.command()(lambda: None)  # keeps 'stats' a subcommand, as in the real CLI
    return app


@pytest.fixture(scope="module")
def fibs() -> Analysis:
    return analyse(tk.read_match(FIBS))


def test_players_frame_from_the_two_frames(fibs: Analysis) -> None:
    from_frames = players_frame(fibs.plays, fibs.games)
    pd.testing.assert_frame_equal(from_frames, players_frame(fibs))
    overall = from_frames[from_frames["scope"] == "overall"].set_index("player")
    # the transcript's four games: BlueNote wins game 2, nori games 1, 3 and 4
    assert overall.loc["BlueNote", "wins"] + overall.loc["nori", "wins"] == 4
    with pytest.raises(TypeError, match="games frame"):
        players_frame(fibs.plays)


def gnubg_pips(position_id: str) -> list[int]:
    opponent, mover = gnubg_nn.board_from_position_id(position_id)
    return [sum((i + 1) * n for i, n in enumerate(side)) for side in (mover, opponent)]


def test_cannot_move_rows_carry_pips() -> None:
    plays = analyse(tk.read_match(STUDIO), luck=False).plays
    # the Studio transcript writes "55: Cannot Move" (row 11 of game 1) and others
    stuck = plays[plays["play"].eq("") & plays["dice"].notna()]
    assert len(stuck) >= 3
    assert stuck["dance"].all()
    for _, row in stuck.iterrows():
        pips = gnubg_pips(row["position_id"])
        assert [row["pips_before"], row["opp_pips_before"]] == pips
        assert [row["pips_after"], row["opp_pips_after"]] == pips


def test_the_best_play_has_error_zero(fibs: Analysis) -> None:
    errors = fibs.plays["error"].dropna()
    assert len(errors) > 100
    assert not ((errors > 0) & (errors < 1e-6)).any(), errors[(errors > 0) & (errors < 1e-6)].head()
    # gnubg-nn's own best move, position by position: the play it chooses loses nothing
    rules = tk.Rules.preset("backgammon")
    ev = Evaluator(rules)
    checked = 0
    rolls = fibs.plays[fibs.plays["choices"] > 1].head(40)
    for _, row in rolls.iterrows():
        before = tk.Position.from_position_id(row["position_id"])
        best_key = gnubg_nn.best_move(net_board(before), int(row["die1"]), int(row["die2"]), list=1)[1][0][0]
        for after in before.legal_positions((int(row["die1"]), int(row["die2"])), rules):
            if after.position_key() == best_key:
                assert play_error(ev, before, (int(row["die1"]), int(row["die2"])), after.flip()) == 0.0
                checked += 1
    assert checked == len(rolls)


def test_luck_rating_words_are_not_missing_data(fibs: Analysis) -> None:
    from tavlakit.analysis.luck import GNUBG_RATINGS, RATINGS, luck_rating

    ratings = fibs.players["luck_rating"]
    assert ratings.notna().all()
    assert not ratings.str.lower().isin(["none", "nan", "na", "n/a", ""]).any()
    # gnubg's five words, one for each of ours (gnubg 1.07 analysis.c, aszLuckRating)
    assert [GNUBG_RATINGS[word] for word in RATINGS] == [
        "Go to bed",
        "Bad dice, man!",
        "None",
        "Good dice, man!",
        "Go to Las Vegas",
    ]
    assert GNUBG_RATINGS[luck_rating(0.0)] == "None"


def test_match_column_is_a_short_label(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "same.mat").write_bytes(TAVLA.read_bytes())
    paths = [tmp_path / "a" / "same.mat", tmp_path / "b" / "same.mat", FIBS]
    result = analyse(tk.read_matches(paths), luck=False)
    labels = result.games.drop_duplicates("path").set_index("path")["match"]
    assert labels[str(FIBS)] == "fibs-bluenote-nori.txt"
    # the same file name in two folders: two labels, both short
    assert {labels[str(paths[0])], labels[str(paths[1])]} == {"same.mat", "b/same.mat"}
    assert set(result.plays["path"]) == {str(p) for p in paths}
    per_match = result.players[result.players["scope"] == "match"]
    assert len(per_match) == 6 and per_match["games"].sum() == 2 * (6 + 6 + 4)


def test_stats_by_file_names_the_players() -> None:
    result = CliRunner().invoke(app(), ["stats", str(FIBS), str(TAVLA), "--by", "file", "--no-luck", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert {(r["match"], r["player"]) for r in rows} == {
        ("fibs-bluenote-nori.txt", "BlueNote"),
        ("fibs-bluenote-nori.txt", "nori"),
        ("tavla-t000.mat", "Ayşe"),
        ("tavla-t000.mat", "Mehmet Ali"),
    }
    assert not any(key.startswith("luck0") or key.startswith("luck1") for r in rows for key in r)
    assert {r["games"] for r in rows if r["match"] == "tavla-t000.mat"} == {6}


def test_piped_tables_keep_their_headers() -> None:
    # CliRunner's output is not a terminal, like a pipe
    result = CliRunner().invoke(app(), ["stats", str(FIBS), str(TAVLA), str(STUDIO), "--no-luck"])
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    header = result.output.splitlines()[0].split()
    assert header[:4] == ["player", "games", "wins", "mars_for"]
    assert "doubles_rate" in header
    names = [line.split("  ")[0].strip() for line in result.output.splitlines()[1:]]
    assert "BlueNote" in names and "Mehmet Ali" in names


def test_corpus_found_from_the_variable_or_beside(tmp_path: Path) -> None:
    from conftest import find_corpus

    repo = tmp_path / "checkout"
    repo.mkdir()
    corpus = tmp_path / "elsewhere"
    corpus.mkdir()
    assert find_corpus({"TAVLAKIT_CORPUS": str(corpus)}, repo) == (corpus, "")
    missing, why = find_corpus({"TAVLAKIT_CORPUS": str(tmp_path / "nope")}, repo)
    assert missing is None and "is not a folder" in why
    none, why = find_corpus({}, repo)
    assert none is None and "set TAVLAKIT_CORPUS" in why and str(tmp_path / "shared") in why
    (tmp_path / "shared" / "corpus").mkdir(parents=True)
    assert find_corpus({}, repo) == (tmp_path / "shared" / "corpus", "")


# --- plots ---------------------------------------------------------------


def _mars_games() -> pd.DataFrame:
    """A hand-made season: Alpha Long-Name wins 4 (2 by mars), Bravo wins 3 and
    none by mars, Charlie never wins."""
    rows = []
    for winner, loser, kind in (
        [("Alpha Long-Name", "Charlie Longer-Name", "mars")] * 2
        + [("Alpha Long-Name", "Bravo Very-Long-Name", "single")] * 2
        + [("Bravo Very-Long-Name", "Charlie Longer-Name", "single")] * 3
    ):
        rows.append({"player0": winner, "player1": loser, "winner": 0, "result_kind": kind})
    return pd.DataFrame(rows)


def _extents(artists: list[object], renderer: object) -> list[object]:
    return [a.get_window_extent(renderer) for a in artists]  # type: ignore[attr-defined]


def test_mars_chart_shows_zero_skips_no_wins_and_keeps_overall_apart() -> None:
    ax = plots.plot_mars_rates(_mars_games())
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    labels = [t for t in ax.get_yticklabels() if t.get_text()]
    names = [t.get_text() for t in labels]
    assert names[-1] == "overall" or names[0] == "overall"
    texts = {t.get_text() for t in ax.texts}
    # zero is shown, not hidden: Bravo's 0 of 3; Alpha's 2 of 4; overall 2 of 7
    assert any("0/3" in t for t in texts) and any("2/4" in t for t in texts) and any("2/7" in t for t in texts)
    # Charlie has no wins: said so, and no interval drawn at his row
    assert any(t == "no wins" for t in texts)
    positions = dict(zip(names, ax.get_yticks()[: len(names)]))
    ticks = {t.get_text(): y for t, y in zip(ax.get_yticklabels(), ax.get_yticks())}
    charlie = ticks["Charlie Longer-Name"]
    for collection in ax.collections:
        for segment in collection.get_segments():  # type: ignore[attr-defined]
            assert not any(abs(y - charlie) < 0.3 for _, y in segment)
    # overall sits apart: farther from the nearest player than players from each other
    player_rows = sorted(y for n, y in ticks.items() if n != "overall")
    gap = min(abs(ticks["overall"] - y) for y in player_rows)
    assert gap > 1.2 * min(b - a for a, b in itertools.pairwise(player_rows))
    assert positions  # the labels are where the ticks are
    # no two labels overlap
    boxes = _extents([*labels, *ax.texts], renderer)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)  # type: ignore[attr-defined]
    assert "7" in ax.get_title()  # the number of decided games it shows
    matplotlib.pyplot.close(fig)


def test_titles_fit_over_their_charts() -> None:
    """In the CLI's 2 x 2 figure the longest titles (many matches, many
    players) stay within their own chart."""
    season = _mars_games()
    many = pd.concat(
        [
            season.assign(
                match=f"m{i}", path=f"/x/m{i}", player0=season["player0"] + f" {i}", player1=season["player1"] + f" {i}"
            )
            for i in range(12)
        ],
        ignore_index=True,
    )
    plays = analyse(tk.read_matches([FIBS, TAVLA, STUDIO]), luck=False).plays
    fig, axes = matplotlib.pyplot.subplots(2, 2, figsize=(12, 8))
    plots.plot_dice(plays, ax=axes[1, 0])
    plots.plot_mars_rates(many, ax=axes[1, 1])
    assert "15 of 36 players" in axes[1, 1].get_title()
    fig.tight_layout()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    for ax in (axes[1, 0], axes[1, 1]):
        title = ax.title.get_window_extent(renderer)
        box = ax.get_window_extent(renderer)
        assert box.x0 - 5 <= title.x0 and title.x1 <= box.x1 + 5, (ax.get_title(), title, box)
    matplotlib.pyplot.close(fig)


def test_dice_legend_covers_no_bar() -> None:
    plays = analyse(tk.read_match(FIBS), luck=False).plays
    ax = plots.plot_dice(plays)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    legend = ax.get_legend().get_window_extent(renderer)
    for bar in ax.patches:
        assert not legend.overlaps(bar.get_window_extent(renderer))
    assert "fibs-bluenote-nori.txt" in ax.get_title()
    matplotlib.pyplot.close(fig)


def test_charts_say_which_match_and_game() -> None:
    plays = analyse(tk.read_match(TAVLA)).plays
    race = plots.plot_pip_race(plays, game=2)
    assert "tavla-t000.mat" in race.get_title() and "2" in race.get_title()
    luck = plots.plot_luck(plays)
    assert "tavla-t000.mat" in luck.get_title() and "6 games" in luck.get_title()
    # a dotted line where each of games 2-6 starts (the transcript has six games)
    assert len([line for line in luck.lines if line.get_linestyle() == ":"]) == 5
    matplotlib.pyplot.close("all")
