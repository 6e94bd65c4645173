"""The ``tavlakit`` command line (Typer)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import List, Optional

import typer

from .analysis.command import stats
from .console import progress
from .formats import EXTENSIONS, FORMATS, find_records, open_games, read_match, write_match
from .formats.text import decode
from .position import Position
from .problem import Problem, ProblemError
from .record import rules_to_tags
from .replay import default_rules, validate as validate_match
from .rules import PRESETS, Rules

app = typer.Typer(
    help="Tavla and backgammon records: validate, convert, analyse.",
    no_args_is_help=True,
    add_completion=False,
)

RULES_HELP = f"Rule set: {', '.join(PRESETS)}."


def _rules(name: str) -> Rules:
    try:
        return Rules.preset(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _position(position_id: str) -> Position:
    try:
        return Position.from_position_id(position_id)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


@app.command()
def board(position_id: str = typer.Argument(..., help="GNU Backgammon Position ID.")) -> None:
    """Show a position as an ASCII board."""
    typer.echo(str(_position(position_id)))


@app.command()
def moves(
    position_id: str = typer.Argument(..., help="GNU Backgammon Position ID (player on roll moves)."),
    die1: int = typer.Argument(..., min=1, max=6),
    die2: int = typer.Argument(..., min=1, max=6),
    rules: str = typer.Option("backgammon", help=RULES_HELP),
) -> None:
    """List every legal play for a roll, one per resulting position."""
    pos = _position(position_id)
    for play in pos.legal_plays((die1, die2), _rules(rules)):
        typer.echo(str(play) or "(no move)")


class _Lines:
    """The source lines of files, read only when a problem needs showing."""

    def __init__(self) -> None:
        self.cache: dict[str, list[str]] = {}

    def get(self, file: str | None, line: int | None) -> str | None:
        if not file or not line:
            return None
        if file not in self.cache:
            try:
                text, _ = decode(Path(file).read_bytes())
            except OSError:
                text = ""
            self.cache[file] = text.splitlines()
        lines = self.cache[file]
        return lines[line - 1] if 0 < line <= len(lines) else None


def _show(problem: Problem, lines: _Lines, show_board: bool) -> str:
    out = [str(problem)]
    row = lines.get(problem.file, problem.line)
    if row is not None and len(row) <= 200:
        out.append("    " + row)
        if problem.column:
            out.append("    " + " " * (problem.column - 1) + "^")
    if problem.expected:
        out.append("    expected one of: " + ", ".join(problem.expected))
    if show_board and problem.position_id:
        board = str(Position.from_position_id(problem.position_id))
        out.extend("    " + line for line in board.splitlines())
    return "\n".join(out)


def internal_problem(path: Path, exc: Exception) -> Problem:
    """A located report of a failure inside tavlakit itself."""
    return Problem("internal", "error", f"tavlakit failed on this file ({type(exc).__name__}: {exc}); "
                   "this is a bug, please report it with the file", file=str(path))


@app.command()
def validate(
    paths: List[Path] = typer.Argument(..., help="Transcript files or folders (.mat .txt .sgf .json)."),
    rules: Optional[str] = typer.Option(None, help=RULES_HELP + " Default: from the file's tags, else backgammon."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first error."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per problem per line, then a summary."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the summary."),
    show_board: bool = typer.Option(False, "--show-board", help="Show the position at each problem."),
) -> None:
    """Replay every move of the transcripts and report what is wrong, and where.

    Exit status: 0 no errors, 1 errors found, 2 a file could not be read.
    """
    chosen = _rules(rules) if rules else None
    files = find_records(paths)
    if not files:
        typer.echo("no record files found", err=True)
        raise typer.Exit(2)
    lines = _Lines()
    codes: Counter[str] = Counter()
    totals = Counter(files=0, games=0, plays=0, errors=0, warnings=0, unreadable=0)
    for path in progress(files, "validating"):
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
                typer.echo(_show(problem, lines, show_board))
        if report is None and strict:
            break
    summary = dict(totals)
    summary["codes"] = dict(sorted(codes.items()))
    if as_json:
        typer.echo(json.dumps({"summary": summary}, ensure_ascii=False))
    else:
        by_code = ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))
        typer.echo(f"{totals['files']} file(s), {totals['games']} game(s), {totals['plays']} play(s): "
                   f"{totals['errors']} error(s), {totals['warnings']} warning(s)" + (f" [{by_code}]" if by_code else ""))
    if totals["unreadable"]:
        raise typer.Exit(2)
    raise typer.Exit(1 if totals["errors"] else 0)


@app.command()
def convert(
    inputs: List[Path] = typer.Argument(..., help="Records to convert (files or folders)."),
    output: Path = typer.Option(..., "--output", "-o", help="Output file, or a folder for many inputs."),
    to: Optional[str] = typer.Option(None, "--to", help=f"Output format: {', '.join(FORMATS)} (default: from -o's extension)."),
    rules: Optional[str] = typer.Option(None, help=RULES_HELP + " Default: from the file's tags, else backgammon."),
    force: bool = typer.Option(False, "--force", help="Convert even when the transcript has errors."),
    numbering: str = typer.Option("relative", help="For .mat output: 'relative' (each side its own 24..1) or "
                                                    "'absolute' (Turkish: White 24->1, Black 1->24)."),
) -> None:
    """Convert records between .mat, SGF and JSON through the one record model.

    Each input is validated first; one with errors is converted only with
    --force, and its problems are listed. Exit status as for validate.
    """
    if to is not None and to not in FORMATS:
        raise typer.BadParameter(f"--to must be one of {', '.join(FORMATS)}")
    if numbering not in ("relative", "absolute"):
        raise typer.BadParameter("--numbering must be 'relative' or 'absolute'")
    chosen = _rules(rules) if rules else None
    files = find_records(inputs)
    if not files:
        typer.echo("no record files found", err=True)
        raise typer.Exit(2)
    many = len(files) > 1 or output.is_dir()
    fmt = to or ("mat" if many else EXTENSIONS.get(output.suffix.lower()))
    if fmt is None:
        raise typer.BadParameter("say --to, or give -o a .mat, .sgf or .json name")
    if many:
        output.mkdir(parents=True, exist_ok=True)
    lines = _Lines()
    status = 0
    written = 0
    used: set[Path] = set()
    for path in progress(files, "converting"):
        try:
            match = read_match(path)
            report = validate_match(match, chosen or default_rules(match))
        except OSError as exc:
            typer.echo(f"{path}: error unreadable: {exc.strerror or exc}", err=True)
            status = 2
            continue
        except Exception as exc:  # a bug in tavlakit: say so, go on with the next file
            typer.echo(str(internal_problem(path, exc)), err=True)
            status = 2
            continue
        for problem in report.problems:
            typer.echo(_show(problem, lines, False), err=True)
        if report.errors and not force:
            typer.echo(f"{path}: not converted ({len(report.errors)} error(s); --force converts anyway)", err=True)
            status = max(status, 1)
            continue
        if chosen is not None:
            match.tags.update(rules_to_tags(chosen))
        target = _target(output, path, fmt, used) if many else output
        options = {"numbering": numbering} if fmt == "mat" else {}
        try:
            lost = write_match(match, target, fmt, **options)
        except OSError as exc:
            typer.echo(f"{target}: error unwritable: {exc.strerror or exc}", err=True)
            raise typer.Exit(2) from None
        for problem in lost:
            typer.echo(str(problem.replace(file=str(target))), err=True)
        written += 1
    typer.echo(f"{written} of {len(files)} file(s) converted to {fmt}")
    raise typer.Exit(status)


app.command()(stats)


def _target(folder: Path, source: Path, fmt: str, used: set[Path]) -> Path:
    """The output file for ``source`` in ``folder``: its name with the new
    extension; inputs with the same name get their folder's name prefixed,
    then a number, so no output overwrites another of the same run."""
    candidates = [f"{source.stem}.{fmt}", f"{source.parent.name}-{source.stem}.{fmt}"]
    candidates += [f"{source.parent.name}-{source.stem}-{n}.{fmt}" for n in range(2, len(used) + 3)]
    target = next(folder / name for name in candidates if folder / name not in used)
    used.add(target)
    return target


def main() -> None:  # pragma: no cover - console entry
    app()
