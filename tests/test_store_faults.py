"""The store under faults: two writers at once keep both runs' rows; a full
disk, a file size limit, a read-only folder and a damaged partition give one
clear line and leave the store reading as before; ``tavlakit store check``."""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tavlakit.analysis.store import MANIFEST, StoreError, open_store, update
from tavlakit.cli import app

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
runner = CliRunner()
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.fixture()
def records(tmp_path: Path) -> list[Path]:
    """Four small record files (expert level: quick)."""
    folder = tmp_path / "records"
    folder.mkdir()
    names = ["galaxy-match1004844.txt", "fibs-bluenote-nori.txt", "charlot1-charlot2_7p_2025-11-08-2305.mat"]
    files = [Path(shutil.copy(SAMPLES / name, folder / name)) for name in names]
    return [*files, Path(shutil.copy(REPO / "tests" / "data" / "gnubg" / "selfplay-3p-1.mat", folder))]


def rows(store: Path) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """The store's plays, games and judged turns, counted per record file."""
    analysis = open_store(store)
    return (
        Counter(analysis.plays["path"]),
        Counter(analysis.games["path"]),
        Counter(analysis.decisions["path"]),
    )


def _writer(store: Path, files: list[Path], delay: float) -> None:
    time.sleep(delay)
    update(store, files, jobs=1, level="expert")


