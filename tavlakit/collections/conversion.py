"""Many records converted on every core, through the one record model.

Each input is read, validated, and written in the format asked
(:func:`convert_file`) under a temporary name that is renamed when whole,
so an interrupted run leaves no half file. One with errors is written only
with ``force``; one nothing could be read from, never.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from ..engine.rules import Rules
from ..formats import EXTENSIONS, WRITABLE, WriteOptions, read_match, write_match
from ..formats.text import source_name
from ..i18n import _
from ..record.match import rules_to_tags
from ..record.problem import Problem, internal_problem, nothing_read
from ..replay.walker import default_rules, validate
from .manifest import write_atomic
from .parallel import Progress, jobs_for, pmap

#: :attr:`Converted.status` when the output could not be written (the run stops).
UNWRITABLE = 3


@dataclass
class Converted:
    """What converting one file did (small: it travels between processes)."""

    problems: list[Problem] = field(default_factory=list)
    """The input's problems, as the validator found them."""
    note: str = ""
    """What became of it when it was not converted (or could not be written);
    empty for one left out for its errors (:attr:`status` 1)."""
    lost: list[Problem] = field(default_factory=list)
    """What the output format could not hold (located in the output)."""
    status: int = 0
    """0 converted, 1 not converted (errors), 2 nothing could be read from it, :data:`UNWRITABLE`."""
    _: KW_ONLY
    written: bool = False


def convert_file(
    job: tuple[Path, Path], fmt: str, rules: Rules | None, *, force: bool, options: WriteOptions
) -> Converted:
    """Read, validate and write one record (``job``: the input and the output path)."""
    path, target = job
    name = source_name(path)
    try:
        match = read_match(path)
        report = validate(match, default_rules(match, rules))
    except OSError as exc:
        return Converted(
            note=_("{path}: error unreadable: {reason}").format(path=name, reason=exc.strerror or exc), status=2
        )
    except Exception as exc:  # a bug in tavlakit: say so, go on with the next file
        return Converted([internal_problem(path, exc)], status=2)
    done = Converted(report.problems)
    if not match.games and any(p.code == "position" for p in match.problems):
        done.note = _("{path}: not converted (an analysed position, not a match)").format(path=name)
    elif nothing_read(match.problems, len(match.games)):
        done.note, done.status = _("{path}: not converted (nothing could be read from it)").format(path=name), 2
    elif report.errors and not force:
        done.status = 1  # (the caller says how to convert it anyway)
    else:
        if rules is not None:
            match.tags.update(rules_to_tags(rules))
        lost: list[Problem] = []
        try:
            write_atomic(target, lambda tmp: lost.extend(write_match(match, tmp, fmt, **options)))
        except OSError as exc:
            reason = exc.strerror or exc
            done.note, done.status = (
                _("{path}: error unwritable: {reason}").format(path=target, reason=reason),
                UNWRITABLE,
            )
            return done
        done.lost = [problem.replace(file=str(target)) for problem in lost]
        done.written = True
    return done


def convert_files(
    pairs: Sequence[tuple[Path, Path]],
    fmt: str,
    rules: Rules | None = None,
    *,
    force: bool = False,
    options: WriteOptions | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Iterator[Converted]:
    """Convert each (input, output) pair, in input order, on ``jobs``
    processes (``None``: every core); stops after an output that could not
    be written (:data:`UNWRITABLE`)."""
    inputs = [path for path, _target in pairs]
    done = pmap(
        convert_file, pairs, jobs_for(inputs, jobs), progress, fmt=fmt, rules=rules, force=force, options=options or {}
    )
    for converted in done:
        yield converted
        if converted.status == UNWRITABLE:
            return


def output_format(output: Path, to: str | None, count: int) -> tuple[str, bool]:
    """The format to write ``count`` records in, and whether ``output`` is a
    folder of them (many records, or an existing folder): ``to``, else the
    extension of ``output``'s name (``mat`` into a folder). An output that
    cannot hold what is asked is a ``ValueError`` that says so: a file name
    (or a file) for many records, a file name whose extension names another
    format than ``to``.

    >>> output_format(Path("x.sgf"), None, 1), output_format(Path("out"), "json", 3)
    (('sgf', False), ('json', True))
    """
    many = count > 1 or output.is_dir()
    named = EXTENSIONS.get(output.suffix.lower())
    if many and ((output.exists() and not output.is_dir()) or named is not None):
        raise ValueError(
            _("-o {output} names a file, but {count} records are given: give a folder").format(
                output=output, count=count
            )
        )
    if many:
        return to or "mat", True
    if to is not None and named is not None and named != to:
        raise ValueError(
            _("-o {output} names a {suffix} file, but --to {to} writes {to}: name it {name} or leave out --to").format(
                output=output, suffix=output.suffix, to=to, name=output.with_suffix(f".{to}").name
            )
        )
    fmt = to or named
    if fmt not in WRITABLE:
        raise ValueError(_("say --to, or give -o a .mat, .sgf or .json name"))
    return fmt, False


def output_names(folder: Path, sources: Sequence[Path], fmt: str) -> list[Path]:
    """The output file of each source in ``folder``: its name with the new
    extension; inputs with the same name get their folder's name prefixed,
    then a number, so no output overwrites another of the same run.

    >>> [p.name for p in output_names(Path("out"), [Path("a/x.mat"), Path("b/x.txt")], "sgf")]
    ['x.sgf', 'b-x.sgf']
    """
    used: set[Path] = set()
    out = []
    for source in sources:
        candidates = [f"{source.stem}.{fmt}", f"{source.parent.name}-{source.stem}.{fmt}"]
        candidates += [f"{source.parent.name}-{source.stem}-{n}.{fmt}" for n in range(2, len(used) + 3)]
        target = next(folder / name for name in candidates if folder / name not in used)
        used.add(target)
        out.append(target)
    return out


__all__ = ["UNWRITABLE", "Converted", "convert_file", "convert_files", "output_format", "output_names"]
