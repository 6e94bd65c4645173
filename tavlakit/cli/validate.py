"""``tavlakit validate``: replay every move and report what is wrong, and where.

Files are checked on every core (:func:`tavlakit.collections.validation.check_files`);
the output is the same, in the same order, whatever ``--jobs`` says.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import typer

from ..collections.validation import check_files
from ..formats import find_records
from ..i18n import _
from ..record.problem import Problem
from .collection import jobs_option
from .common import RULES_DEFAULT_HELP, RULES_HELP, SourceLines, fail, parse_rules, show_problem
from .console import progress_bar


def validate(
    paths: list[Path] = typer.Argument(..., help=_("Transcript files or folders (.mat .txt .sgf .json .xg).")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    strict: bool = typer.Option(False, "--strict", help=_("Stop at the first error.")),
    as_json: bool = typer.Option(False, "--json", help=_("One JSON object per problem per line, then a summary.")),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("Print only the summary.")),
    show_board: bool = typer.Option(False, "--show-board", help=_("Show the position at each problem.")),
    jobs: int | None = jobs_option(),
) -> None:
    """Replay every move of the transcripts and report what is wrong, and where.

    The same match found twice (same dice, plays, cube and results) is an
    info line. Exit status: 0 no errors, 1 errors in the records, 2 an input
    nothing could be read from (missing, binary, empty, not a record) or a
    bad argument, 130 interrupted.
    """
    chosen = parse_rules(rules) if rules else None
    files = find_records(paths)
    lines = SourceLines()
    codes: Counter[str] = Counter()
    totals = Counter(files=0, games=0, plays=0, errors=0, warnings=0, infos=0, unreadable=0)

    def say(problem: Problem) -> None:
        codes[problem.code] += 1
        totals[{"error": "errors", "warning": "warnings"}.get(problem.severity, "infos")] += 1
        if as_json:
            shown = {k: v for k, v in problem.to_dict().items() if k != "expected"}
            typer.echo(json.dumps(shown, ensure_ascii=False))
        elif not quiet:
            typer.echo(show_problem(problem, lines, show_board))

    for note in files.problems:  # files of kinds tavlakit does not read, said before the others
        say(note)
    with progress_bar(_("validating")) as bar:
        for _path, checked in check_files(files, chosen, strict=strict, jobs=jobs, progress=bar) if files else ():
            totals["files"] += 1
            totals["games"] += checked.games
            totals["plays"] += checked.plays
            totals["unreadable"] += checked.unreadable
            for problem in checked.problems:
                say(problem)
    summary: dict[str, object] = dict(totals)
    summary["codes"] = dict(sorted(codes.items()))
    if as_json:
        typer.echo(json.dumps({"summary": summary}, ensure_ascii=False))
    else:
        by_code = ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))
        line = (
            _(
                "{files} file(s), {games} game(s), {plays} play(s): {errors} error(s), {warnings} warning(s), "
                "{infos} note(s)"
            )
            if totals["infos"]
            else _("{files} file(s), {games} game(s), {plays} play(s): {errors} error(s), {warnings} warning(s)")
        )
        stopped = " " + _("(--strict: stopped at the first error)") if strict and totals["errors"] else ""
        typer.echo(line.format(**totals) + (f" [{by_code}]" if by_code else "") + stopped)
    if not files:
        raise fail(_("no record files found"))
    if totals["unreadable"]:
        raise typer.Exit(2)
    raise typer.Exit(1 if totals["errors"] else 0)
