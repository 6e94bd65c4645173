"""Frames, pips, outcomes and dice fairness against independent references:
gnubg's own boards, textbook values and hand-counted cases."""

from __future__ import annotations

import json
import math
from pathlib import Path

import gnubg_nn
import pandas as pd
import pytest

import tavlakit as tk
from tavlakit._data import data_dir
from tavlakit.analysis import analyse
from tavlakit.analysis.columns import Builder, column_values
from tavlakit.analysis.dice import chi2_sf, chi_square, face_counts, fairness, roll_counts
from tavlakit.analysis.frames import PLAY_COLUMNS, Analysis, games_frame, players_frame, plays_frame, to_parquet
from tavlakit.analysis.outcomes import first_roll_advantage, mars_rates, wilson
from tavlakit.analysis.pips import pip_race

GNUBG = Path(__file__).parent / "data" / "gnubg"
SELFPLAY = sorted(GNUBG.glob("selfplay-*.mat"))
TAVLA = data_dir("samples") / "tavla-t000.mat"


def gnubg_pips(position_id: str) -> list[int]:
    """Pips (on roll, opponent) from gnubg's own decoding of its Position ID."""
    opponent, mover = gnubg_nn.board_from_position_id(position_id)
    return [sum((i + 1) * n for i, n in enumerate(side)) for side in (mover, opponent)]


@pytest.fixture(scope="module")
def selfplay() -> Analysis:
    return analyse(tk.read_matches(SELFPLAY), luck=False)


def test_pips_agree_with_gnubg_for_every_position(selfplay: Analysis) -> None:
    plays = selfplay.plays
    checked = 0
    for path in SELFPLAY:
        record = json.loads(path.with_suffix(".json").read_text())
        rows = plays[(plays["path"] == str(path)) & (plays["kind"] == "roll")]
        for number, game in enumerate(record["games"], start=1):
            moves = [m for m in game["game"] if m["action"] == "move"]
            ours = rows[rows["game"] == number]
            assert len(ours) == len(moves), (path.name, number)
            for (_, row), move in zip(ours.iterrows(), moves):
                assert row["position_id"] == move["board"]
                assert [row["pips_before"], row["opp_pips_before"]] == gnubg_pips(move["board"])
                checked += 1
    assert checked > 500


def test_games_and_players_follow_the_record(selfplay: Analysis) -> None:
    games = selfplay.games
    for path in SELFPLAY:
        record = json.loads(path.with_suffix(".json").read_text())
        mine = games[games["path"] == str(path)]
        names = record["match-info"]
        assert len(mine) == len(record["games"])
        for (_, row), game in zip(mine.iterrows(), record["games"]):
            assert row["points"] == game["info"]["points-won"]
            assert row["winner"] == (0 if game["info"]["winner"] == "X" else 1)
            assert (row["score0"], row["score1"]) == (game["info"]["score-X"], game["info"]["score-O"])
        assert names["match-length"] == mine["length"].iloc[0]
    players = players_frame(selfplay)
    per_match = players[players["scope"] == "match"]
    assert (per_match.groupby("match")["result"].sum() == 0).all()
    assert per_match["wins"].sum() == games["winner"].notna().sum()


def test_tavla_results_under_both_mars_definitions() -> None:
    games = games_frame(tk.read_match(TAVLA))
    assert (games["rules"] == "tavla").all()
    # Tavla: a mars is worth 2, nothing is worth 3
    assert (games["points"] == games["result_kind"].map({"single": 1, "mars": 2})).all()
    finished = games[games["kind_none_borne_off"].notna()]
    order = {"single": 0, "mars": 1}
    # an outside-home mars is always a none-borne-off mars, never the reverse order
    assert (finished["kind_outside_home"].map(order) <= finished["kind_none_borne_off"].map(order)).all()
    assert games["starter"].isin([0, 1]).all()
    assert games["plies"].sum() > 100


