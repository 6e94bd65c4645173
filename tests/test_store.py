"""The incremental Parquet store: the same frames as analyse, only changed
files analysed again, bad input located, foreign folders left alone, and
kill -9 at any moment survived."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis.store import MANIFEST, StoreError, files_frame, open_store, update
from tavlakit.cli import app
from tavlakit.formats import find_records

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
runner = CliRunner()


@pytest.fixture()
def records(tmp_path: Path) -> Path:
    """A small collection: the samples, gnubg self-play, a broken and a binary file."""
    folder = tmp_path / "records"
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns("*.md"))
    for path in sorted((REPO / "tests" / "data" / "gnubg").glob("selfplay-*.mat"))[:2]:
        shutil.copy(path, folder / path.name)
    text = (SAMPLES / "tavla-t000.mat").read_text(encoding="utf-8")
    (folder / "broken.mat").write_text(text.replace("24/", "25/", 1), encoding="utf-8")
    (folder / "binary.mat").write_bytes(bytes(range(256)) * 4)
    return folder


def same(got: tk.analysis.Analysis, expected: tk.analysis.Analysis) -> None:
    pd.testing.assert_frame_equal(got.plays, expected.plays)
    pd.testing.assert_frame_equal(got.games, expected.games)
    assert got.problems == expected.problems


def test_open_store_equals_analyse(records: Path, tmp_path: Path) -> None:
    files = find_records([records])
    summary = update(tmp_path / "store", [records], luck=False, jobs=2)
    assert len(summary.analysed) == len(files) == 10
    expected = tk.analysis.analyse(tk.read_matches(files), luck=False)
    got = open_store(tmp_path / "store")
    same(got, expected)
    pd.testing.assert_frame_equal(got.players, expected.players)
    # the players table on disk: players_frame's rows per player per match, one schema for all files
    on_disk = pd.read_parquet(tmp_path / "store" / "players")
    per_match = expected.players[expected.players["scope"] == "match"]
    columns = ["path", "player", "side", "games", "wins", "hits", "result"]
    assert sorted(map(tuple, on_disk[columns].astype(str).values.tolist())) == sorted(
        map(tuple, per_match[columns].astype(str).values.tolist())
    )
    # read as a plain Parquet dataset
    assert len(pd.read_parquet(tmp_path / "store" / "plays")) == len(expected.plays)


def test_bad_files_are_located_problems_in_the_files_table(records: Path, tmp_path: Path) -> None:
    summary = update(tmp_path / "store", [records], luck=False, jobs=1)
    table = files_frame(tmp_path / "store").set_index("path")
    broken = table.loc[str(records / "broken.mat")]
    assert broken["errors"] >= 1 and broken["games"] == 6
    binary = table.loc[str(records / "binary.mat")]
    assert binary["errors"] >= 1 and binary["problem"].startswith(str(records / "binary.mat"))
    assert table.loc[str(records / "tavla-t000.mat"), "errors"] == 0
    # the .sgf twin of the .mat is said, and the table points at the first
    twin = table.loc[str(records / "charlot1-charlot2_7p_2025-11-08-2305.sgf"), "duplicate_of"]
    assert twin == str(records / "charlot1-charlot2_7p_2025-11-08-2305.mat")
    assert any(p.code == "duplicate-match" for p in summary.problems)


def test_rerun_analyses_only_what_changed(records: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    update(store, [records], luck=False, jobs=1)
    manifest = (store / MANIFEST).read_bytes()
    again = update(store, [records], luck=False, jobs=1)
    assert again.analysed == [] and again.reused == 10
    assert (store / MANIFEST).read_bytes() == manifest
    changed = records / "selfplay-3p-1.mat"
    changed.write_text(changed.read_text(encoding="utf-8").replace("Game 1", "Game 1 ", 1), encoding="utf-8")
    (records / "binary.mat").unlink()
    third = update(store, [records], luck=False, jobs=1)
    assert third.analysed == [str(changed)] and (third.dropped, third.kept, third.total) == (0, 1, 10)
    fourth = update(store, [records], luck=False, jobs=1, prune=True)  # binary.mat is no longer given
    assert fourth.analysed == [] and (fourth.dropped, fourth.kept, fourth.total) == (1, 0, 9)
    same(open_store(store), tk.analysis.analyse(tk.read_matches(find_records([records])), luck=False))
    assert not any(store.glob("*/.*.tmp")) and len(list((store / "plays").iterdir())) == 9
    assert len(list((store / "players").iterdir())) == 9


def test_a_new_column_reanalyses_every_file(records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A column added to the frames (here by monkeypatch, as a developer adds
    one to tavlakit.collections.schema) analyses the files again: the store then has it,
    instead of reusing the old partitions without it."""
    from tavlakit.collections import schema

    store = tmp_path / "store"
    files = [records / "tavla-t000.mat", records / "galaxy-match1004844.txt"]
    update(store, files, luck=False, jobs=1)
    assert update(store, files, luck=False, jobs=1).analysed == []
    monkeypatch.setitem(schema.PLAY_COLUMNS, "new_column", "Int64")
    again = update(store, files, luck=False, jobs=1)
    assert again.analysed == [str(f) for f in files] and again.reused == 0
    plays = open_store(store).plays
    assert "new_column" in plays.columns and str(plays["new_column"].dtype) == "Int64"
    assert len(list((store / "plays").iterdir())) == 2  # the old partitions swept
    assert update(store, files, luck=False, jobs=1).analysed == []
    monkeypatch.setitem(schema.GAME_COLUMNS, "turns", "float64")  # a type changed
    assert update(store, files, luck=False, jobs=1).analysed == [str(f) for f in files]


