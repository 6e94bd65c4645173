"""Dice luck and checker-play errors, as GNU Backgammon defines them.

The luck of a roll is the equity after the best play for the roll thrown
minus the average, over all 36 throws, of the equity after the best play
for each (0-ply, cubeless, in the equity of the rules in force; see
:mod:`~tavlakit.evaluation.equity`). For the opening roll under ``use-opening-dice`` gnubg
averages over the 30 non-doubles, 15 with each side starting, because the
same throw decides who starts: :func:`opening_luck`. Under ``reroll`` the
first roll is an ordinary roll.

>>> from tavlakit import Position, Rules
>>> from tavlakit.evaluation.equity import WEIGHTS
>>> ev = Evaluator(Rules.preset("backgammon"))
>>> abs(sum(WEIGHTS[r] * roll_luck(ev, Position.initial(), r) for r in ROLLS)) < 1e-5
True
>>> luck_mark(0.45), luck_rating(-0.07)
('lucky', 'Go to bed')
"""

from __future__ import annotations

import pandas as pd

from ..engine.position import Position
from ..evaluation.equity import ROLLS, Evaluator, Roll
from ..i18n import N_
from .pips import match_rows

#: gnubg's marks for one roll (``arLuckLevel``): above 0.6 very lucky,
#: above 0.3 lucky, and the same below zero.
MARK_LEVELS = (0.6, 0.3)
#: The luck rating of a player's luck per roll, worst first: gnubg's scale
#: (``getLuckRating``: the marks' levels applied to ten times the rate)
#: with gnubg's words, except the middle one: gnubg says "None" (no luck
#: either way), which reads as missing data in a table.
RATINGS = (N_("Go to bed"), N_("Bad dice, man!"), N_("Average dice"), N_("Good dice, man!"), N_("Go to Las Vegas"))
#: gnubg's own word for each rating (``aszLuckRating`` in gnubg's analysis.c).
GNUBG_RATINGS = dict(zip(RATINGS, ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")))
#: Decimals a luck or play-error value keeps: gnubg-nn scores in float32, and
#: beyond these is noise (a closed-out dance's luck came out -2.9e-07, not 0).
DECIMALS = 6


def _settled(value: float) -> float:
    """``value`` to :data:`DECIMALS` places, without a negative zero."""
    return round(value, DECIMALS) + 0.0


def closed_out(before: Position) -> bool:
    """Whether the side to move is on the bar against six closed points:
    every throw dances, so a roll has no luck and no play to judge.

    >>> closed_out(Position.from_points({25: 1}, {p: 2 for p in range(1, 7)}))
    True
    """
    s = before.board
    return s[25] > 0 and all(s[p] <= -2 for p in range(19, 25))


def roll_luck(ev: Evaluator, before: Position, dice: Roll) -> float:
    """Luck of throwing ``dice`` in ``before`` (side to move = roller), to :data:`DECIMALS` places."""
    mean = ev.mean_best(before)  # (first: every roll's plays listed and scored at once, this roll's among them)
    return _settled(ev.best(before, dice) - mean)


def opening_luck(ev: Evaluator, before: Position, dice: Roll) -> float:
    """Luck of an opening throw of two different dice that also decided who
    starts: gnubg's average over the 15 non-doubles for each side."""
    if dice[0] == dice[1]:
        raise ValueError(f"an opening throw has two different dice, not {dice[0]}{dice[1]}")
    mine = ev.best_values(before)
    theirs = ev.best_values(before.flip())
    total = sum(mine[r] - theirs[r] for r in ROLLS if r[0] != r[1])
    return _settled(ev.best(before, dice) - total / 30.0)


def play_error(ev: Evaluator, before: Position, dice: Roll, after: Position) -> float:
    """Equity lost by the play that led from ``before`` to ``after`` (both
    seen by the mover; ``after`` before the turn passes) against the best
    play; exactly 0 for the best play (gnubg-nn scores the best play in
    float32, a hair off the same position's own evaluation)."""
    if after.position_key() == ev.best_key(before, dice):
        return 0.0
    return max(0.0, _settled(ev.best(before, dice) - ev.equity_after(after.flip())))


def luck_mark(luck: float) -> str | None:
    """gnubg's mark of one roll: ``very lucky``, ``lucky``, ``unlucky``,
    ``very unlucky`` or ``None``."""
    very, plain = MARK_LEVELS
    if luck > very:
        return "very lucky"
    if luck > plain:
        return "lucky"
    if luck < -very:
        return "very unlucky"
    if luck < -plain:
        return "unlucky"
    return None


def luck_rating(per_roll: float) -> str:
    """The rating of a player's average luck per roll: one of :data:`RATINGS`
    (gnubg's word for it: :data:`GNUBG_RATINGS`).

    >>> luck_rating(0.0), GNUBG_RATINGS[luck_rating(0.0)]
    ('Average dice', 'None')
    """
    very, plain = MARK_LEVELS
    r = per_roll * 10
    if r > very:
        return RATINGS[4]
    if r > plain:
        return RATINGS[3]
    if r < -very:
        return RATINGS[0]
    if r < -plain:
        return RATINGS[1]
    return RATINGS[2]


def cumulative_luck(plays: pd.DataFrame, match: str | None = None) -> pd.DataFrame:
    """Running luck total of each player over one match of a plays frame
    (the first by default; a label or a path): one row per roll, columns
    ``roll``, ``game``, and one per player name; ``attrs`` name the match."""
    rows = plays[(plays["kind"] == "roll") & plays["luck"].notna()]
    if rows.empty:
        raise ValueError("the plays frame has no luck values (was it built with luck=False?)")
    rows, label = match_rows(rows, match)
    out = pd.DataFrame({"roll": range(1, len(rows) + 1), "game": rows["game"].to_numpy()})
    for name in pd.unique(rows["name"]):
        mine = rows["luck"].where(rows["name"] == name, 0.0)
        out[str(name)] = mine.cumsum().to_numpy()
    out.attrs["match"] = label
    return out


__all__ = [
    "DECIMALS",
    "GNUBG_RATINGS",
    "MARK_LEVELS",
    "RATINGS",
    "closed_out",
    "cumulative_luck",
    "luck_mark",
    "luck_rating",
    "opening_luck",
    "play_error",
    "roll_luck",
]
