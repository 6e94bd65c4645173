"""eXtreme Gammon's ``.xg`` match files, read into the record model (no writer).

An ``.xg`` file is a header (magic ``RGMH``), a JPEG thumbnail and a zlib
archive found from the end of the file: its last 36 bytes locate a file
index, which locates ``temp.xg`` (the game file: records of 2,560 bytes,
little-endian) and ``temp.xgc`` (the comments, one RTF text a line). The
records are the match header, then per game a game header, a cube record
before every roll (the doubling decision, with its analysis), a move record
per roll (with XG's candidate plays, their equities and probabilities, the
error of the play written and the luck of the roll) and a game footer, then
the match footer. Layout from XG's public description (``xgformat.aspx``);
what the fields mean was checked on the corpus (``xg/test.xg`` is the match
of ``xg/test.mat``).

XG's player 1 is player 0 (the left column of XG's own .mat export). Boards
are 26 signed bytes: index ``i`` (1-24) is point ``i`` of the side whose
checkers are positive, 25 its bar, 0 the other side's bar: tavlakit's own
board array (:class:`~tavlakit.engine.position.Position`). A move is a pair of
0-based points: from 24 is the bar, a negative destination is off; a from
of -1 ends the list.

What the file holds of XG's analysis is kept on each turn as a
:class:`~tavlakit.record.match.RecordedAnalysis` by ``"XG"`` (errors as the equity lost,
>= 0, in EMG: normalised to the cube, as XG's equities are, so that a
double/pass is +1 at any cube and score; XG's -1000, not analysed, is
``None``). XG writes its errors with signs of its own (checked on every
analysed decision of the corpus against the equities the same record
holds): a play's error is the played candidate's equity less the best's
(<= 0), the doubler's (``ErrCube``, doubling or not) is the best option's
equity less the one taken (>= 0), the taker's (``ErrTake``) the negative
of what the answer lost (<= 0; the corpus has no beaver to show
``ErrBeaver``'s sign). The reader keeps the size of each.

A damaged file (not ``RGMH``, a cut or corrupt archive, a record cut short)
is one ``unreadable`` problem located at the record reached (in place of a
line), and the games read before it are kept.
"""

from __future__ import annotations

import codecs
import re
import struct
import zlib
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import IO, NamedTuple, overload

try:  # libdeflate: inflates 4x and checksums 15x as fast as zlib, with the same results
    from deflate import DeflateError as _FastError, crc32 as _crc32, zlib_decompress as _fast_inflate
except ImportError:  # pragma: no cover - deflate is a dependency; zlib does the same, slower
    from zlib import crc32 as _crc32, error as _FastError  # type: ignore[assignment]

    def _fast_inflate(data: memoryview, size: int) -> bytes:  # type: ignore[misc]
        return zlib.decompress(data)


from ..engine.movegen import flipped
from ..engine.play import BAR, OFF, Move
from ..engine.position import Position
from ..i18n import N_, _
from ..record.match import XG, Candidate, Game, Match, RecordedAnalysis, Result, Turn
from ..record.problem import Reporter

__all__ = ["MAGIC", "RECORD_SIZE", "XgReader", "read_xg", "rtf_text"]

MAGIC = b"RGMH"
RECORD_SIZE = 2560
#: XG's value for "not analysed".
NOT_ANALYSED = -1000.0
_HEADER = struct.Struct("<4sIIQI")  # magic, version, header size, thumbnail offset, thumbnail size
#: Where the header's comment starts (after the GUID and three texts of 1,024 UTF-16 characters).
_HEADER_COMMENT = 40 + 3 * 2048
_ARCHIVE = struct.Struct("<Iiiiii12x")  # crc, files, version, index size, data size, index compressed
_ENTRY = struct.Struct("<256s256siiiIBB2x")  # name, path, size, packed size, start, crc, stored, level
_MATCH_MAGIC = b"DMLI"

