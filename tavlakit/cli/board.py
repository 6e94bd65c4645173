"""``tavlakit board`` and ``tavlakit moves``: one position."""

from __future__ import annotations

import typer

from .common import RULES_HELP, parse_position, parse_rules


def board(position_id: str = typer.Argument(..., help="GNU Backgammon Position ID.")) -> None:
    """Show a position as an ASCII board."""
    typer.echo(str(parse_position(position_id)))


def moves(
    position_id: str = typer.Argument(..., help="GNU Backgammon Position ID (player on roll moves)."),
    die1: int = typer.Argument(..., min=1, max=6),
    die2: int = typer.Argument(..., min=1, max=6),
    rules: str = typer.Option("backgammon", help=RULES_HELP),
) -> None:
    """List every legal play for a roll, one per resulting position."""
    pos = parse_position(position_id)
    for play in pos.legal_plays((die1, die2), parse_rules(rules)):
        typer.echo(str(play) or "(no move)")
