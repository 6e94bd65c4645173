"""``tavlakit convert``: records between formats through the one record model."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..console import progress
from ..formats import EXTENSIONS, FORMATS, REGISTRY, find_records, read_match, write_match
from ..i18n import _
from ..record import rules_to_tags
from ..replay import default_rules, validate as validate_match
from .common import RULES_HELP, SourceLines, internal_problem, parse_rules, show_problem


def convert(
    inputs: List[Path] = typer.Argument(..., help="Records to convert (files or folders)."),
    output: Path = typer.Option(..., "--output", "-o", help="Output file, or a folder for many inputs."),
    to: Optional[str] = typer.Option(None, "--to", help=f"Output format: {', '.join(FORMATS)} (default: from -o's extension)."),
    rules: Optional[str] = typer.Option(None, help=RULES_HELP + " Default: from the file's tags, else backgammon."),
    force: bool = typer.Option(False, "--force", help="Convert even when the transcript has errors."),
    numbering: Optional[str] = typer.Option(None, help="For .mat output: 'relative' (each side its own 24..1, "
                                                        "the default) or 'absolute' (Turkish: White 24->1, "
                                                        "Black 1->24)."),
) -> None:
    """Convert records between .mat, SGF and JSON through the one record model.

    Each input is validated first; one with errors is converted only with
    --force, and its problems are listed. An input nothing could be read
    from is never converted. Exit status as for validate.
    """
    if to is not None and to not in FORMATS:
        raise typer.BadParameter(_("--to must be one of {formats}").format(formats=", ".join(FORMATS)))
    chosen = parse_rules(rules) if rules else None
    files = find_records(inputs)
    for note in files.problems:
        typer.echo(str(note), err=True)
    if not files:
        typer.echo(_("no record files found"), err=True)
        raise typer.Exit(2)
    many = len(files) > 1 or output.is_dir()
    fmt = to or ("mat" if many else EXTENSIONS.get(output.suffix.lower()))
    if fmt is None:
        raise typer.BadParameter(_("say --to, or give -o a .mat, .sgf or .json name"))
    options = {} if numbering is None else {"numbering": numbering}
    try:
        REGISTRY[fmt].check_options(options)
    except ValueError as exc:
        typer.echo(_("error: {reason}").format(reason=exc), err=True)
        raise typer.Exit(2) from None
    if many:
        output.mkdir(parents=True, exist_ok=True)
    lines = SourceLines()
    status = 0
    written = 0
    used: set[Path] = set()
    for path in progress(files, "converting"):
        try:
            match = read_match(path)
            report = validate_match(match, chosen or default_rules(match))
        except OSError as exc:
            typer.echo(_("{path}: error unreadable: {reason}").format(path=path, reason=exc.strerror or exc), err=True)
            status = 2
            continue
        except Exception as exc:  # a bug in tavlakit: say so, go on with the next file
            typer.echo(str(internal_problem(path, exc)), err=True)
            status = 2
            continue
        for problem in report.problems:
            typer.echo(show_problem(problem, lines, False), err=True)
        if not match.games and any(p.severity == "error" for p in match.problems):
            typer.echo(_("{path}: not converted (nothing could be read from it)").format(path=path), err=True)
            status = max(status, 1)
            continue
        if report.errors and not force:
            typer.echo(_("{path}: not converted ({count} error(s); --force converts anyway)")
                       .format(path=path, count=len(report.errors)), err=True)
            status = max(status, 1)
            continue
        if chosen is not None:
            match.tags.update(rules_to_tags(chosen))
        target = _target(output, path, fmt, used) if many else output
        try:
            lost = write_match(match, target, fmt, **options)
        except OSError as exc:
            typer.echo(_("{path}: error unwritable: {reason}").format(path=target, reason=exc.strerror or exc),
                       err=True)
            raise typer.Exit(2) from None
        for problem in lost:
            typer.echo(str(problem.replace(file=str(target))), err=True)
        written += 1
    typer.echo(_("{written} of {count} file(s) converted to {format}").format(written=written, count=len(files),
                                                                          format=fmt))
    raise typer.Exit(status)


def _target(folder: Path, source: Path, fmt: str, used: set[Path]) -> Path:
    """The output file for ``source`` in ``folder``: its name with the new
    extension; inputs with the same name get their folder's name prefixed,
    then a number, so no output overwrites another of the same run."""
    candidates = [f"{source.stem}.{fmt}", f"{source.parent.name}-{source.stem}.{fmt}"]
    candidates += [f"{source.parent.name}-{source.stem}-{n}.{fmt}" for n in range(2, len(used) + 3)]
    target = next(folder / name for name in candidates if folder / name not in used)
    used.add(target)
    return target
