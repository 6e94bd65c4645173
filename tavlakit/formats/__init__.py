"""Reading and writing records in every format, through the one record model.

Converting A to B is ``write_match(read_match(a), b)``: no format knows another.
The format comes from ``fmt``, else a binary format's magic bytes (``.xg``),
else the file extension, else the content (see :mod:`.registry`). Every
format is read game by game (:func:`open_games`); :func:`read_matches` takes
a folder, a glob pattern, one path or many.
"""

from __future__ import annotations

import glob
import io
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any, cast

from typing_extensions import Unpack

from ..i18n import _
from ..record.match import Game, Match
from ..record.problem import Problem, ProblemError, Reporter
from .position_text import FORMAT_NAMES, position_kind
from .registry import (
    EXTENSIONS as _BY_EXTENSION,
    REGISTRY,
    Format,
    WriteOptions,
    by_content,
    by_extension,
    by_magic,
    named,
)
from .text import Reader, open_input, put_first, read_stream, source_name

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "REGISTRY",
    "WRITABLE",
    "Format",
    "Matches",
    "RecordFiles",
    "WriteOptions",
    "find_records",
    "open_games",
    "read_match",
    "read_matches",
    "write_match",
]

#: Format names.
FORMATS: tuple[str, ...] = tuple(REGISTRY)
#: The names of the formats tavlakit writes.
WRITABLE: tuple[str, ...] = tuple(name for name, fmt in REGISTRY.items() if fmt.writer is not None)
#: The format name each extension selects.
EXTENSIONS: dict[str, str] = {ext: fmt.name for ext, fmt in _BY_EXTENSION.items()}

Paths = str | Path | Iterable[str | Path]


