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
from pathlib import Path
from typing import IO

from ..problem import Problem

#: Legacy encodings tried in order when the bytes are not UTF-8. cp1254
#: (Windows Turkish) leaves a few bytes undefined; ISO-8859-9 maps every byte.
LEGACY = ("cp1254", "iso-8859-9")


def decode(data: bytes) -> tuple[str, list[Problem]]:
    """Decode a record file without losing characters.

    UTF-8 (a BOM is dropped) is tried first, then :data:`LEGACY`, with a
    warning saying which was used. UTF-16 (as Windows editors may save) is
    read when it has a BOM or looks like it. Other data holding NUL bytes is
    not text: the result is empty and one ``encoding`` error says so.

    >>> decode("Game 1".encode("utf-16"))
    ('Game 1', [])
    """
    if b"\0" in data:
        text = _utf16(data)
        if text is not None:
            return text, []
        count = data.count(b"\0")
        return "", [Problem("encoding", "error",
                            f"binary data, not a text record ({count} NUL byte{'s' if count > 1 else ''})",
                            line=data[: data.index(b"\0")].count(b"\n") + 1)]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        bad = exc.start
    for encoding in LEGACY:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        line = data[:bad].count(b"\n") + 1
        return text, [Problem("encoding", "warning",
                              f"not UTF-8 (byte 0x{data[bad]:02x} at offset {bad}); read as {encoding}",
                              line=line)]
    raise AssertionError("iso-8859-9 decodes every byte")  # pragma: no cover


def _utf16(data: bytes) -> str | None:
    """``data`` as UTF-16 text when it has a UTF-16 BOM, or NULs in every
    other byte as ASCII text in UTF-16 has; else ``None``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif data[1::2].count(0) > len(data) // 4 and not data[0::2].count(0):
        encoding = "utf-16-le"
    elif data[0::2].count(0) > len(data) // 4 and not data[1::2].count(0):
        encoding = "utf-16-be"
    else:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


_CHUNK = 1 << 20


def _first_error(path: Path, encoding: str) -> tuple[int, int] | None:
    """Offset and byte of the first undecodable byte, reading in chunks."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offset = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
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


def open_text(path: str | Path) -> tuple[IO[str], list[Problem]]:
    """Open a record file as a text stream, choosing the encoding as
    :func:`decode` does but without holding the file in memory (one pass in
    chunks to check the bytes, then the stream). Raises ``OSError`` only.
    """
    path = Path(path)
    with open(path, "rb") as handle:
        nul_line = 1
        while chunk := handle.read(_CHUNK):
            if b"\0" in chunk:
                nul_line += chunk[: chunk.index(b"\0")].count(b"\n")
                return io.StringIO(""), [Problem("encoding", "error", "binary data, not a text record (NUL bytes)",
                                                 line=nul_line)]
            nul_line += chunk.count(b"\n")
    bad = _first_error(path, "utf-8")
    if bad is None:
        return open(path, encoding="utf-8-sig", newline=""), []
    for encoding in LEGACY:
        if _first_error(path, encoding) is None:
            with open(path, "rb") as handle:
                line = handle.read(bad[0]).count(b"\n") + 1
            problem = Problem("encoding", "warning",
                              f"not UTF-8 (byte 0x{bad[1]:02x} at offset {bad[0]}); read as {encoding}", line=line)
            return open(path, encoding=encoding, newline=""), [problem]
    raise AssertionError("iso-8859-9 decodes every byte")  # pragma: no cover


def _utf16(data: bytes) -> str | None:
    """``data`` as UTF-16 text when it has a UTF-16 BOM, or NULs in every
    other byte as ASCII text in UTF-16 has; else ``None``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif data[1::2].count(0) > len(data) // 4 and not data[0::2].count(0):
        encoding = "utf-16-le"
    elif data[0::2].count(0) > len(data) // 4 and not data[1::2].count(0):
        encoding = "utf-16-be"
    else:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None
