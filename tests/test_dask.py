"""Dask DataFrames and the store on a distributed.LocalCluster of two worker
processes, compared with the pandas path."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis.frames import GAME_COLUMNS, PLAY_COLUMNS
from tavlakit.cli import app
from tavlakit.formats import find_records

distributed = pytest.importorskip("distributed", reason="tavlakit[dask] is not installed")
tk_dask = pytest.importorskip("tavlakit.analysis.dask")

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
FILES = [*find_records([SAMPLES]), *sorted((REPO / "tests" / "data" / "gnubg").glob("selfplay-*.mat"))[:3]]


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), *([saved] if saved else [])])  # workers import this tree
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    )
    try:
        with distributed.Client(cluster) as connected:
            yield connected
    finally:
        cluster.close()
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def ordered(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    return frame.sort_values(keys, kind="stable").reset_index(drop=True)


def test_meta_is_declared_without_computing() -> None:
    plays = tk_dask.plays_frame(FILES, luck=False, files_per_partition=3)
    assert dict(plays.dtypes.astype(str)) == {c: ("string" if t == "string" else t) for c, t in PLAY_COLUMNS.items()}
    assert list(tk_dask.games_frame(FILES).columns) == list(GAME_COLUMNS)
    assert plays.npartitions == -(-len(FILES) // 3)


def test_plays_and_games_equal_pandas_on_two_workers(client: object) -> None:
    plays = tk_dask.plays_frame(FILES, luck=False, files_per_partition=2).compute()
    games = tk_dask.games_frame(FILES, files_per_partition=3).compute()
    expected = tk.analysis.analyse(tk.read_matches(FILES), luck=False)
    keys = ["path", "game", "turn"]
    pd.testing.assert_frame_equal(ordered(plays, keys), ordered(expected.plays, keys))
    pd.testing.assert_frame_equal(ordered(games, keys[:2]), ordered(expected.games, keys[:2]))


def test_luck_on_two_workers(client: object) -> None:
    files = [SAMPLES / "tavla-t000.mat", FILES[-1]]
    plays = tk_dask.plays_frame(files, luck=True, files_per_partition=1).compute()
    expected = tk.analysis.plays_frame(tk.read_matches(files), luck=True)
    keys = ["path", "game", "turn"]
    pd.testing.assert_frame_equal(ordered(plays, keys), ordered(expected, keys))
    assert plays["luck"].notna().sum() > 200


def test_analyse_on_a_scheduler_writes_the_same_store(client: object, tmp_path: Path) -> None:
    address = client.scheduler.address  # type: ignore[attr-defined]
    runner = CliRunner()
    remote = runner.invoke(
        app, ["analyse", *map(str, FILES), "--store", str(tmp_path / "remote"), "--no-luck", "--scheduler", address]
    )
    assert remote.exit_code == 0, remote.output
    local = runner.invoke(
        app, ["analyse", *map(str, FILES), "--store", str(tmp_path / "local"), "--no-luck", "-j", "1"]
    )
    assert local.exit_code == 0, local.output
    a, b = tk.analysis.open_store(tmp_path / "remote"), tk.analysis.open_store(tmp_path / "local")
    pd.testing.assert_frame_equal(a.plays, b.plays)
    pd.testing.assert_frame_equal(a.games, b.games)
    assert a.problems == b.problems
    files = [pd.read_parquet(tmp_path / s / "files.parquet") for s in ("remote", "local")]
    pd.testing.assert_frame_equal(*files)


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tk_dask, "CONNECT_TIMEOUT", 1)
    result = CliRunner().invoke(
        app, ["analyse", str(FILES[0]), "--store", str(tmp_path / "s"), "--no-luck", "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert result.exit_code == 2
    assert "scheduler" in result.output and "Traceback" not in result.output
