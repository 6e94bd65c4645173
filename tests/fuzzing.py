"""Seeded mutation fuzzing of real records: the mutations, one run of the
validator on a mutated file, the way ``tavlakit validate`` reads it, and
one run of any other command on it, as a user types it (:data:`COMMANDS`:
stats, analyse, show, convert, and board and moves for position texts).

Used by ``test_fuzz.py`` (a bounded number of cases) and by
``benchmarks/fuzz.py`` (many more, with a report).
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from tavlakit.formats import open_games, read_match, write_match
from tavlakit.replay.walker import default_rules, validate

#: Wall-clock seconds one mutated file may take before it counts as a hang.
LIMIT = 20


def flip_byte(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ rng.randrange(1, 256)]) + data[i + 1 :]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def delete_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def double_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def change_digit(data: bytes, rng: random.Random) -> bytes:
    digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
    if not digits:
        return flip_byte(data, rng)
    i = rng.choice(digits)
    return data[:i] + str(rng.choice([d for d in range(10) if d != data[i] - 48])).encode() + data[i + 1 :]


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


def huge_number(data: bytes, rng: random.Random) -> bytes:
    """A number made one no match can have (a length, a score, points, a cube...)."""
    numbers = [found.span() for found in re.finditer(rb"\d+", data)]
    if not numbers:
        return flip_byte(data, rng)
    start, end = rng.choice(numbers)
    return data[:start] + rng.choice([b"99999999999999999999", b"70000", b"0", b"-1"]) + data[end:]


def letter_for_digit(data: bytes, rng: random.Random) -> bytes:
    """A digit written as the letter it looks like (``13/1O``): a typo."""
    digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
    if not digits:
        return flip_byte(data, rng)
    i = rng.choice(digits)
    return data[:i] + rng.choice([b"O", b"l", b"S", b"Z"]) + data[i + 1 :]


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "flip-byte": flip_byte,
    "delete-line": delete_line,
    "double-line": double_line,
    "change-digit": change_digit,
    "truncate": truncate,
    "huge-number": huge_number,
    "letter-for-digit": letter_for_digit,
}


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """1-3 random mutations of ``data``, and their names."""
    names = [rng.choice(list(MUTATIONS)) for _ in range(rng.randint(1, 3))]
    for name in names:
        if data:
            data = MUTATIONS[name](data, rng)
    return data, names


@dataclass
class Outcome:
    """What validating one mutated file gave."""

    codes: list[str] = field(default_factory=list)
    failure: str | None = None
    """An exception, an ``internal`` problem or a hang: a bug."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError(f"validating took more than {LIMIT} s")


def check(path: Path) -> Outcome:
    """Read and validate ``path`` as the CLI does; never raises."""
    out = Outcome()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(LIMIT)
    try:
        match, games = open_games(path)
        report = validate(match, default_rules(match), games=games)
        out.codes = [p.code for p in report.problems]
        internal = [str(p) for p in report.problems if p.code == "internal"]
        if internal:
            out.failure = internal[0]
    except Exception as exc:
        out.failure = f"{type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return out


