"""``tavlakit board`` and ``tavlakit moves``: one position."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Optional

import typer

from ..dicenames import parse_dice
from ..i18n import _, language
from ..matchid import MatchState, parse_gnubg_id, parse_xgid
from ..position import Position, render
from .common import RULES_HELP, fail, parse_position, parse_rules

ID_HELP = _("A GNU Backgammon Position ID, gnubg's PositionID:MatchID, or an XGID.")


def default_numbering() -> str:
    """The seeds' absolute numbering in Turkish, gnubg's elsewhere."""
    return "absolute" if language() == "tr" else "gnubg"


def parse_board_id(text: str) -> tuple[Position, MatchState | None]:
    """A position (seen by the player on roll) and, when the ID carries one,
    the match state; a ``ValueError`` says what is wrong with the ID.

    >>> parse_board_id("4HPwATDgc/ABMA")[1] is None
    True
    >>> parse_board_id("4HPwATDgc/ABMA:cAkgAVAAAAAE")[1].length
    9
    """
    body = text.strip()
    if body.upper().startswith("XGID=") or body.count(":") > 1:
        return parse_xgid(body)
    if ":" in body:
        return parse_gnubg_id(body)
    return Position.from_position_id(body), None


def board(
    position_id: str = typer.Argument(..., help=ID_HELP),
    svg_out: Optional[Path] = typer.Option(None, "--svg", help=_("Also write the board as an SVG picture here.")),
    numbering: Optional[str] = typer.Option(None, help=_("Point numbers: gnubg (from the player on roll) or "
                                            "absolute (White 24->1, Black 1->24). Default: absolute in "
                                            "Turkish (--lang tr), else gnubg.")),
    size: int = typer.Option(400, help=_("Width of the picture in pixels (50-10000).")),
    flipped: bool = typer.Option(False, "--flipped", help=_("Draw the player on roll at the top.")),
) -> None:
    """Show a position as an ASCII board; with --svg also as a picture (dice, cube, score from the ID)."""
    numbering = numbering or default_numbering()
    if numbering not in ("gnubg", "absolute"):
        raise fail(_("--numbering is gnubg or absolute, not {name!r}").format(name=numbering))
    if not 50 <= size <= 10000:
        raise fail(_("--size is a width of 50 to 10000 pixels, not {size}").format(size=size))
    try:
        position, state = parse_board_id(position_id)
    except ValueError as exc:
        raise fail(str(exc)) from None
    player = state.on_roll if state else 0
    if numbering == "absolute":
        typer.echo(render(position, to_move="white" if player == 0 else "black"))
    else:
        typer.echo(str(position))
    if svg_out is None:
        return
    from .. import svg  # not imported by the other commands

    style: svg.Numbering = "absolute" if numbering == "absolute" else "gnubg"
    picture = svg.board(
        position, size=size, flipped=flipped, numbering=style,
        dice=state.dice if state and all(state.dice) else None,
        cube=(state.cube, state.cube_owner) if state and not state.crawford else None,
        score=state.score if state else None,
        length=state.length if state else 0,
        player=player,
        on_roll=state is None or state.state == "playing",
    )
    try:
        svg_out.write_text(picture, encoding="utf-8")
    except OSError as exc:
        raise fail(_("cannot write {path}: {reason}").format(path=svg_out, reason=exc.strerror)) from None


def moves(
    position_id: str = typer.Argument(..., help=_("GNU Backgammon Position ID (player on roll moves).")),
    roll: List[str] = typer.Argument(..., help=_("The roll: two dice (6 5, 65 or 6-5) or its Tavla name "
                                                 "(\"şeş beş\").")),
    rules: str = typer.Option("backgammon", help=RULES_HELP),
) -> None:
    """List every legal play for a roll, one per resulting position."""
    pos = parse_position(position_id)
    for play in pos.legal_plays(parse_roll(roll), parse_rules(rules)):
        typer.echo(str(play) or _("(no move)"))


def parse_roll(words: List[str]) -> tuple[int, int]:
    """Two dice (``6 5``, ``65``, ``6-5``) or a Tavla dice name ("şeş beş",
    also as two words), or a clear command-line error.

    >>> parse_roll(["65"]), parse_roll(["6-5"]), parse_roll(["6", "5"]), parse_roll(["ses", "bes"])
    ((6, 5), (6, 5), (6, 5), (6, 5))
    """
    text = " ".join(words)
    dice = re.fullmatch(r"\s*([1-6])\s*-?\s*([1-6])\s*", text)
    if dice:
        return int(dice[1]), int(dice[2])
    if re.fullmatch(r"[\d\s-]*", text):
        raise typer.BadParameter(_("{roll!r} is not a roll: two dice 1-6, as 6 5, 65 or 6-5").format(roll=text))
    try:
        return parse_dice(" ".join(words))
    except ValueError as exc:
        raise typer.BadParameter(_("{error}; or give two dice 1-6").format(error=exc)) from None
