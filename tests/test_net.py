"""Evaluating with gnubg's own weights (``gnubg.wd``) instead of gnubg-nn's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import gnubg_nn
import numpy as np
import pytest
from gnubg_cube import ask_gnubg_cube
from test_cubeful import positions
from typer.testing import CliRunner

from tavlakit import Position, Rules
from tavlakit.cli import app
from tavlakit.evaluation.equity import Evaluator, net_board
from tavlakit.evaluation.net import net_in_use, use_net

STATS = Path(__file__).parent / "data" / "stats"


@pytest.fixture
def own_net_after() -> Iterator[None]:
    """Whatever a test does, the next one evaluates with gnubg-nn's own net."""
    yield
    use_net(None)


def test_gnubgs_weights_evaluate_as_gnubg(
    gnubg_exact: Path, gnubg_wd: Path, tmp_path: Path, own_net_after: None
) -> None:
    """gnubg 1.07's own 0-ply probabilities of 120 positions of its self-play,
    against gnubg-nn's with each set of weights."""
    pids = positions(7)
    found = ask_gnubg_cube(gnubg_exact, [[pid, [1, -1, 0, 0, [0, 0], 0]] for pid in pids], tmp_path)

    def differences() -> np.ndarray:
        boards = [net_board(Position.from_position_id(pid)) for pid in pids]
        return np.array(
            [
                max(abs(a - b) for a, b in zip(gnubg_nn.probabilities(board, 0), answer["probs"]))
                for board, answer in zip(boards, found)
            ]
        )

    own = differences()
    use_net(gnubg_wd)
    assert net_in_use() == str(gnubg_wd.resolve())
    theirs = differences()
    assert len(theirs) > 100
    assert np.median(theirs) < 1e-6 and np.percentile(theirs, 90) < 1e-6  # (the rest: gnubg-nn's inputs, below)
    assert np.median(own) > 3 * np.median(theirs)  # the weights, not the inputs, made most of the difference
    use_net(None)
    assert net_in_use() is None and np.allclose(differences(), own)


def test_what_is_not_weights_is_said(gnubg_wd: Path, tmp_path: Path, own_net_after: None) -> None:
    cut = tmp_path / "cut.wd"
    cut.write_bytes(gnubg_wd.read_bytes()[:10_000])
    longer = tmp_path / "longer.wd"
    longer.write_bytes(gnubg_wd.read_bytes() + b"\0\0\0\0")
    text = tmp_path / "notes.txt"
    text.write_text("GNU Backgammon 1.01\nrace\nnot numbers\n")
    other = STATS / "match-3p-31.mat"
    for path, words in (
        (cut, "cut short"),
        (longer, "more after its six nets"),
        (text, "not weights gnubg-nn can use"),
        (other, "not neural-net weights"),
        (tmp_path / "none.wd", "cannot be read"),
    ):
        with pytest.raises(ValueError, match=words):
            use_net(path)
        assert net_in_use() is None  # nothing changed


def test_stats_net_option(gnubg_wd: Path, own_net_after: None) -> None:
    runner = CliRunner()
    record = str(STATS / "match-3p-31.mat")
    bad = runner.invoke(app, ["stats", "--by", "match", "--level", "expert", "--net", record, record])
    assert bad.exit_code == 2 and "not neural-net weights" in bad.output
    own = runner.invoke(app, ["stats", "--by", "match", "--level", "expert", "--json", record])
    theirs = runner.invoke(
        app, ["stats", "--by", "match", "--level", "expert", "--json", "--net", str(gnubg_wd), record]
    )
    assert own.exit_code == theirs.exit_code == 0
    assert own.output != theirs.output  # another net: other equities


def test_show_net_option(gnubg_wd: Path, tmp_path: Path, own_net_after: None) -> None:
    runner = CliRunner()
    record = str(STATS / "match-3p-31.mat")
    alone = runner.invoke(app, ["show", "--net", str(gnubg_wd), "-o", str(tmp_path / "x.html"), record])
    assert alone.exit_code == 2 and "--net goes with --analyse" in alone.output
    pages = {}
    for name, extra in (("own", []), ("gnubg", ["--net", str(gnubg_wd)])):
        page = tmp_path / f"{name}.html"
        result = runner.invoke(app, ["show", "--analyse", "--level", "expert", *extra, "-o", str(page), record])
        assert result.exit_code == 0, result.output
        pages[name] = page.read_text(encoding="utf-8")
    assert pages["own"] != pages["gnubg"]  # the same match, luck and errors from another net


