"""matplotlib charts of the analysis frames; each returns its Axes.

The numbers come from the computing modules (:func:`.pips.pip_race`,
:func:`.luck.cumulative_luck`, :func:`.dice.face_counts`,
:func:`.outcomes.mars_rates`); these functions only draw them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ..i18n import _
from .dice import face_counts
from .luck import cumulative_luck
from .outcomes import mars_rates
from .pips import pip_race

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(8, 4))[1]


def plot_pip_race(plays: pd.DataFrame, match: str | None = None, game: int | None = None,
                  ax: Axes | None = None) -> Axes:
    """Both players' pip counts after each roll of one game."""
    race = pip_race(plays, match, game)
    ax = _axes(ax)
    rolls = plays[(plays["kind"] == "roll") & (plays["match"] == race.attrs["match"])]
    for side in (0, 1):
        names = rolls["name"][rolls["player"] == side]
        ax.plot(race["ply"], race[f"player{side}"],
                label=str(names.iloc[0]) if len(names) else _("player {side}").format(side=side))
    ax.set_xlabel(_("roll"))
    ax.set_ylabel(_("pips"))
    ax.set_title(_("Pip race"))
    ax.legend()
    return ax


def plot_luck(plays: pd.DataFrame, match: str | None = None, ax: Axes | None = None) -> Axes:
    """Cumulative luck of each player over a match (equity units)."""
    luck = cumulative_luck(plays, match)
    ax = _axes(ax)
    for name in luck.columns[2:]:
        ax.plot(luck["roll"], luck[name], label=name)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel(_("roll of the match"))
    ax.set_ylabel(_("cumulative luck (equity)"))
    ax.set_title(_("Luck over the match"))
    ax.legend()
    return ax


def plot_dice(plays: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """How often each face showed, with the count a fair die expects."""
    counts = face_counts(plays)
    ax = _axes(ax)
    ax.bar(counts.index, counts.to_numpy(), color="tab:blue", label=_("observed"))
    ax.axhline(counts.sum() / 6, color="tab:red", linestyle="--", label=_("expected (fair dice)"))
    ax.set_xticks(list(counts.index))
    ax.set_xlabel(_("face"))
    ax.set_ylabel(_("count"))
    ax.set_title(_("Dice faces"))
    ax.legend()
    return ax


def plot_mars_rates(games: pd.DataFrame, kind: str = "result_kind", top: int | None = 15,
                    ax: Axes | None = None) -> Axes:
    """Share of each player's wins that were mars, with 95% Wilson intervals:
    the ``top`` players with the most decided games (all when ``None``), then
    everyone together."""
    rates = mars_rates(games, kind)
    if top is not None:
        players, overall = rates.iloc[:-1], rates.iloc[-1:]
        busiest = (players["wins"] + players["losses"]).sort_values(ascending=False, kind="stable").index[:top]
        rates = pd.concat([players.loc[sorted(busiest)], overall])
    ax = _axes(ax)
    centre = rates["mars_rate_for"].fillna(0.0)
    errors = [(centre - rates["low_for"]).clip(lower=0), (rates["high_for"] - centre).clip(lower=0)]
    ax.bar(rates["player"], centre, yerr=errors, capsize=4, color="tab:green")
    ax.set_ylim(0, 1)
    ax.set_ylabel(_("mars rate of wins"))
    ax.set_title(_("Mars rates"))
    ax.tick_params(axis="x", labelrotation=30)
    return ax


__all__ = ["plot_dice", "plot_luck", "plot_mars_rates", "plot_pip_race"]