# record layouts (offsets from the record's start; byte 8 is the kind)
_MATCH = struct.Struct("<41s41sxiiBBBBddiid129s3xiiiBBB129siB129s2xiiI")  # from 9 to 560
_MATCH_V8 = struct.Struct("<ii")  # at 612: CubeLimit (a power of 2), AutoDoubleMax
_COMMENTS_MATCH = struct.Struct("<ii")  # at 576
_GAME = struct.Struct("<iiB26bxiB3xiii")  # from 12
#: from 12: active, double, take, beaver, raccoon, cube; at 200 the cube, take, beaver, raccoon
#: errors; at 292 the comment
_CUBE = struct.Struct("<6i164xd8xd16xdd36xi")
_CUBE_EVAL = struct.Struct("<i8x4x4x4x8x7ffff4x7f")  # from 92: level, (no double) eval, equities, D/T eval
_MOVE = struct.Struct("<26s3xi8i2i")  # from 35: the board after (the mover's view), active, moves, dice
#: from 2308: played, error, luck, XG's choice; at 2472 the analysis level, at 2524 the comment
_MOVE_TAIL = struct.Struct("<B3xddi140xi48xi")
# XG's candidate plays (DataMoves, 2,184 bytes from 124): their number at 64,
# then 32 boards (26 bytes), 32 move lists (8 bytes), 32 levels (4), 32 evaluations (7 floats)
_DATA_MOVES = slice(124, 2308)
_CANDIDATES = struct.Struct("<i")
_CANDIDATE_BOARDS = 68
_CANDIDATE_MOVES = struct.Struct("<256b")  # at 900
_CANDIDATE_LEVELS = struct.Struct("<" + "h2x" * 32)  # at 1156
_CANDIDATE_EVALS = struct.Struct("<224f")  # at 1284
_FOOTER = struct.Struct("<iiB3xiii")  # from 12: scores, crawford next, winner, points, termination
_BOARD = struct.Struct("<26b")

#: XG's analysis levels (its PLAYERLEVEL table); XG's 1-ply is gnubg's 0-ply.
LEVELS = {
    0: "1-ply",
    1: "2-ply",
    2: "3-ply",
    12: "3-ply red",
    3: "4-ply",
    4: "5-ply",
    5: "6-ply",
    6: "7-ply",
    100: "rollout",
    1000: "XG Roller",
    1001: "XG Roller+",
    1002: "XG Roller++",
}
_VARIATIONS = {0: "Backgammon", 1: "Nackgammon", 2: "Hypergammon", 3: "Longgammon"}
_KINDS = (N_("match header"), N_("game header"), N_("cube"), N_("move"), N_("game footer"), N_("match footer"))
_DELPHI_EPOCH = datetime(1899, 12, 30)


class Damaged(ValueError):
    """The container or the game file cannot be read on from here."""


class _Files(NamedTuple):
    """What the archive gave: the game file, the comments file, the first
    damage found, and the file header's comment."""

    games: bytes | bytearray
    comments: bytes | bytearray
    damage: str | None
    note: str = ""


