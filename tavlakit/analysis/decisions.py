"""The decisions frame: one row per judged turn (:class:`~tavlakit.analysis.judge.Judged`).

A roll's row has its luck and the play's error; a cube decision's row
(``kind``: ``no double`` before a roll, ``double``, ``take``, ``pass``) the
three equities (EMG, for the doubler) and in MWC (money: points, the cube
counted: ``*_mwc``), gnubg's best action (``best``), the right action of
the side deciding, the error of the one taken (``cube_error_*``, positive)
and its category; ``turn`` is the turn's index in its game (the plays
frame's ``turn``); ``unjudged`` the reason a turn could not be judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypedDict

import pandas as pd

from ..record.match import Match
from .judge import Judged

#: The columns of the decisions frame.
DECISION_COLUMNS = (
    "match",
    "path",
    "game",
    "turn",
    "player",
    "name",
    "kind",
    "luck_emg",
    "luck_mwc",
    "luck_mark",
    "plays",
    "error_emg",
    "error_mwc",
    "mark",
    "no_double",
    "double_take",
    "double_pass",
    "no_double_mwc",
    "double_take_mwc",
    "double_pass_mwc",
    "best",
    "right_action",
    "cube_error_emg",
    "cube_error_mwc",
    "category",
    "close",
    "pr_decision",
    "unjudged",
)


class DecisionRow(TypedDict, total=False):
    """One row of the decisions frame: the identifying columns always, then
    a roll's, a cube decision's or an unjudged turn's (a missing one is NaN)."""

    match: str
    path: str
    game: int
    turn: int
    player: int
    name: str
    kind: str
    luck_emg: float
    luck_mwc: float
    luck_mark: str | None
    plays: int
    error_emg: float
    error_mwc: float
    mark: str | None
    no_double: float
    double_take: float
    double_pass: float
    no_double_mwc: float
    double_take_mwc: float
    double_pass_mwc: float
    best: str
    right_action: str
    cube_error_emg: float
    cube_error_mwc: float
    category: str | None
    close: bool
    pr_decision: bool
    unjudged: str


def decision_rows(match: Match, label: str, path: str, judged: Iterable[Judged]) -> Iterator[DecisionRow]:
    """The rows of ``match``'s judged turns (``label``: its short label in the frame)."""
    for j in judged:
        row = DecisionRow(
            match=label, path=path, game=j.game, turn=j.turn, player=j.player, name=match.players[j.player], kind=j.kind
        )
        if j.unjudged is not None:
            row["unjudged"] = j.unjudged
        elif j.roll is not None:
            roll = j.roll
            row.update(
                DecisionRow(luck_emg=roll.luck_emg, luck_mwc=roll.luck_mwc, luck_mark=roll.luck_mark, plays=roll.plays)
            )
            if roll.moved and roll.error_emg is not None and roll.error_mwc is not None:
                row.update(DecisionRow(error_emg=roll.error_emg, error_mwc=roll.error_mwc, mark=roll.mark))
        elif j.cube is not None:
            c = j.cube
            row.update(
                DecisionRow(
                    no_double=c.no_double,
                    double_take=c.double_take,
                    double_pass=c.double_pass,
                    no_double_mwc=c.no_double_mwc,
                    double_take_mwc=c.double_take_mwc,
                    double_pass_mwc=c.double_pass_mwc,
                    best=c.best,
                    right_action=c.right_action,
                    cube_error_emg=c.cube_error_emg,
                    cube_error_mwc=c.cube_error_mwc,
                    category=c.category,
                    close=c.close,
                    pr_decision=c.pr_decision,
                )
            )
        yield row


def decisions_from_rows(rows: Sequence[DecisionRow], level: str | None = None) -> pd.DataFrame:
    """The decisions frame of decision rows (from one process or many);
    ``level``: the key of the level they were judged at (``attrs["level"]``)."""
    frame = pd.DataFrame(rows, columns=list(DECISION_COLUMNS))
    frame.attrs["level"] = level
    return frame


#: The columns :func:`join_decisions` adds to a plays frame: a roll's, then a cube decision's.
JOINED_ROLL = ("luck_emg", "luck_mwc", "error_emg", "error_mwc", "mark")
JOINED_CUBE = (
    "cube_decision",
    "no_double",
    "double_take",
    "double_pass",
    "best",
    "right_action",
    "cube_error_emg",
    "cube_error_mwc",
    "category",
)
JOINED = JOINED_ROLL + JOINED_CUBE


def join_decisions(plays: pd.DataFrame, decisions: pd.DataFrame) -> pd.DataFrame:
    """The plays frame with the judged values of each turn: a roll's luck
    and play error at the score (``luck_emg``, ``error_emg``, ... : cubeful,
    unlike the plays frame's cubeless ``luck`` and ``error``), and on a cube
    action's row (double, take, drop) or on the roll a cube decision came
    before (``cube_decision`` = ``no double``) the three equities, gnubg's best
    action, the right action, the cube error and its category."""
    keys = ["path", "game", "turn"]
    rolls = decisions[decisions["kind"] == "roll"][keys + list(JOINED_ROLL)]
    cube = decisions[decisions["kind"] != "roll"].rename(columns={"kind": "cube_decision"})[keys + list(JOINED_CUBE)]
    out = plays.merge(rolls, on=keys, how="left").merge(cube, on=keys, how="left")
    out.index = plays.index
    return out


__all__ = [
    "DECISION_COLUMNS",
    "JOINED",
    "DecisionRow",
    "decision_rows",
    "decisions_from_rows",
    "join_decisions",
]