def test_streaming_reader_and_parquet(tmp_path: Path) -> None:
    paths = SELFPLAY[:2]
    listed = plays_frame([tk.read_match(p) for p in paths], luck=False)
    streamed = plays_frame(tk.read_matches(paths), luck=False)
    pd.testing.assert_frame_equal(listed, streamed)
    assert list(listed.columns) == list(PLAY_COLUMNS)
    plays_path, games_path = to_parquet(tk.read_matches(paths), tmp_path, luck=False, batch=1)
    back = pd.read_parquet(plays_path)
    assert len(back) == len(listed)
    assert back["pips_after"].tolist() == listed["pips_after"].tolist()
    assert len(pd.read_parquet(games_path)) == len(games_frame(tk.read_matches(paths)))


def test_frames_built_in_pieces_are_what_pandas_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frame builder (rows made compact in batches, Arrow pieces) against
    ``pd.array`` of every column's values at once: same values, missing
    values and dtypes, over many small batches and a piece with no rows."""
    from tavlakit.analysis import frames

    monkeypatch.setattr(Builder, "BATCH", 7)
    pieces = [rows for rows, _games, _own in frames.rows(tk.read_matches(SELFPLAY[:2]), luck=False)]
    pieces.insert(1, [])
    pieces.append([{"game": None, "luck": float("nan"), "legal": None, "play": None}, {"luck": 0.25, "dance": True}])
    builder = Builder(PLAY_COLUMNS)
    for rows in pieces:
        builder.add(column_values(rows, PLAY_COLUMNS))
    built = builder.frame()
    rows = [row for piece in pieces for row in piece]
    expected = pd.DataFrame(
        {name: pd.array([row.get(name) for row in rows], dtype=kind) for name, kind in PLAY_COLUMNS.items()}
    )
    assert len(built) == len(rows) > 100
    pd.testing.assert_frame_equal(built, expected, check_exact=True)


def test_turn_facts_by_hand() -> None:
    # 1) 63: 24/18 18/15 then 65: 24/18 18/13; later 31: 6/5 8/5 etc. (selfplay-3p-1 game 1)
    plays = plays_frame(tk.read_match(GNUBG / "selfplay-3p-1.mat"), luck=False)
    rolls = plays[(plays["game"] == 1) & (plays["kind"] == "roll")].reset_index(drop=True)
    first = rolls.iloc[0]
    assert (first["dice"], first["pips_before"], first["pips_after"], first["opp_pips_after"]) == ("63", 167, 158, 167)
    hit = rolls[rolls["play"].str.contains(r"\*", regex=True)]
    assert (hit["hits"] >= 1).all() and len(hit) > 0
    entering = rolls[rolls["play"].str.startswith("bar/")]
    assert (entering["entered"] >= 1).all() and len(entering) > 0
    # "43:" with nothing written while on the bar: a dance
    dances = rolls[rolls["dance"].fillna(False).astype(bool)]
    assert len(dances) > 0 and (dances["pips_before"] == dances["pips_after"]).all()
    # counted by hand from the transcript: player 0 hits on rows 6 and 9, player 1 on
    # rows 4, 5, 6, 9 and 11; player 0 dances on row 10 and rows 12-19
    assert rolls.groupby("player")["hits"].sum().tolist() == [2, 5]
    assert rolls.groupby("player")["dance"].sum().tolist() == [9, 0]
    off = rolls[rolls["play"].str.contains("off")]
    assert (off["borne_off"] >= 1).all()
    race = pip_race(plays, game=1)
    assert len(race) == len(rolls)
    # player 0 resigned a gammon with 108 pips left; player 1 was nearly off
    assert race["player0"].iloc[-1] == 108 and race["player1"].iloc[-1] < 10


def test_chi_square_textbook_values() -> None:
    assert chi2_sf(11.0705, 5) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(9.2364, 5) == pytest.approx(0.10, abs=1e-5)
    assert chi2_sf(31.4104, 20) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(3.8415, 1) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1))
    assert chi2_sf(0.0, 5) == 1.0
    assert chi_square([10, 30], [20, 20]) == pytest.approx((10.0, 1, chi2_sf(10.0, 1)))


def _plays(dice: list[tuple[int, int]], opening_dice: bool = False) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "kind": "roll",
            "name": "a",
            "die1": [d[0] for d in dice],
            "die2": [d[1] for d in dice],
            "opening_dice": [opening_dice] * len(dice),
        }
    )


def test_dice_fairness_hand_counted() -> None:
    perfect = _plays([(a, b) for a in range(1, 7) for b in range(1, 7)])
    row = fairness(perfect, by=None).iloc[0]
    assert row["rolls"] == 36 and row["faces_chi2"] == 0 and row["rolls_chi2"] == 0
    assert row["faces_p"] == 1.0 and row["doubles"] == 6 and row["doubles_rate"] == pytest.approx(1 / 6)
    sixes = _plays([(6, 6)] * 6)
    assert face_counts(sixes).tolist() == [0, 0, 0, 0, 0, 12]
    assert roll_counts(sixes)["66"] == 6 and roll_counts(sixes).sum() == 6
    row = fairness(sixes, by=None).iloc[0]
    # faces: expected 2 each; (12-2)^2/2 + 5 * (0-2)^2/2 = 60
    assert row["faces_chi2"] == pytest.approx(60.0)
    # rolls: 66 expected 6/36, others 12/36 or 6/36: sum (o-e)^2/e = n * (1/p - 1) for the one hit roll
    assert row["rolls_chi2"] == pytest.approx(6 * 36 - 6)
    assert row["faces_p"] < 1e-10 and row["doubles"] == 6
    # the opening throw under use-opening-dice is never a double: left out
    assert fairness(_plays([(6, 5)] * 4, opening_dice=True), by=None).iloc[0]["rolls"] == 0


def test_wilson_textbook_values() -> None:
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mars_rates_and_first_roll_hand_made() -> None:
    games = pd.DataFrame(
        {
            "player0": ["A", "A", "A", "B"],
            "player1": ["B", "B", "B", "A"],
            "winner": [0, 0, 1, 0],
            "starter": [0, 1, 1, 1],
            "result_kind": ["mars", "single", "backgammon", None],
        }
    )
    rates = mars_rates(games).set_index("player")
    # decided with a kind: A wins 2 (one mars), B wins 1 (a backgammon counts as mars)
    assert rates.loc["A", ["wins", "mars_for", "losses", "mars_against"]].tolist() == [2, 1, 1, 1]
    assert rates.loc["B", "mars_rate_for"] == 1.0
    assert rates.loc["overall", "mars_rate_for"] == pytest.approx(2 / 3)
    assert (rates.loc["A", "low_for"], rates.loc["A", "high_for"]) == pytest.approx(wilson(1, 2))
    advantage = first_roll_advantage(games)
    assert (advantage["games"], advantage["starter_wins"]) == (4, 2)


def test_opening_luck_follows_the_rules() -> None:
    """Under Tavla's re-roll the first roll is an ordinary roll (36-throw
    average); under backgammon's opening dice gnubg's 30-throw average."""
    from tavlakit.analysis.luck import opening_luck, roll_luck
    from tavlakit.evaluation.equity import Evaluator

    start = tk.Position.initial()
    for path, rules, luck in ((TAVLA, "tavla", roll_luck), (GNUBG / "selfplay-3p-7.mat", "backgammon", opening_luck)):
        plays = plays_frame(tk.read_match(path))
        ev = Evaluator(tk.Rules.preset(rules))
        firsts = plays[plays["opening"].fillna(False).astype(bool)]
        assert len(firsts) == plays["game"].nunique()
        for _, row in firsts.iterrows():
            dice = (int(row["die1"]), int(row["die2"]))
            assert row["luck"] == pytest.approx(luck(ev, start, dice), abs=1e-9)
            assert bool(row["opening_dice"]) == (rules == "backgammon")
