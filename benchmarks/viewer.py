"""Viewer speed and size: ``tavlakit.pictures.viewer.html`` of a 25-game match (the
first 25 games of the corpus's longest gnubg session when the shared corpus
is there, else gnubg's self-play games of tests/data one after the other).
Prints pages/s, turns/s and the page's bytes, without and with analysis.
Best of ``--repeat`` runs, CPU time (steady on a busy machine).

    python benchmarks/viewer.py [--corpus ../shared/corpus] [--repeat 3] [--analyse]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tavlakit.formats import read_match
from tavlakit.pictures import viewer
from tavlakit.record.match import Match

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "corpus"
LONG = "raccoon/gnubg_eval_20260410_051307.txt"  # 50 money games, gnubg against a bot


def match_of_25(corpus: Path) -> tuple[str, Match]:
    if (corpus / LONG).exists():
        match = read_match(corpus / LONG)
        match.games = match.games[:25]
        return LONG, match
    games = [g for path in sorted((REPO / "tests" / "data" / "gnubg").glob("*.mat")) for g in read_match(path).games]
    match = Match(players=("Alpha", "Bravo"), games=(games * 2)[:25])
    for number, game in enumerate(match.games, 1):
        game.number, game.score = number, (0, 0)
    return "tests/data/gnubg self-play, 25 games", match


def timed(match: Match, analyse: bool, repeat: int) -> tuple[float, int]:
    best = float("inf")
    size = 0
    for _ in range(repeat):
        start = time.process_time()
        page = viewer.html(match, analyse=analyse)
        best = min(best, time.process_time() - start)
        size = len(page.encode("utf-8"))
    return best, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--analyse", action="store_true", help="also time the page with analysis (slow)")
    args = parser.parse_args()
    name, match = match_of_25(args.corpus)
    turns = sum(len(g.turns) for g in match.games)
    print(f"{name}: {len(match.games)} games, {turns} turns")
    for analyse in (False, True) if args.analyse else (False,):
        seconds, size = timed(match, analyse, 1 if analyse else args.repeat)
        label = "with analysis" if analyse else "no analysis"
        print(
            f"{label}: {seconds:.3f} s CPU, {1 / seconds:.2f} pages/s, {turns / seconds:,.0f} turns/s, "
            f"{size:,} bytes ({size / turns:,.0f} bytes/turn)"
        )


if __name__ == "__main__":
    main()
