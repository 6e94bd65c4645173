"""Bytes to text for every text format: UTF-8 first, else a Turkish 8-bit code page.

>>> decode("Ayşe".encode("utf-8"))
('Ayşe', [])
>>> text, problems = decode("Ayşe".encode("cp1254"))
>>> text, problems[0].code
('Ayşe', 'encoding')
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import IO, NamedTuple, Protocol

from ..i18n import _
from ..record.match import Game, Match
from ..record.problem import Problem, Reporter

#: Legacy encodings tried in order when the bytes are not UTF-8. cp1254
#: (Windows Turkish) leaves a few bytes undefined; ISO-8859-9 maps every byte.
LEGACY = ("cp1254", "iso-8859-9")


_CHUNK = 1 << 20
Chunks = Callable[[], Iterator[bytes]]


def decode(data: bytes) -> tuple[str, list[Problem]]:
    """Decode a record file without losing characters.

    UTF-8 (a BOM is dropped) is tried first, then :data:`LEGACY`, with a
    warning saying which was used. UTF-16 (as Windows editors may save) is
    read when it has a BOM or looks like it. Other data holding NUL bytes is
    not text: the result is empty and one ``encoding`` error says so.

    >>> decode("Game 1".encode("utf-16"))
    ('Game 1', [])
    """
    encoding, problems = choose_encoding(lambda: iter((data,)))
    return ("" if encoding is None else data.decode(encoding)), problems


def open_text(path: str | Path) -> tuple[IO[str], list[Problem]]:
    """Open a record file as a text stream, choosing the encoding as
    :func:`decode` does but without holding the file in memory (passes over
    the bytes in chunks, then the stream). Raises ``OSError`` only.
    """

    def chunks() -> Iterator[bytes]:
        with open(path, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                yield chunk

    encoding, problems = choose_encoding(chunks)
    if encoding is None:
        return io.StringIO(""), problems
    return open(path, encoding=encoding, newline=""), problems


def choose_encoding(chunks: Chunks) -> tuple[str | None, list[Problem]]:
    """The codec to read the bytes ``chunks()`` yields with (``None``: not
    text), and the problem saying so when it is not plain UTF-8."""
    first = next(chunks(), b"")
    utf16 = _utf16(first)
    if utf16 is not None and _first_error(chunks, utf16) is None:
        return utf16, []
    report = Reporter()
    line = 1
    for chunk in chunks():
        if b"\0" in chunk:
            line += chunk[: chunk.index(b"\0")].count(b"\n")
            report.error("encoding", _("binary data, not a text record (it holds NUL bytes)"), line=line)
            return None, report.problems
        line += chunk.count(b"\n")
    bad = _first_error(chunks, "utf-8")
    if bad is None:
        return "utf-8-sig", []
    offset, byte = bad
    for encoding in LEGACY:
        if _first_error(chunks, encoding) is None:
            report.warning(
                "encoding",
                _("not UTF-8 (byte 0x{byte:02x} at offset {offset}); read as {encoding}").format(
                    byte=byte, offset=offset, encoding=encoding
                ),
                line=_line_at(chunks, offset),
            )
            return encoding, report.problems
    raise AssertionError("iso-8859-9 decodes every byte")  # pragma: no cover


def _utf16(first: bytes) -> str | None:
    """The UTF-16 codec when the first bytes have a UTF-16 BOM, or NULs in
    every other byte as ASCII text in UTF-16 has; else ``None``."""
    if first.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if first[1::2].count(0) > len(first) // 4 and not first[0::2].count(0):
        return "utf-16-le"
    if first[0::2].count(0) > len(first) // 4 and not first[1::2].count(0):
        return "utf-16-be"
    return None


def _first_error(chunks: Chunks, encoding: str) -> tuple[int, int] | None:
    """Offset and value of the first byte ``encoding`` cannot decode."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offset = 0
    for chunk in chunks():
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            return offset + exc.start, chunk[exc.start]
        offset += len(chunk)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        return offset + exc.start, 0
    return None


def _line_at(chunks: Chunks, offset: int) -> int:
    """The 1-based line of byte ``offset``."""
    line = 1
    for chunk in chunks():
        if offset < len(chunk):
            return line + chunk[:offset].count(b"\n")
        line += chunk.count(b"\n")
        offset -= len(chunk)
    return line


