"""How long each analysis level takes: tavlakit against gnubg 1.07, one core.

Real matches of the corpus, each analysed in a fresh process per run:
gnubg's ``analyse match`` at its default settings (world class: 2 plies,
pruning nets, its move filter) and at 0 ply ("expert": ``set analysis
chequerplay|cubedecision evaluation plies 0``, no pruning), and
tavlakit's statistics (``statistics_frame``) at each level. The runs
alternate (gnubg, then tavlakit's levels; the order reversed every other
round) and each figure is the median over ``--repeat`` rounds of the CPU
seconds the analysis itself took in its process (gnubg's start-up, the
import of tavlakit, the loading of its compiled kernels and the reading of
the record left out; the whole process's CPU seconds are printed too). Every process runs on one core
(``taskset``) with one thread.

    python benchmarks/analysis_levels.py [--repeat 3] [--level expert --level world-class]
        [--cache SLOTS] [--core N] [--sample N] [FILES...]
    (default: three real matches of the corpus, a 7- and two 9-point ones;
    ``--sample N``: N of the corpus's real matches instead, the ``bglab/``
    and ``bglib/`` files sorted, shuffled with seed 33, the first N that read
    without an error and have a roll)

``--two-cores``: instead, one match (the first file, default the Galaxy
7-point one) at the first ``--level`` (default world class) with ``-j 1``
(on ``--core``) and ``-j 2`` (on two cores), wall clock, the runs
alternating: the whole command (``tavlakit stats --by match``, start-up
and printing included) and the analysis alone (``analyse`` in a process
that has imported tavlakit: the reading, the 0-ply passes and the
look-ahead), medians and the ratio; the whole command at expert (what
``-j`` cannot share: start-up, reading, a 0-ply pass); and the CPU seconds
of ``-j 2``'s analysis: its main process, the part of it that runs beside
no worker, the workers'. A first untimed run writes the byte code and
numba's caches.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
DEFAULT_FILES = (
    "bglab/match1033650.txt",
    "bglib/Bobkatt-nori-2009Apr162200.txt",
    "bglab/Llabba - Bigeagle32 9pt Backgammon Studio 2023_09_21 12_05_50.txt",
)
GNUBG = "/usr/games/gnubg"

#: gnubg's side: import the .mat, time ``analyse match`` (BENCH_EXPERT=1: at 0 ply, no pruning).
GNUBG_SCRIPT = """
import gnubg, json, os, time
gnubg.command("set threads 1")
gnubg.command("set confirm new off")
if os.environ["BENCH_EXPERT"] == "1":
    for part in ("chequerplay", "cubedecision"):
        gnubg.command(f"set analysis {part} evaluation plies 0")
        gnubg.command(f"set analysis {part} evaluation prune off")
gnubg.command('import mat "%s"' % os.environ["BENCH_MAT"])
start = time.process_time()
gnubg.command("analyse match")
json.dump({"cpu": time.process_time() - start}, open(os.environ["BENCH_OUT"], "w"))
"""

#: tavlakit's side, in a fresh interpreter: read the record, warm the nets and
#: the move generator up on another position (their compiled kernels loaded),
#: time the statistics of the match at the level (the look-ahead's evaluation
#: cache of ``argv[4]`` slots; its hit rate noted).
TAVLAKIT_SCRIPT = """
import json, os, sys, time
import tavlakit as tk
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.evaluation import cache, lookahead
from tavlakit.evaluation.equity import Evaluator
from tavlakit.replay.walker import default_rules
cache.DEFAULT_SLOTS = int(sys.argv[4])
made = []
class Counted(lookahead.Lookahead):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        made.append(self)
lookahead.Lookahead = Counted
import tavlakit.evaluation.search
tavlakit.evaluation.search.Lookahead = Counted
match = tk.read_match(sys.argv[1])
rules = default_rules(match)
Evaluator(rules).plays_table(tk.Position.initial())
start = time.process_time()
statistics_frame([match], rules, level=sys.argv[2])
cpu = time.process_time() - start
hits = [look.hit_rates()[1] for look in made]
json.dump({"cpu": cpu, "hits": hits[0] if hits else None}, open(sys.argv[3], "w"))
"""


def _run(
    command: list[str], out: Path, env: dict[str, str] | None = None, core: int = 0
) -> tuple[float, float, float | None]:
    """Run one measuring process on ``core``; (its analysis' CPU seconds, the
    whole process's, the full nets' cache hit rate where there is one)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["taskset", "-c", str(core), *command], env=env, capture_output=True, check=True, timeout=7200)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    whole = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = json.loads(out.read_text())
    return found["cpu"], whole, found.get("hits")