def test_rules_and_luck_changes_reanalyse(records: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    files = [records / "tavla-t000.mat", records / "galaxy-match1004844.txt"]
    update(store, files, luck=False, jobs=1)
    # tavla-t000 says Tavla in its tags: asking for tavla changes nothing there
    tavla = update(store, files, rules=tk.Rules.preset("tavla"), luck=False, jobs=1)
    assert tavla.analysed == [str(files[1])]
    same(open_store(store), tk.analysis.analyse(tk.read_matches(files), rules=tk.Rules.preset("tavla"), luck=False))
    lucky = update(store, files[:1], rules=tk.Rules.preset("tavla"), luck=True, jobs=1, prune=True, level="expert")
    assert lucky.analysed == [str(files[0])] and lucky.dropped == 1
    got = open_store(store)
    same(got, tk.analysis.analyse(tk.read_matches(files[:1]), rules=tk.Rules.preset("tavla"), luck=True))
    assert got.plays["luck"].notna().sum() > 100


def test_a_folder_that_is_not_a_store_is_left_alone(tmp_path: Path, records: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "cat.jpg").write_bytes(b"meow")
    with pytest.raises(StoreError, match="not a tavlakit store"):
        update(folder, [records], luck=False, jobs=1)
    assert sorted(p.name for p in folder.iterdir()) == ["cat.jpg"]
    result = runner.invoke(app, ["analyse", str(records), "--store", str(folder), "--no-luck"])
    assert result.exit_code == 2 and "not a tavlakit store" in result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in folder.iterdir()) == ["cat.jpg"]


def test_a_store_of_a_newer_tavlakit_is_left_alone(tmp_path: Path, records: Path) -> None:
    store = tmp_path / "store"
    update(store, [records / "tavla-t000.mat"], luck=False, jobs=1)
    manifest = json.loads((store / MANIFEST).read_text())
    manifest["tavlakit"] = "99.0.0"
    (store / MANIFEST).write_text(json.dumps(manifest))
    before = {p: p.stat().st_mtime_ns for p in store.rglob("*")}
    with pytest.raises(StoreError, match="newer"):
        update(store, [records], luck=False, jobs=1)
    assert {p: p.stat().st_mtime_ns for p in store.rglob("*")} == before


def test_cli_analyse_reports_and_reruns(records: Path, tmp_path: Path) -> None:
    args = ["analyse", str(records), "--store", str(tmp_path / "s"), "--no-luck", "-j", "2"]
    first = runner.invoke(app, args)
    assert first.exit_code == 2, first.output  # binary.mat: nothing could be read from it, as in validate
    assert "10 file(s): 10 analysed, 0 unchanged, 0 dropped" in first.output
    assert "broken.mat" in first.output and "duplicate-match" in first.output
    assert "1 file(s) nothing could be read from (each one's problem is in the files table)" in first.output
    second = runner.invoke(app, args)
    assert "10 file(s): 0 analysed, 10 unchanged, 0 dropped" in second.output
    assert second.exit_code == 2 and "1 file(s) nothing could be read from" in second.output
    (records / "binary.mat").unlink()
    third = runner.invoke(app, [*args, "--prune"])
    assert third.exit_code == 0, third.output


def snapshot(store: Path) -> dict[str, bytes]:
    """Every file of a store and its bytes (the lock file aside)."""
    return {
        str(p.relative_to(store)): p.read_bytes() for p in sorted(store.rglob("*")) if p.is_file() and p.name != ".lock"
    }


