"""Speed of gnubg 1.07's contact and crashed net in numba (evaluation/net_inputs.py), on one core.

Boards: every play of all 21 rolls from each of the first ``--positions``
contact positions of gnubg's self-play matches (tests/data/gnubg), in
batches of 1, 30, 450 and 3000. Printed: µs a board of :func:`inputs`, of
:func:`probabilities`, and, for comparison, of gnubg-nn's own 0-ply
``probabilities`` one board at a time (its C code, gnubg's weights; one
pass over all the boards with its evaluation cache emptied first, since
it remembers what it evaluated).

    python benchmarks/net_inputs.py [--positions 40] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import gnubg_nn
import numpy as np

from tavlakit.evaluation.equity import ROLLS
from tavlakit.evaluation.keys import boards_of_keys
from tavlakit.evaluation.net import GNUBG_WD, reload, use_net
from tavlakit.evaluation.net_inputs import (
    CONTACT,
    CRASHED,
    classify,
    evaluator,
    inputs,
    nets_of,
    nets_of_wd,
    probabilities,
)

SELFPLAY = Path(__file__).resolve().parent.parent / "tests" / "data" / "gnubg"


def plays(positions: int) -> np.ndarray:
    """The boards after every play of every roll, the opponent on roll (contact and crashed ones)."""
    ids = []
    for path in sorted(SELFPLAY.glob("selfplay-*.json")):
        for game in json.loads(path.read_text())["games"]:
            ids += [a["board"] for a in game["game"] if a["action"] == "move"]
    boards = [gnubg_nn.board_from_position_id(i) for i in ids]
    boards = [b for b in boards if gnubg_nn.classify(b) == gnubg_nn.c_contact][:positions]
    keys = [k[0] for b in boards for r in ROLLS for k in gnubg_nn.best_move(b, r[0], r[1], list=1)[1]]
    found = boards_of_keys(keys, flip=True)
    classes = classify(found)
    return found[(classes == CONTACT) | (classes == CRASHED)]


def per_board(f: Callable[[], object], boards: int, repeat: int) -> float:
    """Best of ``repeat`` timings of ``f`` (run enough to take a few ms), µs a board."""
    f()
    runs = max(1, 3000 // boards)
    best = min(_timed(f, runs) for _ in range(repeat))
    return best / runs / boards * 1e6


def _timed(f: Callable[[], object], runs: int) -> float:
    start = time.perf_counter()
    for _ in range(runs):
        f()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    ev = evaluator(nets_of(nets_of_wd(GNUBG_WD.read_bytes())))
    boards = plays(args.positions)
    crashed = classify(boards) == CRASHED
    print(f"{len(boards)} boards ({crashed.sum()} crashed) after the plays of {args.positions} positions")
    print(f"{'batch':>6} {'inputs':>10} {'probabilities':>14}   µs a board")
    for n in (1, 30, 450, 3000):
        b = np.resize(boards, (n, 2, 25))
        c = np.resize(crashed, n)
        x = per_board(lambda b=b, c=c: inputs(b, c), n, args.repeat)
        k = np.where(c, CRASHED, CONTACT)
        p = per_board(lambda b=b, k=k: probabilities(b, k, ev), n, args.repeat)
        print(f"{n:>6} {x:>10.2f} {p:>14.2f}")
    use_net(GNUBG_WD)
    reload()
    listed = boards.tolist()
    own = _timed(lambda: [gnubg_nn.probabilities(b, 0) for b in listed], 1) / len(listed) * 1e6
    print(f"gnubg-nn's probabilities, a board at a time: {own:.2f} µs a board")


if __name__ == "__main__":
    main()
