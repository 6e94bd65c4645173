"""Write tests/data/perft.tsv: legal-play counts from gnubg-nn, not from tavlakit.

For each position (a GNU Backgammon Position ID, the player on roll to
move) and each of the 21 rolls, the count is ``len(gnubg_nn.moves(...))``:
the number of distinct positions a legal play reaches under backgammon
rules, 0 when the roll cannot be played. Positions: gnubg-nn self-play,
random play among gnubg-nn's legal plays, and the random boards of
``tests/test_engine_gnubg.py`` (different seeds from the tests there).

Run once from the repository root; the output is committed:

    python tests/data/make_perft.py > tests/data/perft.tsv
"""

from __future__ import annotations

import random
import sys
from importlib.metadata import version
from pathlib import Path

import gnubg_nn as g

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_engine_gnubg import ROLLS, played_boards, random_boards

SEED = 2026


def main() -> None:
    rng = random.Random(SEED)
    boards = played_boards(rng, 700, greedy=True) + played_boards(rng, 700, greedy=False) + random_boards(rng, 1400)
    seen: set[str] = set()
    print(f"# legal-play counts by gnubg-nn {version('gnubg-nn')} (moves), backgammon rules")
    print(f"# made by tests/data/make_perft.py (seed {SEED}); one row per position,")
    print("# count = distinct positions after a legal play, 0 = the roll cannot be played")
    print("\t".join(["position_id"] + [f"{a}{b}" for a, b in ROLLS]))
    for board in boards:
        pid = g.position_id(board)
        if pid in seen:
            continue
        seen.add(pid)
        counts = [len(g.moves(board, a, b)) for a, b in ROLLS]
        print("\t".join([pid] + [str(c) for c in counts]))


if __name__ == "__main__":
    main()
