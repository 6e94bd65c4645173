"""``tavlakit convert``: records between formats through the one record model."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import typer

from ..collections.manifest import write_atomic
from ..collections.parallel import pmap
from ..engine.rules import Rules
from ..formats import (
    EXTENSIONS,
    REGISTRY,
    WRITABLE,
    WriteOptions,
    find_records,
    read_match,
    write_match,
)
from ..formats.text import source_name
from ..i18n import _
from ..record.match import rules_to_tags
from ..record.problem import Problem, internal_problem
from ..replay.walker import default_rules, validate as validate_match
from .collection import jobs_option
from .common import (
    RULES_DEFAULT_HELP,
    RULES_HELP,
    SourceLines,
    fail,
    nothing_read,
    output_stem,
    parse_numbering,
    parse_rules,
    show_problem,
    stream_jobs,
)
from .console import progress


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
    many = len(files) > 1 or output.is_dir()
    fmt = to or ("mat" if many else EXTENSIONS.get(output.suffix.lower()))
    if fmt is None:
        raise typer.BadParameter(_("say --to, or give -o a .mat, .sgf or .json name"))
    options: WriteOptions = {} if numbering is None else {"numbering": parse_numbering(numbering)}
    try:
        REGISTRY[fmt].check_options(options)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if many:
        output.mkdir(parents=True, exist_ok=True)
    used: set[Path] = set()
    targets = [_target(output, output_stem(path), fmt, used) if many else output for path in files]
    status = 0
    written = 0
    for done in progress(
        pmap(
            convert_one,
            list(zip(files, targets)),
            stream_jobs(files, jobs),
            fmt=fmt,
            rules=chosen,
            force=force,
            options=options,
        ),
        _("converting"),
        len(files),
    ):
        for message in done.messages:
            typer.echo(message, err=True)
        if done.status == UNWRITABLE:
            raise typer.Exit(2)
        status = max(status, done.status)
        written += done.written
    typer.echo(
        _("{written} of {count} file(s) converted to {format}").format(written=written, count=len(files), format=fmt)
    )
    raise typer.Exit(status)


#: :attr:`Converted.status` when the output could not be written (the run stops).
UNWRITABLE = 3


@dataclass
class Converted:
    """What converting one file did (small: it travels between processes)."""

    messages: list[str] = field(default_factory=list)
    """What to say on stderr, in order."""
    status: int = 0
    """0 converted, 1 not converted (errors), 2 nothing could be read from it, :data:`UNWRITABLE`."""
    written: bool = False


def convert_one(job: tuple[Path, Path], fmt: str, rules: Rules | None, force: bool, options: WriteOptions) -> Converted:
    """Read, validate and write one record. The output is written under a
    temporary name and renamed, so an interrupted run leaves no half file."""
    path, target = job
    name = source_name(path)
    done = Converted()
    try:
        match = read_match(path)
        report = validate_match(match, rules or default_rules(match))
    except OSError as exc:
        done.messages.append(_("{path}: error unreadable: {reason}").format(path=name, reason=exc.strerror or exc))
        done.status = 2
        return done
    except Exception as exc:  # a bug in tavlakit: say so, go on with the next file
        done.messages.append(str(internal_problem(path, exc)))
        done.status = 2
        return done
    lines = SourceLines()
    done.messages.extend(show_problem(problem, lines, False) for problem in report.problems)
    if not match.games and any(p.code == "position" for p in match.problems):
        done.messages.append(_("{path}: not converted (an analysed position, not a match)").format(path=name))
        return done
    if nothing_read(match.problems, len(match.games)):
        done.messages.append(_("{path}: not converted (nothing could be read from it)").format(path=name))
        done.status = 2
        return done
    if report.errors and not force:
        done.messages.append(
            _("{path}: not converted ({count} error(s); --force converts anyway)").format(
                path=name, count=len(report.errors)
            )
        )
        done.status = 1
        return done
    if rules is not None:
        match.tags.update(rules_to_tags(rules))
    lost: list[Problem] = []
    try:
        write_atomic(target, lambda tmp: lost.extend(write_match(match, tmp, fmt, **options)))
    except OSError as exc:
        done.messages.append(_("{path}: error unwritable: {reason}").format(path=target, reason=exc.strerror or exc))
        done.status = UNWRITABLE
        return done
    done.messages.extend(str(problem.replace(file=str(target))) for problem in lost)
    done.written = True
    return done


def _target(folder: Path, source: Path, fmt: str, used: set[Path]) -> Path:
    """The output file for ``source`` in ``folder``: its name with the new
    extension; inputs with the same name get their folder's name prefixed,
    then a number, so no output overwrites another of the same run."""
    candidates = [f"{source.stem}.{fmt}", f"{source.parent.name}-{source.stem}.{fmt}"]
    candidates += [f"{source.parent.name}-{source.stem}-{n}.{fmt}" for n in range(2, len(used) + 3)]
    target = next(folder / name for name in candidates if folder / name not in used)
    used.add(target)
    return target
