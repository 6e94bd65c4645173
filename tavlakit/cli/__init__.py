"""The ``tavlakit`` command line (Typer): one module per command, registered here."""

from __future__ import annotations

import os
import sys

import typer

from ..i18n import N_
from . import lang

lang.early_language(sys.argv, os.environ)  # before the commands build their help

from . import analyse, board, convert, find, mistakes, record, rollout, show, stats, store, validate

app = typer.Typer(
    cls=lang.LocalisedGroup,
    help=N_("Tavla and backgammon records: validate, convert, analyse."),
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

app.callback()(lang.options)
app.command()(validate.validate)
app.command()(convert.convert)
app.command()(stats.stats)
app.command()(analyse.analyse)
app.command()(board.board)
app.command()(board.moves)
app.command()(show.show)
app.command()(mistakes.mistakes)
app.command()(find.find)
app.command()(record.record)
app.command()(rollout.rollout)
app.add_typer(store.app, name="store")


def main() -> None:  # pragma: no cover - console entry
    app()
