"""Validation speed beside python-chess's, one core each, in one run.

- ``tavlakit validate -j 1`` of the whole corpus: the command as a user
  runs it (start-up, reading, parsing, the replay and every check,
  printing the problems), CPU seconds of its process;
- python-chess reading as many random legal chess games from a PGN file
  (``chess.pgn.read_game``: each move is parsed against the legal moves of
  its board, so reading a game checks every move; an illegal one would be in
  ``game.errors``), CPU seconds of its process, start-up included; the
  games are made once with a fixed seed (no PGN corpus is on disk);
- the reader and the replay alone of the corpus's Jellyfish transcripts, in
  this process, the files read into memory first: files, games and plays
  per second.

Every process runs on one core, the same one (this process's first), the
two commands alternating; the best of ``--repeat`` runs of each.

    pip install chess  # or: pip install -e '.[bench]'
    python benchmarks/validate.py [--corpus ../shared/corpus] [--repeat 3] [--chess-games 2000]
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from scale import chess_pgn, games_in, run

from tavlakit.formats.mat import iter_mat
from tavlakit.formats.text import decode
from tavlakit.replay.walker import default_rules, validate

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"
#: python-chess reading every game of a PGN file; prints how many it read.
CHESS = (
    "import sys, chess.pgn\n"
    "games = 0\n"
    "with open(sys.argv[1], encoding='utf-8') as pgn:\n"
    "    while (game := chess.pgn.read_game(pgn)) is not None:\n"
    "        assert not game.errors, game.errors\n"
    "        games += 1\n"
    "print(games)\n"
)


def jf_files(corpus: Path) -> list[Path]:
    """The corpus files SOURCES.tsv lists as Jellyfish .mat (the Tavla matches included)."""
    with open(corpus / "SOURCES.tsv", encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return [corpus / row["file"] for row in rows if row["format"] == "jf-mat"]


def in_process(texts: list[tuple[str, str]]) -> tuple[int, int, Counter[str]]:
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
    parser.add_argument("--chess-games", type=int, default=2000)
    args = parser.parse_args()
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # (the commands inherit it)
    print(f"core {core}; load average {os.getloadavg()[0]:.1f} at the start")

    pgn = Path(tempfile.mkdtemp(prefix="tavlakit-bench-")) / "games.pgn"
    pgn.write_text(chess_pgn(args.chess_games), encoding="utf-8")
    ours: list[tuple[float, int]] = []
    theirs: list[tuple[float, int]] = []
    for _ in range(args.repeat):
        _wall, cpu, out = run([sys.executable, "-m", "tavlakit", "validate", "-q", "-j", "1", str(args.corpus)])
        ours.append((cpu, games_in(out)))
        _wall, cpu, out = run([sys.executable, "-c", CHESS, str(pgn)])
        theirs.append((cpu, int(out)))
    pgn.unlink()
    pgn.parent.rmdir()
    (cpu, games), (chess_cpu, chess_games) = min(ours), min(theirs)
    print(f"tavlakit validate -j 1, the whole corpus: {games} games in {cpu:.2f} s CPU: {games / cpu:,.0f} games/s")
    print(
        f"python-chess reading {chess_games} random legal games: {chess_cpu:.2f} s CPU: "
        f"{chess_games / chess_cpu:,.0f} games/s"
    )
    print(f"tavlakit / python-chess: {games / cpu / (chess_games / chess_cpu):.2f}x (best of {args.repeat} each)")

    texts = [(str(p), decode(p.read_bytes())[0]) for p in jf_files(args.corpus)]
    best = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        games, plays, codes = in_process(texts)
        best = min(best, time.process_time() - start)
    print(f"\nthe reader and the replay alone: {len(texts)} Jellyfish files, {games} games, {plays} plays")
    rates = f"{len(texts) / best:,.0f} files/s, {games / best:,.0f} games/s, {plays / best:,.0f} plays/s"
    print(f"{rates} ({best:.2f} s CPU)")
    print("problems by code: " + ", ".join(f"{code} {n}" for code, n in sorted(codes.items())))


if __name__ == "__main__":
    main()
