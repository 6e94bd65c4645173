"""Summary tables of an :class:`~tavlakit.analysis.frames.Analysis`: one row per player, or per file and player."""

from __future__ import annotations

import pandas as pd

from .dice import fairness
from .frames import Analysis
from .outcomes import mars_rates

PLAYER_COLUMNS = [
    "player",
    "games",
    "wins",
    "mars_for",
    "mars_against",
    "mars_rate_for",
    "low_for",
    "high_for",
    "rolls",
    "luck",
    "luck_per_roll",
    "luck_rating",
    "net_luck",
    "luck_adjusted",
    "error",
    "error_rate",
    "recorded_error",
    "faces_p",
    "rolls_p",
    "doubles_rate",
]
#: The columns printed as a table (CSV and JSON carry them all; ``recorded_error``
#: only when a record holds its own analysis).
SHOWN = [
    "match",
    "player",
    "games",
    "wins",
    "mars_for",
    "mars_against",
    "luck_per_roll",
    "luck_rating",
    "net_luck",
    "error_rate",
    "recorded_error",
    "faces_p",
    "doubles_rate",
    "plies",
    "problems",
]
FILE_COLUMNS = [
    "match",
    "player",
    "games",
    "wins",
    "mars_for",
    "mars_against",
    "rolls",
    "luck",
    "luck_per_roll",
    "luck_rating",
    "net_luck",
    "luck_adjusted",
    "error",
    "error_rate",
    "recorded_error",
    "plies",
    "problems",
    "faces_p",
    "rolls_p",
    "doubles_rate",
    "path",
]


def by_player(result: Analysis) -> pd.DataFrame:
    """One row per player name over every file."""
    players = result.players
    overall = players[players["scope"] == "overall"].drop(columns=["scope", "match", "side"])
    mars = mars_rates(result.games).drop(columns=["wins", "mars_for", "losses", "mars_against"])
    dice = fairness(result.plays, by="name").rename(columns={"name": "player", "rolls": "dice_rolls"})
    out = overall.merge(mars, on="player", how="left").merge(dice, on="player", how="left")
    return out[[c for c in PLAYER_COLUMNS if c in out.columns]]


def by_file(result: Analysis) -> pd.DataFrame:
    """One row per file (match) and player: the player's games, wins, mars,
    luck and errors in that file, and the file's plies, problems and dice
    fairness (both players' dice) on each of its two rows."""
    players = result.players
    per_match = players[players["scope"] == "match"].drop(columns=["scope"])
    files = result.games.groupby("path", sort=False).agg(plies=("plies", "sum"), problems=("problems", "sum"))
    dice = fairness(result.plays, by="path").set_index("path")[["faces_p", "rolls_p", "doubles_rate"]]
    out = per_match.merge(files.join(dice), left_on="path", right_index=True, how="left")
    return out[[c for c in FILE_COLUMNS if c in out.columns]].reset_index(drop=True)


__all__ = ["FILE_COLUMNS", "PLAYER_COLUMNS", "SHOWN", "by_file", "by_player"]
