"""``tavlakit find``: every turn where a position stood, in a store or in record files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..collections.manifest import MANIFEST, StoreError
from ..formats import find_records
from ..formats.text import read_stream
from ..i18n import _, ngettext
from .collection import jobs_option
from .common import RULES_DEFAULT_HELP, RULES_HELP, fail, missing, parse_rules
from .console import progress_bar

if TYPE_CHECKING:
    from ..engine.rules import Rules

POSITION_HELP = _("The position: a GNU Backgammon Position ID, gnubg's PositionID:MatchID or an XGID.")


def find(
    sources: list[Path] = typer.Argument(
        ..., help=_("A store folder (tavlakit analyse --store), or record files and folders."), show_default=False
    ),
    position: str = typer.Argument(..., help=POSITION_HELP, show_default=False),
    swapped: bool = typer.Option(False, "--swapped", help=_("Also find the same board with the other player on roll.")),
    json_output: bool = typer.Option(False, "--json", help=_("Print one JSON object per turn.")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    jobs: int | None = jobs_option(),
) -> None:
    """List every turn where a position stood before the roll: file, game,
    move, player, dice, the play made and its error (gnubg-nn 0-ply).

    On a store only its index of positions is read. The position is the
    board seen by the player on roll, whatever the colours.

    Exit status: 0 found, 1 not found, 2 bad input (a position that cannot
    be read, a store of an older tavlakit, a file nothing could be read from).
    """
    from ..engine.matchid import parse_id

    try:
        parse_id(position)
    except ValueError as exc:
        raise fail(str(exc)) from None
    chosen = parse_rules(rules) if rules else None
    if len(sources) == 1 and (sources[0] / MANIFEST).is_file():
        if chosen is not None:
            raise fail(_("--rules does not go with a store (its files were analysed under their own)"))
        from ..collections.positions import find_rows  # (pyarrow alone: no pandas, no nets)

        try:
            found = find_rows(sources[0], position, swapped=swapped)
        except StoreError as exc:
            raise fail(str(exc)) from None
        where, unread = _("the store {folder}").format(folder=sources[0]), False
    else:
        found, where, unread = _in_files(sources, chosen, jobs, position, swapped)
    _print(found, json_output)
    count = ngettext("{count} turn in {where}", "{count} turns in {where}", len(found))
    typer.echo(count.format(count=len(found), where=where), err=json_output)
    if unread:
        raise typer.Exit(2)  # (an input nothing could be read from, said above)
    if not found:
        raise typer.Exit(1)


def _in_files(
    sources: list[Path], rules: Rules | None, jobs: int | None, position: str, swapped: bool
) -> tuple[list[dict[str, Any]], str, bool]:
    """The turns found in record files, analysed here (one dict each); where
    they were looked for; whether an input could not be read (said on stderr)."""
    files = find_records(sources)
    if not files:
        raise fail(_("no record files found"))
    absent = [str(p) for p in files if not p.exists() and read_stream(p) is None]
    if absent:
        raise fail(_("{paths}: no such file or folder").format(paths=", ".join(absent)))
    from ..analysis.collection import find_in_files

    with progress_bar(_("analysing")) as bar:
        found = find_in_files(files, position, swapped=swapped, rules=rules, jobs=jobs, progress=bar)
    for problem in found.unread:
        typer.echo(str(problem), err=True)
    where = ngettext("{count} file", "{count} files", len(files)).format(count=len(files))
    return found.rows, where, bool(found.unread)


def _print(found: list[dict[str, Any]], json_output: bool) -> None:
    """One line per turn (``--json``: one object per turn)."""
    if json_output:
        for record in found:
            typer.echo(json.dumps(record, ensure_ascii=False))
        return

    def text(value: object) -> str:
        return "" if missing(value) else str(value)

    rows = [
        [
            str(row["path"]),
            _("game {game}").format(game=row["game"]),
            "" if missing(row["number"]) else _("move {number}").format(number=row["number"]),
            text(row["name"]),
            text(row["dice"]),
            text(row["play"]) if missing(row["cube_action"]) else _(str(row["cube_action"])),
            "" if missing(row["error"]) else _("error {error:.3f}").format(error=row["error"]),
            _("(swapped)") if row["swapped"] else "",
        ]
        for row in found
    ]
    widths = [max((len(r[i]) for r in rows), default=0) for i in range(len(rows[0]))] if rows else []
    for cells in rows:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
