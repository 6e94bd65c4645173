"""Legal-play counts against a fixed table made once by gnubg-nn.

``tests/data/perft.tsv`` (written by ``tests/data/make_perft.py``) holds,
per Position ID and roll, how many distinct positions gnubg-nn's move
generator reaches; 0 means the roll cannot be played.
"""

from __future__ import annotations

from pathlib import Path

from tavlakit import Play, Position, Rules

TABLE = Path(__file__).parent / "data" / "perft.tsv"
BACKGAMMON = Rules.preset("backgammon")


def read_table() -> tuple[list[tuple[int, int]], list[tuple[str, list[int]]]]:
    lines = [line for line in TABLE.read_text().splitlines() if not line.startswith("#")]
    header = lines[0].split("\t")
    assert header[0] == "position_id"
    rolls = [(int(name[0]), int(name[1])) for name in header[1:]]
    rows = []
    for line in lines[1:]:
        pid, *counts = line.split("\t")
        rows.append((pid, [int(c) for c in counts]))
    return rolls, rows


def count(pos: Position, dice: tuple[int, int]) -> int:
    """Distinct positions after a legal play; 0 when the only play is empty."""
    plays = pos.legal_plays(dice, BACKGAMMON)
    return 0 if plays == [Play()] else len(plays)


def test_table_is_large_and_varied() -> None:
    rolls, rows = read_table()
    assert len(rolls) == 21 and len(set(rolls)) == 21
    assert len(rows) >= 2500
    counts = [c for _, cs in rows for c in cs]
    assert counts.count(0) > 1000  # many rolls that cannot be played
    assert max(counts) > 500  # and some huge double sets


def test_counts_match_gnubg() -> None:
    rolls, rows = read_table()
    wrong = []
    for pid, expected in rows:
        pos = Position.from_position_id(pid)
        got = [count(pos, dice) for dice in rolls]
        if got != expected:
            wrong.append((pid, [(d, e, o) for d, e, o in zip(rolls, expected, got) if e != o]))
    assert wrong == []
