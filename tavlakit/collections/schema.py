"""The columns of the analysis frames and their types (no pandas here).

:mod:`tavlakit.analysis.frames` builds its frames with exactly these
columns. The store keys each file's partitions by :func:`schema_version`
(:mod:`tavlakit.collections.manifest`), so a column added or retyped here analyses the
files again instead of reusing partitions that lack it.

>>> len(schema_version())
16
"""

from __future__ import annotations

import hashlib
import json

from ..replay.fingerprint import VERSION as FINGERPRINT

#: Column types of :func:`~tavlakit.analysis.frames.plays_frame` (fixed, so batches concatenate and
#: Parquet files written in parts share one schema).
PLAY_COLUMNS: dict[str, str] = {
    "match": "string",
    "path": "string",
    "game": "Int64",
    "turn": "Int64",
    "number": "Int64",
    "player": "Int64",
    "name": "string",
    "kind": "string",
    "opening": "boolean",
    "opening_dice": "boolean",
    "dice": "string",
    "die1": "Int64",
    "die2": "Int64",
    "roll_name": "string",  # the Tavla name of the roll, "şeş beş" (tavlakit.engine.dicenames)
    "play": "string",
    "dance": "boolean",
    "cube": "Int64",
    "cube_action": "string",
    "pips_before": "Int64",
    "opp_pips_before": "Int64",
    "pips_after": "Int64",
    "opp_pips_after": "Int64",
    "hits": "Int64",
    "entered": "Int64",
    "borne_off": "Int64",
    "home_points": "Int64",
    "closed_board": "boolean",
    "position_id": "string",
    "legal": "boolean",
    "choices": "Int64",
    "luck": "float64",
    "luck_mark": "string",
    "error": "float64",
    # the analysis the record holds (XG's), for rolls: equity the play lost (>= 0), the roll's luck
    "recorded_error": "float64",
    "recorded_luck": "float64",
}
#: Column types of :func:`~tavlakit.analysis.frames.games_frame`.
GAME_COLUMNS: dict[str, str] = {
    "match": "string",
    "path": "string",
    "game": "Int64",
    "player0": "string",
    "player1": "string",
    # each player's rating, where the record gives one (FIBS's name,1808; gnubg's WR/BR and Elo tags)
    "rating0": "float64",
    "rating1": "float64",
    "rules": "string",
    # a money session's Jacoby rule and where it came from: record, results or gnubg (its default)
    "jacoby": "boolean",
    "jacoby_from": "string",
    "length": "Int64",
    "score0": "Int64",
    "score1": "Int64",
    "crawford": "boolean",
    "starter": "Int64",
    "opening_roll": "string",
    "winner": "Int64",
    "winner_name": "string",
    "points": "Int64",
    "resigned": "boolean",
    "dropped": "boolean",
    "cube": "Int64",
    "result_kind": "string",
    "kind_none_borne_off": "string",
    "kind_outside_home": "string",
    "turns": "Int64",
    "plies": "Int64",
    "problems": "Int64",
}


def schema_version() -> str:
    """A digest of the columns' names, order and types (computed when
    asked, from the tables as they are), and of the version of the match
    fingerprint the store keeps per file
    (:data:`~tavlakit.replay.fingerprint.VERSION`)."""
    text = json.dumps([list(PLAY_COLUMNS.items()), list(GAME_COLUMNS.items()), FINGERPRINT])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


__all__ = ["GAME_COLUMNS", "PLAY_COLUMNS", "schema_version"]
