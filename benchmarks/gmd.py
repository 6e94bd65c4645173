"""Reading Gibbon's .gmd beside the same match as .mat: turns per second, one core.

``7point.gmd`` and ``7point.mat`` of the shared corpus are the same match
(Gibbon wrote both); the .mat reader is the reference. The .gmd reader also
follows the board (hit marks, the game's end), which the .mat reader leaves
to the validator. Best of ``--repeat`` runs of ``--times`` reads.

    python benchmarks/gmd.py [--corpus ../shared/corpus] [--repeat 5] [--times 50]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent))
from movegen import best_time

from tavlakit.formats.gmd import read_gmd
from tavlakit.formats.mat import read_mat

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--times", type=int, default=50)
    args = parser.parse_args()
    folder = args.corpus / "gnu_gibbon"
    gmd = (folder / "7point.gmd").read_text(encoding="utf-8")
    mat = (folder / "7point.mat").read_bytes()
    turns = sum(len(game.turns) for game in read_gmd(gmd).games)
    for name, read, text in (("7point.gmd (gmd reader)", read_gmd, gmd), ("7point.mat (mat reader)", read_mat, mat)):

        def reads(read: Any = read, text: Any = text) -> None:
            for _ in range(args.times):
                read(text)

        seconds = best_time(reads, args.repeat)
        print(f"{name:<26} {turns * args.times / seconds:9,.0f} turns/s ({seconds / args.times * 1000:.1f} ms a read)")


if __name__ == "__main__":
    main()
