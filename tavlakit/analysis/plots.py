"""matplotlib charts of the analysis frames; each returns its Axes.

The numbers come from the computing modules (:func:`.pips.pip_race`,
:func:`.luck.cumulative_luck`, :func:`.dice.face_counts`,
:func:`.outcomes.mars_rates`); these functions only draw them. Each chart's title says what it shows:
which match and game, or how many matches and games.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ..i18n import _
from .dice import face_counts, fairness
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


def _scope(frame: pd.DataFrame) -> str | None:
    """The match label when the frame holds one match, else how many
    (``None`` for a frame without match columns)."""
    key = "path" if "path" in frame.columns else "match"
    if key not in frame.columns:
        return None
    matches = frame.drop_duplicates(key)
    if len(matches) == 1:
        return str(matches["match"].iloc[0])
    return _("{count} matches").format(count=len(matches))


def plot_pip_race(
    plays: pd.DataFrame, match: str | None = None, game: int | None = None, ax: Axes | None = None
) -> Axes:
    """Both players' pip counts after each roll of one game."""
    race = pip_race(plays, match, game)
    ax = _axes(ax)
    rolls = plays[(plays["kind"] == "roll") & (plays["path"] == race.attrs["path"])]
    for side in (0, 1):
        names = rolls["name"][rolls["player"] == side]
        ax.plot(race["ply"], race[f"player{side}"], label=str(names.iloc[0]) if len(names) else f"player {side}")
    ax.set_xlabel(_("roll of the game"))
    ax.set_ylabel(_("pips"))
    ax.set_title(_("Pip race: {match}, game {game}").format(match=race.attrs["match"], game=race.attrs["game"]))
    ax.legend()
    return ax


def plot_luck(plays: pd.DataFrame, match: str | None = None, ax: Axes | None = None) -> Axes:
    """Cumulative luck of each player over a match (equity units); dotted
    lines where a new game starts."""
    luck = cumulative_luck(plays, match)
    ax = _axes(ax)
    for name in luck.columns[2:]:
        ax.plot(luck["roll"], luck[name], label=name)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    starts = luck["roll"][luck["game"] != luck["game"].shift()].iloc[1:]
    for roll in starts:
        ax.axvline(float(roll) - 0.5, color="lightgrey", linestyle=":", linewidth=0.8)
    ax.set_xlabel(_("roll of the match"))
    ax.set_ylabel(_("cumulative luck (equity)"))
    ax.set_title(
        _("Luck over the match: {match}, {games} games").format(match=luck.attrs["match"], games=len(starts) + 1)
    )
    ax.legend()
    return ax


def plot_dice(plays: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """How often each face showed, with the count a fair die expects and the
    chi-square test's p-value in the title; the legend sits in head room
    above the bars."""
    counts = face_counts(plays)
    test = fairness(plays, by=None).iloc[0]
    ax = _axes(ax)
    ax.bar(counts.index, counts.to_numpy(), color="tab:blue", label=_("observed"))
    ax.axhline(counts.sum() / 6, color="tab:red", linestyle="--", label=_("expected (fair dice)"))
    ax.set_ylim(0, max(1, int(counts.max())) * 1.35)
    ax.set_xticks(list(counts.index))
    ax.set_xlabel(_("face"))
    ax.set_ylabel(_("count"))
    title = _("Dice faces: {scope}, {dice} dice").format(scope=_scope(plays) or "", dice=int(counts.sum()))
    if "faces_p" in test.index:
        title = _("{title}\nfair-dice test: p = {p:.2g}").format(title=title, p=float(test["faces_p"]))
    ax.set_title(title)
    ax.legend(loc="upper center", ncol=2)
    return ax


def plot_mars_rates(
    games: pd.DataFrame, kind: str = "result_kind", top: int | None = 15, ax: Axes | None = None
) -> Axes:
    """Share of each player's wins that were mars, with 95% Wilson intervals:
    one row per player (the ``top`` with the most decided games, all when
    ``None``; the busiest on top), each labelled "rate (mars/wins)", and
    everyone together apart at the bottom. A player without a win gets no
    bar and no interval, only the words "no wins"."""
    rates = mars_rates(games, kind)
    players, overall = rates.iloc[:-1], rates.iloc[-1]
    busiest = players.assign(decided=players["wins"] + players["losses"]).sort_values(
        ["decided", "player"], ascending=[False, True], kind="stable"
    )
    if top is not None:
        busiest = busiest.iloc[:top]
    ax = _axes(ax)
    rows = [(overall, 0.0)] + [(row, float(len(busiest) + 1 - i)) for i, (_, row) in enumerate(busiest.iterrows())]
    for row, y in rows:
        colour = "tab:grey" if y == 0 else "tab:green"
        if row["wins"] == 0:
            ax.text(0.01, y, _("no wins"), va="center", fontsize=8, color="dimgrey")
            continue
        rate = float(row["mars_rate_for"])
        ax.barh(y, rate, height=0.6, color=colour)
        low, high = max(0.0, rate - row["low_for"]), max(0.0, row["high_for"] - rate)
        ax.errorbar(rate, y, xerr=[[low], [high]], fmt="o", color="black", markersize=3, capsize=3, linewidth=1)
        ax.text(
            float(row["high_for"]) + 0.02,
            y,
            _("{rate:.0%} ({mars}/{wins})").format(rate=rate, mars=int(row["mars_for"]), wins=int(row["wins"])),
            va="center",
            fontsize=8,
        )
    ax.axhline(1.0, color="lightgrey", linewidth=0.8)
    ax.set_yticks([y for _, y in rows], [_("overall") if y == 0 else str(row["player"]) for row, y in rows], fontsize=8)
    ax.get_yticklabels()[0].set_fontweight("bold")  # overall
    ax.set_ylim(-0.7, len(busiest) + 1.7)
    ax.set_xlim(0, 1.3)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_xlabel(_("share of wins that were mars (95 percent interval)"))
    decided = int(overall["wins"])
    scope = _scope(games)
    title = (
        _("Mars rates: {scope}, {games} decided games").format(scope=scope, games=decided)
        if scope
        else _("Mars rates: {games} decided games").format(games=decided)
    )
    if len(busiest) < len(players):
        title = _("{title}\nthe {shown} of {players} players with most games").format(
            title=title, shown=len(busiest), players=len(players)
        )
    ax.set_title(title)
    return ax


def save_overview(plays: pd.DataFrame, games: pd.DataFrame, out: str | Path) -> None:
    """A PNG of four charts of a collection (``plays``, ``games``: its
    frames): the pip race of the longest game of the match with most rolls,
    that match's luck, the dice faces, the mars rates."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    rolls = plays[plays["kind"] == "roll"]
    if not rolls.empty:
        match = str(rolls.groupby("path").size().idxmax())
        game = int(str(rolls[rolls["path"] == match].groupby("game").size().idxmax()))
        plot_pip_race(plays, match=match, game=game, ax=axes[0, 0])
        if rolls["luck"].notna().any():
            plot_luck(plays, match=match, ax=axes[0, 1])
        else:
            axes[0, 1].set_axis_off()
            axes[0, 1].text(0.5, 0.5, _("luck not computed"), ha="center")
        plot_dice(plays, ax=axes[1, 0])
    plot_mars_rates(games, ax=axes[1, 1])
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


__all__ = ["plot_dice", "plot_luck", "plot_mars_rates", "plot_pip_race", "save_overview"]