def _inflate(blob: bytes | memoryview) -> tuple[bytes, str | None]:
    """One zlib stream at the start of ``blob``: what it inflates to, and
    what stopped it early (``None``: it ended as a stream should)."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(blob)
    except zlib.error:  # inflate again piece by piece to keep what came before the fault
        inflater = zlib.decompressobj()
        pieces = []
        for start in range(0, len(blob), 1024):
            try:
                pieces.append(inflater.decompress(blob[start : start + 1024]))
            except zlib.error as exc:
                return b"".join(pieces), _("the compressed data is corrupt ({reason})").format(reason=exc)
        out = b"".join(pieces)
    if not inflater.eof:
        return out, _("the compressed data stops before its end")
    return out, None


def _unpacked(blob: memoryview, packed: int, size: int) -> tuple[bytes | bytearray, str | None]:
    """A zlib stream of ``packed`` bytes at the start of ``blob`` that
    inflates to ``size`` bytes, inflated whole (libdeflate); when it does
    not, what zlib gets of it and why it stopped."""
    try:
        return _fast_inflate(blob[:packed], size), None
    except (_FastError, ValueError):
        return _inflate(blob)


def _archive(data: bytes) -> _Files:
    """The game and comments files of an ``.xg`` file's archive (raises
    :class:`Damaged` when the file is not one at all)."""
    if len(data) < _HEADER.size or data[:4] != MAGIC:
        raise Damaged(_("not an eXtreme Gammon file: it starts with {head!r}, not RGMH").format(head=data[:4]))
    _magic, _version, header_size, _offset, thumbnail = _HEADER.unpack_from(data)
    note = _wide(data[_HEADER_COMMENT : _HEADER_COMMENT + 2048]).strip()  # the other three say what the match does
    view = memoryview(data)
    try:
        entries, start, damage = _index(data)
    except Damaged as exc:  # no index: the game file is the archive's first stream
        games, _fault = _inflate(view[header_size + thumbnail :])
        return _Files(games, b"", str(exc), note)
    out: dict[str, bytes | bytearray] = {}
    for name, (size, packed, at, crc, stored) in entries.items():
        if name not in ("temp.xg", "temp.xgc"):
            continue
        content: bytes | bytearray
        if stored:
            content, fault = bytes(view[start + at : start + at + packed]), None
        else:
            content, fault = _unpacked(view[start + at :], packed, size)
        if fault is None and (len(content) != size or _crc32(content) != crc):
            fault = _("{name} does not match its checksum").format(name=name)
        damage = damage or (fault and _("{name}: {fault}").format(name=name, fault=fault))
        out[name] = content
    if "temp.xg" not in out:
        raise Damaged(_("the archive holds no game file (temp.xg)"))
    return _Files(out["temp.xg"], out.get("temp.xgc", b""), damage, note)


def _index(data: bytes) -> tuple[dict[str, tuple[int, int, int, int, bool]], int, str | None]:
    """The archive's file index (name -> size, packed size, start, crc,
    stored), where the archive's data starts, and a checksum fault."""
    end = len(data) - _ARCHIVE.size
    if end < _HEADER.size:
        raise Damaged(_("the file is cut short: no archive after the header"))
    crc, count, _version, index_size, data_size, packed = _ARCHIVE.unpack_from(data, end)
    start = end - index_size - data_size
    if not (0 < count <= 64 and index_size > 0 and data_size > 0 and _HEADER.size <= start):
        raise Damaged(_("the archive's index at the end of the file is missing or damaged (is the file cut short?)"))
    damage = (
        None
        if _crc32(memoryview(data)[start:end]) == crc
        else _("the archive does not match its checksum: the file is damaged")
    )
    raw = memoryview(data)[end - index_size : end]
    index, fault = _inflate(raw) if packed else (bytes(raw), None)
    if fault is not None or len(index) < count * _ENTRY.size:
        raise Damaged(_("the archive's index cannot be read"))
    entries = {}
    for i in range(count):
        name, _path, size, packed_size, at, file_crc, stored, _level = _ENTRY.unpack_from(index, i * _ENTRY.size)
        entries[_short(name)] = (size, packed_size, at, file_crc, stored != 0)
    return entries, start, damage


def _short(raw: bytes) -> str:
    """A Delphi short string (length byte, then Windows-1252 text)."""
    return raw[1 : 1 + raw[0]].decode("cp1252", "replace")


def _wide(raw: bytes) -> str:
    """A NUL-terminated UTF-16 string."""
    text = raw.decode("utf-16-le", "replace")
    return text.split("\0", 1)[0]


_RTF = re.compile(r"\\'([0-9a-fA-F]{2})|\\u(-?\d+) ?\??|\\([a-zA-Z]+)(-?\d+)? ?|\\([^a-zA-Z])|([{}])|([^\\{}]+)")
_SKIPPED = {"fonttbl", "colortbl", "stylesheet", "info", "generator", "pict", "header", "footer"}
_BREAKS = {"par": "\n", "line": "\n", "tab": "\t"}


