"""The generated Tavla matches of the shared corpus against their true results.

Each ``tavla/tNNN.mat`` comes with a JSON written by the generator that
played it: the winner of every game, the points written and the value of
the final board under each preset, and whether the first roll was a double.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.replay.walker import replay, validate


def _cases(corpus: Path) -> list[tuple[Path, dict]]:
    out = []
    for mat in sorted((corpus / "tavla").glob("t*.mat")):
        truth = json.loads(mat.with_suffix(".json").read_text(encoding="utf-8"))
        out.append((mat, truth))
    return out


@pytest.fixture(scope="module")
def cases(corpus_dir: Path) -> list[tuple[Path, dict]]:
    found = _cases(corpus_dir)
    assert len(found) >= 5
    return found


def test_tags_name_tavla_rules(cases) -> None:
    for mat, _ in cases:
        assert tk.read_match(mat).rules == tk.Rules.preset("tavla")


def test_clean_under_tavla_rules(cases) -> None:
    for mat, truth in cases:
        match = tk.read_match(mat)
        report = validate(match)
        assert report.errors == [], (mat.name, report.errors[:3])
        assert report.games == len(truth["games"])
        assert list(match.players) == truth["players"]


@pytest.mark.parametrize("preset", ["tavla", "tavla-outside-home", "backgammon"])
def test_game_values_per_preset(cases, preset: str) -> None:
    """The board's result kind under each preset gives the true game value."""
    rules = tk.Rules.preset(preset)
    checked = 0
    for mat, truth in cases:
        match = tk.read_match(mat)
        for replayed, game in zip(replay(match, rules), truth["games"]):
            winner = match.players[replayed.game.result.winner]
            assert winner == game["winner"]
            assert replayed.result_kind is not None, (mat.name, game["game"])
            assert rules.points(replayed.result_kind, replayed.cube) == game["values"][preset]
            checked += 1
    assert checked >= 20


def test_outside_home_mars_differs_somewhere(cases) -> None:
    """The two mars definitions really disagree on some of these games."""
    differ = [
        g for _, truth in cases for g in truth["games"] if g["values"]["tavla"] != g["values"]["tavla-outside-home"]
    ]
    assert differ


def test_opening_doubles_flagged_only_under_backgammon(cases) -> None:
    """Tavla's reroll opening allows a double first roll; the international
    opening (play the two opening dice) never does."""
    bg = tk.Rules.preset("backgammon")
    for mat, truth in cases:
        match = tk.read_match(mat)
        flagged = {p.game for p in validate(match, bg).errors if p.code == "opening-double"}
        expected = {g["game"] for g in truth["games"] if g["opening_double"]}
        assert flagged == expected, mat.name


def test_scores_follow_results(cases) -> None:
    for mat, truth in cases:
        match = tk.read_match(mat)
        for game, true_game in zip(match.games, truth["games"]):
            assert list(game.score) == true_game["score_before"]
        last = match.games[-1]
        final = list(last.score)
        final[last.result.winner] += last.result.points
        assert final == truth["final_score"]
