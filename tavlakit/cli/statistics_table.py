"""``tavlakit stats --by match``: gnubg's statistics of each match, in gnubg's layout.

Four sections as gnubg's ``show statistics match``: checker play, luck,
cube, overall; one column per player. Where the record holds its own
analyser's figures (an ``.xg`` file: XG's), its error and luck totals are
lines beside ours, named after it. ``--json`` and ``--csv`` give the
frame (:func:`tavlakit.analysis.statistics.statistics_frame`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..engine.rules import Rules
from ..evaluation.levels import Level
from ..i18n import N_, _
from .common import missing
from .console import MIN_ITEMS, progress_bar

if TYPE_CHECKING:
    import pandas as pd

Cell = Callable[[Any, bool], "str | None"]
"""One player's cell of a line (``None``: no such figure; a line without
any is left out)."""


def _count(name: str) -> Cell:
    return lambda row, money: str(int(row[name]))


def _equity(name: str) -> Cell:
    """EMG with MWC (or, for money, points) in brackets."""

    def cell(row: Any, money: bool) -> str:
        emg, mwc = row[name + "_emg"], row[name + "_mwc"]
        return f"{emg:.3f} ({mwc:.3f})" if money else f"{emg:.3f} ({100 * mwc:.2f}%)"

    return cell


def _category(name: str) -> Cell:
    def cell(row: Any, money: bool) -> str:
        return f"{int(row[name])} ({_equity(name)(row, money)})"

    return cell


def _rate(total: str, per: str) -> Cell:
    """mEMG per decision, MWC per decision in brackets."""

    def cell(row: Any, money: bool) -> str:
        n = row[per]
        if not n:
            return ""
        emg, mwc = 1000 * row[total + "_emg"] / n, row[total + "_mwc"] / n
        return f"{emg:.1f} ({mwc:.3f})" if money else f"{emg:.1f} ({100 * mwc:.3f}%)"

    return cell


def _number(name: str, digits: int = 1) -> Cell:
    return lambda row, money: "" if missing(row[name]) else f"{row[name]:.{digits}f}"


def _result(name: str) -> Cell:
    return lambda row, money: f"{row[name]:+.3f}" if money else f"{100 * row[name]:+.2f}%"


def _words(name: str) -> Cell:
    return lambda row, money: "" if missing(row[name]) else _(str(row[name]))


def _recorded(name: str, digits: int = 3) -> Cell:
    """The record's own analyser's figure (XG's: a total in EMG, or its PR),
    as it wrote it; the line's label names it (``{program}``)."""
    return lambda row, money: None if missing(row[name]) else f"{row[name]:.{digits}f}"


#: The sections and lines of gnubg's layout: (label, how the cell is made).
LAYOUT: tuple[tuple[str, tuple[tuple[str, Cell], ...]], ...] = (
    (
        N_("Checker play"),
        (
            (N_("Total moves"), _count("total_moves")),
            (N_("Unforced moves"), _count("unforced_moves")),
            (N_("Moves marked doubtful"), _count("moves_doubtful")),
            (N_("Moves marked bad"), _count("moves_bad")),
            (N_("Moves marked very bad"), _count("moves_very_bad")),
            (N_("Error total EMG (MWC)"), _equity("checker_error")),
            (N_("{program}'s error total EMG"), _recorded("recorded_checker_error")),
            (N_("Error rate mEMG (MWC)"), _rate("checker_error", "unforced_moves")),
            (N_("Checker play rating"), _words("checker_rating")),
        ),
    ),
    (
        N_("Luck"),
        (
            (N_("Rolls marked very lucky"), _count("rolls_very_lucky")),
            (N_("Rolls marked lucky"), _count("rolls_lucky")),
            (N_("Rolls marked unlucky"), _count("rolls_unlucky")),
            (N_("Rolls marked very unlucky"), _count("rolls_very_unlucky")),
            (N_("Luck total EMG (MWC)"), _equity("luck")),
            (N_("{program}'s luck total EMG"), _recorded("recorded_luck")),
            (N_("Luck rate mEMG (MWC)"), _rate("luck", "total_moves")),
            (N_("Luck rating"), _words("luck_rating")),
        ),
    ),
    (
        N_("Cube"),
        (
            (N_("Total cube decisions"), _count("cube_decisions")),
            (N_("Close or actual cube decisions"), _count("close_cube_decisions")),
            (N_("Doubles offered"), _count("doubles")),
            (N_("Doubles taken"), _count("takes")),
            (N_("Doubles passed"), _count("passes")),
            (N_("Missed doubles below CP (EMG (MWC))"), _category("missed_doubles_below_cp")),
            (N_("Missed doubles above CP (EMG (MWC))"), _category("missed_doubles_above_cp")),
            (N_("Wrong doubles below DP (EMG (MWC))"), _category("wrong_doubles_below_dp")),
            (N_("Wrong doubles above TG (EMG (MWC))"), _category("wrong_doubles_above_tg")),
            (N_("Wrong takes (EMG (MWC))"), _category("wrong_takes")),
            (N_("Wrong passes (EMG (MWC))"), _category("wrong_passes")),
            (N_("Error total EMG (MWC)"), _equity("cube_error")),
            (N_("{program}'s error total EMG"), _recorded("recorded_cube_error")),
            (N_("Error rate mEMG (MWC)"), _rate("cube_error", "close_cube_decisions")),
            (N_("Cube decision rating"), _words("cube_rating")),
        ),
    ),
    (
        N_("Overall"),
        (
            (N_("Error rate mEMG"), _number("error_rate_memg")),
            (N_("Snowie error rate"), _number("snowie_error_rate")),
            (N_("PR (XG's Performance Rating)"), _number("pr", 2)),
            (N_("{program}'s own PR"), _recorded("recorded_pr", 2)),
            (N_("Overall rating"), _words("overall_rating")),
            (N_("Actual result"), _result("actual_result")),
            (N_("Luck adjusted result"), _result("luck_adjusted_result")),
            (N_("Luck based FIBS rating diff."), _number("fibs_rating_luck_difference", 2)),
            (N_("Error based abs. FIBS rating"), _number("fibs_rating_from_errors", 1)),
            (N_("Checker play errors rating loss"), _number("fibs_rating_checker_loss", 1)),
            (N_("Cube errors rating loss"), _number("fibs_rating_cube_loss", 1)),
            (N_("Turns not judged"), _count("unjudged")),
        ),
    ),
)


def layout(frame: pd.DataFrame) -> list[str]:
    """The lines of the per-match tables."""
    out: list[str] = []
    rows = frame[frame["scope"] == "match"]
    for path, pair in rows.groupby("path", sort=False):
        pair = pair.sort_values("side")
        length = int(pair["length"].iloc[0])
        players = [row for _index, row in pair.iterrows()]
        program = next((by for by in pair["recorded_by"] if isinstance(by, str)), "")
        sections = _sections(players, not length, program)
        label_width = max(len(label) for _section, shown in sections for label, _cells in shown) + 2
        cells = [c for _s, shown in sections for _l, line in shown for c in line]
        texts = [str(r["player"]) for r in players] + cells
        width = max(len(text) for text in texts) + 2
        out.append(f"{path}: " + (_("{length}-point match").format(length=length) if length else _("money session")))
        out.append(" " * label_width + "".join(str(r["player"]).ljust(width) for r in players).rstrip())
        for section, shown in sections:
            out.append("")
            out.append(section)
            for label, line in shown:
                out.append(label.ljust(label_width) + "".join(c.ljust(width) for c in line).rstrip())
        out.append("")
    return out


def _sections(players: list[Any], money: bool, program: str) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each section's title and lines (a label, a cell per player) for one
    match's rows; a line no player has a figure for is left out."""
    sections = []
    for section, lines in LAYOUT:
        shown = []
        for label, cell in lines:
            found = [cell(row, money) for row in players]
            if any(c is not None for c in found):
                shown.append((_(label).format(program=program), [c or "" for c in found]))
        sections.append((_(section), shown))
    return sections


#: Where a money session's Jacoby rule came from, as the footer says it.
JACOBY_FROM = {
    "record": N_("as the record says"),
    "results": N_("as its results show (a gammon counted before the cube was turned)"),
    "gnubg": N_("gnubg's default: the record does not say"),
}


def run(
    files: list[Path],
    rules: Rules | None,
    met_path: Path | None,
    level: Level,
    json_output: bool,
    csv: Path | None,
    jobs: int | None = 1,
) -> None:
    """Print (or write) the statistics of ``files``
    (:func:`tavlakit.analysis.review.review`)."""
    from ..analysis.review import review

    try:
        with progress_bar(_("analysing"), 1 if level.chequer_plies else MIN_ITEMS) as bar:  # (deep: each item is slow)
            done = review(files, rules, met=met_path, level=level, jobs=jobs, progress=bar)
    except ValueError as exc:  # a file that is not a match equity table
        raise typer.BadParameter(str(exc), param_hint="--met") from None
    for problem in done.unread:
        typer.echo(str(problem), err=True)
    if done.statistics.empty:
        typer.echo(_("no game could be read from the files given"), err=True)
        raise typer.Exit(2)
    for turn in done.unjudged:
        typer.echo(
            _("{path}: game {game}, turn {turn}: {player}'s {kind} not judged: {reason}").format(
                path=turn["path"],
                game=turn["game"],
                turn=turn["turn"] + 1,
                player=turn["player"],
                kind=_(turn["kind"]),
                reason=_(turn["reason"]),
            ),
            err=True,
        )
    if csv is not None:
        done.statistics.to_csv(csv, index=False)
    if json_output:
        for record in json.loads(done.statistics.to_json(orient="records")):
            typer.echo(json.dumps(record, ensure_ascii=False))
    else:
        for line in layout(done.statistics):
            typer.echo(line)
        shown = _("the weights {path}").format(path=done.weights) if done.weights else _("gnubg-nn's own weights")
        typer.echo(_("Evaluated at {level} with {weights}").format(level=done.level.describe(), weights=shown))
        if done.met is not None:
            typer.echo(_("Match equity table: {met}").format(met=done.met))
        if done.tavla_met:
            typer.echo(_("Without a cube (Tavla): tavlakit's own match equity table (see docs/tavla-met.md)"))
        for jacoby, source, count in done.jacoby:
            said = (
                _("Money sessions: with the Jacoby rule, {why}")
                if jacoby
                else _("Money sessions: without the Jacoby rule, {why}")
            )
            more = " " + _("({count} file(s))").format(count=count) if len(done.jacoby) > 1 else ""
            typer.echo(said.format(why=_(JACOBY_FROM[source])) + more)
        if done.mars_outside_home:
            typer.echo(
                _("mars = outside home: the net's gammon chances stand in for mars chances (see docs/tavla-met.md)")
            )
    if done.unread:
        raise typer.Exit(2)  # an input nothing could be read from, said on stderr above (as --by player)
