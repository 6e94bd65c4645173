"""Outcomes of games: mars rates with Wilson intervals, first-roll advantage.

>>> low, high = wilson(8, 10)
>>> round(low, 3), round(high, 3)
(0.49, 0.943)
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (0, 1) for n = 0.
    The ends are exact at 0 and n successes (not 5.55e-17 for 0).

    >>> wilson(0, 12)[0], wilson(7, 7)[1]
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def _rate(k: int, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"rate": k / n if n else math.nan, "low": low, "high": high}


def mars_rates(games: pd.DataFrame, kind: str = "result_kind") -> pd.DataFrame:
    """Per player name and overall: games won and lost, how many by mars (or
    backgammon), and the rates with 95% Wilson intervals. ``kind`` picks the
    column judging the game: ``result_kind`` (the rules in force),
    ``kind_none_borne_off`` or ``kind_outside_home``. Games without a known
    kind are left out."""
    decided = games[games["winner"].isin([0, 1]) & games[kind].notna()]
    marsy = decided[kind].isin(["mars", "backgammon"])
    winner = decided["winner"].to_numpy(dtype="int64")
    first, second = decided["player0"].to_numpy(dtype=object), decided["player1"].to_numpy(dtype=object)
    won_by, lost_by = np.where(winner == 0, first, second), np.where(winner == 0, second, first)
    counts: dict[str, Counter[object]] = {
        "wins": Counter(won_by),
        "mars_for": Counter(won_by[marsy.to_numpy(dtype=bool)]),
        "losses": Counter(lost_by),
        "mars_against": Counter(lost_by[marsy.to_numpy(dtype=bool)]),
    }
    rows = []
    for name in pd.unique(pd.concat([decided["player0"], decided["player1"]])):
        got = {k: c[name] for k, c in counts.items()}
        rows.append(_mars_row(str(name), got["wins"], got["mars_for"], got["losses"], got["mars_against"]))
    total, mars = len(decided), int(marsy.sum())
    rows.append(_mars_row("overall", total, mars, total, mars))
    return pd.DataFrame(rows)


def _mars_row(player: str, wins: int, mars_for: int, losses: int, mars_against: int) -> dict[str, object]:
    row: dict[str, object] = {
        "player": player,
        "wins": wins,
        "mars_for": mars_for,
        "losses": losses,
        "mars_against": mars_against,
    }
    for prefix, (k, n) in (("for", (mars_for, wins)), ("against", (mars_against, losses))):
        for key, value in _rate(k, n).items():
            row[f"{key}_{prefix}" if key != "rate" else f"mars_rate_{prefix}"] = value
    return row


def first_roll_advantage(games: pd.DataFrame) -> dict[str, float]:
    """How often the player who moved first won, with a 95% Wilson interval."""
    decided = games[games["winner"].isin([0, 1]) & games["starter"].isin([0, 1])]
    n = len(decided)
    k = int((decided["winner"] == decided["starter"]).sum())
    return {"games": n, "starter_wins": k, **_rate(k, n)}


__all__ = ["first_roll_advantage", "mars_rates", "wilson"]
