"""What a turn did to the board: pips, hits, entering, bearing off, home points.

>>> from tavlakit import Position, Play
>>> start = Position.initial()
>>> facts = turn_facts(start, start.apply(Play.parse("8/2 6/2")))
>>> facts["pips_after"], facts["home_points"], facts["hits"]
(157, 2, 0)
"""

from __future__ import annotations

import pandas as pd

from ..engine.position import Position


def home_points(pos: Position) -> int:
    """Points of the side to move's home (1-6) holding two or more of its checkers."""
    s = pos.board
    return sum(1 for p in range(1, 7) if s[p] >= 2)


def board_facts(before: Position) -> dict[str, int | bool]:
    """The pips of a board before a turn whose play is not known (seen by the mover)."""
    pips, opp, _left = _counts(before.board)
    return {"pips_before": pips, "opp_pips_before": opp}


def turn_facts(before: Position, after: Position) -> dict[str, int | bool]:
    """Pips and board events of one turn; both positions seen by the mover
    (``after`` before the turn passes)."""
    pips_before, opp_before, off_before = _counts(before.board)
    pips_after, opp_after, off_after = _counts(after.board)
    points = home_points(after)
    return {
        "pips_before": pips_before,
        "opp_pips_before": opp_before,
        "pips_after": pips_after,
        "opp_pips_after": opp_after,
        "hits": before.board[0] - after.board[0],
        "entered": before.board[25] - after.board[25],
        "borne_off": off_before - off_after,
        "home_points": points,
        "closed_board": points == 6,
    }


def _counts(s: tuple[int, ...]) -> tuple[int, int, int]:
    """Both sides' pips and the mover's checkers on the board, in one pass
    (what ``Position.pips`` and ``Position.off`` give)."""
    mine = theirs = left = 0
    for point, v in enumerate(s):
        if v > 0:
            mine += point * v
            left += v
        elif v < 0:
            theirs += (point - 25) * v
    return mine, theirs, left


def match_rows(rows: pd.DataFrame, match: str | None) -> tuple[pd.DataFrame, str]:
    """The rows of one match of a plays frame, named by its ``path`` or its
    ``match`` label (the first match when ``None``), and its label."""
    if rows.empty:
        raise ValueError("the plays frame has no rolls")
    if match is None:
        match = str(rows["path"].iloc[0])
    mine = rows[rows["path"] == match]
    if mine.empty:
        mine = rows[rows["match"] == match]
        paths = pd.unique(mine["path"])
        if len(paths) > 1:
            raise ValueError(f"{len(paths)} files have the label {match!r}: name one by its path")
    if mine.empty:
        raise ValueError(f"no rolls for match {match!r}")
    return mine, str(mine["match"].iloc[0])


def pip_race(plays: pd.DataFrame, match: str | None = None, game: int | None = None) -> pd.DataFrame:
    """Both players' pip counts after every roll of one game of a
    :func:`~tavlakit.analysis.frames.plays_frame` (the first game by default):
    columns ``ply``, ``player0``, ``player1`` and ``lead`` (player 0's lead
    in the race: player 1's pips minus player 0's); ``attrs`` name the
    match (``match``: its label, ``path``) and game. ``match`` is a label or a path."""
    rows, label = match_rows(plays[plays["kind"] == "roll"], match)
    if game is None:
        game = int(rows["game"].iloc[0])
    rows = rows[rows["game"] == game]
    if rows.empty:
        raise ValueError(f"no rolls for game {game} of match {label!r}")
    mine = rows["pips_after"].to_numpy()
    theirs = rows["opp_pips_after"].to_numpy()
    zero = (rows["player"] == 0).to_numpy()
    race = pd.DataFrame(
        {
            "ply": range(1, len(rows) + 1),
            "player0": pd.array([m if z else t for m, t, z in zip(mine, theirs, zero)], dtype="Int64"),
            "player1": pd.array([t if z else m for m, t, z in zip(mine, theirs, zero)], dtype="Int64"),
        }
    )
    race["lead"] = race["player1"] - race["player0"]
    race.attrs.update(match=label, path=str(rows["path"].iloc[0]), game=game)
    return race


__all__ = ["board_facts", "home_points", "match_rows", "pip_race", "turn_facts"]