class Input(NamedTuple):
    """What a reader reads: a text stream, the name of its source, and the
    problems found while decoding it."""

    stream: IO[str]
    source: str | None
    problems: list[Problem]


class Reader(Protocol):
    """A record opened for reading: the header now, the games one at a time."""

    @property
    def match(self) -> Match:
        """Players, length, tags and the problems found outside any game (no games)."""

    def games(self) -> Iterator[Game]:
        """The games, read one at a time."""


def stream_source(stream: object, source: str | None) -> str | None:
    """``source``, else the name of ``stream`` when it has one (an open file)."""
    if source is None:
        name = getattr(stream, "name", None)
        source = name if isinstance(name, str) else None
    return source


def load_whole(
    open_reader: Callable[[IO[str], str | None], Reader], given: str | bytes | Path | IO[str], source: str | None
) -> Match:
    """A whole record read by ``open_reader`` (a format's ``read_*``) from
    text, bytes, a :class:`~pathlib.Path` or a stream: the decoder's
    problems first, the file closed when it was opened here."""
    stream, source, problems = open_input(given, source)
    with owned(given, stream):
        reader = open_reader(stream, source)
        match = reader.match
        put_first(problems, match.problems)
        match.games = list(reader.games())
    return match


def owned(given: object, stream: IO[str]) -> AbstractContextManager[object]:
    """A ``with`` that closes ``stream`` when :func:`open_input` opened it for
    ``given`` (a path), and leaves open a stream the caller gave."""
    return stream if isinstance(given, Path) else nullcontext()


def open_input(given: str | bytes | Path | IO[str], source: str | None = None) -> Input:
    """The one way every reader turns what it was given into text: a path
    (opened as :func:`open_text` does), bytes (decoded as :func:`decode`
    does), a text stream, or text. Raises ``OSError`` only.

    >>> open_input("Ay\u015fe".encode("cp1254"), "x.sgf").problems[0].file
    'x.sgf'
    """
    if isinstance(given, Path):
        source = source or str(given)
        stream, problems = open_text(given)
    elif isinstance(given, bytes):
        text, problems = decode(given)
        stream = io.StringIO(text, newline=None)
    elif isinstance(given, str):
        stream, problems = io.StringIO(given, newline=None), []
    else:
        name = getattr(given, "name", None)
        source = source or (name if isinstance(name, str) else None)
        stream, problems = given, []
    return Input(stream, source, [p.replace(file=source) for p in problems])


#: The name standard input (``-``) goes by in problems and messages.
STDIN = "<stdin>"
_STREAMS: dict[str, bytes] = {}


def source_name(path: str | Path) -> str:
    """The name an input path is shown by: :data:`STDIN` for ``-``."""
    return STDIN if str(path) in ("-", STDIN) else str(path)


def output_stem(path: Path) -> Path:
    """The path an output is named after: ``stdin`` for standard input (``-``)."""
    return Path("stdin") if str(path) == "-" else path


def read_stream(path: str | Path) -> tuple[bytes, str] | None:
    """The bytes and name of an input that is a stream, not a file on disk:
    ``-`` (standard input), a pipe (``/dev/stdin`` piped, ``<(...)``). A
    stream can be read only once, so it is read whole at the first call and
    kept for the later ones (the reader, then the rows a problem shows).
    ``None`` for anything else (a file, a folder, a device, a path that does
    not exist): those are opened as they are.

    >>> read_stream(__file__) is None
    True
    """
    name = source_name(path)
    if name not in _STREAMS:
        if name == STDIN:
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:
                raise OSError(_("there is no standard input"))
            _STREAMS[name] = stdin.read()
        else:
            try:
                mode = os.stat(name).st_mode
            except OSError:
                return None
            if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
                return None
            with open(name, "rb") as stream:
                _STREAMS[name] = stream.read()
    return _STREAMS[name], name


def put_first(decoding: list[Problem], problems: list[Problem]) -> None:
    """Put the decoder's problems before a reader's ``problems``. After a
    decoding error (binary data) the reader was given no text: what it said
    about that (an empty file) is left out, the one error says why."""
    if any(p.severity == "error" for p in decoding):
        problems.clear()
    problems[:0] = decoding
