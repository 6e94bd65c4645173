"""``tavlakit stats``: luck, mars rates, errors and dice fairness of many files.

pandas and the analysis are imported when the command runs, so that the
other commands start quickly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..engine.rules import PRESETS
from ..formats import find_records
from ..formats.text import read_stream
from ..i18n import N_, _
from .collection import MERGE_HELP, NAMES_HELP, NET_HELP, choose_net, jobs_option, rename, say_duplicates
from .common import PLY_HELP, level_help, missing, parse_level, parse_rules
from .console import progress_bar

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis.frames import Analysis


def stats(
    paths: list[Path] = typer.Argument(..., help=_("Record files or folders (searched recursively).")),
    rules: str | None = typer.Option(
        None,
        help=_("Rule set ({presets}); default: each file's tags, else backgammon.").format(presets=", ".join(PRESETS)),
    ),
    by: str = typer.Option(
        "player",
        help=_(
            "Summarise by 'player' or by 'file'; 'match': gnubg's statistics "
            "of each match (cube decisions, luck and errors at the score)."
        ),
    ),
    csv: Path | None = typer.Option(None, help=_("Also write the summary as CSV to this file.")),
    json_output: bool = typer.Option(False, "--json", help=_("Print one JSON object per row.")),
    plot: Path | None = typer.Option(None, help=_("Write a PNG: pip race, luck, dice faces, mars rates.")),
    luck: bool = typer.Option(True, help=_("Compute dice luck and errors with the neural net (slower).")),
    jobs: int | None = jobs_option(),
    names: Path | None = typer.Option(None, help=_(NAMES_HELP)),
    merge_names: bool = typer.Option(False, "--merge-names", help=_(MERGE_HELP)),
    met: Path | None = typer.Option(
        None, help=_("Match equity table (gnubg's XML format) for --by match; default: gnubg's, Kazaross XG2.")
    ),
    level: str | None = typer.Option(None, "--level", help=_("For --by match.") + " " + level_help()),
    ply: int | None = typer.Option(None, help=_(PLY_HELP)),
    net: Path | None = typer.Option(None, help=_(NET_HELP)),
) -> None:
    """Luck, errors, mars rates and dice fairness of a collection of records.

    One row per player (--by file: per file and player). --by match prints
    gnubg's statistics of each match instead, in gnubg's layout (checker
    play, luck, cube, overall; --json and --csv give the frame). The columns
    of the other tables, as headed on a terminal, and their names in CSV
    and JSON:

    \b
    match        the file, with --by file (match)
    player       the player's name (player)
    games        games played (games)
    wins         games won (wins)
    mars won     games won with a mars or more (mars_for)
    mars lost    games lost with a mars or more (mars_against)
    luck/roll    dice luck per roll in equity, gnubg's measure (luck_per_roll)
    luck rating  gnubg's words for it: Go to bed ... Go to Las Vegas (luck_rating)
    net luck     own luck minus the opponent's, in equity (net_luck)
    error/play   equity lost per play that had a choice (error_rate)
    XG error     equity lost in all, as the file's own analyser (XG) judged
                 it; only for records that hold such analysis (recorded_error)
    faces p      chi-square p-value of even dice faces; small: suspect (faces_p)
    doubles      share of the rolls that were doubles; fair: 0.167 (doubles_rate)
    rolls        rolls in the file, with --by file (plies)
    errors       the validator's errors in its games, with --by file (problems)

    The four luck columns need the neural net; --no-luck leaves them out.
    Exit status: 0 done, 2 an input nothing could be read from or a bad
    argument.
    """
    _check_options(by, plot, names, merge_names, luck, met, level, ply)
    chosen = parse_rules(rules) if rules else None
    files = find_records(paths)
    if not files:
        raise typer.BadParameter(_("no record files found"))
    missing = [str(p) for p in files if not p.exists() and read_stream(p) is None]
    if missing:
        raise typer.BadParameter(_("{paths}: no such file or folder").format(paths=", ".join(missing)))
    choose_net(net)
    if by == "match":
        from .statistics_table import run

        run(files, chosen, met, parse_level(level, ply), json_output, csv, jobs)
        return
    from ..analysis.collection import analyse_paths

    with progress_bar(_("analysing")) as bar:
        analysed = analyse_paths(files, chosen, luck=luck, jobs=jobs, progress=bar, dedupe=True)
    result = rename(analysed, names, merge_names)
    _warn(result)
    say_duplicates(result)
    if result.games.empty:
        typer.echo(_("no game could be read from the files given"), err=True)
        raise typer.Exit(2)
    _tables(result, by, len(files), csv, plot, json_output, luck)
    read = set(result.games["path"])
    if any(p.severity == "error" and p.file not in read for p in result.problems):
        raise typer.Exit(2)  # an input nothing could be read from, said on stderr above


def _check_options(
    by: str,
    plot: Path | None,
    names: Path | None,
    merge_names: bool,
    luck: bool,
    met: Path | None,
    level: str | None,
    ply: int | None,
) -> None:
    """A usage error for a --by that does not exist, or an option that does
    not go with the --by chosen: --met, --level and --ply judge the match
    (--by match); the others make the tables."""
    if by not in ("player", "file", "match"):
        raise typer.BadParameter(_("--by must be 'player', 'file' or 'match', not {name!r}").format(name=by))
    given = {
        "--plot": plot is not None,
        "--names": names is not None,
        "--merge-names": merge_names,
        "--no-luck": not luck,
        "--met": met is not None,
        "--level": level is not None,
        "--ply": ply is not None,
    }
    others = ("--met", "--level", "--ply") if by != "match" else ("--plot", "--names", "--merge-names", "--no-luck")
    unused = [name for name in others if given[name]]
    if unused:
        raise typer.BadParameter(_("{options} do(es) not go with --by {by}").format(options=", ".join(unused), by=by))


def _tables(
    result: Analysis, by: str, files: int, csv: Path | None, plot: Path | None, json_output: bool, luck: bool
) -> None:
    """Print (and write) the table per player or per file, and the charts."""
    from ..analysis.summary import SHOWN, by_file, by_player

    table = by_player(result) if by == "player" else by_file(result)
    if csv is not None:
        table.to_csv(csv, index=False)
    if plot is not None:
        from ..analysis.plots import save_overview

        save_overview(result.plays, result.games, plot)
    if json_output:
        for record in json.loads(table.to_json(orient="records")):
            typer.echo(json.dumps(record, ensure_ascii=False))
        return
    shown = [
        c
        for c in SHOWN
        if c in table.columns and (luck or c not in LUCK_COLUMNS) and (c != "recorded_error" or table[c].notna().any())
    ]
    rolls = int((result.plays["kind"] == "roll").sum())
    caption = _("{files} file(s), {games} game(s), {rolls} roll(s)").format(
        files=files, games=len(result.games), rolls=rolls
    )
    _print(table[shown], caption)


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
        typer.echo(
            _(
                "{count} game(s) have errors; their rows after an unknown play carry no board (see 'tavlakit validate')"
            ).format(count=bad_games),
            err=True,
        )


#: The summary's column headers where they are printed plainly (a pipe, a
#: file); the columns keep their names in CSV and JSON.
HEADERS = frozenset(
    (
        N_("player"),
        N_("match"),
        N_("games"),
        N_("wins"),
        N_("mars_for"),
        N_("mars_against"),
        N_("mars"),
        N_("luck_per_roll"),
        N_("luck_rating"),
        N_("net_luck"),
        N_("luck0"),
        N_("luck1"),
        N_("error_rate"),
        N_("recorded_error"),
        N_("faces_p"),
        N_("doubles_rate"),
        N_("plies"),
        N_("problems"),
    )
)
#: The short headers of the table on a terminal, in at most two lines, so
#: that it fits 80 columns; ``tavlakit stats --help`` explains each.
SHORT = {
    "match": N_("match"),
    "player": N_("player"),
    "games": N_("games"),
    "wins": N_("wins"),
    "mars_for": N_("mars\nwon"),
    "mars_against": N_("mars\nlost"),
    "luck_per_roll": N_("luck/\nroll"),
    "luck_rating": N_("luck\nrating"),
    "net_luck": N_("net\nluck"),
    "error_rate": N_("error/\nplay"),
    "recorded_error": N_("XG\nerror"),
    "faces_p": N_("faces\np"),
    "doubles_rate": N_("doubles"),
    "plies": N_("rolls"),
    "problems": N_("errors"),
}
#: The columns that need luck (left out with --no-luck).
LUCK_COLUMNS = ("luck_per_roll", "luck_rating", "net_luck", "error_rate")
#: Columns of words (flush left); a name is never cut, only folded when it must.
WORDS = ("match", "player", "luck_rating")


def _header(column: object) -> str:
    """A column's header in the interface language."""
    return _(column) if isinstance(column, str) and column in HEADERS else str(column)


