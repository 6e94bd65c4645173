"""The grandmaster level (3 plies) against gnubg 1.07's grandmaster, one core.

Three measures, each run in a fresh process on one core (``taskset``, one
thread), tavlakit and gnubg alternating (the order reversed every other
round), each figure the median over ``--repeat`` rounds of the CPU seconds
of the work itself (start-up, imports and reading left out):

* a hint: every play of one roll of a contact position, as gnubg's
  grandmaster hint judges them (0 ply, 2 plies of the 16 its filter keeps,
  3 plies of the 4 kept then);
* a cube decision at 3 plies (no double, double/take) of another;
* a short real match of the corpus analysed at grandmaster: gnubg's
  ``analyse match`` with its analysis set to 3 plies (chequer play and cube
  decisions, pruning nets, its large move filter) against tavlakit's
  statistics of the match at ``grandmaster``.

Both use gnubg 1.07's weights (tavlakit's ``use_net`` of Debian's gnubg.wd),
so that both look into the same positions.

    python benchmarks/levels_deep.py [--repeat 3] [--core N] [--no-match] [MATCH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
#: A 3-point match of 3 games, 2009 (bgnori/bglib).
DEFAULT_MATCH = "bglib/Kalagh-nori-2009Jan231111.txt"
GNUBG = "/usr/games/gnubg"
#: The hint's position and roll (money, centred cube: 8 plays, 3 of them judged at 3 plies) and the cube decision's.
HINT, DICE, CUBE = "4HPwATDgc/ABMA", (5, 2), "YdfggCg0z5gRCA"

#: gnubg's grandmaster: its "eval"/"hint" and its analysis, 3 plies, pruning, the large move filter.
GNUBG_SETTINGS = """
import gnubg, json, os, time
gnubg.command("set threads 1")
gnubg.command("set confirm new off")
for where in ("evaluation", "analysis"):
    for part in ("chequerplay", "cubedecision"):
        gnubg.command(f"set {where} {part} evaluation plies 3")
        gnubg.command(f"set {where} {part} evaluation prune on")
        gnubg.command(f"set {where} {part} evaluation cubeful on")
        gnubg.command(f"set {where} {part} evaluation noise 0")
    gnubg.command(f"set {where} movefilter 3 0 0 16 0.32")
    gnubg.command(f"set {where} movefilter 3 1 -1")
    gnubg.command(f"set {where} movefilter 3 2 0 4 0.08")
what = os.environ["BENCH_WHAT"]
if what == "match":
    gnubg.command('import mat "%s"' % os.environ["BENCH_MAT"])
    start = time.process_time()
    gnubg.command("analyse match")
else:
    gnubg.command("new session")
    gnubg.command("set board " + os.environ["BENCH_POSITION"])
    if what == "hint":
        gnubg.command("set dice " + os.environ["BENCH_DICE"])
        start = time.process_time()
        found = len(gnubg.hint(500)["hint"])
    else:
        board, ci = gnubg.board(), gnubg.cubeinfo()
        start = time.process_time()
        gnubg.cfevaluate(board, ci, gnubg.evalcontext(1, 3, 1, 1, 0.0))
json.dump({"cpu": time.process_time() - start}, open(os.environ["BENCH_OUT"], "w"))
"""

#: tavlakit's side: the same work at grandmaster with gnubg's weights (the nets compiled and warmed first).
TAVLAKIT_SCRIPT = """
import json, os, sys, time
import tavlakit as tk
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.evaluation.cubeful import CubeState
from tavlakit.evaluation.net import GNUBG_WD, use_net
from tavlakit.evaluation.search import Search
from tavlakit.replay.walker import default_rules
use_net(GNUBG_WD)
what, out = sys.argv[1], sys.argv[2]
rules = tk.Rules.preset("backgammon")
Search(rules, level="grandmaster").candidates(tk.Position.initial(), (3, 1), CubeState())  # (warm: compiled kernels)
if what == "match":
    match = tk.read_match(os.environ["BENCH_MAT"])
    start = time.process_time()
    statistics_frame([match], default_rules(match), level="grandmaster")
else:
    search = Search(rules, level="grandmaster")
    pos = tk.Position.from_position_id(os.environ["BENCH_POSITION"])
    dice = tuple(int(d) for d in os.environ["BENCH_DICE"].split())
    start = time.process_time()
    if what == "hint":
        search.candidates(pos, dice, CubeState())
    else:
        search.cube(pos, CubeState())
json.dump({"cpu": time.process_time() - start}, open(out, "w"))
"""


def _run(command: list[str], out: Path, env: dict[str, str], core: int) -> float:
    """Run one measuring process on ``core``; the CPU seconds of its work."""
    subprocess.run(["taskset", "-c", str(core), *command], env=env, capture_output=True, check=True, timeout=3600)
    cpu: float = json.loads(out.read_text())["cpu"]
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", nargs="?", type=Path, default=CORPUS / DEFAULT_MATCH)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--core", type=int, default=0, help="the core every measuring process runs on")
    parser.add_argument("--no-match", action="store_true", help="the hint and the cube decision only")
    args = parser.parse_args()
    import tavlakit as tk

    measures = ["hint", "cube"] + ([] if args.no_match else ["match"])
    runs: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script, mine, out = folder / "gnubg_bench.py", folder / "tavlakit_bench.py", folder / "out.json"
        script.write_text(GNUBG_SETTINGS)
        mine.write_text(TAVLAKIT_SCRIPT)
        mat = folder / "match.mat"
        tk.write_match(tk.read_match(args.match.resolve()), mat)
        env = dict(
            os.environ,
            HOME=str(folder),
            BENCH_MAT=str(mat),
            BENCH_OUT=str(out),
            BENCH_DICE=f"{DICE[0]} {DICE[1]}",
            OMP_NUM_THREADS="1",
        )
        for what in measures:
            systems = ["gnubg", "tavlakit"]
            for round_ in range(args.repeat):
                for system in systems if round_ % 2 == 0 else systems[::-1]:
                    if system == "gnubg":
                        command = [GNUBG, "-t", "-q", "-p", str(script)]
                    else:
                        command = [sys.executable, str(mine), what, str(out)]
                    position = HINT if what == "hint" else CUBE
                    found = _run(command, out, dict(env, BENCH_WHAT=what, BENCH_POSITION=position), args.core)
                    runs.setdefault((what, system), []).append(found)
    titles = {
        "hint": f"grandmaster hint, {HINT} {DICE[0]}{DICE[1]}",
        "cube": f"3-ply cube decision, {CUBE}",
        "match": f"analyse a match at grandmaster: {args.match.name}",
    }
    print(f"CPU seconds, one core, median of {args.repeat} runs (tavlakit / gnubg 1.07)")
    for what in measures:
        ours, theirs = statistics.median(runs[(what, "tavlakit")]), statistics.median(runs[(what, "gnubg")])
        print(f"  {titles[what]:58} tavlakit {ours:8.2f}  gnubg {theirs:8.2f}  {theirs / ours:5.2f}x gnubg's speed")


if __name__ == "__main__":
    main()
