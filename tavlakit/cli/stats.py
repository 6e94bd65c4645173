"""``tavlakit stats``: luck, mars rates, errors and dice fairness of many files.

pandas and the analysis are imported when the command runs, so that the
other commands start quickly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from ..formats import find_records
from ..i18n import N_, _
from ..rules import PRESETS, Rules
from .collection import MERGE_HELP, NAMES_HELP, jobs_option, rename, say_duplicates

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis.frames import Analysis


def _analyse(files: list[Path], rules: Rules | None, luck: bool, jobs: int | None) -> Analysis:
    from ..analysis.collection import analyse_paths

    return analyse_paths(files, rules, luck, jobs, _("analysing"), dedupe=True)


def _plot(result: Analysis, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..analysis.plots import plot_dice, plot_luck, plot_mars_rates, plot_pip_race

    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    rolls = result.plays[result.plays["kind"] == "roll"]
    if not rolls.empty:
        # the match with the most rolls, and its longest game
        match = str(rolls.groupby("path").size().idxmax())
        game = int(str(rolls[rolls["path"] == match].groupby("game").size().idxmax()))
        plot_pip_race(result.plays, match=match, game=game, ax=axes[0, 0])
        if rolls["luck"].notna().any():
            plot_luck(result.plays, match=match, ax=axes[0, 1])
        else:
            axes[0, 1].set_axis_off()
            axes[0, 1].text(0.5, 0.5, _("luck not computed (--no-luck)"), ha="center")
        plot_dice(result.plays, ax=axes[1, 0])
    plot_mars_rates(result.games, ax=axes[1, 1])
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def stats(
    paths: List[Path] = typer.Argument(..., help=_("Record files or folders (searched recursively).")),
    rules: Optional[str] = typer.Option(None, help=_("Rule set ({presets}); default: each file's tags, "
                                                     "else backgammon.").format(presets=", ".join(PRESETS))),
    by: str = typer.Option("player", help=_("Summarise by 'player' or by 'file'; 'match': gnubg's statistics "
                                             "of each match (cube decisions, luck and errors at the score).")),
    csv: Optional[Path] = typer.Option(None, help=_("Also write the summary as CSV to this file.")),
    json_output: bool = typer.Option(False, "--json", help=_("Print one JSON object per row.")),
    plot: Optional[Path] = typer.Option(None, help=_("Write a PNG: pip race, luck, dice faces, mars rates.")),
    luck: bool = typer.Option(True, help=_("Compute dice luck and errors with the neural net (slower).")),
    jobs: Optional[int] = jobs_option(),
    names: Optional[Path] = typer.Option(None, help=_(NAMES_HELP)),
    merge_names: bool = typer.Option(False, "--merge-names", help=_(MERGE_HELP)),
    met: Optional[Path] = typer.Option(None, help=_("Match equity table (gnubg's XML format) for --by match; "
                                                    "default: gnubg's, Kazaross XG2.")),
    ply: int = typer.Option(0, help=_("Plies of the analysis for --by match: 0 or 1 (slower).")),
) -> None:
    """Luck, errors, mars rates and dice fairness of a collection of records."""
    if by not in ("player", "file", "match"):
        raise typer.BadParameter(_("--by must be 'player', 'file' or 'match', not {name!r}").format(name=by))
    try:
        chosen = Rules.preset(rules) if rules else None
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    files = find_records(paths)
    if not files:
        raise typer.BadParameter(_("no record files found"))
    missing = [str(p) for p in files if not p.exists()]
    if missing:
        raise typer.BadParameter(_("{paths}: no such file or folder").format(paths=", ".join(missing)))
    if by == "match":
        from .statistics_table import run

        run(files, chosen, met, ply, json_output, csv, jobs)
        return
    result = rename(_analyse(files, chosen, luck, jobs), names, merge_names)
    _warn(result)
    say_duplicates(result)
    if result.games.empty:
        typer.echo(_("no game could be read from the files given"), err=True)
        raise typer.Exit(1)
    from ..analysis.summary import SHOWN, by_file, by_player

    table = by_player(result) if by == "player" else by_file(result)
    if csv is not None:
        table.to_csv(csv, index=False)
    if plot is not None:
        _plot(result, plot)
    if json_output:
        for record in json.loads(table.to_json(orient="records")):
            typer.echo(json.dumps(record, ensure_ascii=False))
        return
    _print(table[[c for c in SHOWN if c in table.columns]], _("{files} file(s), {games} game(s), {rolls} roll(s)")
           .format(files=len(files), games=len(result.games), rolls=int((result.plays["kind"] == "roll").sum())))


def _warn(result: Analysis) -> None:
    """Say on stderr what could not be analysed, so nothing is dropped silently."""
    first: dict[str | None, str] = {}
    for problem in result.problems:
        if problem.severity == "error" and problem.file not in first:
            first[problem.file] = f"{problem.file}: {problem.code}: {problem.message}"
    for line in list(first.values())[:10]:
        typer.echo(line, err=True)
    if len(first) > 10:
        typer.echo(_("... and {count} more file(s) with errors").format(count=len(first) - 10), err=True)
    bad_games = int((result.games["problems"] > 0).sum()) if not result.games.empty else 0
    if bad_games:
        typer.echo(_("{count} game(s) have errors; their rows after an unknown play carry no board "
                     "(see 'tavlakit validate')").format(count=bad_games), err=True)


#: The summary's column headers as shown (the columns keep their names in CSV and JSON).
HEADERS = frozenset((
    N_("player"), N_("match"), N_("games"), N_("wins"), N_("mars_for"), N_("mars_against"), N_("mars"),
    N_("luck_per_roll"), N_("luck_rating"), N_("net_luck"), N_("luck0"), N_("luck1"), N_("error_rate"),
    N_("faces_p"), N_("doubles_rate"), N_("plies"), N_("problems")))


def _header(column: object) -> str:
    """A column's header in the interface language."""
    return _(column) if isinstance(column, str) and column in HEADERS else str(column)


def _print(table: pd.DataFrame, caption: str) -> None:
    """A rich table on a terminal; elsewhere (a pipe, a file) plain columns
    at full width, so that no header is cut."""
    import pandas as pd
    from rich.console import Console
    from rich.table import Table

    left = [not pd.api.types.is_numeric_dtype(table[c]) for c in table.columns]
    rows = [[_cell(v) for v in row] for row in table.itertuples(index=False)]
    console = Console()
    if console.is_terminal:
        out = Table(caption=caption)
        for column, flush_left in zip(table.columns, left):
            out.add_column(_header(column), justify="left" if flush_left else "right")
        for cells in rows:
            out.add_row(*cells)
        console.print(out)
        return
    widths = [max([len(_header(c)), *(len(r[i]) for r in rows)]) for i, c in enumerate(table.columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if flush_left else c.rjust(w)
                         for c, w, flush_left in zip(cells, widths, left)).rstrip()

    typer.echo(line([_header(c) for c in table.columns]))
    for cells in rows:
        typer.echo(line(cells))
    typer.echo(caption)


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)

