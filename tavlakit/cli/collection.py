"""What the commands over collections share: ``--jobs``, player names,
and the matches stored twice."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..collections.names import PlayerNames
from ..i18n import N_, _

if TYPE_CHECKING:
    from ..analysis.frames import Analysis


def jobs_option() -> Any:
    """The ``--jobs/-j N`` option: processes to use (default every core)."""
    return typer.Option(
        None, "--jobs", "-j", min=1, help=_("Processes to use (default: every core; 1: in this process).")
    )


NAMES_HELP = N_("A file of 'alias = name' lines joining player names that are one person (implies --merge-names).")
MERGE_HELP = N_("Merge player names that differ only in case, spaces or a rating suffix (BlueNote,1660).")
NET_HELP = N_(
    "Neural-net weights to evaluate with: gnubg's binary gnubg.wd (Debian: "
    "/usr/lib/gnubg/gnubg.wd) gives gnubg's own numbers; default gnubg-nn's own."
)


def choose_net(net: Path | None) -> str | None:
    """Evaluate with ``net`` from now on (a bad file: a usage error); the
    net in use, for the worker processes (None, gnubg-nn's own, as a
    command starts with: the net is not loaded then)."""
    if net is None:
        return None
    from ..evaluation.net import net_in_use, use_net

    try:
        use_net(net)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return net_in_use()


def rename(result: Analysis, names: Path | None, merge: bool) -> Analysis:
    """The analysis with player names merged as the options ask."""
    if names is None and not merge:
        return result
    from ..analysis.collection import rename_players

    try:
        chosen = PlayerNames.load(names) if names is not None else PlayerNames()
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--names") from None
    return rename_players(result, chosen)


def say_duplicates(result: Analysis) -> None:
    """One info line per match stored twice, then how many were counted once."""
    from ..analysis.collection import duplicate_note

    twins = [p for p in result.problems if p.code == "duplicate-match"]
    for problem in twins:
        typer.echo(str(problem), err=True)
    if twins:
        typer.echo(duplicate_note(len(twins)), err=True)


__all__ = ["MERGE_HELP", "NAMES_HELP", "jobs_option", "rename", "say_duplicates"]
