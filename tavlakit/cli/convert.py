"""``tavlakit convert``: records between formats through the one record model."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..console import progress
from ..formats import EXTENSIONS, FORMATS, find_records, read_match, write_match
from ..i18n import _
from ..record import rules_to_tags
from ..replay import default_rules, validate as validate_match
from .common import RULES_DEFAULT_HELP, RULES_HELP, SourceLines, internal_problem, parse_rules, show_problem


def convert(
    inputs: List[Path] = typer.Argument(..., help=_("Records to convert (files or folders).")),
    output: Path = typer.Option(..., "--output", "-o", help=_("Output file, or a folder for many inputs.")),
    to: Optional[str] = typer.Option(None, "--to", help=_("Output format: {formats} (default: from -o's extension).").format(formats=", ".join(FORMATS))),
    rules: Optional[str] = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    force: bool = typer.Option(False, "--force", help=_("Convert even when the transcript has errors.")),
    numbering: str = typer.Option("relative", help=_("For .mat output: 'relative' (each side its own 24..1) or "
                                                      "'absolute' (Turkish: White 24->1, Black 1->24).")),
) -> None:
    """Convert records between .mat, SGF and JSON through the one record model.

    Each input is validated first; one with errors is converted only with
    --force, and its problems are listed. Exit status as for validate.
    """
    if to is not None and to not in FORMATS:
        raise typer.BadParameter(_("--to must be one of {formats}").format(formats=", ".join(FORMATS)))
    if numbering not in ("relative", "absolute"):
        raise typer.BadParameter(_("--numbering must be 'relative' or 'absolute'"))
    chosen = parse_rules(rules) if rules else None
    files = find_records(inputs)
    if not files:
        typer.echo(_("no record files found"), err=True)
        raise typer.Exit(2)
    many = len(files) > 1 or output.is_dir()
    fmt = to or ("mat" if many else EXTENSIONS.get(output.suffix.lower()))
    if fmt is None:
        raise typer.BadParameter(_("say --to, or give -o a .mat, .sgf or .json name"))
    if many:
        output.mkdir(parents=True, exist_ok=True)
    lines = SourceLines()
    status = 0
    written = 0
    used: set[Path] = set()
    for path in progress(files, _("converting")):
        try:
            match = read_match(path)
            report = validate_match(match, chosen or default_rules(match))
        except OSError as exc:
            typer.echo(_("{path}: error unreadable: {error}").format(path=path, error=exc.strerror or exc), err=True)
            status = 2
            continue
        except Exception as exc:  # a bug in tavlakit: say so, go on with the next file
            typer.echo(str(internal_problem(path, exc)), err=True)
            status = 2
            continue
        for problem in report.problems:
            typer.echo(show_problem(problem, lines, False), err=True)
        if report.errors and not force:
            typer.echo(_("{path}: not converted ({errors} error(s); --force converts anyway)").format(
                path=path, errors=len(report.errors)), err=True)
            status = max(status, 1)
            continue
        if chosen is not None:
            match.tags.update(rules_to_tags(chosen))
        target = _target(output, path, fmt, used) if many else output
        options = {"numbering": numbering} if fmt == "mat" else {}
        try:
            lost = write_match(match, target, fmt, **options)
        except OSError as exc:
            typer.echo(_("{path}: error unwritable: {error}").format(path=target, error=exc.strerror or exc), err=True)
            raise typer.Exit(2) from None
        for problem in lost:
            typer.echo(str(problem.replace(file=str(target))), err=True)
        written += 1
    typer.echo(_("{written} of {files} file(s) converted to {format}").format(written=written, files=len(files), format=fmt))
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
