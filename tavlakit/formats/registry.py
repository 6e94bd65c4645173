"""The formats tavlakit reads and writes, each one object.

A :class:`Format` knows its extensions, how to recognise its content, how
to open a record for reading game by game and how to write one. A writer's
options are its keyword-only, typed parameters (``write_mat(match, stream,
numbering=...)``); any other option is an error, not ignored, and a value is
checked before anything is written.

>>> REGISTRY["mat"].extensions
('.mat', '.txt')
>>> by_content("(;FF[4]GM[6]").name
'sgf'
>>> by_magic(b"RGMH...").name, REGISTRY["xg"].binary
('xg', True)
>>> REGISTRY["sgf"].check_options({"numbering": "absolute"})
Traceback (most recent call last):
...
ValueError: the sgf format takes no option 'numbering' (it takes none)
>>> REGISTRY["mat"].options, REGISTRY["mat"].check_options({"numbering": "gnubg"})
(('numbering',), {'numbering': <Numbering.RELATIVE: 'relative'>})
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypedDict

from ..engine.numbering import Numbering, NumberingLike
from ..i18n import _
from ..record.match import Match
from ..record.problem import Problem
from .text import Reader

Opener = Callable[[IO[Any], "str | None"], Reader]
"""Opens a text stream (a binary stream for a binary format) for reading."""
Writer = Callable[..., "list[Problem]"]
"""Writes a match to a text stream: ``writer(match, stream, **options)``, the
options keyword-only and typed; returns the ``lost-on-write`` problems."""


class WriteOptions(TypedDict, total=False):
    """Every writer option, by name (an option means the same in every format that takes it)."""

    numbering: NumberingLike
    """How the points are written (.mat): :class:`~tavlakit.engine.numbering.Numbering`."""


#: How each option's value is checked and made the writer's type (``ValueError`` if it cannot be).
_OPTION_VALUES: dict[str, Callable[[Any], object]] = {"numbering": Numbering.parse}


@dataclass(frozen=True)
class Format:
    """One record format."""

    name: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], bool]
    """Whether text starting with these characters (blanks and BOM removed) is
    of this format; exactly one format says yes to any text."""
    opener: Opener
    writer: Callable[[], Writer] | None
    """Imports the writer and returns it (the command line loads a format's
    module only when it is used); ``None``: tavlakit reads the format but
    does not write it."""
    magic: bytes = b""
    """For a binary format: the bytes every file of it starts with. A binary
    format is recognised by them and opened on bytes, not text."""

    @property
    def binary(self) -> bool:
        """Whether the format is binary (read from bytes, not decoded to text)."""
        return bool(self.magic)

    def open(self, stream: IO[Any], source: str | None = None) -> Reader:
        """Open ``stream`` (text; bytes for a binary format) for reading game by game."""
        return self.opener(stream, source)

    @property
    def options(self) -> tuple[str, ...]:
        """The options the writer takes: its keyword-only parameters (none for a format not written)."""
        if self.writer is None:
            return ()
        parameters = inspect.signature(self.writer()).parameters.values()
        return tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY)

    def write(self, match: Match, stream: IO[str], **options: object) -> list[Problem]:
        """Write ``match``; returns ``lost-on-write`` problems."""
        checked = self.check_options(options)
        assert self.writer is not None  # check_options said so
        return self.writer()(match, stream, **checked)

    def check_options(self, options: Mapping[str, object]) -> dict[str, object]:
        """``options`` made the writer's types, if the writer takes them all; else a
        ``ValueError`` (also for a value an option cannot take, and a format
        tavlakit does not write)."""
        if self.writer is None:
            raise ValueError(_("tavlakit reads the {format} format but does not write it").format(format=self.name))
        takes = self.options
        for key in options:
            if key not in takes:
                raise ValueError(
                    _("the {format} format takes no option {option!r} (it takes {options})").format(
                        format=self.name, option=key, options=", ".join(takes) or _("none")
                    )
                )
        return {key: _OPTION_VALUES[key](value) for key, value in options.items()}


def _open_mat(stream: IO[str], source: str | None) -> Reader:
    kind = _position_kind(stream)
    if kind is not None:  # a position text saved as .txt: its own reader says what it is
        return REGISTRY[kind].open(stream, source)
    from .mat import iter_mat

    return iter_mat(stream, source)


def _position_kind(stream: IO[str]) -> str | None:
    """The position text format of a seekable stream's first characters, if any."""
    if not stream.seekable():
        return None
    from .position_text import sniff

    head = stream.read(4096)
    stream.seek(0)
    return sniff(head.lstrip("\ufeff \t\r\n"))


