"""``tavlakit store check``: what is damaged or left over in a store (see :mod:`tavlakit.analysis.store`)."""

from __future__ import annotations

from pathlib import Path

import typer

from ..collections.manifest import StoreError
from ..i18n import N_, _
from .common import fail
from .lang import LocalisedGroup

app = typer.Typer(
    cls=LocalisedGroup,
    help=N_("Look after a store of analyses (tavlakit analyse --store)."),
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.command()
def check(folder: Path = typer.Argument(..., help=_("The store folder."), show_default=False)) -> None:
    """List what is damaged or left over in a store.

    Every damaged partition (each is read whole), with the record file to
    analyse again, and every file no manifest names (left by a run that did
    not end).

    Exit status: 0 all whole, 1 something found, 2 not a store.
    """
    from ..analysis.store import check as check_store

    try:
        found = check_store(folder)
    except StoreError as exc:
        raise fail(str(exc)) from None
    for problem in found:
        typer.echo(str(problem))
    damaged = sum(p.code == "damaged-partition" for p in found)
    typer.echo(
        _("store {folder}: {damaged} damaged, {orphaned} left over").format(
            folder=folder, damaged=damaged, orphaned=len(found) - damaged
        )
    )
    if found:
        raise typer.Exit(1)
