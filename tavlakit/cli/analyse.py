"""``tavlakit analyse``: a collection into an incremental Parquet store.

Only new or changed files are analysed again; see :mod:`tavlakit.analysis.store`.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..console import progress_bar
from ..formats import find_records
from ..i18n import _
from ..manifest import MANIFEST, Store, StoreError, Summary, plan
from .collection import jobs_option
from .common import RULES_DEFAULT_HELP, RULES_HELP, fail, parse_rules


def analyse(
    paths: List[Path] = typer.Argument(..., help=_("Record files or folders (searched recursively).")),
    store: Path = typer.Option(..., "--store", help=_("The store folder (created when missing).")),
    rules: Optional[str] = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    luck: bool = typer.Option(True, help=_("Compute dice luck and errors with the neural net (slower).")),
    jobs: Optional[int] = jobs_option(),
    scheduler: Optional[str] = typer.Option(None, help=_("Run on this Dask scheduler (host:port) instead of "
                                                       "this machine's cores; needs tavlakit[dask].")),
) -> None:
    """Replay and analyse every record into a Parquet store: plays, games,
    players and a files table. A re-run analyses only new or changed files
    and drops the files no longer given.

    Exit status: 0 done (bad files are listed in the files table), 2 the
    store cannot be written, 130 interrupted (the store reads as before).
    """
    chosen = parse_rules(rules) if rules else None
    files = find_records(paths)
    if not files:
        typer.echo(_("no record files found"), err=True)
        raise typer.Exit(2)
    try:
        current = Store(store)
    except StoreError as exc:
        raise fail(str(exc)) from None
    if (store / MANIFEST).is_file():
        keys, todo, unchanged = plan(current, files, chosen, luck)
        if keys == current.manifest["files"] and not todo:  # nothing to do: no pandas, no analysis
            _say(unchanged, store)
            return
    from ..analysis.store import update

    mapper = None
    if scheduler is not None:
        try:
            from ..analysis.dask import client_mapper
        except ImportError:
            typer.echo(_("error: --scheduler needs Dask: pip install 'tavlakit[dask]'"), err=True)
            raise typer.Exit(2) from None
        mapper = client_mapper(scheduler)
    try:
        with progress_bar(_("analysing")) as bar:
            summary = update(store, files, chosen, luck, jobs, mapper, bar)
    except StoreError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        if scheduler is None:
            raise
        typer.echo(_("error: cannot reach the Dask scheduler at {address}: {message}").format(
            address=scheduler, message=exc), err=True)
        raise typer.Exit(2) from None
    _say(summary, store)


def _say(summary: Summary, store: Path) -> None:
    """What the run did, and what was wrong with the files it analysed."""
    for problem in summary.problems:
        typer.echo(str(problem), err=True)
    for path, count in summary.game_errors.items():
        typer.echo(_("{path}: {count} error(s) in its games (see 'tavlakit validate')").format(path=path, count=count),
                   err=True)
    typer.echo(_("{files} file(s): {analysed} analysed, {reused} unchanged, {dropped} dropped; store {store}").format(
        files=summary.files, analysed=len(summary.analysed), reused=summary.reused, dropped=summary.dropped,
        store=store))