def _sniff_position(kind: str) -> Callable[[str], bool]:
    def sniff(head: str) -> bool:
        from .position_text import sniff

        return sniff(head) == kind

    return sniff


def _open_position(kind: str) -> Opener:
    def opener(stream: IO[str], source: str | None) -> Reader:
        from .position_text import PositionReader

        return PositionReader(stream, source, kind)

    return opener


def _sniff_mat(head: str) -> bool:
    from .position_text import sniff

    return not head.startswith(("(", "{", "[", "GMD-")) and sniff(head) is None


def _mat_writer() -> Writer:
    from .mat import write_mat

    return write_mat


def _open_sgf(stream: IO[str], source: str | None) -> Reader:
    from .sgf import SgfReader

    return SgfReader(stream, source)


def _sgf_writer() -> Writer:
    from .sgf import write_sgf

    return write_sgf


def _open_gmd(stream: IO[str], source: str | None) -> Reader:
    from .gmd import iter_gmd

    return iter_gmd(stream, source)


def _open_json(stream: IO[str], source: str | None) -> Reader:
    from .jsonfmt import JsonReader

    return JsonReader(stream, source)


def _json_writer() -> Writer:
    from .jsonfmt import write_json

    return write_json


def _open_xg(stream: IO[bytes], source: str | None) -> Reader:
    from .xg import XgReader

    return XgReader(stream, source)


#: Every format by name.
REGISTRY: dict[str, Format] = {
    fmt.name: fmt
    for fmt in (
        Format("mat", (".mat", ".txt"), _sniff_mat, _open_mat, _mat_writer),
        Format("sgf", (".sgf",), lambda head: head.startswith("("), _open_sgf, _sgf_writer),
        Format("json", (".json",), lambda head: head.startswith(("{", "[")), _open_json, _json_writer),
        Format("gmd", (".gmd",), lambda head: head.startswith("GMD-"), _open_gmd, None),
        # Analysed positions, not matches: read by position_text.read_position; as a
        # record they hold no game and one `position` note. Their files are .txt (mat's).
        *(
            Format(kind, (), _sniff_position(kind), _open_position(kind), None)
            for kind in ("xg-position", "bgblitz-position", "gnubg-text")
        ),
        Format("xg", (".xg",), lambda head: False, _open_xg, None, magic=b"RGMH"),
    )
}
#: The format each extension selects.
EXTENSIONS: dict[str, Format] = {ext: fmt for fmt in REGISTRY.values() for ext in fmt.extensions}


def named(name: str) -> Format:
    """The format called ``name``, or ``ValueError`` listing the formats."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            _("unknown format {name!r}; expected one of {names}").format(name=name, names=", ".join(REGISTRY))
        ) from None


def by_extension(path: str | Path | None) -> Format | None:
    """The format ``path``'s extension selects, if any."""
    return EXTENSIONS.get(Path(path).suffix.lower()) if path else None


def by_content(text: str) -> Format:
    """The text format of text starting with ``text`` (a few kilobytes are enough)."""
    head = text.lstrip("\ufeff \t\r\n")
    return next(fmt for fmt in REGISTRY.values() if not fmt.binary and fmt.sniff(head))


def by_magic(head: bytes) -> Format | None:
    """The binary format of data starting with ``head``, if any."""
    return next((fmt for fmt in REGISTRY.values() if fmt.binary and head.startswith(fmt.magic)), None)
