"""Collections at scale, measured in one run and printed (issue 9):

- ``tavlakit validate`` games/s on the shared corpus, ``--jobs 1`` and every
  core, start-up included, next to python-chess reading and validating
  random legal chess games (generated with a fixed seed: no PGN corpus is
  on disk); the start-up of ``tavlakit validate`` of one small file against
  ``python -c pass``;
- luck analysis rolls/s on one core and on every core;
- the whole corpus into a store, then the re-run on unchanged files;
- peak memory of analysing the whole corpus against one file;
- analysis without luck against validate.

Wall-clock times of real commands (best of ``--repeat`` where cheap), with
the CPU time beside them: on a busy machine the CPU time says more.

    pip install chess
    python benchmarks/scale.py [--corpus ../shared/corpus] [--luck-files 40] [--store-luck]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "corpus"  # as in /work/main; pass --corpus from a worktree
# (bytecode written and reused, as an installed package has it)
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(REPO)}
TAVLAKIT = [sys.executable, "-m", "tavlakit"]


def run(args: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of a command (its children included), and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1, 2) or (done.returncode == 2 and not done.stdout):  # 2: a file was not read
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return wall, cpu, done.stdout


def best(args: list[str], repeat: int) -> tuple[float, float, str]:
    runs = [run(args) for _ in range(repeat)]
    return min(runs, key=lambda r: r[0])


def peak_mb(code: str) -> float:
    """Peak resident memory (MB) of a fresh Python running ``code``."""
    probe = code + "\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=ENV, check=True)
    return int(out.stdout.split()[-1]) / 1024


def command_peak_mb(args: list[str]) -> float:
    """Peak resident memory (MB) of a command (with ``-j 1``: one process)."""
    probe = (
        "import resource, subprocess, sys\nsubprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=ENV, check=True)
    return int(out.stdout.split()[-1]) / 1024


def machine_scaling(cores: int) -> float:
    """How much faster ``cores`` CPU-bound Python processes get through
    ``cores`` times the work than one process (the ceiling for ``--jobs``)."""
    code = "s = 0\nfor i in range(10_000_000): s += i * i"

    def wall(count: int) -> float:
        start = time.perf_counter()
        for process in [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]:
            process.wait()
        return time.perf_counter() - start

    return max(cores * wall(1) / wall(cores) for _ in range(3))


def games_in(summary: str) -> int:
    line = summary.strip().splitlines()[-1]
    return int(line.split(" file(s), ")[1].split(" game(s)")[0])


def chess_pgn(count: int, seed: int = 9) -> str:
    """``count`` random legal chess games (20-160 plies) as PGN."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    for number in range(count):
        board = chess.Board()
        for _ in range(rng.randint(20, 160)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers["Round"] = str(number + 1)
        print(game, file=out, end="\n\n")
    return out.getvalue()


def chess_read_validate(pgn: str) -> tuple[int, float]:
    """Games read and replayed legally by python-chess, and CPU seconds."""
    import chess.pgn

    start = time.process_time()
    stream = io.StringIO(pgn)
    games = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)
        games += 1
    return games, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chess-games", type=int, default=400)
    parser.add_argument("--luck-files", type=int, default=40, help="Files of the corpus for the luck figures.")
    parser.add_argument(
        "--store-luck",
        action="store_true",
        help="The store benchmark with luck, at expert (minutes; world class takes hours).",
    )
    args = parser.parse_args()
    corpus = str(args.corpus)
    cores = len(os.sched_getaffinity(0))
    load = os.getloadavg()[0]
    print(
        f"machine: {cores} core(s), load average {load:.1f} at the start"
        + (" (shared: figures are noisy)" if load > 0.5 * cores else "")
    )

    # validate vs python-chess
    print("\n# validate, start-up included")
    one = best([*TAVLAKIT, "validate", "-q", "-j", "1", corpus], args.repeat)
    games = games_in(one[2])
    allc = best([*TAVLAKIT, "validate", "-q", "-j", str(cores), corpus], args.repeat)
    print(
        f"--jobs 1: {games} games in {one[0]:.2f} s wall ({one[1]:.2f} s CPU): {games / one[0]:,.0f} games/s "
        f"({games / one[1]:,.0f} per CPU second)"
    )
    print(
        f"--jobs {cores}: {allc[0]:.2f} s wall ({allc[1]:.2f} s CPU): {games / allc[0]:,.0f} games/s, "
        f"{one[0] / allc[0]:.2f}x --jobs 1 (this machine: {cores} busy Python processes give "
        f"{machine_scaling(cores):.2f}x one)"
    )
    pgn = chess_pgn(args.chess_games)
    chess_games, chess_cpu = min((chess_read_validate(pgn) for _ in range(args.repeat)), key=lambda r: r[1])
    print(
        f"python-chess read + validate: {chess_games} random games in {chess_cpu:.2f} s CPU: "
        f"{chess_games / chess_cpu:,.0f} games/s on one core"
    )
    print(
        f"tavlakit per core / python-chess: {games / one[0] / (chess_games / chess_cpu):.2f}x by wall time, "
        f"{games / one[1] / (chess_games / chess_cpu):.2f}x by CPU time"
    )
    small = REPO / "samples" / "tavla-t000.mat"
    start_v = best([*TAVLAKIT, "validate", "-q", str(small)], 5)
    start_p = best([sys.executable, "-c", "pass"], 5)
    print(
        f"start-up: tavlakit validate of {small.name} {start_v[0] * 1000:.0f} ms, python -c pass "
        f"{start_p[0] * 1000:.0f} ms"
    )

    # luck
    print("\n# luck analysis")
    from tavlakit.formats import find_records

    files = [str(p) for p in find_records([corpus / Path("bglab")])][: args.luck_files]
    code = (
        "import sys, time, tavlakit as tk\nfiles = sys.argv[2:]\nt = time.perf_counter()\n"
        "a = tk.analysis.analyse(files, luck=True, jobs=int(sys.argv[1]))\n"
        "print(int(a.plays['luck'].notna().sum()), time.perf_counter() - t)"
    )
    for jobs in (1, cores):
        _wall, cpu, out = run([sys.executable, "-c", code, str(jobs), *files])
        rolls, seconds = int(out.split()[0]), float(out.split()[1])
        print(
            f"--jobs {jobs}: {rolls} rolls in {seconds:.1f} s wall ({cpu:.1f} s CPU): {rolls / seconds:,.0f} rolls/s, "
            f"{rolls / seconds / jobs:,.0f} per core ({rolls / cpu:,.0f} per CPU second)"
        )

    # store
    print("\n# the whole corpus into a store" + (" (--level expert)" if args.store_luck else " (--no-luck)"))
    folder = Path(tempfile.mkdtemp(prefix="tavlakit-store-"))
    try:
        luck = ["--level", "expert"] if args.store_luck else ["--no-luck"]
        first = run([*TAVLAKIT, "analyse", corpus, "--store", str(folder), *luck])
        again = best([*TAVLAKIT, "analyse", corpus, "--store", str(folder), *luck], args.repeat)
        print(f"first run: {first[0]:.1f} s wall ({first[1]:.1f} s CPU): {first[2].strip()}")
        print(f"re-run, nothing changed: {again[0]:.2f} s wall: {100 * again[0] / first[0]:.1f}% of the first run")
    finally:
        shutil.rmtree(folder)

    # memory
    print("\n# peak memory (one process, --jobs 1)")
    whole = f"import tavlakit as tk; tk.analysis.analyse([{corpus!r}], luck=False, jobs=1)"
    single = f"import tavlakit as tk; tk.analysis.analyse([{str(small)!r}], luck=False, jobs=1)"
    mem_whole, mem_one = peak_mb(whole), peak_mb(single)
    print(
        f"analyse(): one file {mem_one:.0f} MB, the whole corpus {mem_whole:.0f} MB "
        f"({mem_whole / mem_one:.2f}x; the frames of everything are in memory)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        store_whole = peak_mb(
            f"from tavlakit.analysis.store import update; update({tmp + '/a'!r}, [{corpus!r}], luck=False, jobs=1)"
        )
        store_one = peak_mb(
            f"from tavlakit.analysis.store import update; update({tmp + '/b'!r}, [{str(small)!r}], luck=False, jobs=1)"
        )
    print(
        f"into a store: one file {store_one:.0f} MB, the whole corpus {store_whole:.0f} MB "
        f"({store_whole / store_one:.2f}x)"
    )
    for jobs in ("1", str(cores)):
        stats_one, stats_whole = (
            command_peak_mb([*TAVLAKIT, "stats", "--no-luck", "-j", jobs, path]) for path in (str(small), corpus)
        )
        print(
            f"stats --no-luck -j {jobs} (its largest process): one file {stats_one:.0f} MB, the whole corpus "
            f"{stats_whole:.0f} MB ({stats_whole / stats_one:.2f}x)"
        )

    # analysis without luck vs validate
    print("\n# analysis without luck vs validate (one core, start-up included)")
    stats = run([*TAVLAKIT, "stats", "--no-luck", "-j", "1", "--json", corpus])
    print(
        f"stats --no-luck: {stats[0]:.1f} s wall ({stats[1]:.1f} s CPU); validate {one[0]:.1f} s wall "
        f"({one[1]:.1f} s CPU): analysis at {one[0] / stats[0]:.2f}x the speed of validate by wall time, "
        f"{one[1] / stats[1]:.2f}x by CPU time"
    )


if __name__ == "__main__":
    main()
