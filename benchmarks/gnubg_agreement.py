"""tavlakit's match statistics against gnubg 1.07's default ``analyse match``.

For each record: gnubg's own default analysis (2 plies, pruning nets, its
move filters; luck at 0 ply: ``show analysis``) in a process of its own,
its printed ``show statistics match`` read back; tavlakit's statistics of
the same record at each analysis level asked for. One row per player and level: the
figures side by side and whether they agree (checker and cube error EMG
and luck EMG within max(0.05, 5%), each mark count within 1, the overall
error rate within 0.5 mEMG); then, per level, how many rows agree and the
CPU seconds each side spent analysing.

    python benchmarks/gnubg_agreement.py [--level expert --level world-class] [-j 2]
        [--json OUT] [--cache DIR] [FILES...]
    (default: the corpus's real 7- and 9-point matches and a money session below;
    FILE#N: the file's first N games)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from gnubg_statistics import (  # noqa: E402
    CHECKS,
    EQUITIES,
    agreement_rows,
    gnubg_runs,
    read_record,
    tavlakit_statistics,
)

CORPUS = HERE.parent.parent / "shared" / "corpus"
#: Real 7- and 9-point matches from online play (FIBS, DailyGammon,
#: Backgammon Studio, Backgammon Galaxy) and a money session (cubeless).
DEFAULT_FILES = (
    "bglib/Bobkatt-nori-2009Apr162200.txt",
    "bglib/SSYEKTA-nori-2009Jan141830.txt",
    "bglib/BlueNote-nori-2009Jan172304.txt",
    "bglib/cyep-nori-2009Feb141109.txt",
    "bglib/1887435.txt",
    "bglab/Llabba - Bigeagle32 9pt Backgammon Studio 2023_09_21 12_05_50.txt",
    "bglab/crayon - Llabba 7pt Backgammon Studio 2023_05_23 13_07_53.txt",
    "bglab/SniperKitten - Llabba 7pt Backgammon Studio 2023_09_08 18_20_16.txt",
    "bglab/match1033650.txt",
    "bglab/match1209980.txt",
    "raccoon/gnubg_eval_20260410_051307.txt#8",  # a money session (no cube), its first 8 games
)
GNUBG = Path("/usr/games/gnubg")


def _ours(path: Path, level: str) -> tuple[Any, float]:
    """tavlakit's statistics of one record at ``level``, and the CPU seconds they took."""
    record = read_record(path)
    start = time.process_time()
    frame = tavlakit_statistics(record, level)
    return frame, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument(
        "--level", action="append", help="tavlakit's analysis levels (repeat; default expert and world-class)"
    )
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes at once (gnubg's, then tavlakit's)")
    parser.add_argument("--json", type=Path, help="also write every row as JSON lines here")
    parser.add_argument("--cache", type=Path, help="keep gnubg's answers in this folder (a rerun reuses them)")
    args = parser.parse_args()
    files = [Path(os.path.abspath(f)) for f in args.files] or [CORPUS / name for name in DEFAULT_FILES]
    levels = args.level or ["expert", "world-class"]
    records = [read_record(f) for f in files]
    theirs = gnubg_runs(GNUBG, records, args.jobs, args.cache)
    for stats in theirs[:1]:
        print("gnubg's analysis settings (show analysis):")
        print("\n".join("    " + line for line in stats.settings.splitlines() if line.strip()))
    rows = []
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for level in levels:
            ours = list(pool.map(_ours, files, [level] * len(files)))
            for record, gnubg, (frame, cpu) in zip(records, theirs, ours):
                for row in agreement_rows(record, gnubg, frame):
                    rows.append({"level": level, "tavlakit_cpu": cpu, "gnubg_cpu": gnubg.cpu, **row})
    table = pd.DataFrame(rows)
    if args.json:
        table.to_json(args.json, orient="records", lines=True)
    show = ["level", "record", "player"]
    for column in (*EQUITIES, "error_rate_memg"):
        table[f"{column} (gnubg)"] = table[f"gnubg_{column}"]
        show += [f"{column} (gnubg)", column]
    marks = "doubtful/bad/very bad"
    table[f"{marks} (gnubg)"] = [
        f"{r.gnubg_moves_doubtful:.0f}/{r.gnubg_moves_bad:.0f}/{r.gnubg_moves_very_bad:.0f}" for r in table.itertuples()
    ]
    table[marks] = [f"{r.moves_doubtful:.0f}/{r.moves_bad:.0f}/{r.moves_very_bad:.0f}" for r in table.itertuples()]
    show += [f"{marks} (gnubg)", marks, "all_ok"]
    table["record"] = table["record"].str.slice(0, 28)
    with pd.option_context("display.width", 250, "display.max_columns", 40, "display.precision", 3):
        print(table[show].to_string(index=False))
    print()
    print("rows that agree, per check (of", len(files) * 2, "rows per level):")
    summary = table.groupby("level", sort=False)[list(CHECKS)].sum().astype(int)
    summary["rate: mean |diff| mEMG"] = table.groupby("level", sort=False).apply(
        lambda t: (t["error_rate_memg"] - t["gnubg_error_rate_memg"]).abs().mean(), include_groups=False
    )
    summary["rate: mean diff"] = table.groupby("level", sort=False).apply(
        lambda t: (t["error_rate_memg"] - t["gnubg_error_rate_memg"]).mean(), include_groups=False
    )
    matches = table[table["length"] > 0]
    summary["all_ok (matches)"] = matches.groupby("level", sort=False)["all_ok"].sum().astype(int)
    summary["match rows"] = matches.groupby("level", sort=False).size()
    with pd.option_context("display.width", 250, "display.precision", 2):
        print(summary.to_string())
    cpu = table.drop_duplicates(["level", "record"]).groupby("level", sort=False)[["gnubg_cpu", "tavlakit_cpu"]].sum()
    print()
    print("CPU seconds of the analysis, all records (gnubg: analyse match alone; tavlakit: statistics_frame):")
    print(cpu.to_string())
    print(json.dumps({"files": [str(f) for f in files]}))


if __name__ == "__main__":
    main()
