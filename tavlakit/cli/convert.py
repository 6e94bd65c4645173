"""``tavlakit convert``: records between formats through the one record model."""

from __future__ import annotations

from pathlib import Path

import typer

from ..collections.conversion import UNWRITABLE, Converted, convert_files, output_format, output_names
from ..formats import REGISTRY, WRITABLE, WriteOptions, find_records
from ..formats.text import output_stem, source_name
from ..i18n import _
from .collection import jobs_option
from .common import RULES_DEFAULT_HELP, RULES_HELP, SourceLines, fail, parse_numbering, parse_rules, show_problem
from .console import progress_bar


def convert(
    inputs: list[Path] = typer.Argument(..., help=_("Records to convert (files or folders).")),
    output: Path = typer.Option(..., "--output", "-o", help=_("Output file, or a folder for many inputs.")),
    to: str | None = typer.Option(
        None,
        "--to",
        help=_("Output format: {formats} (default: from -o's extension).").format(formats=", ".join(WRITABLE)),
    ),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    force: bool = typer.Option(False, "--force", help=_("Convert even when the transcript has errors.")),
    numbering: str | None = typer.Option(
        None,
        help=_(
            "For .mat output: 'relative' or 'gnubg' (each side its "
            "own 24..1, the default) or 'absolute' (Turkish: White "
            "24->1, Black 1->24)."
        ),
    ),
    jobs: int | None = jobs_option(),
) -> None:
    """Convert records between .mat, SGF and JSON through the one record model.

    Each input is validated first; one with errors is converted only with
    --force, and its problems are listed. An input nothing could be read
    from is never converted. Exit status as for validate.
    """
    if to is not None and to not in WRITABLE:
        raise typer.BadParameter(_("--to must be one of {formats}").format(formats=", ".join(WRITABLE)))
    chosen = parse_rules(rules) if rules else None
    files = find_records(inputs)
    for note in files.problems:
        typer.echo(str(note), err=True)
    if not files:
        raise fail(_("no record files found"))
    try:
        fmt, many = output_format(output, to, len(files))
    except ValueError as exc:  # an output that cannot hold what is asked
        raise fail(str(exc)) from None
    options: WriteOptions = {} if numbering is None else {"numbering": parse_numbering(numbering)}
    try:
        REGISTRY[fmt].check_options(options)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if many:
        output.mkdir(parents=True, exist_ok=True)
    targets = output_names(output, [output_stem(path) for path in files], fmt) if many else [output]
    status, written = 0, 0
    lines = SourceLines()
    with progress_bar(_("converting")) as bar:
        pairs = list(zip(files, targets))
        converted = convert_files(pairs, fmt, chosen, force=force, options=options, jobs=jobs, progress=bar)
        for path, done in zip(files, converted):
            _say(path, done, lines)
            if done.status == UNWRITABLE:
                raise typer.Exit(2)
            status = max(status, done.status)
            written += done.written
    typer.echo(
        _("{written} of {count} file(s) converted to {format}").format(written=written, count=len(files), format=fmt)
    )
    raise typer.Exit(status)


def _say(path: Path, done: Converted, lines: SourceLines) -> None:
    """On stderr: the input's problems, then what became of it, then what the output could not hold."""
    for problem in done.problems:
        typer.echo(show_problem(problem, lines, False), err=True)
    if done.note:
        typer.echo(done.note, err=True)
    elif done.status == 1:
        errors = sum(problem.severity == "error" for problem in done.problems)
        message = _("{path}: not converted ({count} error(s); --force converts anyway)")
        typer.echo(message.format(path=source_name(path), count=errors), err=True)
    for problem in done.lost:
        typer.echo(str(problem), err=True)