def test_a_store_analyses_again_what_other_weights_judged(gnubg_wd: Path, tmp_path: Path, own_net_after: None) -> None:
    import pandas as pd

    from tavlakit.analysis.store import open_store, update

    folder = tmp_path / "store"
    records = [STATS / "match-3p-31.mat", STATS / "money-cube-15.mat"]
    first = update(folder, records, jobs=1, level="expert")
    own = open_store(folder).plays
    theirs_run = update(folder, records, jobs=1, net=gnubg_wd, level="expert")
    theirs = open_store(folder).plays
    again = update(folder, records, jobs=1, level="expert")  # the net in use is still gnubg's: nothing to do
    assert (len(first.analysed), len(theirs_run.analysed), len(again.analysed)) == (2, 2, 0)
    assert len(own) == len(theirs) and not own["luck"].equals(theirs["luck"])
    use_net(None)
    # gnubg-nn's own again: analysed again, the first numbers back
    back = update(folder, records, jobs=1, level="expert")
    assert len(back.analysed) == 2
    pd.testing.assert_series_equal(open_store(folder).plays["luck"], own["luck"])


def test_analyse_net_option(gnubg_wd: Path, tmp_path: Path, own_net_after: None) -> None:
    runner = CliRunner()
    record = str(STATS / "match-3p-31.mat")
    store = str(tmp_path / "store")
    assert runner.invoke(app, ["analyse", "--store", store, "--level", "expert", "-j", "1", record]).exit_code == 0
    bad = runner.invoke(app, ["analyse", "--store", store, "--no-luck", "--net", str(gnubg_wd), record])
    assert bad.exit_code == 2 and "--net does not go with --no-luck" in bad.output
    done = runner.invoke(
        app, ["analyse", "--store", store, "--level", "expert", "-j", "1", "--net", str(gnubg_wd), record]
    )
    assert done.exit_code == 0, done.output
    use_net(None)
    meta = [p for p in (tmp_path / "store" / "meta").glob("*.json")]
    import json

    nets = {json.loads(p.read_text())["net"] for p in meta}
    assert len(nets - {None}) == 1  # the file, judged with gnubg's weights, says whose


#: Positions where gnubg-nn's inputs are not gnubg 1.07's (tavlakit.evaluation.net_inputs): three home
#: points held with a blot among them and a blot of the other side's on the 1- or 2-point (contact,
#: twice, and crashed), and the 3-point match's position whose evaluation moved its luck most.
FLAGGED = ["4HPwBSCoc/ABMA", "4HPwBRCoc/ABMA", "f48DACDUcfABBg", "4Bx8wEgTzw4BCQ"]


def test_with_gnubgs_weights_positions_evaluate_as_gnubg_1_07(
    gnubg_exact: Path, gnubg_wd: Path, tmp_path: Path, own_net_after: None
) -> None:
    """gnubg-nn's own evaluation of these positions is 0.0017 to 0.03 from
    gnubg's; tavlakit's, with gnubg's weights, gnubg's to float32 rounding:
    each position, and every play of every roll from the match position
    (its plays table)."""
    use_net(gnubg_wd)
    ev = Evaluator(Rules.preset("backgammon"))
    table = ev.plays_table(Position.from_position_id("E88OAQngHHzAYA"))
    boards = table.boards
    after = [gnubg_nn.position_id(board) for board in boards.tolist()]
    found = ask_gnubg_cube(gnubg_exact, [[pid, [1, -1, 0, 0, [0, 0], 0]] for pid in FLAGGED + after], tmp_path)
    gnubgs = np.array([answer["probs"] for answer in found])
    raw = np.array([gnubg_nn.probabilities(net_board(Position.from_position_id(pid)), 0) for pid in FLAGGED])
    ours = np.array([ev.probabilities(Position.from_position_id(pid)) for pid in FLAGGED])
    assert (np.abs(raw - gnubgs[: len(FLAGGED)]).max(axis=1) > 1.5e-3).all()  # gnubg-nn alone: off
    assert (np.abs(ours - gnubgs[: len(FLAGGED)]).max(axis=1) < 1e-6).all()
    plays = np.abs(table.probs - gnubgs[len(FLAGGED) :]).max(axis=1)
    raw_plays = np.abs(np.array([c for c in _raw_candidates(boards)]) - gnubgs[len(FLAGGED) :]).max(axis=1)
    # (60 plays: gnubg-nn 8 off by more than 1e-3; ours at most 2.4e-7 from gnubg's)
    assert (raw_plays > 1e-3).sum() >= 5 and plays.max() < 1e-6


def _raw_candidates(boards: np.ndarray) -> list[tuple[float, ...]]:
    """gnubg-nn's own 0-ply evaluation of each board (the side on roll second)."""
    return [tuple(gnubg_nn.probabilities(board, 0)) for board in boards.tolist()]
