"""Study material (issue 29): ``find`` in a store, and ``mistakes`` of a match.

``find``, on a store of the whole corpus and on a store of 10,000 matches
(the corpus store's partitions copied until there are 10,000 files, each
copy's paths made its own; the index of positions built as a run of
``tavlakit analyse`` builds it): the time of one look-up in this process
(``store.find``: the index, one row group) against the same look-up read
from every partition (what a store without its index does: pyarrow,
predicate pushdown on each file) and against a pandas scan of the store
(``open_store(...).plays`` filtered; corpus store only: it reads every
column of every file), for a position met in every game (the start),
one met a few times and one met once; then the whole command
(``tavlakit find STORE ID``, start-up included). Also the cost the index
adds to a run: building it from scratch, and adding one file's partition
to it. Medians of ``--repeat`` runs, CPU seconds beside wall seconds.

``mistakes``, on one match: ``tavlakit mistakes MATCH -o PAGE --anki DECK``
(wall and CPU, start-up included), and in this process the analysis
(``analyse(..., statistics=True)``), the mistakes, the page and the deck
apart; beside it gnubg 1.07's own ``analyse match`` of the same file at
the same ply, the bulk of either.

    python benchmarks/study.py --store CORPUS_STORE [--matches 10000] [--repeat 7] [--match FILE] [--ply 0]

``CORPUS_STORE``: ``tavlakit analyse ../shared/corpus --store CORPUS_STORE --level expert`` made beforehand
(``find`` reads the plays, the same at every level).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
TAVLAKIT = [sys.executable, "-m", "tavlakit"]


def timed(call: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Median wall and CPU seconds of ``call`` in this process, and its last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def command(args: list[str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of a command (its children included)."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = os.times()
        start = time.perf_counter()
        done = subprocess.run(args, capture_output=True, text=True, env=ENV)
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return statistics.median(walls), statistics.median(cpus)


def replicate(source: Path, folder: Path, matches: int) -> list[str]:
    """A store of ``matches`` files: the partitions of ``source`` copied (the
    plays' and games' paths made ``path#copy``) until there are enough; no index yet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tavlakit.collections.manifest import Store, write_json

    original = Store(source)
    entries = original.entries()
    for table in ("plays", "games", "meta"):
        (folder / table).mkdir(parents=True)
    keys: list[str] = []
    copy = 0
    while len(keys) < matches:
        for entry in entries:
            if len(keys) == matches:
                break
            key = hashlib.sha256(f"{entry['key']}#{copy}".encode()).hexdigest()[:24]
            path = f"{entry['path']}#{copy}"
            for table in ("plays", "games"):
                data = pq.read_table(source / table / f"{entry['key']}.parquet")
                where = data.schema.get_field_index("path")
                data = data.set_column(where, "path", pa.array([path] * data.num_rows, data.schema.field(where).type))
                pq.write_table(data, folder / table / f"{key}.parquet")
            write_json(folder / "meta" / f"{key}.json", {**entry, "key": key, "path": path})
            keys.append(key)
        copy += 1
    manifest = dict(original.manifest, files=keys)
    manifest.pop("index", None)
    write_json(folder / "tavlakit-store.json", manifest)
    return keys


def write_table(path: Path, table: Any, rows: int) -> None:
    import pyarrow.parquet as pq

    pq.write_table(table, path, row_group_size=rows)


def look_ups(folder: Path, ids: dict[str, str], repeat: int, pandas_scan: bool) -> None:
    from tavlakit.analysis import store
    from tavlakit.collections import positions

    keys = list(json.loads((folder / "tavlakit-store.json").read_text())["files"])
    for label, position_id in ids.items():
        wall, cpu, found = timed(lambda p=position_id: store.find(folder, p), repeat)
        line = f"  {label:<22} {len(found):>7} turns   store.find {1000 * wall:8.1f} ms ({1000 * cpu:7.1f} ms CPU)"
        wall, cpu, scanned = timed(lambda p=position_id: positions.scan(folder, keys, [p]), max(1, repeat // 3))
        assert len(scanned) == len(found)
        line += f"   every partition {wall:6.2f} s ({cpu:6.2f} s CPU)"
        if pandas_scan:
            import pandas as pd

            def by_pandas(p: str = position_id) -> pd.DataFrame:
                plays = store.open_store(folder).plays
                return plays[plays["position_id"] == p]

            wall, cpu, frame = timed(by_pandas, 1)
            assert len(frame) == len(found)
            line += f"   pandas scan {wall:6.2f} s ({cpu:6.2f} s CPU)"
        print(line, flush=True)
    for label, position_id in ids.items():
        wall, cpu = command([*TAVLAKIT, "find", str(folder), position_id], repeat)
        print(f"  tavlakit find STORE ID, {label}, start-up and printing included: {wall:.2f} s ({cpu:.2f} s CPU)")
    wall, cpu = command([*TAVLAKIT, "--version"], repeat)
    print(f"  (the start-up of any command, tavlakit --version: {wall:.2f} s ({cpu:.2f} s CPU))", flush=True)


def chosen_ids(folder: Path) -> dict[str, str]:
    import pyarrow.parquet as pq

    counts = pq.read_table(folder / "positions.parquet", columns=["position_id"]).to_pandas()["position_id"]
    counts = counts.value_counts()
    few = counts[(counts >= 3) & (counts <= 10)]
    return {"the start": counts.index[0], "met a few times": few.index[0], "met once": counts.index[-1]}


def find_benchmark(corpus_store: Path, matches: int, repeat: int) -> None:
    from tavlakit.collections.positions import write_index

    size = len(json.loads((corpus_store / "tavlakit-store.json").read_text())["files"])
    print(f"find, the corpus store ({size} files):", flush=True)
    ids = chosen_ids(corpus_store)
    look_ups(corpus_store, ids, repeat, pandas_scan=True)
    with tempfile.TemporaryDirectory(dir=corpus_store.parent) as tmp:
        folder = Path(tmp) / "store"
        start = time.perf_counter()
        keys = replicate(corpus_store, folder, matches)
        made = time.perf_counter() - start
        wall, cpu, _ = timed(lambda: write_index(folder, keys, write_table), 1)
        import pyarrow.parquet as pq

        index = pq.ParquetFile(folder / "positions.parquet")
        rows = index.metadata.num_rows
        megabytes = (folder / "positions.parquet").stat().st_size / 1e6
        print(
            f"find, a store of {len(keys)} matches ({rows} turns; copied in {made:.0f} s): "
            f"the index built from scratch in {wall:.1f} s ({cpu:.1f} s CPU), {megabytes:.1f} MB, "
            f"{index.metadata.num_row_groups} row groups",
            flush=True,
        )
        manifest = json.loads((folder / "tavlakit-store.json").read_text())
        manifest["index"] = "positions.parquet"
        (folder / "tavlakit-store.json").write_text(json.dumps(manifest))
        look_ups(folder, ids, repeat, pandas_scan=False)
        # one more file: what a run of analyse adds for the index
        fresh = hashlib.sha256(b"extra").hexdigest()[:24]
        for table in ("plays", "games"):
            shutil.copy(folder / table / f"{keys[0]}.parquet", folder / table / f"{fresh}.parquet")
        extra = [*keys, fresh]
        wall, cpu, _ = timed(lambda: write_index(folder, extra, write_table), 1)
        print(f"  one file added: the index brought up to date in {wall:.2f} s ({cpu:.2f} s CPU)", flush=True)


def mistakes_benchmark(match: Path, repeat: int, ply: int) -> None:
    import tavlakit as tk
    from tavlakit.pictures import anki, study

    with tempfile.TemporaryDirectory() as tmp:
        page, deck = Path(tmp) / "m.html", Path(tmp) / "m.apkg"
        wall, cpu = command(
            [*TAVLAKIT, "mistakes", str(match), "--ply", str(ply), "-o", str(page), "--anki", str(deck), "-j", "1"],
            repeat,
        )
        print(f"mistakes of {match.name} at {ply} ply:", flush=True)
        print(f"  tavlakit mistakes MATCH -o PAGE --anki DECK: {wall:.2f} s ({cpu:.2f} s CPU), start-up included")
        w1, c1, analysis = timed(lambda: tk.analysis.analyse(match, luck=False, statistics=True, level=ply), repeat)
        w2, c2, found = timed(lambda: analysis.mistakes(top=20), repeat)
        w3, c3, _ = timed(lambda: study.page(found), repeat)
        w4, c4, _ = timed(lambda: anki.deck(found, deck), repeat)
        rolls = int((analysis.decisions["kind"] == "roll").sum())
        print(
            f"  in this process: analysis {w1:.2f} s ({c1:.2f} s CPU, {rolls} rolls), the 20 mistakes {w2:.2f} s "
            f"({c2:.2f}), the page {w3:.2f} s ({c3:.2f}), the deck {w4:.2f} s ({c4:.2f})",
            flush=True,
        )
    from match_statistics import gnubg_times

    (moves, seconds), *_ = gnubg_times([match], repeat, ply).values()
    print(f"  gnubg 1.07 analyse match, {ply} ply, one core: {seconds:.2f} s CPU ({int(moves)} moves)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="a store of the whole corpus")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--match", type=Path, default=REPO / "samples" / "fibs-bluenote-nori.txt")
    parser.add_argument("--ply", type=int, default=0)
    args = parser.parse_args()
    print(f"tavlakit study benchmark; python {sys.version.split()[0]}, {os.cpu_count()} cores", flush=True)
    find_benchmark(args.store, args.matches, args.repeat)
    mistakes_benchmark(args.match, max(1, args.repeat // 2), args.ply)


if __name__ == "__main__":
    main()
