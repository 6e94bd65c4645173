"""Validation speed: parse + replay + validate of every Jellyfish transcript
in the shared corpus, on one core. Prints files/s, games/s and plays/s.
Best of ``--repeat`` runs, CPU time (steady on a busy machine); the files
are read into memory first so the disk is not timed.

    python benchmarks/validate.py [--corpus ../shared/corpus] [--repeat 3]
"""

from __future__ import annotations

import argparse
import csv
import io
import time
from collections import Counter
from pathlib import Path

from tavlakit.formats.mat import iter_mat
from tavlakit.formats.text import decode
from tavlakit.replay.walker import default_rules, validate

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def jf_files(corpus: Path) -> list[Path]:
    """The corpus files SOURCES.tsv lists as Jellyfish .mat (the Tavla matches included)."""
    with open(corpus / "SOURCES.tsv", encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return [corpus / row["file"] for row in rows if row["format"] == "jf-mat"]


def run(texts: list[tuple[str, str]]) -> tuple[int, int, Counter[str]]:
    games = plays = 0
    codes: Counter[str] = Counter()
    for name, text in texts:
        reader = iter_mat(io.StringIO(text), source=name)
        report = validate(reader.match, default_rules(reader.match), games=reader.games())
        games += report.games
        plays += report.plays
        codes.update(p.code for p in report.problems)
    return games, plays, codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = [(str(p), decode(p.read_bytes())[0]) for p in jf_files(args.corpus)]
    best = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        games, plays, codes = run(texts)
        best = min(best, time.process_time() - start)
    print(f"{len(texts)} files, {games} games, {plays} plays in {best:.2f} s (CPU, best of {args.repeat})")
    print(f"validate: {len(texts) / best:,.0f} files/s, {games / best:,.0f} games/s, {plays / best:,.0f} plays/s")
    print("problems by code: " + ", ".join(f"{code} {n}" for code, n in sorted(codes.items())))


if __name__ == "__main__":
    main()