def rtf_text(rtf: str, codepage: str = "cp1252") -> str:
    r"""The plain text of an RTF comment (XG writes its comments so): groups
    such as the font table left out, ``\par`` a line break, ``\'hh`` a byte
    in the text's code page (``\ansicpg``, else ``codepage``), ``\uN`` a
    character.

    >>> rtf_text(r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\pard\fs20 les 66 sont \'e0 trouver\par}")
    'les 66 sont à trouver'
    """
    out: list[str] = []
    skip_depth: list[int] = []
    depth = 0
    pending: bytearray = bytearray()

    def flush() -> None:
        if pending:
            out.append(pending.decode(codepage, "replace"))
            pending.clear()

    for hexa, uni, word, arg, symbol, brace, text in _RTF.findall(rtf):
        if brace:
            flush()
            depth += 1 if brace == "{" else -1
            while skip_depth and depth < skip_depth[-1]:
                skip_depth.pop()
            continue
        if hexa:
            if not skip_depth:
                pending.append(int(hexa, 16))
            continue
        flush()
        if skip_depth:
            continue
        if uni:
            out.append(chr(int(uni) % 65536))
        elif word:
            if word == "ansicpg" and _known(f"cp{arg}"):
                codepage = f"cp{arg}"
            elif word in _SKIPPED:
                skip_depth.append(depth)
            elif word in _BREAKS:
                out.append(_BREAKS[word])
        elif symbol == "*":
            skip_depth.append(depth)
        elif symbol and symbol in "\\{}":
            out.append(symbol)
        elif text:
            out.append(text.replace("\r", "").replace("\n", ""))
    flush()
    return "\n".join(line.strip() for line in "".join(out).strip().split("\n"))


def _known(codec: str) -> bool:
    try:
        codecs.lookup(codec)
    except LookupError:
        return False
    return True


def _comments(raw: bytes | bytearray) -> list[str]:
    """The comments file: one RTF text a line (XG writes a line break inside one as bytes 1, 2)."""
    if not raw:
        return []
    text = raw.decode("cp1252", "replace")
    return [rtf_text(line.replace("\x01\x02", "\n")) for line in text.split("\r\n")]


def _point(index: int) -> int:
    """A 0-based XG point as tavlakit's: 24 is the bar, a negative one off."""
    return BAR if index == 24 else OFF if index < 0 else index + 1


#: Every move XG can write, made once (and each with a hit mark).
_MOVES = {(src, dst): Move(_point(src), _point(dst)) for src in range(25) for dst in range(-7, 24)}
_HITS = {move: move._replace(hit=True) for move in _MOVES.values()}


def _marked(board: Sequence[int], moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """``moves`` with hit marks, played on ``board`` (the mover's view, as
    :class:`~tavlakit.engine.position.Position` holds it); a move the board cannot
    make (a damaged record) is left unmarked."""
    s = list(board)
    out = []
    for move in moves:
        src, dst = move.src, move.dst
        s[src] -= 1
        if dst and s[dst] == -1:
            s[dst], s[0] = 1, s[0] - 1
            out.append(_HITS[move])
            continue
        if dst:
            s[dst] += 1
        out.append(move)
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _moves(pairs: tuple[int, ...]) -> tuple[Move, ...] | None:
    """The moves of XG's pair list (``None``: a pair XG cannot have written);
    remembered: a collection holds far fewer plays than turns."""
    out = []
    for i in range(0, len(pairs), 2):
        if pairs[i] < 0:
            break
        move = _MOVES.get((pairs[i], pairs[i + 1]))
        if move is None:
            return None
        out.append(move)
    return tuple(out)


#: The starting position's board, as tavlakit and as XG store it.
_INITIAL = Position.initial().board
_INITIAL_BYTES = bytes(n & 255 for n in _INITIAL)


class Candidates(Sequence[Candidate]):
    """XG's candidate plays of a move record, best first, decoded from the
    record's bytes when first used (most readers of a match never ask)."""

    __slots__ = ("_raw", "_decoded")

    def __init__(self, raw: bytes) -> None:
        self._raw = raw
        self._decoded: tuple[Candidate, ...] | None = None

    def _all(self) -> tuple[Candidate, ...]:
        if self._decoded is None:
            raw = self._raw
            count = min(max(_CANDIDATES.unpack_from(raw, 64)[0], 0), 32)
            moves = _CANDIDATE_MOVES.unpack_from(raw, 900)
            levels = _CANDIDATE_LEVELS.unpack_from(raw, 1156)
            evals = _CANDIDATE_EVALS.unpack_from(raw, 1284)
            self._decoded = tuple(
                Candidate(
                    evals[7 * k + 6],
                    _moves(moves[8 * k : 8 * k + 8]) or (),
                    probabilities=_probabilities(evals[7 * k : 7 * k + 6]),
                    level=LEVELS.get(levels[k]),
                )
                for k in range(count)
            )
        return self._decoded

    @overload
    def __getitem__(self, index: int) -> Candidate: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Candidate]: ...

    def __getitem__(self, index: int | slice) -> Candidate | Sequence[Candidate]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._all() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


