"""``tavlakit analyse``: a collection into an incremental Parquet store.

Only new or changed files are analysed again; see :mod:`tavlakit.analysis.store`.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import typer

from ..collections.manifest import (
    MANIFEST,
    Store,
    StoreError,
    StoreWriteError,
    Summary,
    nothing_to_do,
    plan,
    require_existing,
)
from ..engine.rules import Rules
from ..formats import find_records
from ..i18n import _
from .collection import NET_HELP, choose_net, jobs_option
from .common import PLY_HELP, RULES_DEFAULT_HELP, RULES_HELP, SCHEDULER_HELP, fail, level_help, parse_level, parse_rules
from .console import progress_bar


def analyse(
    paths: list[Path] = typer.Argument(..., help=_("Record files or folders (searched recursively).")),
    store: Path = typer.Option(..., "--store", help=_("The store folder (created when missing).")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    luck: bool = typer.Option(True, help=_("Compute dice luck and errors with the neural net (slower).")),
    jobs: int | None = jobs_option(),
    scheduler: str | None = typer.Option(None, help=_(SCHEDULER_HELP)),
    prune: bool = typer.Option(
        False, "--prune", help=_("Drop from the store the files not among PATHS (without it they keep their rows).")
    ),
    net: Path | None = typer.Option(
        None, help=_(NET_HELP) + " " + _("Files analysed with other weights are analysed again.")
    ),
    level: str | None = typer.Option(
        None,
        "--level",
        help=level_help() + " " + _("Files judged at another level are analysed again."),
    ),
    ply: int | None = typer.Option(None, help=_(PLY_HELP)),
) -> None:
    """Analyse a collection into an incremental Parquet store.

    The store holds plays, games, players, gnubg's statistics of each match
    and its judged turns (at --level, world class by default; expert is
    about forty times as fast) and a files table. A re-run analyses only new
    or changed files; the files of the store not among PATHS keep their rows
    (--prune drops them).

    Exit status: 0 done, 2 an input nothing could be read from (binary,
    empty, not a record: listed in the files table), a path that does not
    exist, a damaged store (give the file it names to analyse it again) or
    a store that cannot be written: a full disk, a read-only folder (the
    store reads as before; the files analysed are kept for the next run),
    130 interrupted (the store reads as before). A second run on the same
    store waits for the first to end.
    """
    chosen = parse_rules(rules) if rules else None
    judged = parse_level(level, ply)
    if not luck and (level is not None or ply is not None):
        raise fail(_("--level and --ply do not go with --no-luck"))
    digest = None
    if net is not None:
        if not luck:
            raise fail(_("--net does not go with --no-luck"))
        from ..evaluation.net import net_digest

        choose_net(net)
        digest = net_digest()
    files = find_records(paths)
    if not files:
        raise fail(_("no record files found"))
    _look(store, files, chosen, luck=luck, prune=prune, net=digest, level=judged.key if luck else None)
    from ..analysis.store import update

    mapper = None
    if scheduler is not None:
        try:
            from ..analysis.dask import client_mapper
        except ImportError:
            typer.echo(_("error: --scheduler needs Dask: pip install 'tavlakit[dask]'"), err=True)
            raise typer.Exit(2) from None
        mapper = client_mapper(scheduler)
    if hasattr(signal, "SIGXFSZ"):  # over a file size limit (ulimit -f) a write fails, and says so
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        with progress_bar(_("analysing")) as bar:
            summary = update(
                store,
                files,
                chosen,
                luck=luck,
                jobs=jobs,
                mapper=mapper,
                progress=bar,
                prune=prune,
                level=judged,
                waiting=_wait(store),
            )
    except StoreWriteError as exc:
        with suppress(OSError):  # (the output itself may be a file over the same limit, on the same disk)
            _unwritten(exc)
        raise fail(str(exc)) from None
    except StoreError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        if scheduler is None:
            raise
        typer.echo(
            _("error: cannot reach the Dask scheduler at {address}: {message}").format(address=scheduler, message=exc),
            err=True,
        )
        raise typer.Exit(2) from None
    _say(summary, store)
    raise typer.Exit(2 if summary.unread else 0)


def _look(
    store: Path, files: list[Path], rules: Rules | None, *, luck: bool, prune: bool, net: str | None, level: str | None
) -> None:
    """A look at the store before the run (which plans again once it holds
    the store): exit when there is nothing to do (no pandas, no analysis),
    say what --prune will drop, refuse a path that does not exist or a
    folder that is not a store it may write."""
    try:
        require_existing(files)
        current = Store(store)
    except StoreError as exc:
        raise fail(str(exc)) from None
    if not (store / MANIFEST).is_file():
        return
    try:
        keys, todo, planned = plan(current, files, rules, luck=luck, prune=prune, net=net, level=level)
    except StoreError:  # a damaged store, or another run ending meanwhile: the run plans again, holding the store
        return
    if nothing_to_do(current, keys, todo):
        _say(planned, store)
        raise typer.Exit(2 if planned.unread else 0)
    if planned.dropped:
        typer.echo(
            _("--prune: dropping the {count} file(s) of the store not among the paths given").format(
                count=planned.dropped
            ),
            err=True,
        )


def _wait(store: Path) -> Callable[[], None]:
    def say() -> None:
        typer.echo(_("waiting for another analyse run on {store} to end...").format(store=store), err=True)

    return say


def _unwritten(error: StoreWriteError) -> None:
    """Which files a run that could not write analysed (kept for the next run) and which it did not."""
    for path in error.analysed:
        typer.echo(_("analysed, kept for the next run: {path}").format(path=path))
    pending = error.pending or []
    for path in pending:
        typer.echo(_("not analysed: {path}").format(path=path))
    typer.echo(
        _("{analysed} file(s) analysed, {pending} not; the store reads as before the run").format(
            analysed=len(error.analysed), pending=len(pending)
        )
    )


def _say(summary: Summary, store: Path) -> None:
    """What the run did, and what was wrong with the files it analysed."""
    for problem in summary.problems:
        typer.echo(str(problem), err=True)
    for path, count in summary.game_errors.items():
        typer.echo(
            _("{path}: {count} error(s) in its games (see 'tavlakit validate')").format(path=path, count=count),
            err=True,
        )
    if summary.unread:
        typer.echo(
            _("{count} file(s) nothing could be read from (each one's problem is in the files table)").format(
                count=len(summary.unread)
            ),
            err=True,
        )
    typer.echo(
        _(
            "{files} file(s): {analysed} analysed, {reused} unchanged, {dropped} dropped; store {store}: "
            "{total} file(s)"
        ).format(
            files=summary.files,
            analysed=len(summary.analysed),
            reused=summary.reused,
            dropped=summary.dropped,
            store=store,
            total=summary.total,
        )
    )