def seeds(
    corpus: Path, folder: Path, per_format: int, rng: random.Random, most: int | None = None
) -> dict[str, list[Path]]:
    """Files to mutate, per format: corpus .mat/.txt and .sgf files, and
    SGF and JSON written by tavlakit from corpus matches (into ``folder``),
    and the corpus's position texts (XG's, BGBlitz's, gnubg's); ``most``:
    files of at most so many bytes (short records keep the costly commands quick)."""
    small = [p for p in sorted(corpus.rglob("*")) if p.is_file() and (most is None or p.stat().st_size <= most)]
    texts = [p for p in small if p.suffix in (".mat", ".txt")]
    positions = [p for p in texts if _is_position(p)]
    mats = [p for p in texts if p not in positions]
    sgfs = [p for p in small if p.suffix == ".sgf"]
    picked_mat = rng.sample(mats, min(per_format, len(mats)))
    out = {
        "mat": picked_mat,
        "sgf": rng.sample(sgfs, min(per_format // 2, len(sgfs))),
        "json": [],
        "position": rng.sample(positions, min(per_format // 2, len(positions))),
    }
    for i, path in enumerate(picked_mat[:per_format]):
        match = read_match(path)
        if not match.games:
            continue
        for fmt in ("sgf", "json"):
            target = folder / f"{i}-{path.stem}.{fmt}"
            write_match(match, target)
            (out["sgf"] if fmt == "sgf" else out["json"]).append(target)
    return out


def _is_position(path: Path) -> bool:
    return any(p.code == "position" for p in read_match(path).problems)


@dataclass(frozen=True)
class Command:
    """A command as a user types it on a mutated file, in a folder of its own for what it writes."""

    name: str
    words: Callable[[Path, Path], list[str]]
    """The command line of ``(path, folder)``."""
    kinds: tuple[str, ...] = ("mat", "sgf", "json", "position")
    """The seed kinds it is given."""
    costly: bool = False
    """It evaluates with the nets (luck, statistics): run on fewer files."""


#: Every command but validate (:func:`check`), each where it applies.
COMMANDS = (
    Command("stats", lambda p, out: ["stats", "--no-luck", "-j", "1", str(p)]),
    Command("stats-json", lambda p, out: ["stats", "--by", "file", "--no-luck", "--json", "-j", "1", str(p)]),
    Command("analyse", lambda p, out: ["analyse", "--no-luck", "-j", "1", "--store", str(out / "store"), str(p)]),
    Command("show", lambda p, out: ["show", "-j", "1", str(p), "-o", str(out / "page.html")]),
    Command("convert-sgf", lambda p, out: ["convert", "--force", "-j", "1", str(p), "-o", str(out / "c.sgf")]),
    Command("convert-mat", lambda p, out: ["convert", "--force", "-j", "1", str(p), "-o", str(out / "c.mat")]),
    Command("convert-json", lambda p, out: ["convert", "--force", "-j", "1", str(p), "-o", str(out / "c.json")]),
    Command("board", lambda p, out: ["board", str(p), "--svg", str(out / "b.svg")], ("position",)),
    Command("board-absolute", lambda p, out: ["board", str(p), "--numbering", "absolute"], ("position",)),
    Command("moves", lambda p, out: ["moves", str(p)], ("position",)),
    Command("stats-luck", lambda p, out: ["stats", "-j", "1", str(p)], costly=True),
    # (at the expert level: a whole match at world class takes longer than LIMIT; the look-ahead's
    # own robustness is the agreement tests' and test_levels' on real files)
    Command(
        "stats-by-match", lambda p, out: ["stats", "--by", "match", "--level", "expert", "-j", "1", str(p)], costly=True
    ),
    Command(
        "analyse-luck",
        lambda p, out: ["analyse", "--level", "expert", "-j", "1", "--store", str(out / "s"), str(p)],
        costly=True,
    ),
    Command(
        "show-analyse",
        lambda p, out: ["show", "--analyse", "--level", "expert", "-j", "1", str(p), "-o", str(out / "a.html")],
        costly=True,
    ),
)
#: What a command says when tavlakit failed on its input (a bug): an ``internal`` problem.
_INTERNAL = re.compile(r"(error internal:|: internal: )")


def run_command(command: Command, path: Path, folder: Path) -> Outcome:
    """Run ``command`` on ``path`` as a user would (in this process); never
    raises. A failure: an exception (a traceback), an ``internal`` problem,
    an exit status other than 0, 1 or 2, or a hang."""
    from typer.testing import CliRunner

    from tavlakit.cli import app

    folder.mkdir(parents=True, exist_ok=True)
    out = Outcome()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(LIMIT)
    try:
        result = CliRunner().invoke(app, command.words(path, folder))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        error = result.exception
        out.failure = f"{command.name}: {type(error).__name__}: {error}"
    elif result.exit_code not in (0, 1, 2):
        out.failure = f"{command.name}: exit status {result.exit_code}"
    elif _INTERNAL.search(result.output):
        out.failure = f"{command.name}: {next(line for line in result.output.splitlines() if _INTERNAL.search(line))}"
    return out
