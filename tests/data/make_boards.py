"""Write tests/data/boards/*.txt: the boards the net tests compare with gnubg, as Position IDs.

The boards come from random play among gnubg-nn's legal plays and from
chequers scattered at random (``tests/test_net_inputs.py``'s generators,
with the seeds below). They are drawn once and committed, so that every
run, on every machine, with any numpy or gnubg-nn, compares the same
boards: numpy does not promise the same random stream from one release to
the next, and gnubg-nn's order of the legal plays decides which one a
random index picks.

Run once from the repository root; the output is committed:

    python tests/data/make_boards.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import gnubg_nn
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_net_inputs import played_boards, random_play, scattered_boards

from tavlakit.evaluation.net_inputs import BEAROFF1, BEAROFF2, RACE, classify

HERE = Path(__file__).resolve().parent / "boards"


def race() -> list[str]:
    """The race and bear-off boards of 100 random games and of 2,500 scattered boards, each once."""
    boards = np.array(played_boards(21, 100) + scattered_boards(22, 2500))
    boards = boards[np.isin(classify(boards), (RACE, BEAROFF1, BEAROFF2))]
    return list(dict.fromkeys(gnubg_nn.position_id(b) for b in boards.tolist()))


def ids(boards: list[list[list[int]]]) -> list[str]:
    return [gnubg_nn.position_id(b) for b in boards]


def main() -> None:
    HERE.mkdir(exist_ok=True)
    written = {
        "contact.txt": list(random_play(7, 2000)),  # contact and crashed positions judged by gnubg
        "contact-more.txt": list(random_play(13, 3000)),  # and more, for gnubg-nn's rule
        "race.txt": race(),  # race and bear-off boards judged by gnubg
        "mixed.txt": ids(played_boards(23, 30) + scattered_boards(24, 3000)),  # every class, for gnubg-nn
        "pruning.txt": list(random_play(11, 500)),  # tests/test_lookahead.py: gnubg's pruning nets
        "two-ply.txt": list(random_play(41, 400))[::20],  # and its 2-ply cube decisions
    }
    for name, found in written.items():
        (HERE / name).write_text("".join(f"{i}\n" for i in found), encoding="ascii")
        print(f"{name}: {len(found)} boards")


if __name__ == "__main__":
    main()
