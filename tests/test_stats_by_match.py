"""``tavlakit stats --by match``: gnubg's layout, the frame as JSON/CSV, --met, bad input, Tavla."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit import Rules
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.cli import app
from tavlakit.evaluation.met import load_met
from tavlakit.evaluation.tavla_met import tavla_met
from tavlakit.record.match import Turn

REPO = Path(__file__).resolve().parents[1]
STATS = REPO / "tests" / "data" / "stats"
runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def words(output: str) -> str:
    """The output as one line (an error panel wraps long messages)."""
    return " ".join(output.replace("│", " ").split())


def line(output: str, label: str) -> list[str]:
    found = next(row for row in output.splitlines() if row.startswith(label + " "))
    return found[len(label) :].split()


def test_layout_shows_gnubgs_own_counts() -> None:
    result = run("stats", "--by", "match", "--level", "expert", STATS / "match-3p-31.mat")
    assert result.exit_code == 0, result.output
    reference = json.loads((STATS / "match-3p-31.json").read_text())["stats"]
    for section in ("Checker play", "Luck", "Cube", "Overall"):
        assert section in result.output.splitlines()
    assert line(result.output, "Unforced moves") == [str(reference[p]["moves"]["unforced-moves"]) for p in "XO"]
    assert line(result.output, "Doubles offered") == [str(reference[p]["cube"]["n-doubles"]) for p in "XO"]
    assert line(result.output, "Actual result") == ["-50.00%", "+50.00%"]
    assert max(len(row) for row in result.output.splitlines()) <= 80
    # what judged it: the net and the match equity table (gnubg 1.07's default, by the name its file gives)
    assert "Evaluated at expert (0 ply) with gnubg-nn's own weights" in result.output.splitlines()
    assert "Match equity table: Kazaross XG2 25 point MET" in result.output.splitlines()
    assert "Tavla" not in result.output
    money = run("stats", "--by", "match", "--level", "expert", STATS / "money-cube-15.mat")  # a money session: no table
    assert (
        money.exit_code == 0
        and "Match equity table" not in money.output
        and "Evaluated at expert (0 ply)" in money.output
    )


def test_json_and_csv_give_the_frame(tmp_path: Path) -> None:
    out = tmp_path / "stats.csv"
    result = run("stats", "--by", "match", "--level", "expert", "--json", "--csv", out, STATS / "match-3p-31.mat")
    assert result.exit_code == 0, result.output
    rows = [json.loads(row) for row in result.output.splitlines()]
    assert [(r["scope"], r["player"]) for r in rows] == [
        ("match", "Alpha"),
        ("match", "Bravo"),
        ("overall", "Alpha"),
        ("overall", "Bravo"),
    ]
    header = out.read_text().splitlines()[0].split(",")
    assert header[:7] == ["scope", "match", "path", "player", "side", "length", "rules"]
    assert "total_moves" in header and "pr" in header


def test_every_core_gives_the_same_frame() -> None:
    files = [STATS / "match-3p-31.mat", STATS / "money-cube-15.mat"]
    one = run("stats", "--by", "match", "--level", "expert", "--json", "-j", 1, *files)
    two = run("stats", "--by", "match", "--level", "expert", "--json", "-j", 2, *files)
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output and len(one.output.splitlines()) == 6


def test_another_match_equity_table(tmp_path: Path) -> None:
    woolsey = Path("/usr/share/gnubg/met/woolsey.xml")
    if not woolsey.exists():
        pytest.skip("gnubg's woolsey.xml is not installed")
    match = tk.read_match(STATS / "match-3p-31.mat")
    default = statistics_frame([match], level="expert")
    other = statistics_frame([match], met=load_met(woolsey), level="expert")
    # another table: other MWC, the same counts
    assert (default["unforced_moves"] == other["unforced_moves"]).all()
    assert not (default["checker_error_mwc"] == other["checker_error_mwc"]).all()
    result = run("stats", "--by", "match", "--level", "expert", "--met", woolsey, STATS / "match-3p-31.mat")
    assert result.exit_code == 0
    name = ElementTree.parse(woolsey).findtext("info/name")
    assert name and f"Match equity table: {name.strip()}" in result.output.splitlines()
    bad = tmp_path / "bad.xml"
    bad.write_text("<met><oops>")
    result = run("stats", "--by", "match", "--level", "expert", "--met", bad, STATS / "match-3p-31.mat")
    assert result.exit_code == 2 and "bad.xml: not a match equity table" in words(result.output)
    result = run("stats", "--by", "match", "--ply", 4, STATS / "match-3p-31.mat")
    assert result.exit_code == 2 and "only 0-, 1-, 2- and 3-ply" in words(result.output)


def test_cube_actions_against_the_rules_are_listed_not_judged() -> None:
    match = tk.read_match(STATS / "match-5p-52.mat")
    game = match.games[0]
    player = game.turns[5].player
    game.turns.insert(6, Turn(1 - player, "take"))  # a take with no double before it
    frame = statistics_frame([match], level="expert")
    row = frame[(frame["scope"] == "match") & (frame["side"] == 1 - player)].iloc[0]
    assert row["unjudged"] >= 1
    first = frame.attrs["unjudged"][0]
    assert (first["game"], first["kind"], first["reason"]) == (1, "take", "no double to answer")
    # the rest is judged as before: the plays of both players are all counted
    clean = statistics_frame([tk.read_match(STATS / "match-5p-52.mat")], level="expert")
    assert frame["total_moves"].tolist() == clean["total_moves"].tolist()


def test_a_tavla_match_in_tavla_mwc() -> None:
    match = tk.read_match(REPO / "samples" / "tavla-t000.mat")
    rules = Rules.preset("tavla")
    frame = statistics_frame([match], rules, level="expert")
    rows = frame[frame["scope"] == "match"]
    assert (rows["cube_decisions"] == 0).all()
    met = tavla_met(rules)
    final = match.final_score()
    winner = 0 if final[0] >= match.length else 1
    # the games' MWC changes add up to the match won: +50% for the winner
    assert rows.iloc[winner]["actual_result"] == pytest.approx(1 - met.away(match.length, match.length))
    assert rows["luck_mwc"].abs().sum() > 0
    result = run(
        "stats",
        "--by",
        "match",
        "--level",
        "expert",
        "--rules",
        "tavla-outside-home",
        REPO / "samples" / "tavla-t000.mat",
    )
    assert result.exit_code == 0, result.output
    assert "stand in for mars" in result.output
    assert "tavlakit's own match equity table" in result.output and "Kazaross" not in result.output


def test_turkish_labels() -> None:
    result = run("--lang", "tr", "stats", "--by", "match", "--level", "expert", STATS / "match-3p-31.mat")
    try:
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert "Pul oyunu" in lines and "Video" in lines and "Şans" in lines  # the seeds' word for the cube
        assert "3 puanlık maç" in lines[0]
        assert max(len(row) for row in lines) <= 80
    finally:
        from tavlakit.i18n import set_language

        set_language("en")


def test_analysis_statistics_and_decisions() -> None:
    path = STATS / "match-3p-31.mat"
    result = tk.analysis.analyse([path], luck=False, level="expert")
    direct = statistics_frame([tk.read_match(path)], level="expert")
    assert result.statistics["checker_error_emg"].tolist() == direct["checker_error_emg"].tolist()
    decisions = result.decisions
    assert set(decisions["kind"]) >= {"roll", "no double"}
    streamed = tk.analysis.analyse(iter([tk.read_match(path)]), luck=False, statistics=True, level="expert")
    assert streamed.statistics["pr"].tolist() == direct["pr"].tolist()
    with pytest.raises(ValueError, match="stream"):
        _ = tk.analysis.analyse(iter([tk.read_match(path)]), luck=False).statistics


def test_unreadable_files_are_said_and_skipped(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"not a record\x00\x01")
    result = run("stats", "--by", "match", "--level", "expert", junk, STATS / "match-3p-31.mat")
    assert result.exit_code == 2  # an input nothing could be read from, as with --by player
    assert "junk.mat" in result.output and "encoding" in result.output
    assert "match-3p-31.mat: 3-point match" in result.output
    result = run("stats", "--by", "match", "--level", "expert", junk)
    assert result.exit_code == 2 and "no game could be read" in result.output


def test_tavla_scores_a_backgammon_as_a_mars() -> None:
    import numpy as np

    from tavlakit.evaluation.cubeful import CubeState
    from tavlakit.evaluation.search import Search

    judge = Search(Rules.preset("tavla"))
    state = CubeState(length=5, score=(1, 2), mover=0, met=judge.met, crawford=True)
    with_bg = np.array([[0.6, 0.3, 0.1, 0.1, 0.05]])
    without = np.array([[0.6, 0.3, 0.0, 0.1, 0.0]])
    x = np.array([0.68])
    assert judge.on_roll(with_bg, state, x)[0] == judge.on_roll(without, state, x)[0]
    backgammon = Search(Rules.preset("backgammon"))
    assert backgammon.on_roll(with_bg, state, x)[0] != backgammon.on_roll(without, state, x)[0]


def test_plays_frame_with_the_judged_cube() -> None:
    from tavlakit.analysis.decisions import join_decisions

    result = tk.analysis.analyse([STATS / "match-7p-73.mat"], level="expert")
    joined = join_decisions(result.plays, result.decisions)
    assert len(joined) == len(result.plays) and (joined["kind"] == result.plays["kind"]).all()
    doubles = joined[joined["kind"] == "double"]
    assert len(doubles) == 4 and doubles["no_double"].notna().all()
    stats = result.statistics
    for side in (0, 1):
        mine = joined[(joined["player"] == side) & joined["category"].notna()]
        row = stats[(stats["scope"] == "match") & (stats["side"] == side)].iloc[0]
        assert mine["cube_error_emg"].sum() == pytest.approx(row["cube_error_emg"])


def test_a_match_beyond_the_tables_is_said_not_judged(tmp_path: Path) -> None:
    """Before: a 99-point match ended stats --by match in an IndexError."""
    long = tmp_path / "long.mat"
    long.write_text(
        " 99 point match\n\n Game 1\n A : 0                 B : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n      Wins 1 point\n",
        encoding="utf-8",
    )
    result = run("stats", "--by", "match", "--level", "expert", long)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert result.output.count("not judged: a match longer than the match equity table's 64 points") == 2


@pytest.mark.parametrize(
    "args",
    [
        ("--by", "match", "--level", "expert", "--no-luck"),
        ("--by", "match", "--level", "expert", "--plot", "x.png"),
        ("--met", "x.xml"),
        ("--ply", "1"),
    ],
)
def test_options_that_do_not_go_with_by_are_usage_errors(args: tuple[str, ...]) -> None:
    result = run("stats", *args, STATS / "match-3p-31.mat")
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "do(es) not go with --by" in result.output


def test_the_records_own_analysis_beside_ours(corpus_dir: Path) -> None:
    """An .xg file's own analysis (XG's totals) is printed beside ours: a
    line after our checker and cube error totals and after our luck total,
    named after XG, in English and Turkish, within 80 columns. The cube line
    is what XG's own equities give by hand (see test_xg.py: 0.3767 and
    0.2842). XG's .mat export of the same match has no such lines."""
    from tavlakit.i18n import set_language

    path = corpus_dir / "xg" / "test.xg"
    frame = statistics_frame(tk.read_match(path), level="expert")
    rows = frame[frame["scope"] == "match"].sort_values("side")
    labels = {
        "en": ("XG's error total EMG", "Error total EMG (MWC)", "XG's luck total EMG", "Luck total EMG (MWC)"),
        "tr": (
            "XG analizinde toplam hata EMG",
            "Toplam hata EMG (MKŞ)",
            "XG analizinde toplam şans EMG",
            "Toplam şans EMG (MKŞ)",
        ),
    }
    for lang, (error, our_error, luck, our_luck) in labels.items():
        try:
            result = run("--lang", lang, "stats", "--by", "match", "--level", "expert", path)
        finally:
            set_language("en")
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        errors = [k for k, row in enumerate(lines) if row.startswith(error + " ")]
        [lucks] = [k for k, row in enumerate(lines) if row.startswith(luck + " ")]
        assert len(errors) == 2 and all(lines[k - 1].startswith(our_error + " ") for k in errors)
        assert lines[lucks - 1].startswith(our_luck + " ")
        checker, cube = (lines[k][len(error) :].split() for k in errors)
        assert checker == [f"{v:.3f}" for v in rows["recorded_checker_error"]]
        assert cube == ["0.377", "0.284"]
        assert lines[lucks][len(luck) :].split() == [f"{v:.3f}" for v in rows["recorded_luck"]]
        assert max(len(row) for row in lines) <= 80
    plain = run("stats", "--by", "match", "--level", "expert", corpus_dir / "xg" / "test.mat")
    assert plain.exit_code == 0, plain.output
    assert "XG's error" not in plain.output and "XG's luck" not in plain.output