def test_cli_never_drops_files_unless_asked(records: Path, tmp_path: Path) -> None:
    """Before: a mistyped path printed '1 analysed, 9 dropped', exited 0 and
    threw away the analysis of every other file; so did a run over a subset."""
    store = tmp_path / "store"
    update(store, [records], luck=False, jobs=1)
    full = files_frame(store)
    before = snapshot(store)
    assert len(full) == 10 and sum(name.startswith("plays/") for name in before) == 10

    # a mistyped path: one line, exit 2, the store untouched
    typo = runner.invoke(app, ["analyse", str(records / "tavla-t00.mat"), "--store", str(store), "--no-luck"])
    assert typo.exit_code == 2
    assert typo.output.splitlines() == [
        f"error: {records / 'tavla-t00.mat'}: no such file or folder; nothing was written to the store"
    ]
    assert snapshot(store) == before
    also = runner.invoke(app, ["analyse", str(records), str(tmp_path / "nope"), "--store", str(store), "--no-luck"])
    assert also.exit_code == 2 and snapshot(store) == before
    with pytest.raises(StoreError, match="no such file or folder"):
        update(store, [records / "tavla-t00.mat"], luck=False, jobs=1)
    assert snapshot(store) == before
    fresh = tmp_path / "new-store"
    assert runner.invoke(app, ["analyse", str(tmp_path / "nope"), "--store", str(fresh)]).exit_code == 2
    assert not fresh.exists()

    # a subset, one of its files changed: the other files keep their rows and partitions
    changed = records / "selfplay-3p-1.mat"
    changed.write_text(changed.read_text(encoding="utf-8").replace("Game 1", "Game 1 ", 1), encoding="utf-8")
    subset = [str(changed), str(records / "tavla-t000.mat")]
    some = runner.invoke(app, ["analyse", *subset, "--store", str(store), "--no-luck", "-j", "1"])
    assert some.exit_code == 0, some.output
    assert some.output.splitlines()[-1] == f"2 file(s): 1 analysed, 1 unchanged, 0 dropped; store {store}: 10 file(s)"
    after = files_frame(store)
    assert after["path"].tolist() == full["path"].tolist()
    old_sha = full.set_index("path")["sha256"]
    assert (after.set_index("path")["sha256"] != old_sha).tolist().count(True) == 1
    assert after.set_index("path").loc[str(changed), "sha256"] != old_sha[str(changed)]
    now = snapshot(store)
    kept = {name: data for name, data in before.items() if name.startswith(("plays/", "games/", "players/", "meta/"))}
    assert len([name for name in kept if now.get(name) == kept[name]]) == len(kept) - 3 - 1  # 3 tables + meta
    same(open_store(store), tk.analysis.analyse(tk.read_matches(find_records([records])), luck=False))

    # --prune drops the others, and says how many first
    pruned = runner.invoke(app, ["analyse", *subset, "--store", str(store), "--no-luck", "--prune"])
    assert pruned.exit_code == 0, pruned.output
    said = pruned.output.splitlines()
    assert said[0] == "--prune: dropping the 8 file(s) of the store not among the paths given"
    assert said[-1] == f"2 file(s): 0 analysed, 2 unchanged, 8 dropped; store {store}: 2 file(s)"
    assert files_frame(store)["path"].tolist() == [p for p in full["path"] if p in subset]
    for table in ("plays", "games", "meta"):
        assert len(list((store / table).iterdir())) == 2
    same(open_store(store), tk.analysis.analyse(tk.read_matches(sorted(subset)), luck=False))


def test_kill_9_at_any_moment_leaves_a_readable_store(tmp_path: Path, corpus_dir: Path) -> None:
    files = find_records([corpus_dir / "bglab"])[:90]
    store = tmp_path / "store"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [
        sys.executable,
        "-m",
        "tavlakit",
        "analyse",
        *map(str, files),
        "--store",
        str(store),
        "--no-luck",
        "-j",
        "2",
    ]
    full = len(tk.analysis.analyse(tk.read_matches(files), luck=False).games)
    kills = 0
    # kill at start-up, then each time a few more files are whole (on a busy machine time says little)
    for target in (0, 1, 10, 30, 50):
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline and len(list(store.glob("meta/*.json"))) < target:
            time.sleep(0.02)
        if target == 0:
            time.sleep(0.3)
        if proc.poll() is not None:
            break
        os.killpg(proc.pid, signal.SIGKILL)  # the command and its workers, with no chance to clean up
        proc.wait()
        kills += 1
        if (store / MANIFEST).exists():
            # whole: as before the run (nothing yet) or, had it ended, complete
            assert len(open_store(store).games) in (0, full)
    assert kills >= 4, "a run finished before it was killed: use more files"
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    # 2: some of these downloads are files nothing can be read from (and it says so)
    assert done.returncode == (2 if "nothing could be read from" in done.stderr else 0), done.stderr
    finished = int(done.stdout.split(":")[1].split()[0])
    assert finished < len(files), "the killed runs' whole partitions are reused"
    same(open_store(store), tk.analysis.analyse(tk.read_matches(files), luck=False))
    assert not list(store.rglob(".*.tmp"))


def test_a_rerun_with_nothing_to_do_imports_no_pandas(records: Path, tmp_path: Path) -> None:
    update(tmp_path / "store", [records], luck=False, jobs=1)
    code = (
        "import sys\nfrom tavlakit.cli import app\n"
        f"try:\n    app(['analyse', {str(records)!r}, '--store', {str(tmp_path / 'store')!r}, '--no-luck'])\n"
        "except SystemExit as exc:\n    assert exc.code == 2, exc.code\n"  # binary.mat cannot be read
        "print('HEAVY', [m for m in ('pandas', 'pyarrow', 'gnubg_nn') if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "0 analysed, 10 unchanged" in done.stdout
    assert done.stdout.splitlines()[-1] == "HEAVY []"