def _print(table: pd.DataFrame, caption: str) -> None:
    """On a terminal a table that fits its width (short headers on two
    lines; names whole); elsewhere (a pipe, a file) plain columns at full
    width, so that no header is cut."""
    from rich.console import Console

    words = [column == "luck_rating" for column in table.columns]  # gnubg's words, translated
    rows = [[_(c) if w and c else c for c, w in zip(map(_cell, row), words)] for row in table.itertuples(index=False)]
    left = [column in WORDS for column in table.columns]
    console = Console()
    if console.is_terminal:
        _terminal(console, list(table.columns), rows, caption)
        return
    widths = [max([len(_header(c)), *(len(r[i]) for r in rows)]) for i, c in enumerate(table.columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if flush_left else c.rjust(w) for c, w, flush_left in zip(cells, widths, left)
        ).rstrip()

    typer.echo(line([_header(c) for c in table.columns]))
    for cells in rows:
        typer.echo(line(cells))
    typer.echo(caption)


def _terminal(console: Any, columns: list[str], rows: list[list[str]], caption: str) -> None:
    """The rows as tables that fit the terminal: the name columns, then as
    many other columns as fit; the columns that do not fit come in a
    further table with the names again. Player names are never cut; the
    luck rating wraps between its words; a match's file name folds where
    it is longer than the room left (16 characters at least)."""
    from rich import box
    from rich.table import Table

    headers = [_(SHORT.get(c, c)) for c in columns]
    widths = _widths(columns, headers, rows, console.width)
    keys = [i for i, c in enumerate(columns) if c in ("match", "player")]
    groups = _groups([i for i in range(len(columns)) if i not in keys], widths, console.width, keys)
    for n, group in enumerate(groups):
        out = Table(
            box=box.SIMPLE_HEAD,
            padding=0,
            show_edge=False,  # one space between columns
            caption=caption if n == len(groups) - 1 else None,
        )
        for i in keys + group:
            words = columns[i] in WORDS
            out.add_column(
                headers[i],
                width=widths[i],
                justify="left" if words else "right",
                no_wrap=columns[i] in ("player",) or not words,
                overflow="fold" if words else "ellipsis",
            )
        for cells in rows:
            out.add_row(*(cells[i] for i in keys + group))
        console.print(out)


def _widths(columns: list[str], headers: list[str], rows: list[list[str]], room: int) -> list[int]:
    """Each column's width: its widest cell or header line (the luck rating:
    its widest word); a match's file name folded to what leaves ``room``
    for the other columns, 16 at least, else 24."""
    widths = []
    for i, column in enumerate(columns):
        cells = [r[i] for r in rows]
        if column == "luck_rating":
            cells = [word for cell in cells for word in cell.split()]
        widths.append(max([len(cell) for cell in cells] + [len(part) for part in headers[i].split("\n")]))
    if "match" in columns:
        at = columns.index("match")
        left = room - sum(w + 1 for i, w in enumerate(widths) if i != at)
        widths[at] = min(widths[at], left if left >= 16 else 24)
    return widths


def _groups(others: list[int], widths: list[int], width: int, keys: list[int]) -> list[list[int]]:
    """The columns ``others`` in groups that fit ``width`` beside the name columns ``keys``."""
    groups: list[list[int]] = [[]]
    room = width + 1 - sum(widths[i] + 1 for i in keys)  # n columns have n - 1 gaps
    used = 0
    for i in others:
        if groups[-1] and used + widths[i] + 1 > room:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += widths[i] + 1
    return groups


def _cell(value: object) -> str:
    if missing(value):
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
