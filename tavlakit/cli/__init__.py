"""The ``tavlakit`` command line (Typer): one module per command, registered here."""

from __future__ import annotations

import typer

from . import analyse, board, convert, show, stats, validate

app = typer.Typer(
    help="Tavla and backgammon records: validate, convert, analyse.",
    no_args_is_help=True,
    add_completion=False,
)

app.command()(validate.validate)
app.command()(convert.convert)
app.command()(stats.stats)
app.command()(analyse.analyse)
app.command()(board.board)
app.command()(board.moves)
app.command()(show.show)


def main() -> None:  # pragma: no cover - console entry
    app()