def test_luck_ratings_in_turkish_where_printed_and_gnubgs_words_as_data() -> None:
    record = STATS / "match-3p-31.mat"  # Alpha's luck is average, Bravo's good (gnubg's words)
    for args in (("--by", "match", "--level", "expert"), ("--by", "player")):
        shown = run("stats", *args, "--lang", "tr", record)
        assert shown.exit_code == 0 and "Ortalama zarlar" in shown.output and "Zarlar iyi, dostum!" in shown.output
        assert "Average dice" not in shown.output
    data = run("stats", "--json", "--lang", "tr", record)
    ratings = {json.loads(line)["luck_rating"] for line in data.output.splitlines() if line.startswith("{")}
    assert ratings == {"Average dice", "Good dice, man!"}


def test_a_figure_the_record_does_not_carry_is_missing(corpus_dir: Path) -> None:
    """gnubg 1.08 saved this match with its cube analysis and the plays it
    weighed, but no luck: each roll's ``LU[-inf]`` (its game statistics say
    ``-inf`` too). Before: 'gnubg's luck total EMG -inf'. Now the luck is
    missing (JSON null, no line); the checker and cube errors gnubg's SGF
    does carry (every play made was the one gnubg put first: 0, as gnubg
    1.07's own ``show statistics match`` of the file says) stay."""
    path = corpus_dir / "gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2305.sgf"
    assert "LU[-inf]" in path.read_text(encoding="utf-8")
    result = run("stats", "--by", "match", "--level", "expert", path)
    assert result.exit_code == 0, result.output
    assert "inf" not in result.output and "nan" not in result.output.lower()
    assert "gnubg's luck total" not in result.output
    assert line(result.output, "gnubg's error total EMG") == ["0.000", "0.000"]
    rows = [
        json.loads(row)
        for row in run("stats", "--by", "match", "--level", "expert", "--json", path).output.splitlines()
    ]
    assert rows and all(row["recorded_luck"] is None for row in rows)
    assert all(row["recorded_checker_error"] == 0.0 for row in rows)
    plays = tk.analysis.analyse(tk.read_match(path), luck=False).plays
    assert plays["recorded_luck"].isna().all()
