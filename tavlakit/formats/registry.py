"""The formats tavlakit reads and writes, each one object.

A :class:`Format` knows its extensions, how to recognise its content, how
to open a record for reading game by game, how to write one, and which
options its writer takes (any other option is an error, not ignored).

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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Mapping, Protocol

from ..i18n import _
from ..problem import Problem
from ..record import Game, Match


class Reader(Protocol):
    """A record opened for reading: the header now, the games one at a time."""

    @property
    def match(self) -> Match:
        """Players, length, tags and the problems found outside any game (no games)."""

    def games(self) -> Iterator[Game]:
        """The games, read one at a time."""


Opener = Callable[[IO[Any], "str | None"], Reader]
"""Opens a text stream (a binary stream for a binary format) for reading."""
Writer = Callable[..., "list[Problem]"]


@dataclass(frozen=True)
class Format:
    """One record format."""

    name: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], bool]
    """Whether text starting with these characters (blanks and BOM removed) is
    of this format; exactly one format says yes to any text."""
    opener: Opener
    writer: Writer | None
    """``None``: tavlakit reads the format but does not write it."""
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The writer's options and the values each may take."""
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

    def write(self, match: Match, stream: IO[str], **options: str) -> list[Problem]:
        """Write ``match``; returns ``lost-on-write`` problems."""
        checked = self.check_options(options)
        assert self.writer is not None  # check_options said so
        return self.writer(match, stream, **checked)

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """``options`` if this format's writer takes them all with these values, else ``ValueError``
        (also for a format tavlakit does not write)."""
        if self.writer is None:
            raise ValueError(_("tavlakit reads the {format} format but does not write it").format(format=self.name))
        for key, value in options.items():
            if key not in self.options:
                takes = ", ".join(self.options) or _("none")
                raise ValueError(_("the {format} format takes no option {option!r} (it takes {options})")
                                 .format(format=self.name, option=key, options=takes))
            if value not in self.options[key]:
                raise ValueError(_("option {option} of the {format} format is one of {values}, not {value!r}")
                                 .format(option=key, format=self.name, values=", ".join(self.options[key]),
                                         value=value))
        return dict(options)


def _open_mat(stream: IO[str], source: str | None) -> Reader:
    kind = _position_kind(stream)
    if kind is not None:  # a position text saved as .txt: its own reader says what it is
        return REGISTRY[kind].open(stream, source)
    from .mat import read_mat

    return read_mat(stream, source)


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


def _write_mat(match: Match, stream: IO[str], **options: str) -> list[Problem]:
    from .mat import write_mat

    return write_mat(match, stream, **options)


def _open_sgf(stream: IO[str], source: str | None) -> Reader:
    from .sgf import SgfReader

    return SgfReader(stream, source)


def _write_sgf(match: Match, stream: IO[str], **options: str) -> list[Problem]:
    from .sgf import write_sgf

    return write_sgf(match, stream)  # takes no options: check_options saw none


def _open_gmd(stream: IO[str], source: str | None) -> Reader:
    from .gmd import read_gmd

    return read_gmd(stream, source)


def _open_json(stream: IO[str], source: str | None) -> Reader:
    from .jsonfmt import JsonReader

    return JsonReader(stream, source)


def _write_json(match: Match, stream: IO[str], **options: str) -> list[Problem]:
    from .jsonfmt import write_json

    return write_json(match, stream)  # takes no options: check_options saw none


def _open_xg(stream: IO[bytes], source: str | None) -> Reader:
    from .xg import XgReader

    return XgReader(stream, source)


#: Every format by name.
REGISTRY: dict[str, Format] = {
    fmt.name: fmt for fmt in (
        Format("mat", (".mat", ".txt"), _sniff_mat, _open_mat, _write_mat,
               {"numbering": ("relative", "absolute")}),
        Format("sgf", (".sgf",), lambda head: head.startswith("("), _open_sgf, _write_sgf),
        Format("json", (".json",), lambda head: head.startswith(("{", "[")), _open_json, _write_json),
        Format("gmd", (".gmd",), lambda head: head.startswith("GMD-"), _open_gmd, None),
        # Analysed positions, not matches: read by position_text.read_position; as a
        # record they hold no game and one `position` note. Their files are .txt (mat's).
        *(Format(kind, (), _sniff_position(kind), _open_position(kind), None)
          for kind in ("xg-position", "bgblitz-position", "gnubg-text")),
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
        raise ValueError(_("unknown format {name!r}; expected one of {names}")
                         .format(name=name, names=", ".join(REGISTRY))) from None


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