def _played(raw: bytes, board: bytes) -> int | None:
    """Which of XG's candidates (DataMoves bytes ``raw``) ends on ``board``."""
    if raw[_CANDIDATE_BOARDS : _CANDIDATE_BOARDS + 26] == board:
        return 0  # most plays are XG's first choice
    count = min(max(_CANDIDATES.unpack_from(raw, 64)[0], 0), 32)
    boards = raw[_CANDIDATE_BOARDS : _CANDIDATE_BOARDS + 26 * count]
    at = boards.find(board)
    while at > 0 and at % 26:
        at = boards.find(board, at + 1)
    return None if at < 0 else at // 26


def _error(value: float) -> float | None:
    """An error as XG stores it (of either sign, see the module's
    docstring; -1000: not analysed) as the equity lost, >= 0."""
    return None if value <= NOT_ANALYSED else abs(value)


def _cube_options(record: memoryview) -> tuple[str | None, tuple[Candidate, ...]]:
    """XG's level and cube options of a cube record (no double, double/take,
    double/pass; EMG), none where it did not analyse the decision."""
    level_code, *values = _CUBE_EVAL.unpack_from(record, 92)
    level = LEVELS.get(level_code)
    if level is None:
        return None, ()
    no_double, equities, take_eval = values[:7], values[7:10], values[10:17]
    return level, (
        Candidate(equities[0], action="no double", probabilities=_probabilities(no_double), level=level),
        Candidate(equities[1], action="double/take", probabilities=_probabilities(take_eval), level=level),
        Candidate(equities[2], action="double/pass", level=level),
    )


