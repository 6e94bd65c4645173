"""Summary tables of an :class:`Analysis`: one row per player, or per file."""

from __future__ import annotations

import pandas as pd

from .dice import fairness
from .frames import Analysis
from .outcomes import mars_rates

PLAYER_COLUMNS = ["player", "games", "wins", "mars_for", "mars_against", "mars_rate_for", "low_for", "high_for",
                  "rolls", "luck", "luck_per_roll", "luck_rating", "net_luck", "luck_adjusted", "error",
                  "error_rate", "faces_p", "rolls_p", "doubles_rate"]
#: The columns printed as a table (CSV and JSON carry them all).
SHOWN = ["player", "match", "games", "wins", "mars_for", "mars_against", "mars", "luck_per_roll", "luck_rating",
         "net_luck", "luck0", "luck1", "error_rate", "faces_p", "doubles_rate", "problems"]
FILE_COLUMNS = ["match", "games", "plies", "mars", "problems", "rolls", "luck0", "luck1", "faces_p", "rolls_p",
                "doubles_rate"]


def by_player(result: Analysis) -> pd.DataFrame:
    """One row per player name over every file."""
    players = result.players
    overall = players[players["scope"] == "overall"].drop(columns=["scope", "match", "side"])
    mars = mars_rates(result.games).drop(columns=["wins", "mars_for", "losses", "mars_against"])
    dice = fairness(result.plays, by="name").rename(columns={"name": "player", "rolls": "dice_rolls"})
    out = overall.merge(mars, on="player", how="left").merge(dice, on="player", how="left")
    return out[[c for c in PLAYER_COLUMNS if c in out.columns]]


def by_file(result: Analysis) -> pd.DataFrame:
    """One row per file (match)."""
    games, plays = result.games, result.plays
    rolls = plays[plays["kind"] == "roll"]
    rows = []
    dice = fairness(plays, by="match").set_index("match")
    for mid, part in games.groupby("match", sort=False):
        mine = rolls[rolls["match"] == mid]
        row = {
            "match": mid, "games": len(part), "plies": int(part["plies"].sum()),
            "mars": int(part["result_kind"].isin(["mars", "backgammon"]).sum()),
            "problems": int(part["problems"].sum()), "rolls": len(mine),
            "luck0": float(mine["luck"][mine["player"] == 0].sum(min_count=1)),
            "luck1": float(mine["luck"][mine["player"] == 1].sum(min_count=1)),
        }
        if mid in dice.index:
            row.update(dice.loc[mid, ["faces_p", "rolls_p", "doubles_rate"]].to_dict())
        rows.append(row)
    out = pd.DataFrame(rows)
    return out[[c for c in FILE_COLUMNS if c in out.columns]]


__all__ = ["FILE_COLUMNS", "PLAYER_COLUMNS", "SHOWN", "by_file", "by_player"]
