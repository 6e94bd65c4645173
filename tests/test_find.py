"""Every turn where a position stood: ``store.find`` returns exactly what a
pandas scan of the store's plays returns, for several positions, with the
sides swapped too, from the store's index and without it, after the store
changes; the command reads a store or record files; bad input is one line
and exit status 2."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis import store
from tavlakit.analysis.positions import FOUND_COLUMNS
from tavlakit.cli import app
from tavlakit.collections.manifest import INDEX, MANIFEST
from tavlakit.engine.matchid import MatchState, format_xgid, gnubg_id
from tavlakit.engine.position import Position

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    for path in sorted((REPO / "samples").glob("*.*")):
        if path.suffix != ".md":
            shutil.copy(path, folder / path.name)
    for path in sorted((REPO / "tests" / "data" / "gnubg").glob("selfplay-*.mat")):
        shutil.copy(path, folder / path.name)
    text = (REPO / "samples" / "tavla-t000.mat").read_text(encoding="utf-8")  # a play not known: the boards after
    (folder / "unknown.mat").write_text(text.replace("8/4 6/4", "???", 1), encoding="utf-8")  # it are not known
    return folder


@pytest.fixture(scope="module")
def stored(records: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("store") / "store"
    store.update(folder, [records], jobs=2, level="expert")
    return folder


def scanned(folder: Path, position_id: str, swapped: bool) -> pd.DataFrame:
    """The pandas way: every row of the store's plays frame on that board
    (or, ``swapped``, its mirror with the other side on roll)."""
    plays = tk.analysis.open_store(folder).plays
    mirror = Position.from_position_id(position_id).flip().position_id()
    ids = {position_id, mirror} if swapped else {position_id}
    rows = plays[plays["position_id"].isin(ids)].reset_index(drop=True)[list(FOUND_COLUMNS)]
    return rows.assign(swapped=(rows["position_id"] != position_id).astype("boolean"))


def positions_of(folder: Path) -> list[str]:
    """Positions met many times, a few times and once, one whose mirror stood
    too, and the last in the index's order (next to the unknown boards)."""
    counts = tk.analysis.open_store(folder).plays["position_id"].value_counts()
    seen = set(counts.index)
    mirrored = [p for p in counts.index[1:] if Position.from_position_id(p).flip().position_id() in seen]
    return [counts.index[0], counts.index[3], counts.index[len(counts) // 2], counts.index[-1], mirrored[0], max(seen)]


def test_find_is_a_scan_of_the_store(stored: Path) -> None:
    assert tk.analysis.open_store(stored).plays["position_id"].isna().any()  # (turns whose board is not known)
    chosen = positions_of(stored)
    assert len(chosen) == 6
    for position_id in chosen:
        for swapped in (False, True):
            expected = scanned(stored, position_id, swapped)
            got = store.find(stored, position_id, swapped=swapped)
            pd.testing.assert_frame_equal(got, expected)
            assert not got.empty
    # the mirror is found only when asked for
    mirrored = chosen[-2]
    assert store.find(stored, mirrored, swapped=True)["swapped"].any()
    assert not store.find(stored, mirrored)["swapped"].any()


def test_the_ids_of_a_position_all_find_it(stored: Path) -> None:
    position_id = positions_of(stored)[2]
    position = Position.from_position_id(position_id)
    state = MatchState(length=5, score=(1, 2), dice=(5, 3))
    expected = store.find(stored, position_id)
    for text in (gnubg_id(position, state), format_xgid(position, state), position):
        pd.testing.assert_frame_equal(store.find(stored, text), expected)


def test_without_its_index_the_store_is_scanned(stored: Path, records: Path, tmp_path: Path) -> None:
    """A store whose index is missing or covers other partitions answers the
    same, reading every partition; a run of analyse writes the index again."""
    copy = tmp_path / "store"
    shutil.copytree(stored, copy)
    chosen = positions_of(copy)
    expected = [store.find(copy, p, swapped=True) for p in chosen]
    (copy / INDEX).unlink()
    for position_id, frame in zip(chosen, expected):
        pd.testing.assert_frame_equal(store.find(copy, position_id, swapped=True), frame)
    summary = store.update(copy, [records], level="expert")  # nothing new to analyse: the index is written
    assert not summary.analysed and (copy / INDEX).is_file()


def test_the_index_follows_the_store(records: Path, tmp_path: Path) -> None:
    """Files added, changed and dropped: the index keeps up, reading only
    the new partitions, and find stays a scan of the store."""
    mine = tmp_path / "records"
    shutil.copytree(records, mine)
    folder = tmp_path / "store"
    files = sorted(mine.glob("*.*"))
    store.update(folder, files[:4], luck=False, jobs=2)
    store.update(folder, files, luck=False, jobs=2)  # more files
    tavla = mine / "tavla-t000.mat"
    tavla.write_text(tavla.read_text(encoding="utf-8").replace("Ayşe", "Ayla"), encoding="utf-8")
    dropped = files[0]
    summary = store.update(folder, [f for f in files if f != dropped], luck=False, jobs=2, prune=True)
    assert summary.analysed == [str(tavla)] and summary.dropped == 1
    for position_id in positions_of(folder):
        pd.testing.assert_frame_equal(store.find(folder, position_id, swapped=True), scanned(folder, position_id, True))
    found = store.find(folder, Position.initial())
    assert not found["path"].eq(str(dropped)).any()
    assert set(found.loc[found["path"] == str(tavla), "name"]) == {"Ayla", "Mehmet Ali"}


def test_find_in_files_equals_find_in_their_store(records: Path, stored: Path) -> None:
    analysis = tk.analysis.analyse(records, jobs=2)
    for position_id in positions_of(stored)[:3]:
        in_files = analysis.find(position_id, swapped=True)
        pd.testing.assert_frame_equal(in_files, store.find(stored, position_id, swapped=True))


def test_cli_find(stored: Path, records: Path) -> None:
    position_id = positions_of(stored)[1]
    expected = store.find(stored, position_id)
    run = runner.invoke(app, ["find", str(stored), position_id, "--json"])
    assert run.exit_code == 0, run.output
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(r["path"], r["game"], r["turn"]) for r in lines] == list(
        expected[["path", "game", "turn"]].itertuples(index=False, name=None)
    )
    run = runner.invoke(app, ["find", str(stored), position_id])
    assert run.exit_code == 0 and f"{len(expected)} turn" in run.output
    run = runner.invoke(app, ["find", str(records / "tavla-t000.mat"), "-j", "1", "4HPwATDgc/ABMA"])
    assert run.exit_code == 0 and "6 turns in 1 file" in run.output
    run = runner.invoke(app, ["find", str(stored), "AAAAAAAAAAAAAA"])  # no checkers: never stood
    assert run.exit_code == 1 and "0 turns" in run.output


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("4HPwATDgc/ABMB", "has bits set after the 80 it holds"),
        ("not-an-id", "a Position ID has 14 characters"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00", "an XGID has 10 fields"),
    ],
)
def test_cli_find_an_unreadable_position(stored: Path, position: str, message: str) -> None:
    run = runner.invoke(app, ["find", str(stored), position])
    assert run.exit_code == 2
    assert message in run.output and len(run.output.strip().splitlines()) == 1