class RecordFiles(list[Path]):
    """The record files found, and in :attr:`~RecordFiles.problems` one ``not-a-record``
    note per folder that holds files of a kind tavlakit does not read."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[Problem] = []


def find_records(paths: Paths) -> RecordFiles:
    """The files named; the record files (by extension) inside the folders
    named, searched recursively; the files a glob pattern matches. A path
    that does not exist is kept, so reading it reports it as unreadable.
    Files in a folder that are not records are counted per extension in
    one ``info`` problem (``not-a-record``), never passed over silently;
    an analysed position saved as .txt is one ``position`` note each."""
    found = RecordFiles()
    for given in [paths] if isinstance(paths, (str, Path)) else paths:
        path = Path(given)
        if not path.exists() and any(char in str(given) for char in "*?["):
            matched = sorted(Path(name) for name in glob.glob(str(given), recursive=True))
            for each in matched or [path]:
                _add(each, found)
        else:
            _add(path, found)
    return found


def _add(path: Path, found: RecordFiles) -> None:
    if not path.is_dir():
        found.append(path)
        return
    others: Counter[str] = Counter()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        fmt = by_extension(file)
        kind = position_kind(file) if fmt is not None and fmt.name == "mat" else None
        if kind is not None:
            Reporter(found.problems, file=str(file)).info(
                "position",
                _(
                    "{format}: an analysed position, not a match; not read as a record (tavlakit board "
                    "and moves read it)"
                ).format(format=FORMAT_NAMES[kind]),
            )
        elif fmt:
            found.append(file)
        else:
            others[file.suffix.lower() or _("(no extension)")] += 1
    if others:
        kinds = ", ".join(f"{n} {ext}" for ext, n in sorted(others.items(), key=lambda kind: (-kind[1], kind[0])))
        Reporter(found.problems, file=str(path)).info(
            "not-a-record",
            _("{count} file(s) not read, of kinds tavlakit does not read: {kinds} (it reads {extensions})").format(
                count=sum(others.values()), kinds=kinds, extensions=" ".join(EXTENSIONS)
            ),
        )


#: How many bytes tell a binary format by its magic.
_MAGIC_BYTES = 16


def _open(given: str | Path | IO[str] | IO[bytes], fmt: str | None) -> tuple[Reader, IO[Any]]:
    """A reader for a path or a text or binary stream, and the stream to
    close after it. Raises ``OSError`` when the file cannot be opened,
    :class:`ProblemError` for a folder.

    A binary format is chosen by its magic bytes (whatever the extension
    says), or by the extension; it reads the bytes. Any other input is
    decoded to text (:func:`~tavlakit.formats.text.open_input`)."""
    chosen = named(fmt) if fmt else None
    if isinstance(given, (str, Path)):
        path = Path(given)
        if path.is_dir():
            raise ProblemError(
                Reporter(file=str(path)).report(
                    "unreadable",
                    "error",
                    _("{path} is a folder, not a record; read_matches() reads the records in a folder").format(
                        path=path
                    ),
                )
            )
        streamed = read_stream(path)  # standard input, a pipe: read once, into memory
        if streamed is not None:
            data, name = streamed
            chosen = chosen or by_magic(data[:_MAGIC_BYTES])
            if chosen is not None and chosen.binary:
                memory = io.BytesIO(data)
                return chosen.open(memory, name), memory
            opened = open_input(data, name)
        else:
            if chosen is None:
                with open(path, "rb") as handle:
                    chosen = by_magic(handle.read(_MAGIC_BYTES)) or by_extension(path)
            if chosen is not None and chosen.binary:
                binary = open(path, "rb")  # noqa: SIM115 (returned: the caller closes it)
                return chosen.open(binary, str(path)), binary
            opened = open_input(path)
    elif isinstance(given.read(0), bytes):  # a binary stream
        data_stream = cast("IO[bytes]", given if given.seekable() else io.BytesIO(cast("IO[bytes]", given).read()))
        head = data_stream.read(_MAGIC_BYTES)
        data_stream.seek(-len(head), io.SEEK_CUR)
        given_name = getattr(given, "name", None)
        chosen = chosen or by_magic(head)
        if chosen is not None and chosen.binary:
            return chosen.open(data_stream, given_name if isinstance(given_name, str) else None), data_stream
        opened = open_input(data_stream.read(), given_name if isinstance(given_name, str) else None)
    else:
        opened = open_input(given)  # type: ignore[arg-type]
    stream = opened.stream
    if chosen is None:
        chosen = by_extension(opened.source)
    if chosen is not None and chosen.binary:
        raise ProblemError(
            Reporter(file=opened.source).report(
                "unreadable",
                "error",
                _("the {format} format is binary: give a path or a binary stream, not text").format(format=chosen.name),
            )
        )
    if chosen is None:
        if not stream.seekable():
            stream = io.StringIO(stream.read())
        chosen = by_content(stream.read(4096))
        stream.seek(0)
    reader = chosen.open(stream, opened.source)
    put_first(opened.problems, reader.match.problems)
    return reader, stream


def open_games(path: str | Path | IO[str] | IO[bytes], fmt: str | None = None) -> tuple[Match, Iterator[Game]]:
    """Open a record for streaming: the match header and an iterator of its
    games, read one at a time (memory stays flat however large a .mat file).

    A file that cannot be read (missing, a folder, unreadable) gives a
    match whose problems say so and no games; nothing is raised.
    """
    source = source_name(path) if isinstance(path, (str, Path)) else getattr(path, "name", None)
    try:
        reader, stream = _open(path, fmt)
    except OSError as exc:
        match = Match(source=source)
        Reporter(match.problems, file=source).error(
            "unreadable", _("cannot read the file: {reason}").format(reason=exc.strerror or exc)
        )
        return match, iter(())
    except ProblemError as exc:
        return Match(source=source, problems=[exc.problem]), iter(())
    return reader.match, _closing(reader.games(), stream)


def _closing(games: Iterator[Game], stream: IO[Any]) -> Iterator[Game]:
    with stream:
        yield from games


def read_match(path: str | Path | IO[str] | IO[bytes], fmt: str | None = None) -> Match:
    """Read a whole match from a path or an open text or binary stream.

    Problems in the content are collected in ``match.problems`` and each
    ``game.problems``; a file that cannot be opened raises ``OSError``, a
    folder :class:`~tavlakit.record.problem.ProblemError` (a ``ValueError``).
    """
    reader, stream = _open(path, fmt)
    with stream if isinstance(path, (str, Path)) else nullcontext(stream):
        games = list(reader.games())
    match = reader.match
    match.games = games
    return match


class Matches(Iterator[Match]):
    """Matches read one file after another (see :func:`read_matches`).

    :attr:`~Matches.files` are the files to read and :attr:`~Matches.problems` the notes
    about what was not read (files of other kinds in a folder).
    """

    def __init__(self, files: RecordFiles, fmt: str | None) -> None:
        #: The record files to read.
        self.files = files
        #: Notes about what was not read (files of other kinds in a folder).
        self.problems = files.problems
        self._matches = (_whole(path, fmt) for path in files)

    def __next__(self) -> Match:
        return next(self._matches)


def _whole(path: Path, fmt: str | None) -> Match:
    match, games = open_games(path, fmt)
    match.games = list(games)
    return match


def read_matches(paths: Paths, fmt: str | None = None) -> Matches:
    """Read many records one after another: ``paths`` is a folder (its
    record files, recursively), a glob pattern (``"corpus/*/*.mat"``), one
    path, or an iterable of them. A file that cannot be read yields a match
    holding an ``unreadable`` problem instead of raising; files of other
    kinds in a folder are listed in :attr:`Matches.problems`.

    >>> from tavlakit._data import data_dir
    >>> matches = read_matches(data_dir("samples"))
    >>> len(matches.files) == len(list(matches)) > 1
    True
    """
    return Matches(find_records(paths), fmt)


def write_match(
    match: Match, path: str | Path | IO[str], fmt: str | None = None, **options: Unpack[WriteOptions]
) -> list[Problem]:
    """Write ``match`` to a path or text stream; returns what could not be
    written (``lost-on-write`` problems), never dropping it silently.

    ``options`` go to the format's writer (``numbering="absolute"`` for
    .mat, see :class:`~tavlakit.formats.registry.WriteOptions`); one the format does not take, or a
    value it cannot take, raises ``ValueError`` before anything is written.
    """
    name = str(path) if isinstance(path, (str, Path)) else getattr(path, "name", None)
    chosen = named(fmt) if fmt else by_extension(name if isinstance(name, str) else None) or REGISTRY["mat"]
    chosen.check_options(options)
    if isinstance(path, (str, Path)):
        with open(path, "w", encoding="utf-8", newline="\n") as stream:
            return chosen.write(match, stream, **options)
    return chosen.write(match, path, **options)