#: The analysis alone, wall clock, in a process that has imported tavlakit: argv path, level, jobs, out.
#: Also the CPU seconds of this process and of its workers, and of this process's the part before the
#: workers start and after the last answer is taken (what runs beside no worker).
JOBS_SCRIPT = """
import json, resource, sys, time
import tavlakit as tk
from tavlakit.collections.parallel import Workers
from tavlakit.evaluation.search import Deep
marks = {}
started, take = Workers._started, Deep.take
def _started(self):
    marks.setdefault("pool", time.process_time())
    return started(self)
def _take(self):
    more = take(self)
    marks["last"] = time.process_time()
    return more
Workers._started, Deep.take = _started, _take
start, cpu = time.perf_counter(), time.process_time()
tk.analysis.analyse([sys.argv[1]], statistics=True, level=sys.argv[2], jobs=int(sys.argv[3]))
wall, end = time.perf_counter() - start, time.process_time()
children = resource.getrusage(resource.RUSAGE_CHILDREN)
alone = marks["pool"] - cpu + end - marks["last"] if "pool" in marks else end - cpu
found = {"wall": wall, "main": end - cpu, "workers": children.ru_utime + children.ru_stime, "alone": alone}
json.dump(found, open(sys.argv[4], "w"))
"""


def _two_cores(path: Path, level: str, repeat: int, core: int) -> None:
    """``-j 1`` against ``-j 2`` on one match (see the module's help)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cores = ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2])
    with tempfile.TemporaryDirectory() as tmp:
        script, out = Path(tmp) / "jobs_bench.py", Path(tmp) / "out.json"
        script.write_text(JOBS_SCRIPT)

        def command(jobs: int, lv: str = level) -> list[str]:
            pinned = ["taskset", "-c", str(core) if jobs == 1 else cores, sys.executable]
            return [*pinned, "-m", "tavlakit", "stats", "--by", "match", "--level", lv, "-j", str(jobs), str(path)]

        cpus: list[dict[str, float]] = []

        def timed(jobs: int, alone: bool, lv: str = level) -> float:
            if alone:
                run = [*command(jobs)[:4], str(script), str(path), level, str(jobs), str(out)]
                subprocess.run(run, env=env, capture_output=True, check=True, timeout=3600)
                found = json.loads(out.read_text())
                if jobs == 2:
                    cpus.append(found)
                return float(found["wall"])
            start = time.perf_counter()
            subprocess.run(command(jobs, lv), env=env, capture_output=True, check=True, timeout=3600)
            return time.perf_counter() - start

        timed(1, False, "expert")  # (untimed: byte code, numba's caches)
        times: dict[tuple[int, bool], list[float]] = {}
        expert = []
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        for round_ in range(repeat):
            order = [(1, False), (2, False), (1, True), (2, True)]
            for jobs, alone in order if round_ % 2 == 0 else order[::-1]:
                times.setdefault((jobs, alone), []).append(timed(jobs, alone))
            expert.append(timed(1, False, "expert"))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"{path.name} at {level}, wall clock seconds, median of {repeat} (all runs in brackets)")
    for alone, name in ((False, "the whole command"), (True, "the analysis alone")):
        one, two = (statistics.median(times[(jobs, alone)]) for jobs in (1, 2))
        runs = "; ".join(" ".join(f"{t:.2f}" for t in times[(jobs, alone)]) for jobs in (1, 2))
        print(f"  {name:20} -j 1 {one:6.2f}  -j 2 {two:6.2f}  {one / two:.2f}x  ({runs})")
    print(f"  the whole command at expert, -j 1: {statistics.median(expert):.2f} s")
    cpu = {key: statistics.median(found[key] for found in cpus) for key in ("main", "alone", "workers")}
    print(f"  -j 2's analysis, CPU seconds: the main process {cpu['main']:.2f}, of them beside no worker")
    print(f"    {cpu['alone']:.2f} (before the first run is handed out, after the last answer taken)")
    print(f"    the workers {cpu['workers']:.2f}")


def _sample(count: int) -> list[Path]:
    """``count`` real matches of the corpus: the ``bglab/`` and ``bglib/``
    files, sorted, shuffled with seed 33, the first that read without an
    error and have a roll."""
    import tavlakit as tk

    files = sorted(p for folder in ("bglab", "bglib") for p in (CORPUS / folder).rglob("*") if p.is_file())
    random.Random(33).shuffle(files)
    chosen: list[Path] = []
    for path in files:
        if len(chosen) == count:
            break
        try:
            match = tk.read_match(path)
        except Exception:  # (a file the corpus keeps for its faults)
            continue
        if any(t.kind == "roll" for g in match.games for t in g.turns):
            chosen.append(path.resolve())
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--level", action="append", help="tavlakit's levels (repeat; default expert and world-class)")
    parser.add_argument("--no-gnubg", action="store_true", help="time tavlakit alone")
    parser.add_argument("--core", type=int, default=0, help="the core every measuring process runs on")
    parser.add_argument("--cache", type=int, default=None, help="slots of the look-ahead's evaluation cache (0: none)")
    parser.add_argument("--sample", type=int, default=0, help="time N real matches of the corpus (see above)")
    parser.add_argument("--two-cores", action="store_true", help="-j 1 against -j 2 on one match (see above)")
    args = parser.parse_args()
    import tavlakit as tk

    files = [f.resolve() for f in args.files] or (
        _sample(args.sample) if args.sample else [CORPUS / name for name in DEFAULT_FILES]
    )
    if args.two_cores:
        _two_cores(files[0], (args.level or ["world-class"])[0], args.repeat, args.core)
        return
    levels = args.level or ["expert", "world-class"]
    from tavlakit.evaluation.cache import DEFAULT_SLOTS

    slots = DEFAULT_SLOTS if args.cache is None else args.cache

    runs: dict[tuple[str, str], list[tuple[float, float, float | None]]] = {}
    rolls = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script, mine = folder / "gnubg_bench.py", folder / "tavlakit_bench.py"
        script.write_text(GNUBG_SCRIPT)
        mine.write_text(TAVLAKIT_SCRIPT)
        out = folder / "out.json"
        systems = [] if args.no_gnubg else [("gnubg", "world-class"), ("gnubg", "expert")]
        systems += [("tavlakit", level) for level in levels]
        for index, path in enumerate(files):
            match = tk.read_match(path)
            rolls[path] = sum(1 for g in match.games for t in g.turns if t.kind == "roll")
            mat = folder / f"match-{index}.mat"
            tk.write_match(match, mat)
            for round_ in range(args.repeat):
                for system, level in systems if round_ % 2 == 0 else systems[::-1]:
                    if system == "gnubg":
                        env = dict(
                            os.environ,
                            HOME=str(folder),
                            BENCH_MAT=str(mat),
                            BENCH_OUT=str(out),
                            BENCH_EXPERT="1" if level == "expert" else "0",
                        )
                        found = _run([GNUBG, "-t", "-q", "-p", str(script)], out, env, args.core)
                    else:
                        command = [sys.executable, str(mine), str(path), level, str(out), str(slots)]
                        found = _run(command, out, core=args.core)
                    runs.setdefault((str(path), f"{system} {level}"), []).append(found)
    names = [f"{s} {lv}" for s, lv in systems]
    print(f"CPU seconds of the analysis, median of {args.repeat} runs (in brackets: the whole process's)")
    print(f"{'record':36} {'rolls':>5} " + " ".join(f"{n:>24}" for n in names))
    totals = dict.fromkeys(names, 0.0)
    for path in files:
        cells = []
        for name in names:
            times = runs[(str(path), name)]
            cpu = statistics.median(t[0] for t in times)
            whole = statistics.median(t[1] for t in times)
            totals[name] += cpu
            cells.append(f"{cpu:9.1f} ({whole:7.1f})      ")
        print(f"{path.name[:36]:36} {rolls[path]:5d} " + " ".join(f"{c:>24}" for c in cells))
    count = len(files)
    print()
    hits = [t[2] for (_path, name), times in runs.items() if name.startswith("tavlakit") for t in times if t[2]]
    if hits:
        print(f"the look-ahead's evaluation cache ({slots} slots): {statistics.median(hits):.1%} of the full nets' ")
        print(f"  evaluations found there (median of the runs that look ahead; {min(hits):.1%} to {max(hits):.1%})")
    print("per match (mean) and a thousand such matches on one core:")
    for name in names:
        mean = totals[name] / count
        print(f"  {name:24} {mean:8.1f} s a match  {mean * 1000 / 3600:8.1f} CPU hours a thousand")
    if not args.no_gnubg:
        reference = totals["gnubg world-class"]
        for name in names:
            if name.startswith("tavlakit"):
                level = name.split()[1]
                base = totals.get(f"gnubg {level}", reference)
                print(f"  {name}: {base / totals[name]:.2f} x gnubg's speed at the same level (above 1: faster)")


if __name__ == "__main__":
    main()
