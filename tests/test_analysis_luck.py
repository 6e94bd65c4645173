"""Dice luck against GNU Backgammon's own numbers (tests/data/luck/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from gnubg_jobs import run_gnubg

from tavlakit import Position, Rules
from tavlakit.analysis.luck import DECIMALS, luck_mark, luck_rating, opening_luck, play_error, roll_luck
from tavlakit.evaluation.equity import ROLLS, WEIGHTS, Evaluator, equity

DATA = Path(__file__).parent / "data" / "luck"
BACKGAMMON = Rules.preset("backgammon")


def our_luck(ev: Evaluator, game: list[dict]) -> list[float]:
    """Luck of each roll of a gnubg game (backgammon rules: opening dice)."""
    out = []
    for i, roll in enumerate(game):
        pos = Position.from_position_id(roll["position_id"])
        dice = (roll["dice"][0], roll["dice"][1])
        first = i == 0 and dice[0] != dice[1]
        out.append(opening_luck(ev, pos, dice) if first else roll_luck(ev, pos, dice))
    return out


@pytest.fixture(scope="module")
def reference() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ev = Evaluator(BACKGAMMON)
    ours, theirs, analysed = [], [], []
    for path in sorted(DATA.glob("session-*.json")):
        for game in json.loads(path.read_text()):
            ours += our_luck(ev, game)
            theirs += [r["luck"] for r in game]
            analysed += [r["analysis_luck"] for r in game]
    return np.array(ours), np.array(theirs), np.array(analysed)


def test_luck_matches_gnubg(reference: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    ours, theirs, _ = reference
    assert len(ours) > 1500
    close = np.abs(ours - theirs) < 0.005
    assert close.mean() >= 0.95, f"only {close.mean():.1%} of rolls within 0.005 of gnubg"
    assert np.abs(ours - theirs).max() < 0.05  # the two nets differ slightly, never grossly
    assert np.corrcoef(ours, theirs)[0, 1] > 0.999


def test_luck_follows_gnubg_analysis(reference: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    """gnubg's ``analyse match`` luck is cubeful; on cube-off sessions it
    still tracks the cubeless definition closely."""
    ours, _, analysed = reference
    assert np.corrcoef(ours, analysed)[0, 1] > 0.95


def test_plays_frame_of_gnubg_sessions() -> None:
    """End to end: gnubg's exported sessions read, replayed and analysed give
    gnubg's positions, pips and luck roll by roll (opening throws included)."""
    import tavlakit as tk
    from tavlakit.analysis import plays_frame

    ours, theirs = [], []
    for path in sorted(DATA.glob("session-*.mat"))[:1]:  # one session keeps it quick
        reference = json.loads(path.with_suffix(".json").read_text())
        plays = plays_frame(tk.read_match(path))
        rolls = plays[plays["kind"] == "roll"]
        assert rolls["game"].nunique() == len(reference)
        for (_, mine), game in zip(rolls.groupby("game"), reference):
            assert mine["position_id"].tolist() == [r["position_id"] for r in game]
            assert mine[["pips_before", "opp_pips_before"]].values.tolist() == [r["pips"] for r in game]
            ours += mine["luck"].tolist()
            theirs += [r["luck"] for r in game]
    assert len(ours) > 600
    assert (np.abs(np.array(ours) - np.array(theirs)) < 0.005).mean() >= 0.95


def test_pips_match_gnubg_boards() -> None:
    for path in sorted(DATA.glob("session-*.json")):
        for game in json.loads(path.read_text()):
            for roll in game:
                assert list(Position.from_position_id(roll["position_id"]).pips()) == roll["pips"]


def test_live_gnubg(gnubg_bin: Path, tmp_path: Path) -> None:
    """Regenerate a few rolls with Debian's gnubg now and compare."""
    run_gnubg(
        gnubg_bin,
        DATA / "make_luck.py",
        tmp_path,
        timeout=120,
        check=True,
        LUCK_SESSIONS="7:1",
        LUCK_MAX_ROLLS="10",
        LUCK_OUT=str(tmp_path),
    )
    game = json.loads((tmp_path / "session-7.json").read_text())[0]
    assert len(game) == 10
    ours = our_luck(Evaluator(BACKGAMMON), game)
    diffs = [abs(a - r["luck"]) for a, r in zip(ours, game)]
    assert sum(d < 0.005 for d in diffs) >= 9, diffs


