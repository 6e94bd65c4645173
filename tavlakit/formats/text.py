"""Bytes to text for every text format: UTF-8 first, else a Turkish 8-bit code page.

>>> decode("Ayşe".encode("utf-8"))
('Ayşe', [])
>>> text, problems = decode("Ayşe".encode("cp1254"))
>>> text, problems[0].code
('Ayşe', 'encoding')
"""

from __future__ import annotations

from ..problem import Problem

#: Legacy encodings tried in order when the bytes are not UTF-8. cp1254
#: (Windows Turkish) leaves a few bytes undefined; ISO-8859-9 maps every byte.
LEGACY = ("cp1254", "iso-8859-9")


def decode(data: bytes) -> tuple[str, list[Problem]]:
    """Decode a record file without losing characters.

    UTF-8 (a BOM is dropped) is tried first, then :data:`LEGACY`, with a
    warning saying which was used. Data holding NUL bytes is not text: the
    result is empty and one ``encoding`` error says so.
    """
    if b"\0" in data:
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
