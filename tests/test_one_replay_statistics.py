"""gnubg's statistics in the one replay that builds the frames.

``analyse(..., statistics=True)`` judges every game while the plays and games
frames are built: each match is replayed once (the replayer is counted), and
the statistics and decisions frames are those of ``statistics_frame`` and
``decisions_frame``, which read and replay the matches on their own.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
import tavlakit.analysis.frames as frames_module
import tavlakit.analysis.judge as judge_module
import tavlakit.analysis.statistics as statistics_module
import tavlakit.pictures.viewer as viewer_module
from tavlakit.analysis.collection import analyse_paths
from tavlakit.analysis.statistics import decisions_frame, statistics_frame
from tavlakit.cli import app
from tavlakit.replay.walker import replay

STATS = Path(__file__).resolve().parent / "data" / "stats"
#: Small gnubg self-play records: a match, a money session with the cube at 1 ply's data.
OWN = [STATS / "match-3p-31.mat", STATS / "ply1-money-cube-15.mat"]
#: From the corpus: a gnubg match with passes, and a made-up one whose cube actions cannot all be judged.
CORPUS = ["gnubgparser/gnubg_selfplay_drops_7p.mat", "BgMatchFormat_Lib/cube_take.mat"]


@pytest.fixture(scope="module")
def paths(corpus_dir: Path) -> list[Path]:
    return OWN + [corpus_dir / name for name in CORPUS]


@pytest.fixture(scope="module")
def references(paths: list[Path]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The frames worked out the independent way: read, replay and judge for each frame."""
    return statistics_frame(tk.read_matches(paths), level="expert"), decisions_frame(
        tk.read_matches(paths), level="expert"
    )


