"""``tavlakit rollout``: settle a play or a cube decision by rolling it out."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from ..engine.matchid import MatchState, parse_id
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.levels import EXPERT, level as as_level
from ..formats.position_text import read_positions
from ..i18n import _
from ..record.problem import ProblemError
from .board import pick
from .collection import jobs_option
from .common import RULES_DEFAULT_HELP, RULES_HELP, SCHEDULER_HELP, fail, parse_rules


def rollout(
    position_id: str = typer.Argument(
        ...,
        help=_(
            "A Position ID, gnubg's PositionID:MatchID, an XGID, a position text file (XG, BGBlitz, gnubg's "
            "export) or a record file (.mat, .sgf...) and --turn."
        ),
    ),
    turn: int = typer.Option(
        1,
        "--turn",
        min=1,
        help=_("Which roll of a record file (1 = the first, every game's in order), or decision of a position text."),
    ),
    trials: int = typer.Option(1296, "--trials", help=_("Games played out per alternative.")),
    truncate: int = typer.Option(0, "--truncate", help=_("Stop each game after this many plies (0: play to the end).")),
    level: str = typer.Option(
        EXPERT.name,
        "--level",
        help=_(
            "How the trials are played: expert (0 ply), 1-ply or world-class (gnubg's chequer play and cube"
            " decisions at 1 or 2 plies)."
        ),
    ),
    seed: int = typer.Option(1, "--seed", help=_("The dice's seed: the same seed gives the same numbers.")),
    plays: int = typer.Option(5, "--plays", min=1, help=_("How many of the roll's best plays to roll out.")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    jobs: int | None = jobs_option(),
    scheduler: str | None = typer.Option(None, help=_(SCHEDULER_HELP)),
    as_json: bool = typer.Option(False, "--json", help=_("Print the results as JSON.")),
) -> None:
    """Roll out a position: with dice, its best plays; without, the cube
    actions (no double, double/take rolled out with the same dice;
    double/pass is the cash), as GNU Backgammon's rollout does: 0-ply play,
    cubeful at the score, quasi-random dice, variance reduction.

    The trials done are kept in the cache folder: a rollout interrupted
    (Ctrl-C, a crash) continues where it stopped when run again, with the
    same numbers as one never stopped; so do -j and --scheduler.

    Exit status: 0 done, 2 bad input (a position that cannot be read, trials
    or truncation out of range, a scheduler that does not answer), 130
    interrupted (the trials done are kept).
    """
    from ..analysis.rollouts import MOST_TRIALS  # (pandas and the nets: loaded when a rollout is asked for)

    if not 1 <= trials <= MOST_TRIALS:
        raise fail(_("--trials is 1 to {most}, not {trials}").format(most=MOST_TRIALS, trials=trials))
    if truncate < 0:
        raise fail(_("--truncate is 0 (none) or more plies, not {plies}").format(plies=truncate))
    pos, state, chosen = _position(position_id, turn, parse_rules(rules) if rules else None)
    try:
        frame = _run(pos, state, trials, truncate, level, seed, plays, chosen, jobs, scheduler)
    except ValueError as exc:
        raise fail(str(exc)) from None
    except ImportError:
        raise fail(_("--scheduler needs Dask: pip install 'tavlakit[dask]'")) from None
    except OSError as exc:
        if scheduler is None:
            raise
        message = _("error: cannot reach the Dask scheduler at {address}: {message}")
        typer.echo(message.format(address=scheduler, message=exc), err=True)
        raise typer.Exit(2) from None
    if as_json:
        rows = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
        typer.echo(json.dumps({"settings": frame.attrs, "alternatives": rows}, indent=1))
        return
    _show(frame)


def _position(text: str, turn: int, rules: Rules | None) -> tuple[Position, MatchState | None, Rules]:
    """The position an ID, a position text file's decision or a record's
    roll gives (and the rules: the record's unless given), or a command-line error."""
    path = Path(text)
    if path.is_file():
        try:
            records = read_positions(path)
        except (ProblemError, OSError):
            records = []
        if records:
            record = pick(records, turn)
            return record.position, record.state, rules or Rules.preset("backgammon")
        from ..analysis.rollouts import record_turn

        try:
            return record_turn(path, turn, rules)
        except (ValueError, OSError) as exc:
            raise fail(str(exc)) from None
    if path.suffix or path.exists():  # a Position ID has no dot
        raise fail(_("{path}: not a file tavlakit can read").format(path=path))
    try:
        return (*parse_id(text), rules or Rules.preset("backgammon"))
    except ValueError as exc:
        raise fail(str(exc)) from None


def _run(pos: Position, state: MatchState | None, *args: Any) -> Any:
    """The rollout, with a progress bar on a terminal (trials and the standard error)."""
    from ..analysis.rollouts import rollout as roll_out

    trials, truncate, level, seed, plays, rules, jobs, scheduler = args
    options = {"trials": trials, "truncate": truncate, "level": level, "seed": seed, "plays": plays}
    if not sys.stderr.isatty():
        return roll_out(pos, state, rules=rules, jobs=jobs, scheduler=scheduler, **options)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(*Progress.get_default_columns(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(_("rolling out"), total=trials)

        def tick(done: int, total: int, se: float) -> None:
            shown = _("rolling out: {done} of {total} trials, standard error {se:.4f}")
            bar.update(task, completed=done, description=shown.format(done=done, total=total, se=se))

        return roll_out(pos, state, rules=rules, jobs=jobs, scheduler=scheduler, progress=tick, **options)


def _show(frame: Any) -> None:
    """The results as a table."""
    from rich.console import Console
    from rich.table import Table

    attrs = frame.attrs
    title = _("rollout: {trials} trials, seed {seed}, {truncation}").format(
        trials=attrs["trials"],
        seed=attrs["seed"],
        truncation=_("truncated at {plies} plies").format(plies=attrs["truncate"])
        if attrs["truncate"]
        else _("no truncation"),
    )
    table = Table(title=f"{title}, {as_level(attrs['level']).describe()}")
    for name in (_("alternative"), _("equity"), "±", _("cubeless"), _("win"), _("win gammon"), _("lose gammon")):
        table.add_column(name, justify="left" if name == _("alternative") else "right")
    for row in frame.itertuples(index=False):

        def number(value: float, sign: bool = True) -> str:
            return "" if value != value else (f"{value:+.4f}" if sign else f"{value:.4f}")

        table.add_row(
            row.alternative, number(row.equity), number(row.equity_se, False), number(row.cubeless),
            number(row.win, False), number(row.win_gammon, False), number(row.lose_gammon, False),
        )  # fmt: skip
    Console().print(table)
    if "decision" in attrs:
        typer.echo(_("right cube action: {action}").format(action=attrs["decision"]))
