"""gnubg's statistics of whole matches: tavlakit against gnubg 1.07, one core.

The same records, side by side in one run: gnubg's own ``analyse match``
at 0 ply (chequer play, cube decisions and luck, cubeful; ``set threads
1``) and tavlakit's full 0-ply analysis (``statistics_frame``: replay,
luck, checker and cube errors, statistics). CPU time of the analysis
only (gnubg's start-up and import left out on both sides); best of
``--repeat`` runs, each with fresh caches (gnubg's ``clear cache``; a
fresh copy of gnubg-nn's net, whose evaluation cache is cleared with it).

    python benchmarks/match_statistics.py [--repeat 3] [--ply 0|1] [--net WEIGHTS] [FILES...]
    (default: tests/data/stats/*.mat; --net: tavlakit with those weights, e.g. gnubg's own gnubg.wd)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import tavlakit as tk
from tavlakit import Rules

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "stats"

GNUBG_SCRIPT = """
import gnubg, json, os, time
plies = os.environ["BENCH_PLIES"]
for c in ("set threads 1", "set confirm new off", "set jacoby off", "set beavers 0",
          f"set analysis chequerplay evaluation plies {plies}", "set analysis chequerplay evaluation cubeful on",
          f"set analysis cubedecision evaluation plies {plies}", "set analysis cubedecision evaluation cubeful on"):
    gnubg.command(c)
out = {}
for path in json.loads(os.environ["BENCH_FILES"]):
    best = None
    for _ in range(int(os.environ["BENCH_REPEAT"])):
        gnubg.command("clear cache")
        gnubg.command('import mat "%s"' % path)
        if "nocube" in path:
            gnubg.command("set cube use off")
        start = time.process_time()
        gnubg.command("analyse match")
        spent = time.process_time() - start
        gnubg.command("set cube use on")
        best = spent if best is None else min(best, spent)
    rolls = sum(1 for g in gnubg.match(0)["games"] for r in g["game"] if r["action"] == "move")
    out[path] = [rolls, best]
json.dump(out, open(os.environ["BENCH_OUT"], "w"))
"""


def gnubg_times(files: list[Path], repeat: int, ply: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        script, out = Path(tmp) / "bench.py", Path(tmp) / "out.json"
        script.write_text(GNUBG_SCRIPT)
        env = dict(
            os.environ,
            BENCH_FILES=json.dumps([str(f) for f in files]),
            BENCH_REPEAT=str(repeat),
            BENCH_OUT=str(out),
            BENCH_PLIES=str(ply),
        )
        subprocess.run(
            ["taskset", "-c", "0", "/usr/games/gnubg", "-t", "-q", "-p", str(script)],
            env=env,
            cwd=tmp,
            capture_output=True,
            check=True,
            timeout=3600,
        )
        data: dict[str, list[float]] = json.loads(out.read_text())
        return data


def ours(path: Path, repeat: int, ply: int = 0) -> float:
    from tavlakit.analysis.statistics import statistics_frame

    rules = Rules.preset("backgammon")
    if "nocube" in path.name:
        rules = rules.replace(cube=False)
    match = tk.read_match(path)
    return _cold_best(lambda: statistics_frame([match], rules, level=ply), repeat)


def plays_alone(path: Path, repeat: int) -> float:
    """CPU time of listing and scoring every play of the 21 rolls of every
    position the analysis judges, each once (fresh caches): the part of
    tavlakit's analysis that gnubg spends most of its own time on too."""
    from tavlakit.evaluation.equity import Evaluator
    from tavlakit.replay.walker import replay

    rules = Rules.preset("backgammon")
    match = tk.read_match(path)
    positions = [
        step.before for rg in replay(match, rules) for step in rg.steps if step.turn.kind == "roll" and step.known
    ]
    return _cold_best(lambda: Evaluator(rules).plays_tables(positions), repeat)


def _cold_best(run: Callable[[], object], repeat: int) -> float:
    """The least CPU time of ``repeat`` runs, each after :func:`_clear_caches`."""
    times = []
    for _ in range(repeat):
        _clear_caches()
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def _clear_caches() -> None:
    """Our caches and gnubg-nn's own evaluation cache (a fresh copy of the
    net in use: gnubg-nn still evaluates the bearoff positions and some race
    positions, and gnubg's side clears its cache before each run too; each
    run's evaluators are new)."""
    from tavlakit.analysis import cubeful
    from tavlakit.evaluation.net import reload

    for cached in (cubeful._win_lose, cubeful.gammon_prices, cubeful._results):
        cached.cache_clear()
    reload()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ply", type=int, default=0, help="plies of both analyses (0 or 1)")
    parser.add_argument("--net", type=Path, help="tavlakit's weights (default gnubg-nn's own)")
    args = parser.parse_args()
    if args.net:
        from tavlakit.evaluation.net import use_net

        use_net(args.net)
    files = [f.resolve() for f in args.files] or sorted(DATA.glob("*.mat"))
    os.sched_setaffinity(0, {0})
    ours(files[0], 1)  # warm up: imports, the net
    theirs = gnubg_times(files, args.repeat, args.ply)
    print(
        f"{'record':24} {'rolls':>6} {'gnubg s':>8} {'tavlakit s':>11} {'gnubg rolls/s':>14} "
        f"{'tavlakit rolls/s':>17} {'ratio':>6}"
    )
    total = [0, 0.0, 0.0]
    plays = 0.0
    for path in files:
        rolls, gnubg = theirs[str(path)]
        mine = ours(path, args.repeat, args.ply)
        plays += plays_alone(path, args.repeat) if args.ply == 0 else 0.0
        total[0] += int(rolls)
        total[1] += gnubg
        total[2] += mine
        print(
            f"{path.stem:24} {int(rolls):6d} {gnubg:8.2f} {mine:11.2f} {rolls / gnubg:14.0f} {rolls / mine:17.0f} "
            f"{gnubg / mine:6.2f}"
        )
    rolls, gnubg, mine = total
    print(
        f"{'all':24} {rolls:6d} {gnubg:8.2f} {mine:11.2f} {rolls / gnubg:14.0f} {rolls / mine:17.0f} "
        f"{gnubg / mine:6.2f}"
    )
    print("ratio: gnubg's time / tavlakit's (above 1: tavlakit is faster)")
    if plays:
        print(
            f"of tavlakit's time, every play of the 21 rolls of each judged position listed and scored: "
            f"{plays:.2f} s; the rest of its analysis: {mine - plays:.2f} s"
        )


if __name__ == "__main__":
    main()
