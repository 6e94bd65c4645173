"""``tavlakit mistakes``: a player's worst decisions as a page to study, and an Anki deck."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..formats import find_records
from ..formats.text import read_stream
from ..i18n import _, ngettext
from .collection import jobs_option
from .common import (
    PLY_HELP,
    RULES_DEFAULT_HELP,
    RULES_HELP,
    default_numbering,
    fail,
    level_help,
    parse_level,
    parse_numbering,
    parse_rules,
)
from .console import progress_bar

if TYPE_CHECKING:
    from ..analysis.mistakes import Mistake
    from ..engine.numbering import Numbering


def mistakes(
    paths: list[Path] = typer.Argument(..., help=_("Record files or folders (searched recursively).")),
    output: Path = typer.Option(..., "--output", "-o", help=_("The page to write (one self-contained HTML file).")),
    player: str | None = typer.Option(None, help=_("Whose mistakes (a name as the files write it); default both.")),
    top: int = typer.Option(20, min=1, help=_("How many mistakes, the worst first.")),
    min_error: float = typer.Option(
        0.0, "--min-error", min=0.0, help=_("Only decisions that lost at least this much equity (EMG).")
    ),
    anki: Path | None = typer.Option(None, "--anki", help=_("Also write an Anki deck (.apkg): one note per mistake.")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    level: str | None = typer.Option(None, "--level", help=level_help()),
    ply: int | None = typer.Option(None, help=_(PLY_HELP)),
    numbering: str | None = typer.Option(
        None, help=_("Point numbers: relative (gnubg) or absolute. Default: absolute in Turkish (--lang tr).")
    ),
    jobs: int | None = jobs_option(),
    verify: int = typer.Option(
        0,
        "--verify",
        min=0,
        help=_("Roll out the N worst mistakes and show the rolled-out equities beside the level's."),
    ),
    trials: int = typer.Option(1296, "--trials", min=1, help=_("Trials of each --verify rollout.")),
) -> None:
    """A player's worst decisions, chequer play and cube, as one page to study.

    Each mistake shows the board before the roll with the dice and the
    score, the best play and the play made as arrows of two colours, the
    candidates as GNU Backgammon's hint lists them with their equities, and
    the equity lost; the worst first. The page works offline and on a phone.
    --anki also writes the mistakes as Anki flashcards (front: the board and
    "your play?"; back: the best play, the one made and the candidates).

    Exit status: 0 done, 2 bad input (a file nothing could be read from, a
    player not in the files, a page that cannot be written).
    """
    chosen = parse_rules(rules) if rules else None
    judged = parse_level(level, ply)
    style = default_numbering() if numbering is None else parse_numbering(numbering)
    files = find_records(paths)
    if not files:
        raise fail(_("no record files found"))
    absent = [str(p) for p in files if not p.exists() and read_stream(p) is None]
    if absent:
        raise fail(_("{paths}: no such file or folder").format(paths=", ".join(absent)))
    from ..pictures.study_files import study, write  # (pandas and the nets: only now)

    try:
        with progress_bar(_("analysing")) as bar:
            studied = study(files, player=player, top=top, min_error=min_error, rules=chosen, level=judged,
                            jobs=jobs, progress=bar)  # fmt: skip
        if studied.mistakes and verify:
            from ..analysis.rollouts import verified

            with progress_bar(_("rolling out"), min_items=1) as bar:
                studied.mistakes = verified(studied.mistakes, verify, trials=trials, jobs=jobs, progress=bar)
        if studied.analysed:
            write(studied, output, anki, player=player, numbering=style, files=len(files))
    except ValueError as exc:  # a player not in the files
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(_("cannot write {path}: {reason}").format(path=exc.filename, reason=exc.strerror)) from None
    for problem in studied.unread:
        typer.echo(str(problem), err=True)
    if studied.written:
        _report(studied.mistakes, output, anki, verify, style)
    if studied.unread or not studied.written:
        raise typer.Exit(2)  # (an input nothing could be read from, said above: as show does)


def _report(found: list[Mistake], output: Path, anki: Path | None, verify: int, numbering: Numbering) -> None:
    """What was written where, and the ``verify`` worst mistakes' rollouts as a table."""
    lost, level = sum(m.error_emg for m in found), found[0].level.describe() if found else ""
    written = ngettext(
        "{count} mistake ({lost:.3f} EMG lost, {level}) written to {path}",
        "{count} mistakes ({lost:.3f} EMG lost, {level}) written to {path}",
        len(found),
    )
    typer.echo(written.format(count=len(found), lost=lost, level=level, path=output))
    if anki is not None:
        notes = ngettext("{count} note written to {path}", "{count} notes written to {path}", len(found))
        typer.echo(notes.format(count=len(found), path=anki))
    if verify:
        _verified_table(found[:verify], numbering=numbering)


def _verified_table(found: Sequence[Mistake], numbering: Numbering) -> None:
    """The rolled-out mistakes as a table: each rolled-out alternative's
    equity at the analysis level beside the rollout's, and the verdict."""
    from rich.console import Console
    from rich.table import Table

    from ..pictures.study import play_text

    trials = next((m.rollout.trials for m in found if m.rollout), 0)
    table = Table(title=_("the worst mistakes rolled out ({trials} trials each)").format(trials=trials))
    for name in ("#", _("decision"), _("alternative"), _("judged"), _("rolled out"), "±"):
        table.add_column(name, justify="left" if name in (_("decision"), _("alternative")) else "right")
    for rank, mistake in enumerate(found, 1):
        rolled = mistake.rollout
        if rolled is None:
            continue
        verdict = _("reversed") if rolled.reversed else _("confirmed")
        where = _("game {game}, turn {turn}").format(game=mistake.game, turn=mistake.turn)
        shown, second = str(rank), verdict
        for index, (equity, se) in sorted(rolled.equities.items()):
            choice = mistake.candidates[index]
            text = play_text(choice, mistake, numbering)
            text = f"{text} *" if choice.played else text
            table.add_row(shown, where, text, f"{choice.equity:+.3f}", f"{equity:+.3f}", f"{se:.3f}")
            shown, where, second = "", second, ""
    Console().print(table)
    typer.echo(_("* the decision made; equities in EMG (a cube decision: the doubler's)"))
