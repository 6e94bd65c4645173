"""SVG board speed: boards per second over the positions of tests/data/perft.tsv, one core.

Two kinds of picture: the bare board (``svg.board(position)``) and a
viewer-like one (dice, cube, names, score and the position's first legal
play drawn as arrows). Best of ``--repeat`` runs.

    python benchmarks/svg.py [--repeat 3]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from movegen import best_time  # benchmarks/movegen.py

from tavlakit import Position
from tavlakit.engine.play import Play
from tavlakit.pictures import svg

TABLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "perft.tsv"


def positions() -> list[Position]:
    lines = [line for line in TABLE.read_text().splitlines() if line and not line.startswith("#")]
    return [Position.from_position_id(line.split("\t")[0]) for line in lines[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    boards = positions()
    plays: list[Play] = [pos.legal_plays((6, 4))[0] for pos in boards]

    def bare() -> None:
        for pos in boards:
            svg.board(pos)

    def full() -> None:
        for pos, play in zip(boards, plays):
            svg.board(pos, dice=(6, 4), play=play, cube=(2, 0), names=("Alice", "Bob"), score=(3, 4), length=7)

    for name, run in (("bare board", bare), ("dice, cube, names, play", full)):
        seconds = best_time(run, args.repeat)
        print(f"{name:<26} {len(boards) / seconds:8,.0f} boards/s ({len(boards)} positions)")


if __name__ == "__main__":
    main()
