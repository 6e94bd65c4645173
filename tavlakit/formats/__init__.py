"""Reading and writing records in every format, through the one record model.

Converting A to B is ``write_match(read_match(a), b)``: no format knows another.
The format comes from ``fmt``, else the file extension, else the content.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Iterable, Iterator

from ..i18n import _
from ..problem import Problem
from ..record import Game, Match

#: Format names and the extensions that select them.
EXTENSIONS: dict[str, str] = {
    ".mat": "mat",
    ".txt": "mat",
    ".sgf": "sgf",
    ".json": "json",
}
FORMATS: tuple[str, ...] = ("mat", "sgf", "json")


def detect_format(name: str | None, text: str) -> str:
    """The format of ``text``: by the extension of ``name``, else by content.

    >>> detect_format("x.sgf", "")
    'sgf'
    >>> detect_format(None, '  (;FF[4]GM[6]')
    'sgf'
    """
    if name:
        fmt = EXTENSIONS.get(Path(name).suffix.lower())
        if fmt:
            return fmt
    head = text.lstrip("\ufeff \t\r\n")[:1]
    if head == "(":
        return "sgf"
    if head in "{[" and head:
        return "json"
    return "mat"


def find_records(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, and the record files (by extension) inside the
    folders named, searched recursively. A path that does not exist is
    kept, so reading it reports it as unreadable."""
    out: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS))
        else:
            out.append(path)
    return out


def _check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(_("unknown format {format!r}; expected one of {formats}").format(format=fmt,
                                                                                          formats=", ".join(FORMATS)))
    return fmt


def _decode(data: bytes, source: str) -> tuple[str, list[Problem]]:
    from .text import decode

    text, problems = decode(data)
    return text, [p.replace(file=source) for p in problems]


def open_games(path: str | Path, fmt: str | None = None) -> tuple[Match, Iterable[Game]]:
    """Open a record for streaming: the match header and an iterable of its
    games, read one at a time where the format allows (.mat: memory stays
    flat however large the file).

    A file that cannot be read gives a match whose problems say so and no
    games; nothing is raised.
    """
    from .text import open_text

    source = str(path)
    try:
        stream, problems = open_text(path)
    except OSError as exc:
        match = Match(source=source)
        match.problems.append(Problem("unreadable", "error", _("cannot read the file: {error}").format(
            error=exc.strerror or exc),
                                      file=source))
        return match, ()
    problems = [p.replace(file=source) for p in problems]
    head = stream.read(4096)
    stream.seek(0)
    fmt = _check_format(fmt or detect_format(source, head))
    if fmt == "mat":
        from .mat import read_mat

        reader = read_mat(stream, source=source)
        reader.match.problems[:0] = problems
        return reader.match, _closing(reader.games(), stream)
    with stream:
        match = _load(stream.read(), source, fmt)
    match.problems[:0] = problems
    games = match.games
    match.games = []
    return match, games


def _closing(games: Iterator[Game], stream: IO[str]) -> Iterator[Game]:
    with stream:
        yield from games


def _load(text: str, source: str | None, fmt: str) -> Match:
    if fmt == "mat":
        from .mat import load_mat

        return load_mat(text, source=source)
    if fmt == "sgf":
        from .sgf import read_sgf

        return read_sgf(text, source=source)
    from .jsonfmt import read_json

    return read_json(text, source=source)


def read_match(path: str | Path | IO[str], fmt: str | None = None) -> Match:
    """Read a whole match from a path or an open text stream.

    Problems in the content are collected in ``match.problems`` and each
    ``game.problems``; only a file that cannot be opened raises ``OSError``.
    """
    if isinstance(path, (str, Path)):
        source = str(path)
        text, problems = _decode(Path(path).read_bytes(), source)
    else:
        source = getattr(path, "name", None)
        text, problems = path.read(), []
    match = _load(text, source, _check_format(fmt or detect_format(source, text)))
    match.problems[:0] = problems
    return match


def read_matches(paths: Iterable[str | Path], fmt: str | None = None) -> Iterator[Match]:
    """Read many files one after another; an unreadable file yields a match
    holding an ``unreadable`` problem instead of raising."""
    for path in paths:
        match, games = open_games(path, fmt)
        match.games = list(games)
        yield match


def write_match(match: Match, path: str | Path | IO[str], fmt: str | None = None, **options: str) -> list[Problem]:
    """Write ``match`` to a path or text stream; returns what could not be
    written (``lost-on-write`` problems), never dropping it silently."""
    name = str(path) if isinstance(path, (str, Path)) else getattr(path, "name", None)
    fmt = _check_format(fmt or (EXTENSIONS.get(Path(name).suffix.lower()) if name else None) or "mat")
    if isinstance(path, (str, Path)):
        with open(path, "w", encoding="utf-8", newline="\n") as stream:
            return _write(match, stream, fmt, options)
    return _write(match, path, fmt, options)


def _write(match: Match, stream: IO[str], fmt: str, options: dict[str, str]) -> list[Problem]:
    if fmt == "mat":
        from .mat import write_mat

        return write_mat(match, stream, **options)
    if fmt == "sgf":
        from .sgf import write_sgf

        return write_sgf(match, stream)
    from .jsonfmt import write_json

    return write_json(match, stream)
