"""Luck-analysis speed on one core: rolls/s.

1. The 1,960 rolls of gnubg's self-play sessions (tests/data/luck): luck of
   every roll with a fresh evaluator (best of ``--repeat``).
2. The full plays frame (replay, pips, luck, play errors) of the first
   ``--files`` Jellyfish files of the shared corpus.
3. With ``--gnubg``: GNU Backgammon's own 0-ply ``analyse match`` (one
   thread) of a 12-game self-play session, for comparison.

    python benchmarks/luck.py [--corpus ../shared/corpus] [--files 40] [--repeat 3] [--gnubg]
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import tempfile
import time
from pathlib import Path

import tavlakit as tk
from tavlakit import Position, Rules
from tavlakit.analysis import analyse
from tavlakit.analysis.luck import opening_luck, roll_luck
from tavlakit.evaluation.equity import Evaluator

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[1] / "shared" / "corpus"
SESSIONS = HERE.parent / "tests" / "data" / "luck"

GNUBG_SCRIPT = """
import gnubg, sys, time
for p in (0, 1):
    gnubg.command(f"set player {p} gnubg")
    gnubg.command(f"set player {p} chequerplay evaluation plies 0")
    gnubg.command(f"set player {p} cubedecision evaluation plies 0")
for c in ("set cube use off", "set jacoby off", "set automatic roll on", "set automatic game off",
          "set display off", "set analysis chequerplay evaluation plies 0",
          "set analysis cubedecision evaluation plies 0", "set threads 1", "set seed 5"):
    gnubg.command(c)
gnubg.command("new session")
for _ in range(11):
    gnubg.command("new game")
moves = sum(1 for g in gnubg.match(0)["games"] for r in g["game"] if r["action"] == "move")
start = time.perf_counter()
gnubg.command("analyse match")
print("RESULT", moves, time.perf_counter() - start, file=sys.stderr)
"""


def reference_rolls() -> list[tuple[Position, tuple[int, int], bool]]:
    rolls = []
    for path in sorted(SESSIONS.glob("session-*.json")):
        for game in json.loads(path.read_text()):
            for i, r in enumerate(game):
                dice = (r["dice"][0], r["dice"][1])
                rolls.append((Position.from_position_id(r["position_id"]), dice, i == 0 and dice[0] != dice[1]))
    return rolls


def bench_reference(repeat: int) -> None:
    rolls = reference_rolls()
    best = float("inf")
    for _ in range(repeat):
        ev = Evaluator(Rules.preset("backgammon"))
        start = time.perf_counter()
        for pos, dice, first in rolls:
            (opening_luck if first else roll_luck)(ev, pos, dice)
        best = min(best, time.perf_counter() - start)
    info = ev.cache_info()
    print(
        f"gnubg self-play rolls: {len(rolls)} rolls in {best:.2f} s: {len(rolls) / best:,.0f} rolls/s "
        f"(best plays found {info['rolls_misses']}, reused {info['rolls_hits']}; "
        f"36-throw averages {info['means_misses']}, reused {info['means_hits']})"
    )


def jf_files(corpus: Path, count: int) -> list[Path]:
    with open(corpus / "SOURCES.tsv", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["format"] == "jf-mat"]
    return [corpus / r["file"] for r in rows[:count]]


def bench_corpus(corpus: Path, count: int) -> None:
    files = jf_files(corpus, count)
    matches = list(tk.read_matches(files))
    start = time.perf_counter()
    result = analyse(matches)
    elapsed = time.perf_counter() - start
    rolls = int(result.plays["luck"].notna().sum())
    print(
        f"corpus plays frame: {len(files)} files, {len(result.games)} games, {rolls} rolls in {elapsed:.2f} s: "
        f"{rolls / elapsed:,.0f} rolls/s (replay, pips, luck and play errors)"
    )


def bench_gnubg() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bench.py"
        script.write_text(GNUBG_SCRIPT)
        done = subprocess.run(
            ["/usr/games/gnubg", "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=600
        )
    line = next((x for x in done.stderr.splitlines() if x.startswith("RESULT")), None)
    if line is None:
        print("gnubg: no result (is Debian's gnubg installed?)")
        return
    _, moves, seconds = line.split()
    print(
        f"gnubg 1.07 analyse match (0-ply, 1 thread, moves + luck): {moves} moves in {float(seconds):.2f} s: "
        f"{int(moves) / float(seconds):,.0f} moves/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gnubg", action="store_true", help="also time gnubg's own analysis")
    args = parser.parse_args()
    bench_reference(args.repeat)
    if args.corpus.is_dir():
        bench_corpus(args.corpus, args.files)
    if args.gnubg:
        bench_gnubg()


if __name__ == "__main__":
    main()
