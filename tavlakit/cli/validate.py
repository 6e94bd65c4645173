"""``tavlakit validate``: replay every move and report what is wrong, and where."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import List, Optional

import typer

from ..console import progress
from ..formats import find_records, open_games
from ..i18n import _
from ..problem import ProblemError
from ..replay import default_rules, validate as validate_match
from .common import RULES_DEFAULT_HELP, RULES_HELP, SourceLines, internal_problem, parse_rules, show_problem


def validate(
    paths: List[Path] = typer.Argument(..., help=_("Transcript files or folders (.mat .txt .sgf .json).")),
    rules: Optional[str] = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    strict: bool = typer.Option(False, "--strict", help=_("Stop at the first error.")),
    as_json: bool = typer.Option(False, "--json", help=_("One JSON object per problem per line, then a summary.")),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("Print only the summary.")),
    show_board: bool = typer.Option(False, "--show-board", help=_("Show the position at each problem.")),
) -> None:
    """Replay every move of the transcripts and report what is wrong, and where.

    Exit status: 0 no errors, 1 errors found, 2 a file could not be read.
    """
    chosen = parse_rules(rules) if rules else None
    files = find_records(paths)
    if not files:
        typer.echo(_("no record files found"), err=True)
        raise typer.Exit(2)
    lines = SourceLines()
    codes: Counter[str] = Counter()
    totals = Counter(files=0, games=0, plays=0, errors=0, warnings=0, unreadable=0)
    for path in progress(files, _("validating")):
        report = None
        try:
            match, games = open_games(path)
            report = validate_match(match, chosen or default_rules(match), strict=strict, games=games)
            problems = report.problems
        except ProblemError as exc:
            problems = [exc.problem]
        except Exception as exc:  # a bug in tavlakit: say so, keep checking the other files
            problems = [internal_problem(path, exc)]
        totals["files"] += 1
        if report is not None:
            totals["games"] += report.games
            totals["plays"] += report.plays
        for problem in problems:
            codes[problem.code] += 1
            totals["errors" if problem.severity == "error" else "warnings"] += 1
            if problem.code in ("unreadable", "internal"):
                totals["unreadable"] += 1
            if as_json:
                typer.echo(json.dumps({k: v for k, v in problem.to_dict().items() if k != "expected"},
                                      ensure_ascii=False))
            elif not quiet:
                typer.echo(show_problem(problem, lines, show_board))
        if report is None and strict:
            break
    summary = dict(totals)
    summary["codes"] = dict(sorted(codes.items()))
    if as_json:
        typer.echo(json.dumps({"summary": summary}, ensure_ascii=False))
    else:
        by_code = ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))
        typer.echo(_("{files} file(s), {games} game(s), {plays} play(s): {errors} error(s), {warnings} warning(s)")
                   .format(**totals) + (f" [{by_code}]" if by_code else ""))
    if totals["unreadable"]:
        raise typer.Exit(2)
    raise typer.Exit(1 if totals["errors"] else 0)
