"""``tavlakit board`` and ``tavlakit moves``: one position."""

from __future__ import annotations

import re
from pathlib import Path

import typer

from ..engine.dicenames import parse_dice
from ..engine.matchid import parse_id
from ..engine.position import render
from ..engine.rules import Rules
from ..formats.position_text import PositionRecord, read_positions
from ..i18n import _
from ..record.problem import ProblemError
from ..replay.legality import explain, judge
from .common import RULES_HELP, default_numbering, fail, parse_numbering, parse_rules

ID_HELP = _(
    "A GNU Backgammon Position ID, gnubg's PositionID:MatchID, an XGID, or a position text file "
    "(XG, BGBlitz, gnubg's analysed game export)."
)
DECISION_HELP = _("Which analysed decision of a position text (1 = the first; gnubg's exports hold many).")


def position_file(text: str) -> list[PositionRecord] | None:
    """The analysed decisions of a position text file, when ``text`` names a file
    (its problems are printed on stderr); ``None`` for an ID."""
    path = Path(text)
    if not path.is_file():
        if path.suffix.lower() == ".txt" or path.exists():  # a Position ID has no dot
            raise fail(_("{path}: not a file tavlakit can read").format(path=path))
        return None
    try:
        records = read_positions(path)
    except (ProblemError, OSError) as exc:
        raise fail(str(exc.problem) if isinstance(exc, ProblemError) else str(exc)) from None
    for problem in records[0].problems if records else []:
        typer.echo(str(problem), err=True)
    if not records:
        raise fail(_("{path}: no analysed position in it").format(path=path))
    return records


def pick(records: list[PositionRecord], decision: int) -> PositionRecord:
    """Decision number ``decision`` (1-based), or a command-line error."""
    if not 1 <= decision <= len(records):
        raise fail(_("--decision is 1 to {count}, not {number}").format(count=len(records), number=decision))
    return records[decision - 1]


def describe(record: PositionRecord, flip: bool = False) -> list[str]:
    """The decision and its candidates, one line each, as the file gives
    them; with ``flip`` the plays' points are written ``25 - p``, as the
    picture numbers them (the side on roll is Black in the absolute numbering)."""
    what = _("to play {a}{b}").format(a=record.dice[0], b=record.dice[1]) if record.dice else _("cube decision")
    lines = [_("{what}; analysed at {level}").format(what=what, level=record.level or _("an unnamed level"))]
    for number, candidate in enumerate(record.candidates, 1):
        text = candidate.play.notation(flip=True) if flip and candidate.play is not None else candidate.text
        lines.append(
            _("{number}. {text}  equity {equity:+.3f}  error {error:.3f}").format(
                number=number, text=text, equity=candidate.equity, error=candidate.error
            )
        )
    return lines


def board(
    position_id: str = typer.Argument(..., help=ID_HELP),
    decision: int = typer.Option(1, "--decision", help=DECISION_HELP),
    svg_out: Path | None = typer.Option(None, "--svg", help=_("Also write the board as an SVG picture here.")),
    numbering: str | None = typer.Option(
        None,
        help=_(
            "Point numbers: gnubg or relative (from the player on "
            "roll) or absolute (White 24->1, Black 1->24). Default: absolute "
            "in Turkish (--lang tr), else gnubg."
        ),
    ),
    size: int = typer.Option(400, help=_("Width of the picture in pixels (50-10000).")),
    flipped: bool = typer.Option(False, "--flipped", help=_("Draw the player on roll at the top.")),
) -> None:
    """Show a position as an ASCII board; with --svg also as a picture (dice, cube, score from the ID)."""
    style = default_numbering() if numbering is None else parse_numbering(numbering)
    if not 50 <= size <= 10000:
        raise fail(_("--size is a width of 50 to 10000 pixels, not {size}").format(size=size))
    records = position_file(position_id)
    record = pick(records, decision) if records else None
    try:
        position, state = (record.position, record.state) if record else parse_id(position_id)
    except ValueError as exc:
        raise fail(str(exc)) from None
    player = state.on_roll if state else 0
    typer.echo(render(position, numbering=style, player=player))
    if record is not None:
        typer.echo("\n".join(describe(record, style.flips(player))))
    if svg_out is None:
        return
    from ..pictures import svg  # not imported by the other commands

    best = record.best if record else None
    names = None
    if record and record.names:
        names = record.names if player == 0 else (record.names[1], record.names[0])
    picture = svg.board(
        position,
        size=size,
        flipped=flipped,
        numbering=style,
        play=best.play if best else None,
        names=names,
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
    position_id: str = typer.Argument(
        ...,
        help=_(
            "GNU Backgammon Position ID (player on roll moves), or a "
            "position text file: its candidate plays are checked."
        ),
    ),
    roll: list[str] | None = typer.Argument(
        None,
        help=_('The roll: two dice (6 5, 65 or 6-5) or its Tavla name ("şeş beş"); a position text gives its own.'),
    ),
    rules: str = typer.Option("backgammon", help=RULES_HELP),
) -> None:
    """List every legal play for a roll, one per resulting position; for a
    position text, say whether each analysed play is legal (exit 1 if one is not)."""
    records = position_file(position_id)
    if records is not None:
        raise typer.Exit(check_candidates(records, parse_rules(rules)))
    if not roll:
        raise typer.BadParameter(_("give the roll: two dice (6 5) or a Tavla name"))
    try:
        pos = parse_id(position_id)[0]  # the IDs board takes: Position ID, PosID:MatchID, XGID
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    for play in pos.legal_plays(parse_roll(roll), parse_rules(rules)):
        typer.echo(str(play) or _("(no move)"))


def check_candidates(records: list[PositionRecord], rules: Rules) -> int:
    """Print, for every checker decision, whether each candidate play is legal; 1 if one is not."""
    status = 0
    for number, record in enumerate(records, 1):
        if record.dice is None:
            continue
        header = _("decision {number}: {position} to play {a}{b}").format(
            number=number, position=record.position.position_id(), a=record.dice[0], b=record.dice[1]
        )
        typer.echo(header)
        for rank, candidate in enumerate(record.candidates, 1):
            written = candidate.play.moves if candidate.play is not None else None
            if written is None:
                typer.echo(_("  {rank}. {text}: cannot be read").format(rank=rank, text=candidate.text))
                status = 1
                continue
            verdict = judge(record.position.board, record.dice, written, rules)
            if verdict.after is not None:
                typer.echo(_("  {rank}. {text}: legal").format(rank=rank, text=candidate.text))
            else:
                typer.echo(
                    _("  {rank}. {text}: not legal: {why}").format(
                        rank=rank, text=candidate.text, why=explain(verdict, written).message
                    )
                )
                status = 1
    if not any(record.dice for record in records):
        typer.echo(_("a cube decision: no plays to check"))
    return status


def parse_roll(words: list[str]) -> tuple[int, int]:
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