def test_both_move_generators_agree() -> None:
    """gnubg-nn's plays (fast path) and the engine's give the same best values."""
    net = Evaluator(BACKGAMMON)
    engine = Evaluator(BACKGAMMON)
    engine.net_moves = False
    game = json.loads((DATA / "session-101.json").read_text())[0]
    for roll in game[::7]:
        pos = Position.from_position_id(roll["position_id"])
        a, b = net.best_values(pos), engine.best_values(pos)
        assert all(abs(a[r] - b[r]) < 1e-6 for r in ROLLS), roll["position_id"]


def test_average_luck_is_zero_and_opening_is_symmetric() -> None:
    for rules in (BACKGAMMON, Rules.preset("tavla")):
        ev = Evaluator(rules)
        pos = Position.from_position_id("4HPwATDgc/ABMA")
        # the 36-throw average comes from gnubg-nn's 1-ply (float32 sums) under backgammon rules
        assert abs(sum(WEIGHTS[r] * roll_luck(ev, pos, r) for r in ROLLS)) < 1e-5
    ev = Evaluator(BACKGAMMON)
    start = Position.initial()
    # in the symmetric start, gnubg's opening luck is the equity after the best play (to DECIMALS places)
    assert opening_luck(ev, start, (3, 1)) == round(ev.best(start, (3, 1)), DECIMALS)
    with pytest.raises(ValueError, match="two different dice"):
        opening_luck(ev, start, (4, 4))


def test_finished_games_scored_exactly_by_the_rules() -> None:
    # the mover bears off its last two checkers with any roll; the opponent has
    # borne off nothing but has every checker home: a mars only when the mars
    # needs "none borne off"
    pos = Position.from_points({1: 2}, {1: 15})
    assert pos.off() == (13, 0)
    for name, value in (("tavla", 2.0), ("tavla-outside-home", 1.0), ("backgammon", 2.0)):
        ev = Evaluator(Rules.preset(name))
        assert ev.best(pos, (2, 1)) == value
        assert roll_luck(ev, pos, (6, 5)) == 0.0
    # a checker left in the winner's home: a backgammon only under backgammon rules
    pos = Position.from_points({1: 1}, {1: 14, 19: 1})
    assert Evaluator(BACKGAMMON).best(pos, (1, 1)) == 3.0
    assert Evaluator(Rules.preset("tavla")).best(pos, (1, 1)) == 2.0


def test_equity_units() -> None:
    probs = (0.6, 0.2, 0.05, 0.1, 0.01)
    assert equity(probs, Rules.preset("tavla")) == pytest.approx(0.2 + 0.2 - 0.1)
    assert equity(probs, BACKGAMMON) == pytest.approx(0.2 + 0.2 - 0.1 + 0.05 - 0.01)


def test_play_error() -> None:
    ev = Evaluator(BACKGAMMON)
    start = Position.initial()
    plays = start.legal_plays((6, 5), BACKGAMMON)
    errors = sorted(play_error(ev, start, (6, 5), start.apply(p)) for p in plays)
    assert errors[0] == pytest.approx(0.0, abs=1e-9)
    assert errors[-1] > 0.1  # some 6-5 plays are big mistakes
    lover = next(p for p in plays if p.notation() == "24/13")
    assert play_error(ev, start, (6, 5), start.apply(lover)) == pytest.approx(0.0, abs=1e-9)


def test_marks_and_ratings_use_gnubg_levels() -> None:
    assert [luck_mark(v) for v in (0.61, 0.6, 0.31, 0.3, 0.0, -0.3, -0.31, -0.6, -0.61)] == [
        "very lucky",
        "lucky",
        "lucky",
        None,
        None,
        None,
        "unlucky",
        "unlucky",
        "very unlucky",
    ]
    assert [luck_rating(v) for v in (0.07, 0.04, 0.0, -0.04, -0.07)] == [
        "Go to Las Vegas",
        "Good dice, man!",
        "Average dice",
        "Bad dice, man!",
        "Go to bed",
    ]
