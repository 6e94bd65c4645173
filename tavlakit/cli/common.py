"""What every command shares: option parsing and the way problems are shown."""

from __future__ import annotations

from pathlib import Path

import typer

from ..engine.numbering import Numbering
from ..engine.position import Position
from ..engine.rules import PRESETS, Rules
from ..evaluation.levels import DEFAULT_LEVEL, Level, level as as_level
from ..formats.text import decode, read_stream
from ..i18n import N_, _, language
from ..record.problem import Problem

RULES_HELP = _("Rule set: {presets}.").format(presets=", ".join(PRESETS))
#: Said after RULES_HELP by the commands that read rules from the files.
RULES_DEFAULT_HELP = N_("Default: from the file's tags, else backgammon.")


def parse_rules(name: str) -> Rules:
    """A preset by name, or a clear command-line error."""
    try:
        return Rules.preset(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


#: The help of ``--level`` and of its alias ``--ply``.
LEVEL_HELP = N_(
    "Analysis level: world-class (gnubg's own default analysis: 2 ply, pruning nets), 1-ply, "
    "expert (0 ply, fast) or grandmaster (3 ply, about five times world-class's time); default {default}."
)
#: (``\[``: a bracket Rich prints as it is; it took ``[dask]`` for markup and dropped it)
SCHEDULER_HELP = N_("Run on this Dask scheduler (host:port) instead of this machine's cores; needs tavlakit\\[dask].")
PLY_HELP = N_("The analysis level by its depth: 0 (expert), 1, 2 (world-class) or 3 (grandmaster).")


def level_help(default: Level = DEFAULT_LEVEL) -> str:
    """The help of ``--level``, naming the levels and the command's default."""
    return _(LEVEL_HELP).format(default=default.name)


def parse_level(name: str | None, ply: int | None, default: Level = DEFAULT_LEVEL) -> Level:
    """The level ``--level NAME`` or ``--ply N`` asks for (``default``
    without either), or a clear command-line error (both given and not the
    same level, an unknown name, a depth not implemented)."""
    try:
        by_name = as_level(name) if name is not None else None
        by_plies = as_level(ply) if ply is not None else None
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--level" if name is not None else "--ply") from None
    if by_name is not None and by_plies is not None and by_name != by_plies:
        raise typer.BadParameter(_("--level {name} and --ply {ply} name different levels").format(name=name, ply=ply))
    return by_name or by_plies or default


def parse_numbering(name: str) -> Numbering:
    """The numbering ``--numbering`` names, or a one-line command-line error."""
    try:
        return Numbering.parse(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def default_numbering() -> Numbering:
    """The pictures' numbering when none is asked for: the seeds' absolute one in Turkish, gnubg's elsewhere."""
    return Numbering.ABSOLUTE if language() == "tr" else Numbering.RELATIVE


class SourceLines:
    """The source lines of files, read only when a problem needs showing."""

    def __init__(self) -> None:
        self.cache: dict[str, list[str]] = {}

    def get(self, file: str | None, line: int | None) -> str | None:
        if not file or not line:
            return None
        if file not in self.cache:
            try:
                streamed = read_stream(file)  # standard input: the bytes read before
                data = streamed[0] if streamed else Path(file).read_bytes() if Path(file).is_file() else b""
                text, _ = decode(data)  # a device (/dev/zero) is not read again
            except OSError:
                text = ""
            self.cache[file] = text.splitlines()
        lines = self.cache[file]
        return lines[line - 1] if 0 < line <= len(lines) else None


def show_problem(problem: Problem, lines: SourceLines, show_board: bool) -> str:
    """A problem as a compiler shows an error: the message, the row, a caret."""
    out = [str(problem)]
    row = lines.get(problem.file, problem.line)
    if row is not None and len(row) <= 200:
        out.append("    " + row)
        if problem.column:
            out.append("    " + " " * (problem.column - 1) + "^")
    if problem.expected:
        out.append("    " + _("expected one of: {plays}").format(plays=", ".join(problem.expected)))
    if show_board and problem.position_id:
        board = str(Position.from_position_id(problem.position_id))
        out.extend("    " + line for line in board.splitlines())
    return "\n".join(out)


def missing(value: object) -> bool:
    """A cell with nothing to show: None or NaN (a frame's missing value).

    >>> missing(None), missing(float("nan")), missing(0.0), missing("")
    (True, True, False, False)
    """
    return value is None or (isinstance(value, float) and value != value)


def fail(message: str) -> typer.Exit:
    """A one-line command-line error on stderr; raise the result (exit code 2)."""
    typer.echo(_("error: {message}").format(message=message), err=True)
    return typer.Exit(2)