def test_cli_find_a_store_of_an_older_tavlakit(stored: Path, tmp_path: Path) -> None:
    copy = tmp_path / "old"
    shutil.copytree(stored, copy)
    manifest = json.loads((copy / MANIFEST).read_text(encoding="utf-8"))
    manifest["schemas"] = ["0123456789abcdef"]  # as an earlier tavlakit's columns
    (copy / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    run = runner.invoke(app, ["find", str(copy), "4HPwATDgc/ABMA"])
    assert run.exit_code == 2 and len(run.output.strip().splitlines()) == 1
    assert "older tavlakit" in run.output and "tavlakit analyse" in run.output
    with pytest.raises(store.StoreError):
        store.find(copy, "4HPwATDgc/ABMA")


def test_find_in_a_store_imports_no_pandas(stored: Path) -> None:
    """The command reads the index with pyarrow alone: no pandas, no nets."""
    code = (
        "import sys\nfrom tavlakit.cli import app\n"
        f"try:\n    app(['find', {str(stored)!r}, '4HPwATDgc/ABMA', '--swapped'])\n"
        "except SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "print('HEAVY', [m for m in ('pandas', 'numba', 'gnubg_nn') if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}
    )
    assert done.returncode == 0, done.stderr
    assert f"{len(store.find(stored, '4HPwATDgc/ABMA'))} turns in the store" in done.stdout
    assert done.stdout.splitlines()[-1] == "HEAVY []"


def test_h_is_help() -> None:
    short, long = runner.invoke(app, ["find", "-h"]), runner.invoke(app, ["find", "--help"])
    assert short.exit_code == long.exit_code == 0 and short.output == long.output and "--swapped" in short.output


def test_cli_find_in_files_says_what_it_could_not_read(tmp_path: Path) -> None:
    (tmp_path / "good.mat").write_bytes((REPO / "samples" / "tavla-t000.mat").read_bytes())
    (tmp_path / "binary.mat").write_bytes(bytes(range(256)) * 4)
    run = runner.invoke(app, ["find", str(tmp_path), "4HPwATDgc/ABMA", "-j", "1"])
    assert run.exit_code == 2 and str(tmp_path / "binary.mat") in run.output
    assert "6 turns in 2 files" in run.output
    run = runner.invoke(app, ["find", str(tmp_path / "binary.mat"), "4HPwATDgc/ABMA", "-j", "1"])
    assert run.exit_code == 2 and "Traceback" not in run.output
