"""The Tavla match equity table: hand-worked cases and a direct simulation."""

from __future__ import annotations

import numpy as np
import pytest

from tavlakit import Rules
from tavlakit.evaluation.tavla_met import game_chances, start_probabilities, tavla_met

TAVLA = Rules.preset("tavla")


def simulate(away: tuple[int, int], chances: tuple[float, float], games: int = 200_000, seed: int = 1) -> float:
    """Play ``games`` matches game by game with the given per-player chances of
    winning single and mars; the share player 0 wins."""
    single, mars = chances
    rng = np.random.default_rng(seed)
    need = np.tile(np.array(away, dtype=np.int64), (games, 1))
    won = np.zeros(games, dtype=bool)
    live = np.ones(games, dtype=bool)
    while live.any():
        n = int(live.sum())
        draw = rng.random(n)
        # outcome: 0 single for player 0, 1 mars for player 0, 2 single for player 1, 3 mars for player 1
        outcome = np.searchsorted(np.cumsum([single, mars, single, mars]), draw, side="right").clip(0, 3)
        who = (outcome >= 2).astype(np.int64)
        points = np.where(outcome % 2 == 0, 1, 2)
        rows = np.flatnonzero(live)
        need[rows, who] -= points
        done = need[rows].min(axis=1) <= 0
        won[rows[done]] = need[rows[done], 0] <= 0
        live[rows[done]] = False
    return float(won.mean())


def test_hand_worked_cases() -> None:
    met = tavla_met(TAVLA)
    single, mars, backgammon = game_chances(TAVLA)
    assert backgammon == 0.0 and single + mars == pytest.approx(0.5)
    assert 0.05 < mars < 0.25  # a mars in roughly one game in 3 to 10
    assert met.away(1, 1) == 0.5
    # 2-away leader against 1-away: a single win leads to 1-away/1-away, a mars wins the match
    assert met.away(2, 1) == pytest.approx(single * 0.5 + mars)
    assert met.away(1, 2) == pytest.approx(1 - met.away(2, 1))
    assert met.away(2, 2) == pytest.approx(0.5)  # every even score is even
    # 3-away against 1-away: win single -> (2, 1), win mars -> (1, 1), lose -> lost
    e31 = single * met.away(2, 1) + mars * 0.5
    assert met.away(3, 1) == pytest.approx(e31)
    # 3-away against 2-away: win single -> (2, 2); win mars -> (1, 2); lose single -> (3, 1); lose mars -> lost
    assert met.away(3, 2) == pytest.approx(single * 0.5 + mars * met.away(1, 2) + single * e31)
    # no Crawford effect without a cube
    assert met.away(4, 1, post_crawford=True) == met.away(4, 1)


@pytest.mark.parametrize("away", [(3, 2), (5, 3), (2, 4)])
def test_recursion_equals_a_direct_simulation(away: tuple[int, int]) -> None:
    # chances of our own, mars frequent: the recursion alone is checked
    probs = (0.5, 0.3, 0.0, 0.3, 0.0)
    met = tavla_met(TAVLA, probs)
    chances = game_chances(TAVLA, probs)[:2]
    assert chances == pytest.approx((0.2, 0.3))
    simulated = simulate(away, chances)
    assert abs(met.away(*away) - simulated) < 4 * np.sqrt(0.25 / 200_000), (met.away(*away), simulated)


def test_net_chances_at_the_start() -> None:
    probs = start_probabilities(TAVLA)
    win = probs[0]
    assert 0.5 < win < 0.6  # the starter, who rolls again, is ahead
    assert probs[2] <= probs[1] and probs[4] <= probs[3]
    # both mars definitions use the net's gammons: the same table
    outside = tavla_met(Rules.preset("tavla-outside-home"))
    assert outside.away(5, 3) == pytest.approx(tavla_met(TAVLA).away(5, 3))
    assert "standing in for mars" in outside.description
