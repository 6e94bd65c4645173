"""The ``tavlakit`` command line (Typer)."""

from __future__ import annotations

import typer

from .position import Position
from .rules import PRESETS, Rules

app = typer.Typer(
    help="Tavla and backgammon records: validate, convert, analyse.",
    no_args_is_help=True,
    add_completion=False,
)

RULES_HELP = f"Rule set: {', '.join(PRESETS)}."


def _rules(name: str) -> Rules:
    try:
        return Rules.preset(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _position(position_id: str) -> Position:
    try:
        return Position.from_position_id(position_id)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


@app.command()
def board(position_id: str = typer.Argument(..., help="GNU Backgammon Position ID.")) -> None:
    """Show a position as an ASCII board."""
    typer.echo(str(_position(position_id)))


@app.command()
def moves(
    position_id: str = typer.Argument(..., help="GNU Backgammon Position ID (player on roll moves)."),
    die1: int = typer.Argument(..., min=1, max=6),
    die2: int = typer.Argument(..., min=1, max=6),
    rules: str = typer.Option("backgammon", help=RULES_HELP),
) -> None:
    """List every legal play for a roll, one per resulting position."""
    pos = _position(position_id)
    for play in pos.legal_plays((die1, die2), _rules(rules)):
        typer.echo(str(play) or "(no move)")


def main() -> None:  # pragma: no cover - console entry
    app()
