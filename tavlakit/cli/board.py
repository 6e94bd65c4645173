"""``tavlakit board`` and ``tavlakit moves``: one position."""

from __future__ import annotations

from typing import List

import typer

from ..dicenames import parse_dice
from ..i18n import _
from .common import RULES_HELP, parse_position, parse_rules


def board(position_id: str = typer.Argument(..., help=_("GNU Backgammon Position ID."))) -> None:
    """Show a position as an ASCII board."""
    typer.echo(str(parse_position(position_id)))


def moves(
    position_id: str = typer.Argument(..., help=_("GNU Backgammon Position ID (player on roll moves).")),
    roll: List[str] = typer.Argument(..., help=_("The roll: two dice (6 5) or its Tavla name (\"şeş beş\").")),
    rules: str = typer.Option("backgammon", help=RULES_HELP),
) -> None:
    """List every legal play for a roll, one per resulting position."""
    pos = parse_position(position_id)
    for play in pos.legal_plays(parse_roll(roll), parse_rules(rules)):
        typer.echo(str(play) or _("(no move)"))


def parse_roll(words: List[str]) -> tuple[int, int]:
    """Two dice ("6", "5") or a Tavla dice name ("şeş beş", also as two
    words), or a clear command-line error."""
    if len(words) == 2 and all(w in ("1", "2", "3", "4", "5", "6") for w in words):
        return int(words[0]), int(words[1])
    try:
        return parse_dice(" ".join(words))
    except ValueError as exc:
        raise typer.BadParameter(_("{error}; or give two dice 1-6").format(error=exc)) from None
