"""Legal-play generation speed: rolls per second on mid-game positions, one core.

Positions come from gnubg-nn self-play (contact positions only); each is
given all 36 rolls. The same positions and rolls are timed with gnubg-nn's
C generator for comparison. Best of ``--repeat`` runs.

    python benchmarks/movegen.py [--positions 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gnubg_nn as g

from tavlakit import Position, Rules
from tavlakit.engine.movegen import legal_results

START_ID = "4HPwATDgc/ABMA"
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def mid_game_boards(count: int, seed: int = 1) -> list[list[list[int]]]:
    """Contact positions met when gnubg-nn plays itself (its best play)."""
    rng = random.Random(seed)
    out: list[list[list[int]]] = []
    board = [list(side) for side in g.board_from_position_id(START_ID)]
    while len(out) < count:
        if g.classify(board) == g.c_contact:
            out.append(board)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if g.moves(board, d1, d2):
            key = g.best_move(board, d1, d2, b=1)[1]
            board = [list(side) for side in g.board_from_position_key(key)]
        else:
            board = [board[1], board[0]]
        if g.classify(board) == g.c_over:
            board = [list(side) for side in g.board_from_position_id(START_ID)]
    return out


def best_time(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    boards = mid_game_boards(args.positions)
    rules = Rules.preset("backgammon")
    arrays = [Position.from_points(b[1], b[0]).board for b in boards]
    positions = [Position.from_points(b[1], b[0]) for b in boards]
    rolls = len(boards) * len(ROLLS)

    def ours() -> None:
        for s in arrays:
            for dice in ROLLS:
                legal_results(s, dice, rules)

    def ours_positions() -> None:
        for pos in positions:
            for dice in ROLLS:
                pos.legal_positions(dice, rules)

    def gnubg() -> None:
        for board in boards:
            for d1, d2 in ROLLS:
                g.moves(board, d1, d2)

    print(f"{len(boards)} mid-game positions x {len(ROLLS)} rolls = {rolls} rolls")
    for name, run in (
        ("tavlakit legal_results", ours),
        ("tavlakit Position.legal_positions", ours_positions),
        ("gnubg-nn moves (C)", gnubg),
    ):
        seconds = best_time(run, args.repeat)
        print(f"{name:34s} {rolls / seconds:12,.0f} rolls/s")


if __name__ == "__main__":
    main()
