"""Reading eXtreme Gammon .xg files against reading the same match as .mat.

``xg/test.xg`` and ``xg/test.mat`` of ``../shared/corpus`` are one match
(the .mat is XG's export of it). Both are held in memory; each round reads
the .xg (archive, inflating, the records, XG's analysis with every
candidate play) and the .mat (decoding, LALR parsing) ``--reads`` times,
alternating which goes first; the figure is the median over the rounds of
games read per second of CPU time. A second line reads all four corpus
.xg matches.

    python benchmarks/xg.py [--corpus ../shared/corpus] [--rounds 9] [--reads 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from tavlakit.formats.mat import read_mat
from tavlakit.formats.xg import read_xg

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def rate(read: Callable[[], int], reads: int) -> float:
    """Games per second of CPU time over ``reads`` reads."""
    start = time.process_time()
    games = sum(read() for _ in range(reads))
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--reads", type=int, default=20)
    args = parser.parse_args()
    folder = args.corpus / "xg"
    xg, mat = (folder / "test.xg").read_bytes(), (folder / "test.mat").read_bytes()
    every = [path.read_bytes() for path in sorted(folder.glob("*.xg")) if path.name != "example.xg"]
    readers: dict[str, Callable[[], int]] = {
        "test.xg": lambda: len(read_xg(xg).games),
        "test.mat": lambda: len(read_mat(mat).games),
        "4 corpus .xg": lambda: sum(len(read_xg(data).games) for data in every),
    }
    assert readers["test.xg"]() == readers["test.mat"]() == 7
    rates: dict[str, list[float]] = {name: [] for name in readers}
    for turn in range(args.rounds):
        order = list(readers) if turn % 2 == 0 else [*reversed(list(readers)[:2]), "4 corpus .xg"]
        for name in order:
            rates[name].append(rate(readers[name], args.reads))
    for name, found in rates.items():
        print(
            f"{name:14} {statistics.median(found):8,.0f} games/s (median of {args.rounds}; "
            f"{min(found):,.0f}-{max(found):,.0f})"
        )
    ratio = statistics.median(rates["test.xg"]) / statistics.median(rates["test.mat"])
    print(f".xg / .mat: {ratio:.2f}x")


if __name__ == "__main__":
    main()