def test_two_writers_at_once_keep_both_runs_files(records: list[Path], tmp_path: Path) -> None:
    """Before: both runs exited 0 and the store kept the files of the one
    that ended last (it planned from the manifest as it was before the
    other's run). Each run here starts on a fresh store, or one holding a
    file already, after a random delay of up to 0.15 s."""
    reference = tmp_path / "reference"
    update(reference, records, jobs=1, level="expert")  # (also warms the nets up before forking)
    expected = rows(reference)
    assert len(expected[0]) == 4 and all(expected[2].values())
    fork = multiprocessing.get_context("fork")
    rng = random.Random(38)
    for round_ in range(10):
        store = tmp_path / f"store{round_}"
        first, second = records[:2], records[2:]
        if round_ % 3 == 2:  # a store holding a file of each run already
            update(store, [records[0], records[3]], jobs=1, level="expert")
        writers = [fork.Process(target=_writer, args=(store, part, rng.uniform(0, 0.15))) for part in (first, second)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(120)
        assert [w.exitcode for w in writers] == [0, 0], round_
        assert rows(store) == expected, round_
        assert not list(store.rglob("*.tmp")), round_


def test_two_commands_at_once_keep_both_runs_files(records: list[Path], tmp_path: Path) -> None:
    """The same with two ``tavlakit analyse`` processes (their look at the
    store before the run included): started together, or the second once
    the first has started its run. (Their start-up, two seconds, lets the
    first often end before the second reads the store: the test above is
    the one that failed before the lock covered the whole run.)"""
    reference = tmp_path / "reference"
    update(reference, records, jobs=1, level="expert")
    for round_ in range(2):
        store = tmp_path / f"store{round_}"
        if round_ == 1:  # a store holding a file of each run already
            update(store, [records[0], records[3]], jobs=1, level="expert")
        procs = []
        for part in (records[1:], records[:1]):
            if procs and round_:
                deadline = time.monotonic() + 60
                while not (store / ".lock").exists() and time.monotonic() < deadline:
                    time.sleep(0.01)
            command = [sys.executable, "-m", "tavlakit", "analyse", *map(str, part), "--store", str(store)]
            procs.append(subprocess.Popen([*command, "--level", "expert", "-j", "1"], env=ENV, stderr=subprocess.PIPE))
        assert [p.wait(120) for p in procs] == [0, 0], [p.stderr.read() for p in procs if p.stderr]
        assert rows(store) == rows(reference), round_


def test_a_second_writer_waits_and_says_so(records: list[Path], tmp_path: Path) -> None:
    store = tmp_path / "store"
    update(store, records[:1], jobs=1, level="expert")
    with open(store / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another run holds the store
        command = [sys.executable, "-m", "tavlakit", "analyse", str(records[1]), "--store", str(store), "-j", "1"]
        proc = subprocess.Popen([*command, "--level", "expert"], env=ENV, stderr=subprocess.PIPE, text=True)
        guard = threading.Timer(60, lambda: fcntl.flock(lock, fcntl.LOCK_UN))  # (never hang the suite)
        guard.start()
        assert proc.stderr is not None
        said = proc.stderr.readline()
        assert said == f"waiting for another analyse run on {store} to end...\n"
        time.sleep(0.5)
        assert proc.poll() is None and json.loads((store / MANIFEST).read_text())["files"].__len__() == 1
        fcntl.flock(lock, fcntl.LOCK_UN)
        guard.cancel()
    assert proc.wait(120) == 0, proc.stderr.read()
    assert set(rows(store)[0]) == {str(records[0]), str(records[1])}


# --- write faults --------------------------------------------------------------------------


def snapshot(store: Path) -> dict[str, bytes]:
    """Every file of the store the manifest names, and the manifest (its partitions and tables)."""
    names = json.loads((store / MANIFEST).read_text())["files"]
    keep = {MANIFEST, "files.parquet", "positions.parquet"}
    return {
        str(p.relative_to(store)): p.read_bytes()
        for p in sorted(store.rglob("*"))
        if p.is_file() and (p.name in keep or p.name.split(".")[0] in names)
    }


@pytest.fixture()
def baseline(records: list[Path], tmp_path: Path) -> tuple[Path, dict[str, bytes], Any]:
    """A store holding the first record file: its files and its rows."""
    store = tmp_path / "store"
    update(store, records[:1], jobs=1, level="expert")
    return store, snapshot(store), open_store(store)


def failing(monkeypatch: pytest.MonkeyPatch, error: int, name: str, after: int = 0) -> None:
    """Writes of files whose temporary name holds ``name`` fail with ``error``
    once ``after`` of them went through (part of the bytes written first, as a
    full disk does)."""
    count = {"n": 0}
    real_parquet, real_json = pq.write_table, json.dump

    def hit(target: str) -> bool:
        if name not in os.path.basename(target):
            return False
        count["n"] += 1
        return count["n"] > after

    def write_table(table: Any, where: Any, *args: Any, **kwargs: Any) -> None:
        if hit(str(where)):
            Path(where).write_bytes(b"PAR1" + b"\0" * 100)
            raise OSError(error, os.strerror(error))
        real_parquet(table, where, *args, **kwargs)

    def dump(data: Any, out: Any, *args: Any, **kwargs: Any) -> None:
        if hit(out.name):
            out.write("{")
            raise OSError(error, os.strerror(error))
        real_json(data, out, *args, **kwargs)

    monkeypatch.setattr(pq, "write_table", write_table)
    monkeypatch.setattr(json, "dump", dump)


@pytest.mark.parametrize(
    ("error", "name", "after", "reason", "analysed"),
    [
        (errno.ENOSPC, ".parquet", 0, "no space left on device", 0),  # the first partition
        (errno.ENOSPC, ".parquet", 6, "no space left on device", 1),  # the second file's partitions
        (errno.EDQUOT, ".json", 1, "disk quota exceeded", 1),  # the second file's entry
        (errno.ENOSPC, "files.parquet", 0, "no space left on device", 3),  # the files table
        (errno.EFBIG, "positions.parquet", 0, "file too large (a file size limit: ulimit -f)", 3),  # the index
        (errno.EIO, MANIFEST, 0, "input/output error", 3),  # the manifest, written last
    ],
)
def test_a_failed_write_is_one_line_and_the_store_reads_as_before(
    records: list[Path],
    baseline: tuple[Path, dict[str, bytes], Any],
    monkeypatch: pytest.MonkeyPatch,
    error: int,
    name: str,
    after: int,
    reason: str,
    analysed: int,
) -> None:
    store, before, frames = baseline
    failing(monkeypatch, error, name, after)
    args = ["analyse", *map(str, records), "--store", str(store), "--level", "expert", "-j", "1"]
    done = runner.invoke(app, args)
    assert done.exit_code == 2, done.output
    assert done.stderr.splitlines() == [f"error: cannot write the store {store}: {reason}"]
    said = done.stdout.splitlines()
    new = [str(p) for p in records[1:]]
    assert said[:-1] == [
        *(f"analysed, kept for the next run: {p}" for p in new[:analysed]),
        *(f"not analysed: {p}" for p in new[analysed:]),
    ]
    assert said[-1] == f"{analysed} file(s) analysed, {3 - analysed} not; the store reads as before the run"
    assert snapshot(store) == before
    got = open_store(store)
    pd.testing.assert_frame_equal(got.plays, frames.plays)
    pd.testing.assert_frame_equal(got.decisions, frames.decisions)
    assert not list(store.rglob("*.tmp"))
    monkeypatch.undo()
    again = runner.invoke(app, args)  # the disk has room again: the files analysed are reused
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[-1].startswith(f"4 file(s): {3 - analysed} analysed, {1 + analysed} unchanged")
    whole = update(store.parent / "whole", records, jobs=1, level="expert")
    assert len(whole.analysed) == 4 and rows(store) == rows(store.parent / "whole")


def test_a_read_only_store_is_one_line(
    records: list[Path], baseline: tuple[Path, dict[str, bytes], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """(chmod does not stop root: the read-only file system is mocked where
    the first write is, the lock; test_real_file_systems mounts one.)"""
    from tavlakit.collections import manifest

    store, before, _ = baseline

    def read_only(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode.startswith("r"):
            return open(path, mode, *args, **kwargs)
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(manifest, "open", read_only, raising=False)
    done = runner.invoke(app, ["analyse", *map(str, records), "--store", str(store), "--level", "expert"])
    assert done.exit_code == 2, done.output
    assert done.stderr.splitlines() == [f"error: cannot write the store {store}: read-only file system"]
    assert done.stdout.splitlines()[-1] == "0 file(s) analysed, 4 not; the store reads as before the run"
    assert snapshot(store) == before
    # nothing to do: a read-only store is only read
    assert runner.invoke(app, ["analyse", str(records[0]), "--store", str(store), "--level", "expert"]).exit_code == 0


def test_a_file_size_limit_is_one_line(records: list[Path], baseline: tuple[Path, dict[str, bytes], Any]) -> None:
    """``ulimit -f``: the kernel's SIGXFSZ is ignored, the write fails with EFBIG."""
    store, before, _ = baseline
    command = f"ulimit -f 8; exec {sys.executable} -m tavlakit analyse {records[1]} --store {store} --level expert"
    done = subprocess.run(["bash", "-c", command], env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    reason = "file too large (a file size limit: ulimit -f)"
    assert done.stderr.splitlines() == [f"error: cannot write the store {store}: {reason}"]
    assert snapshot(store) == before
    # its output a file over the limit too (it could not say which files): still the one line
    output = store.parent / "output.txt"
    output.write_bytes(b"x" * 20_000)
    with open(output, "ab") as stdout:
        done = subprocess.run(["bash", "-c", command], env=ENV, stdout=stdout, stderr=subprocess.PIPE, timeout=120)
    assert done.returncode == 2 and done.stderr.decode().splitlines() == [
        f"error: cannot write the store {store}: {reason}"
    ]
    assert snapshot(store) == before


@pytest.fixture()
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs (root only: skipped elsewhere), unmounted after."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_real_file_systems_full_and_read_only(records: list[Path], tmpfs: Path) -> None:
    """A real full disk and a real read-only file system (a tmpfs)."""
    store = tmpfs / "store"
    update(store, records[:1], jobs=1, level="expert")
    before, frames = snapshot(store), open_store(store)
    filler = tmpfs / "filler"
    free = shutil.disk_usage(tmpfs).free
    filler.write_bytes(b"\0" * max(free - 40_000, 0))  # room for a partition or two, not for every file
    command = [sys.executable, "-m", "tavlakit", "analyse", *map(str, records), "--store", str(store)]
    full = subprocess.run([*command, "--level", "expert"], env=ENV, capture_output=True, text=True, timeout=120)
    assert full.returncode == 2, full.stderr
    assert full.stderr.splitlines() == [f"error: cannot write the store {store}: no space left on device"]
    assert snapshot(store) == before
    pd.testing.assert_frame_equal(open_store(store).plays, frames.plays)
    filler.unlink()
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    ro = subprocess.run([*command, "--level", "expert"], env=ENV, capture_output=True, text=True, timeout=120)
    assert ro.returncode == 2, ro.stderr
    assert ro.stderr.splitlines() == [f"error: cannot write the store {store}: read-only file system"]
    pd.testing.assert_frame_equal(open_store(store).plays, frames.plays)


# --- damaged partitions --------------------------------------------------------------------


def test_a_truncated_partition_is_named_and_analysed_again(records: list[Path], tmp_path: Path) -> None:
    store = tmp_path / "store"
    update(store, records, jobs=1, level="expert")
    whole = open_store(store)
    expected = rows(store)
    entry = next(json.loads(p.read_text()) for p in (store / "meta").iterdir() if str(records[1]) in p.read_text())
    partition = store / "plays" / f"{entry['key']}.parquet"
    data = partition.read_bytes()
    partition.write_bytes(data[: len(data) // 2])  # a disk that lost the end of it
    damaged = f"the partition plays/{entry['key']}.parquet is damaged: {len(data) // 2} bytes, written {len(data)}"
    said = f"{store}: {damaged} (of {records[1]}): analyse {records[1]} again with --store {store}"
    with pytest.raises(StoreError) as raised:
        open_store(store)
    assert str(raised.value) == said
    check = runner.invoke(app, ["store", "check", str(store)])
    assert check.exit_code == 1
    assert check.stdout.splitlines() == [
        f"{store}: error damaged-partition: {said.removeprefix(f'{store}: ')}",
        f"store {store}: 1 damaged, 0 left over",
    ]
    # a run over other files refuses (it would index the damaged rows), the store as it was
    other = runner.invoke(app, ["analyse", str(records[0]), "--store", str(store), "--level", "expert"])
    assert other.exit_code == 2
    assert other.output.splitlines() == [f"error: {said}; nothing was written to the store"]
    assert partition.read_bytes() == data[: len(data) // 2]
    # the file named: analysed again, its partition replaced
    again = runner.invoke(app, ["analyse", str(records[1]), "--store", str(store), "--level", "expert"])
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[-1] == f"1 file(s): 1 analysed, 0 unchanged, 0 dropped; store {store}: 4 file(s)"
    assert rows(store) == expected
    pd.testing.assert_frame_equal(open_store(store).plays, whole.plays)
    assert runner.invoke(app, ["store", "check", str(store)]).stdout == f"store {store}: 0 damaged, 0 left over\n"


def test_a_partition_damaged_inside_and_left_overs(records: list[Path], tmp_path: Path) -> None:
    """Bytes changed in the middle (the size as written): open_store and
    check read it and name it; a partition no manifest names is listed."""
    store = tmp_path / "store"
    update(store, records[:2], jobs=1, level="expert")
    key = json.loads((store / MANIFEST).read_text())["files"][0]
    partition = store / "games" / f"{key}.parquet"
    data = bytearray(partition.read_bytes())
    data[-12:-8] = b"\xff\xff\xff\x7f"  # the footer's length
    partition.write_bytes(bytes(data))
    remove = f"remove {store / 'meta' / key}.json, then analyse {records[0]} again with --store {store}"
    with pytest.raises(StoreError, match=rf"games/{key}\.parquet is damaged \(.*\) \(of {records[0]}\): ") as raised:
        open_store(store)
    assert str(raised.value).endswith(remove)
    (store / "plays" / "0123456789abcdef01234567.parquet").write_bytes(b"left by a killed run")
    check = runner.invoke(app, ["store", "check", str(store)])
    assert check.exit_code == 1
    lines = check.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith(f"{store}: error damaged-partition: games/{key}.parquet is damaged")
    assert lines[1] == (
        f"{store / 'plays' / '0123456789abcdef01234567.parquet'}: warning orphaned-partition: no manifest names it "
        "(left by a run that did not end: the next run reuses or removes it)"
    )
    assert lines[2] == f"store {store}: 1 damaged, 1 left over"
    assert runner.invoke(app, ["store", "check", str(tmp_path)]).exit_code == 2
    # what the error says to do: the file is analysed again, the left-over swept
    (store / "meta" / f"{key}.json").unlink()
    again = runner.invoke(app, ["analyse", str(records[0]), "--store", str(store), "--level", "expert"])
    assert again.stdout.splitlines()[-1] == f"1 file(s): 1 analysed, 0 unchanged, 0 dropped; store {store}: 2 file(s)"
    assert runner.invoke(app, ["store", "check", str(store)]).stdout == f"store {store}: 0 damaged, 0 left over\n"
    update(tmp_path / "whole", records[:2], jobs=1, level="expert")
    assert rows(store) == rows(tmp_path / "whole")


def test_a_truncated_index_or_files_table_is_written_again(records: list[Path], tmp_path: Path) -> None:
    """The manifest records their sizes: a run with nothing else to do writes them again;
    ``find`` on a store whose partition is damaged says which, in one line."""
    store = tmp_path / "store"
    update(store, records[:2], jobs=1, level="expert")
    whole = {name: (store / name).read_bytes() for name in ("files.parquet", "positions.parquet")}
    for name, data in whole.items():
        (store / name).write_bytes(data[: len(data) // 2])
    check = runner.invoke(app, ["store", "check", str(store)])
    assert check.exit_code == 1 and "files.parquet is damaged" in check.stdout
    again = runner.invoke(app, ["analyse", *map(str, records[:2]), "--store", str(store), "--level", "expert"])
    assert again.exit_code == 0, again.output
    assert {name: (store / name).read_bytes() for name in whole} == whole
    assert runner.invoke(app, ["store", "check", str(store)]).exit_code == 0
    key = json.loads((store / MANIFEST).read_text())["files"][1]
    partition = store / "plays" / f"{key}.parquet"
    partition.write_bytes(partition.read_bytes()[:100])
    (store / "positions.parquet").unlink()  # (find reads the partitions)
    found = runner.invoke(app, ["find", str(store), "4HPwATDgc/ABMA"])
    assert found.exit_code == 2
    assert found.output.splitlines() == [
        f"error: {store}: the partition plays/{key}.parquet is damaged: 100 bytes, written "
        f"{json.loads((store / 'meta' / f'{key}.json').read_text())['sizes']['plays']} (of {records[1]}): "
        f"analyse {records[1]} again with --store {store}"
    ]


def test_open_store_reads_again_when_a_run_ends_meanwhile(
    records: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader that read the manifest just before a run replaced it (and
    swept the partitions of a changed file) reads the store as the run left it."""
    import tavlakit.analysis.store as module

    store = tmp_path / "store"
    update(store, records[:2], jobs=1, level="expert")
    stale = json.loads((store / MANIFEST).read_text())
    changed = records[1]
    changed.write_text(changed.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    update(store, records[:2], jobs=1, level="expert")  # the changed file's old partitions are swept
    calls = {"n": 0}
    real = module.Store

    def store_as_read_before(folder: Any) -> Any:
        opened = real(folder)
        calls["n"] += 1
        if calls["n"] == 1:
            opened.manifest = stale
        return opened

    monkeypatch.setattr(module, "Store", store_as_read_before)
    got = open_store(store)
    monkeypatch.undo()
    assert calls["n"] == 2
    pd.testing.assert_frame_equal(got.plays, open_store(store).plays)