@pytest.fixture(scope="module")
def single(paths: list[Path]) -> tk.analysis.Analysis:
    return tk.analysis.analyse(paths, statistics=True, jobs=1, level="expert")


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each match was replayed (by its source), wherever the analysis replays."""
    counted: Counter[str] = Counter()

    def counting(match: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        counted[str(match.source)] += 1
        return replay(match, *args, **kwargs)

    for module in (frames_module, judge_module, statistics_module, viewer_module):
        monkeypatch.setattr(module, "replay", counting)
    return counted


def test_statistics_need_one_replay_per_file(paths: list[Path], replays: Counter[str]) -> None:
    result = tk.analysis.analyse(paths, statistics=True, jobs=1, luck=False, level="expert")
    _ = result.statistics, result.decisions
    assert replays == Counter({str(p): 1 for p in paths})


def test_statistics_need_one_replay_per_match(paths: list[Path], replays: Counter[str]) -> None:
    matches = [tk.read_match(p) for p in paths]
    result = tk.analysis.analyse(matches, statistics=True, luck=False, level="expert")
    _ = result.statistics, result.decisions
    assert replays == Counter({str(p): 1 for p in paths})
    assert len(result.statistics[result.statistics["scope"] == "match"]) == 2 * len(paths)


def test_lazy_statistics_replay_again(replays: Counter[str]) -> None:
    """Without ``statistics=True`` they can still be asked for: one more replay, for both frames."""
    result = tk.analysis.analyse(OWN, luck=False, level="expert")
    assert replays == Counter({str(p): 1 for p in OWN})
    _ = result.statistics, result.decisions
    assert replays == Counter({str(p): 2 for p in OWN})


def test_stats_by_match_replays_each_file_once(replays: Counter[str]) -> None:
    result = CliRunner().invoke(
        app, ["stats", "--by", "match", "--level", "expert", "--json", "-j", "1", *map(str, OWN)]
    )
    assert result.exit_code == 0, result.output
    assert replays == Counter({str(p): 1 for p in OWN})


def test_the_viewers_analysis_reads_its_own_replay(replays: Counter[str]) -> None:
    """``show --analyse``: luck, errors and cube decisions judged on the steps the boards are drawn from."""
    shown = viewer_module.build(tk.read_match(OWN[0]), analyse=True, level="expert")
    assert any(frame.cube for game in shown.games for frame in game.frames)
    assert replays == Counter({str(OWN[0]): 1})


def test_single_pass_frames_equal_the_independent_ones(
    single: tk.analysis.Analysis, references: tuple[pd.DataFrame, pd.DataFrame]
) -> None:
    statistics, decisions = references
    pd.testing.assert_frame_equal(single.statistics, statistics)
    assert single.statistics.attrs["unjudged"] == statistics.attrs["unjudged"]
    assert statistics.attrs["unjudged"], "the made-up record has turns that cannot be judged"
    pd.testing.assert_frame_equal(single.decisions, decisions)
    assert {"roll", "no double", "double", "take", "pass"} <= set(decisions["kind"])


def test_matches_give_the_frames_of_paths(paths: list[Path], single: tk.analysis.Analysis) -> None:
    result = tk.analysis.analyse([tk.read_match(p) for p in paths], statistics=True, level="expert")
    pd.testing.assert_frame_equal(result.statistics, single.statistics)
    pd.testing.assert_frame_equal(result.decisions, single.decisions)


def test_two_processes_give_the_frames_of_one(paths: list[Path], single: tk.analysis.Analysis) -> None:
    two = tk.analysis.analyse(paths, statistics=True, jobs=2, level="expert")
    pd.testing.assert_frame_equal(two.statistics, single.statistics)
    pd.testing.assert_frame_equal(two.decisions, single.decisions)
    pd.testing.assert_frame_equal(two.plays, single.plays)


def test_twins_are_left_out(tmp_path: Path) -> None:
    """Under dedupe a file holding a match seen before adds no statistics, as no plays."""
    copy = tmp_path / "again.mat"
    shutil.copy(OWN[0], copy)
    result = analyse_paths([OWN[0], copy], luck=False, dedupe=True, statistics=True, level="expert")
    once = statistics_frame([tk.read_match(OWN[0])], level="expert")
    pd.testing.assert_frame_equal(result.statistics, once)
    assert set(result.decisions["path"]) == set(result.plays["path"]) == {str(OWN[0])}
    assert any(p.code == "duplicate-match" for p in result.problems)


def test_ply_reaches_the_judge() -> None:
    match = tk.read_match(STATS / "ply1-money-cube-15.mat")
    match.games = match.games[:1]  # (1 ply is slow)
    one_ply = tk.analysis.analyse([match], statistics=True, level=1, luck=False).decisions
    pd.testing.assert_frame_equal(one_ply, decisions_frame([match], level=1))
    zero_ply = decisions_frame([match], level="expert")
    assert (one_ply["error_emg"].fillna(0) != zero_ply["error_emg"].fillna(0)).any()
    with pytest.raises(ValueError, match="only 0-, 1-, 2- and 3-ply"):
        tk.analysis.analyse([match], statistics=True, level=4)


def test_a_met_given_by_its_path_reaches_the_workers(single: tk.analysis.Analysis) -> None:
    woolsey = Path("/usr/share/gnubg/met/woolsey.xml")
    if not woolsey.exists():
        pytest.skip("gnubg's tables are not installed (apt-get install gnubg)")
    from tavlakit.evaluation.met import load_met

    path = OWN[0]
    theirs = statistics_frame([tk.read_match(path)], met=load_met(woolsey), level="expert").iloc[:2]
    ours = tk.analysis.analyse(
        [path, path], statistics=True, met=woolsey, luck=False, jobs=2, level="expert"
    ).statistics
    pd.testing.assert_frame_equal(ours.iloc[:2], theirs)
    pd.testing.assert_frame_equal(ours.iloc[2:4].reset_index(drop=True), theirs)
    default = single.statistics.iloc[:2]  # gnubg's default table
    assert (default["luck_mwc"] != theirs["luck_mwc"]).any()  # the table made a difference


def test_labels_over_the_whole_collection(tmp_path: Path) -> None:
    """Files of one name in two folders: the second's label gets its folder, in every frame."""
    match = tk.read_match(OWN[0])
    match.games = match.games[:1]
    paths = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "x.mat")
        tk.write_match(match, paths[-1])
    result = tk.analysis.analyse(paths, statistics=True, luck=False, level="expert")
    pd.testing.assert_frame_equal(result.decisions, decisions_frame(tk.read_matches(paths), level="expert"))
    assert result.decisions["match"].unique().tolist() == result.plays["match"].unique().tolist()
    assert result.decisions["match"].unique().tolist() == ["x.mat", "b/x.mat"]