def _probabilities(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """XG's (lose bg, lose gammon, lose, win, win gammon, win bg) in gnubg's order."""
    return (values[3], values[4], values[5], values[1], values[0])


def _plausible(record: memoryview) -> bool:
    """Whether a record can be one XG wrote (its kind known; a cube or move
    record's player 1 or -1, a move's dice 1-6)."""
    kind = record[8]
    if kind == 2:
        return _CUBE.unpack_from(record, 12)[0] in (1, -1)
    if kind == 3:
        fields = _MOVE.unpack_from(record, 35)
        return fields[1] in (1, -1) and 1 <= fields[10] <= 6 and 1 <= fields[11] <= 6
    return kind <= 5


def _date(days: float) -> datetime | None:
    try:
        return _DELPHI_EPOCH + timedelta(days=days) if days > 0 else None
    except OverflowError:
        return None


class XgReader:
    """An ``.xg`` file opened for reading: :attr:`~XgReader.match` holds the header
    (players, length, tags, match comments); :meth:`games` builds the
    games one at a time from the records."""

    def __init__(self, given: bytes | Path | IO[bytes], source: str | None = None) -> None:
        if isinstance(given, Path):
            source = source or str(given)
            data = given.read_bytes()
        elif isinstance(given, bytes):
            data = given
        else:
            name = getattr(given, "name", None)
            source = source or (name if isinstance(name, str) else None)
            data = given.read()
        #: The match read so far: its header at first, its games as they are read.
        self.match = Match(source=source)
        self.report = Reporter(self.match.problems, file=source)
        self._records = memoryview(b"")
        self._notes: list[str] = []
        self._count = 0
        try:
            files = _archive(data)
        except Damaged as exc:
            self.report.error("unreadable", str(exc))
            self.match.resolve_rules()
            return
        self._records = memoryview(files.games)
        self._notes = _comments(files.comments)
        self._count = len(files.games) // RECORD_SIZE
        if files.note:
            self.match.comments.append(files.note)
        damage = files.damage
        if damage is None and len(files.games) % RECORD_SIZE:
            damage = _("the game file stops inside record {number} ({size} of {full} bytes)").format(
                number=self._count + 1, size=len(files.games) % RECORD_SIZE, full=RECORD_SIZE
            )
        stop = self._scan(damage is not None) if self._header() else None
        if damage is not None:
            self._fail(stop or self._count + 1, _("{damage}; the records before it are read").format(damage=damage))
        self.match.resolve_rules()

    # -- the match header --------------------------------------------------------

    def _record(self, number: int) -> memoryview:
        """Record ``number`` (1-based)."""
        return self._records[(number - 1) * RECORD_SIZE : number * RECORD_SIZE]

    def _note(self, index: int) -> str | None:
        """Comment ``index`` of the comments file (``None``: -1 or none there)."""
        return self._notes[index] or None if 0 <= index < len(self._notes) else None

    def _header(self) -> bool:
        """Read the match header (record 1); ``False`` when there is none."""
        if self._count == 0 or self._records[8] != 0:
            if self._count:
                self._fail(1, _("the game file does not start with a match header"))
            self._count = 0
            return False
        record = self._record(1)
        (
            name1,
            name2,
            length,
            variation,
            crawford,
            jacoby,
            beaver,
            auto,
            elo1,
            elo2,
            exp1,
            exp2,
            date,
            event,
            game_id,
            _level1,
            _level2,
            _elo,
            _add1,
            _add2,
            location,
            _mode,
            _imported,
            round_,
            _invert,
            version,
            magic,
        ) = _MATCH.unpack_from(record, 9)
        match = self.match
        names = [_short(name1), _short(name2)]
        texts = {"Event": _short(event), "Site": _short(location), "Round": _short(round_)}
        if magic != int.from_bytes(_MATCH_MAGIC, "little"):
            self.report.warning("syntax", _("record 1: the match header's magic number is not DMLI"), line=1)
        tags = match.tags
        limit = _MATCH_V8.unpack_from(record, 612)[0] if version >= 8 else 0
        if version >= 24:
            wide = [_wide(bytes(record[622 + 258 * i : 880 + 258 * i])) for i in range(5)]
            texts = {"Event": wide[0], "Site": wide[3], "Round": wide[4]}
            names = [wide[1] or names[0], wide[2] or names[1]]
        match.players = (names[0] or "Player 1", names[1] or "Player 2")
        match.length = 0 if length >= 99999 else length
        tags.update((key, value) for key, value in texts.items() if value)
        when = _date(date)
        if when is not None:
            tags["EventDate"] = when.strftime("%Y.%m.%d")
            tags["EventTime"] = when.strftime("%H.%M")
        tags["Player 1 Elo"] = f"{elo1:.2f}/{exp1}"
        tags["Player 2 Elo"] = f"{elo2:.2f}/{exp2}"
        if version >= 30:
            transcriber = _wide(bytes(record[1960:2218]))
            if transcriber:
                tags["Transcriber"] = transcriber
        tags["Match ID"] = str(game_id)
        name = _VARIATIONS.get(variation, str(variation))
        if variation == 0:
            tags["Variation"] = name
            if match.length:
                tags["Crawford"] = "On" if crawford else "Off"
            tags["Jacoby"] = "On" if jacoby else "Off"
            tags["Beaver"] = "On" if beaver else "Off"
            if auto:
                tags["Rules"] = "backgammon automatic-doubles=on"
        else:
            self.report.warning(
                "unsupported",
                _(
                    "record 1: XG's variation {name} is not a game tavlakit plays; "
                    "its games are replayed under backgammon rules from their "
                    "starting positions"
                ).format(name=name),
                line=1,
            )
        if limit > 0:
            tags["CubeLimit"] = str(2 ** min(limit, 30))
        header, footer = _COMMENTS_MATCH.unpack_from(record, 576)
        match.comments.extend(note for note in (self._note(header), self._note(footer)) if note)
        return True

    def _fail(self, number: int, message: str) -> None:
        """The one problem of a damaged file: where reading stopped."""
        self.report.error(
            "unreadable", _("record {number}: {problem}").format(number=number, problem=message), line=number
        )

    def _scan(self, damaged: bool) -> int | None:
        """Check the order and kinds of the records (once, before the games
        are read, so that what is not read is said with the header). In a
        damaged file reading stops at the first record that does not fit
        (a kind XG does not write, or out of order); returns its number."""
        inside = False
        records = self._records
        for number in range(2, self._count + 1):
            kind = records[(number - 1) * RECORD_SIZE + 8]
            fits = (kind == 1 and not inside) or (kind in (2, 3, 4) and inside) or (kind == 5 and not inside)
            if damaged and not (fits and _plausible(self._record(number))):
                self._count = number - 1
                return number
            if kind == 1:
                inside = True
            elif kind == 5:
                if number < self._count:
                    self.report.warning(
                        "syntax",
                        _("record {number}: {count} record(s) after the match footer are not read").format(
                            number=number + 1, count=self._count - number
                        ),
                        line=number + 1,
                    )
                self._count = number
                return None
            elif inside and kind in (2, 3, 4):
                inside = kind != 4
            elif kind < len(_KINDS):
                self.report.warning(
                    "syntax",
                    _("record {number}: a {what} record outside a game is not read").format(
                        number=number, what=_(_KINDS[kind])
                    ),
                    line=number,
                )
            else:
                self.report.warning(
                    "unsupported",
                    _("record {number}: a record of a kind tavlakit does not know ({kind}) is not read").format(
                        number=number, kind=kind
                    ),
                    line=number,
                )
        return None

    # -- the games --------------------------------------------------------------------

    def games(self) -> Iterator[Game]:
        """The games, built one at a time from the records."""
        builder: _GameBuilder | None = None
        records = self._records
        for number in range(2, self._count + 1):
            record = records[(number - 1) * RECORD_SIZE : number * RECORD_SIZE]
            kind = record[8]
            if kind == 3 and builder is not None and not builder.done:
                builder.move(record, number)
            elif kind == 2 and builder is not None and not builder.done:
                builder.cube(record, number)
            elif kind == 1:
                if builder is not None:
                    yield builder.finish()
                builder = _GameBuilder(self, record, number)
            elif kind == 4 and builder is not None and not builder.done:
                builder.footer(record, number)
            # any other record was reported by _scan
        if builder is not None:
            yield builder.finish()


class _GameBuilder:
    """One game from its records: the header, cube and move records, the footer."""

    def __init__(self, reader: XgReader, record: memoryview, number: int) -> None:
        self.reader = reader
        fields = _GAME.unpack_from(record, 12)
        score1, score2, crawford = fields[0], fields[1], fields[2]
        board = fields[3:29]
        game_number, _progress, header, footer, autos = fields[29:34]
        match = reader.match
        self.game = Game(
            number=game_number,
            score=(score1, score2),
            line=number,
            crawford=bool(crawford) if match.length and match.tags.get("Crawford") == "On" else None,
        )
        self.report = Reporter(self.game.problems, file=match.source, game=game_number)
        self.footer_note = reader._note(footer)
        note = reader._note(header)
        if note:
            self.game.comments.append(note)
        if autos > 0:
            self.game.cube = 2 ** min(autos, 30)
        self.setup: Position | None = None
        if any(board):
            try:
                start = Position(board)
            except ValueError as exc:
                self.report.error(
                    "syntax",
                    _("record {number}: the starting position cannot be read ({reason})").format(
                        number=number, reason=exc
                    ),
                    line=number,
                )
            else:
                if start.board != _INITIAL:
                    self.setup = start
        self.board = bytes(n & 255 for n in self.setup.board) if self.setup else _INITIAL_BYTES
        """The board after the last move (first: the start), seen by :attr:`mover`, as XG stores it."""
        self.mover = 0
        self.cube_error: float | None = None
        self.cube_options: tuple[Candidate, ...] = ()
        """XG's no double, double/take and double/pass before the next roll, when it weighed them."""
        self.done = False

    def cube(self, record: memoryview, number: int) -> None:
        """A cube record: a double and its answer, or the decision not to double."""
        active, double, take, beaver, raccoon, cube, *errors, note = _CUBE.unpack_from(record, 12)
        player = 0 if active == 1 else 1
        comment = self.reader._note(note) if note >= 0 else None
        level, options = _cube_options(record)
        if double != 1:
            self.cube_error = _error(errors[0]) if double == 0 else None
            self.cube_options = options if double == 0 else ()
            if comment:
                self.game.comments.append(comment)
            return
        self.cube_error, self.cube_options = None, ()
        value = 2 ** min(abs(cube), 30)
        turns = self.game.turns
        turns.append(
            Turn(
                player,
                "double",
                cube=2 * value,
                comment=comment,
                line=number,
                analysis=RecordedAnalysis(XG, _error(errors[0]), level=level, candidates=options),
            )
        )
        if take == 2:
            turns.append(
                Turn(
                    1 - player,
                    "beaver",
                    cube=4 * value,
                    line=number,
                    analysis=RecordedAnalysis(
                        XG, _error(errors[2] if errors[2] > NOT_ANALYSED else errors[1]), level=level
                    ),
                )
            )
            if beaver != 1 or raccoon > 0:
                self.report.warning(
                    "unsupported",
                    _("record {number}: a refused beaver or a raccoon is not kept").format(number=number),
                    line=number,
                )
        elif take in (0, 1):
            turns.append(
                Turn(
                    1 - player,
                    "take" if take else "drop",
                    line=number,
                    analysis=RecordedAnalysis(XG, _error(errors[1]), level=level),
                )
            )

    def move(self, record: memoryview, number: int) -> None:
        """A move record: the roll, the play and XG's analysis of both."""
        fields = _MOVE.unpack_from(record, 35)
        end, player = fields[0], 0 if fields[1] == 1 else 1
        played, error, luck, _choice, level_code, note = _MOVE_TAIL.unpack_from(record, 2308)
        moves = _moves(fields[2:10]) if played else ()
        if moves is None:
            self.report.error(
                "syntax",
                _("record {number}: the moves {moves} cannot be read").format(number=number, moves=list(fields[2:10])),
                line=number,
            )
            moves = ()
        if moves:
            moves = self.marked(player, moves, end)
        turn = Turn(
            player, "roll", fields[10:12], moves, line=number, comment=self.reader._note(note) if note >= 0 else None
        )
        if played:
            self.board, self.mover = end, player
        level = LEVELS.get(level_code)
        candidates: Sequence[Candidate] = ()
        chosen = None
        if played and level is not None:
            raw = bytes(record[_DATA_MOVES])
            candidates, chosen = Candidates(raw), _played(raw, end)
        turn.analysis = RecordedAnalysis(
            XG,
            _error(error) if played else None,
            None if luck <= NOT_ANALYSED else luck + 0.0,
            self.cube_error,
            level,
            candidates,
            chosen,
            self.cube_options,
        )
        self.cube_error, self.cube_options = None, ()
        self.game.turns.append(turn)

    def marked(self, player: int, moves: tuple[Move, ...], end: bytes) -> tuple[Move, ...]:
        """``moves`` with hit marks: only where the opponent has more
        checkers on the bar after them (the boards are XG's) is the play
        walked on the board."""
        board, same = self.board, player == self.mover
        before = (256 - board[0]) & 255 if same else board[25]  # the opponent's checkers on the bar
        if (256 - end[0]) & 255 <= before:
            return moves
        signed = _BOARD.unpack(board)
        return _marked(signed if same else flipped(signed), moves)

    def footer(self, record: memoryview, number: int) -> None:
        _score1, _score2, _crawford, winner, points, termination = _FOOTER.unpack_from(record, 12)
        if winner in (1, -1):
            self.game.result = Result(0 if winner == 1 else 1, points, resigned=termination >= 100, line=number)
        else:
            self.report.warning(
                "syntax",
                _("record {number}: the game footer names no winner ({winner})").format(number=number, winner=winner),
                line=number,
            )
        if termination >= 1000:
            self.report.warning(
                "unsupported",
                _("record {number}: a settled game is kept as a resignation").format(number=number),
                line=number,
            )
        if self.footer_note:
            self.game.comments.append(self.footer_note)
        self.done = True

    def finish(self) -> Game:
        game = self.game
        if self.setup is not None:
            first = game.turns[0].player if game.turns else 0
            game.start = (self.setup if first == 0 else self.setup.flip()).position_id()
        return game


def read_xg(given: bytes | Path | IO[bytes], source: str | None = None) -> Match:
    """Read a whole ``.xg`` file (bytes, a :class:`~pathlib.Path` or a binary stream)."""
    reader = XgReader(given, source)
    reader.match.games = list(reader.games())
    return reader.match
