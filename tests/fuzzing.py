"""Seeded mutation fuzzing of real records: the mutations, and one run of
the validator on a mutated file, the way ``tavlakit validate`` reads it.

Used by ``test_fuzz.py`` (a bounded number of cases) and by
``benchmarks/fuzz.py`` (many more, with a report).
"""

from __future__ import annotations

import random
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


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "flip-byte": flip_byte,
    "delete-line": delete_line,
    "double-line": double_line,
    "change-digit": change_digit,
    "truncate": truncate,
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


def seeds(corpus: Path, folder: Path, per_format: int, rng: random.Random) -> dict[str, list[Path]]:
    """Files to mutate, per format: corpus .mat/.txt and .sgf files, and
    SGF and JSON written by tavlakit from corpus matches (into ``folder``)."""
    mats = sorted(p for p in corpus.rglob("*") if p.suffix in (".mat", ".txt") and p.is_file())
    sgfs = sorted(corpus.rglob("*.sgf"))
    picked_mat = rng.sample(mats, min(per_format, len(mats)))
    out = {"mat": picked_mat, "sgf": rng.sample(sgfs, min(per_format // 2, len(sgfs))), "json": []}
    for i, path in enumerate(picked_mat[:per_format]):
        match = read_match(path)
        if not match.games:
            continue
        for fmt in ("sgf", "json"):
            target = folder / f"{i}-{path.stem}.{fmt}"
            write_match(match, target)
            (out["sgf"] if fmt == "sgf" else out["json"]).append(target)
    return out
