"""Jellyfish transcript reading speed: files, games and turns per second, one core.

Every ``jf-mat`` file of ``../shared/corpus`` (SOURCES.tsv) plus
``corpus/tavla/*.mat`` is read into memory first; the timed part is
``decode`` + :func:`read_mat` (lexing, LALR parsing, building the record).
Best of ``--repeat`` runs; CPU time of this process.

    python benchmarks/parse.py [--corpus ../shared/corpus] [--repeat 5]
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from tavlakit.formats.mat import read_mat

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corpus_files(corpus: Path) -> list[Path]:
    with open(corpus / "SOURCES.tsv", encoding="utf-8", newline="") as table:
        names = {row["file"] for row in csv.DictReader(table, delimiter="\t") if row["format"] == "jf-mat"}
    names |= {str(path.relative_to(corpus)) for path in (corpus / "tavla").glob("*.mat")}
    return [corpus / name for name in sorted(names)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    blobs = [(str(path), path.read_bytes()) for path in corpus_files(args.corpus)]
    best = float("inf")
    games = turns = problems = 0
    for _ in range(args.repeat):
        start = time.process_time()
        games = turns = problems = 0
        for name, data in blobs:
            match = read_mat(data, source=name)
            games += len(match.games)
            turns += sum(len(game.turns) for game in match.games)
            problems += len(match.problems) + sum(len(game.problems) for game in match.games)
        best = min(best, time.process_time() - start)
    size = sum(len(data) for _, data in blobs)
    print(f"{len(blobs)} files, {size / 1e6:.1f} MB, {games} games, {turns} turns, {problems} problems")
    print(f"best of {args.repeat}: {best:.3f} s CPU")
    print(
        f"{len(blobs) / best:,.0f} files/s  {games / best:,.0f} games/s  {turns / best:,.0f} turns/s  "
        f"{size / best / 1e6:.2f} MB/s"
    )


if __name__ == "__main__":
    main()
