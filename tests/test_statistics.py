"""gnubg's match statistics against gnubg 1.07's own ``analyse match`` at 0 ply.

The reference (tests/data/stats/README.md) is gnubg playing itself with noise,
then analysing at 0 ply, cubeful. The positions gnubg-nn's inputs get wrong
are evaluated again from gnubg 1.07's (:mod:`tavlakit.evaluation.net_inputs`).
With gnubg's own weights (``gnubg.wd``) every figure is compared as the issue
asks: marks and cube counts within 1, errors and luck within 5% or 0.05 EMG,
the luck-adjusted result within 0.05 (measured: luck within 0.5%, the
luck-adjusted result within 0.002). gnubg-nn's own weights are not gnubg
1.07's (gammon chances up to 0.005 apart), so plays near a mark's threshold
can fall on the other side: with them the marks are compared within 3 and a
money session's luck-adjusted result within 0.1 or 10% (measured: 0.056),
the rest as the issue asks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import tavlakit as tk
from tavlakit import Rules
from tavlakit.analysis.judge import Judge
from tavlakit.analysis.statistics import STATISTICS_COLUMNS, fibs_luck_difference, statistics_frame
from tavlakit.replay.walker import replay

DATA = Path(__file__).parent / "data" / "stats"
RECORDS = ["match-3p-31", "match-5p-52", "match-7p-73", "match-9p-94", "money-cube-15", "money-nocube-16"]


def rules_of(name: str) -> Rules:
    rules = Rules.preset("backgammon")
    return rules.replace(cube=False) if "nocube" in name else rules


@pytest.fixture(scope="module")
def frames() -> dict[str, tuple[pd.DataFrame, dict]]:
    out = {}
    for name in RECORDS:
        frame = statistics_frame([tk.read_match(DATA / f"{name}.mat")], rules_of(name), level="expert")
        out[name] = (frame, json.loads((DATA / f"{name}.json").read_text()))
    return out


def close(ours: float, theirs: float, share: float, absolute: float) -> bool:
    return abs(ours - theirs) <= max(absolute, share * abs(theirs))


@pytest.mark.parametrize("name", RECORDS)
def test_statistics_agree_with_gnubg(frames: dict, name: str) -> None:
    check_against_gnubg(*frames[name])


@pytest.fixture(scope="module")
def frames_gnubg_weights(gnubg_wd: Path) -> dict[str, tuple[pd.DataFrame, dict]]:
    from tavlakit.evaluation.net import use_net

    use_net(gnubg_wd)
    try:
        return {
            name: (
                statistics_frame([tk.read_match(DATA / f"{name}.mat")], rules_of(name), level="expert"),
                json.loads((DATA / f"{name}.json").read_text()),
            )
            for name in RECORDS
        }
    finally:
        use_net(None)


@pytest.mark.parametrize("name", RECORDS)
def test_with_gnubgs_own_weights_every_figure_is_gnubgs(frames_gnubg_weights: dict, name: str) -> None:
    check_against_gnubg(*frames_gnubg_weights[name], exact=True)


@pytest.mark.parametrize("name", ["ply1-match-5p-52", "ply1-money-cube-15"])
def test_one_ply_agrees_with_gnubgs_one_ply(name: str) -> None:
    """gnubg's analysis at 1 ply (luck stays 0 ply in gnubg) against ours at 1 ply."""
    frame = statistics_frame([tk.read_match(DATA / f"{name}.mat")], Rules.preset("backgammon"), level=1)
    check_against_gnubg(frame, json.loads((DATA / f"{name}.json").read_text()))


def test_live_gnubg(gnubg_bin: Path, gnubg_wd: Path, tmp_path: Path) -> None:
    """A match and a money session gnubg plays and analyses now, judged here
    with gnubg-nn's weights and with gnubg's (then to the issue's bounds)."""
    from gnubg_jobs import run_gnubg

    from tavlakit.evaluation.net import use_net

    records = "live-3p:3:4242:0:1 live-money:0:4343:2:1"
    run_gnubg(gnubg_bin, DATA / "make_stats.py", tmp_path, check=True, STATS_RECORDS=records, STATS_OUT=str(tmp_path))
    for net in (None, gnubg_wd):
        use_net(net)
        try:
            for name in ("live-3p", "live-money"):
                frame = statistics_frame(
                    [tk.read_match(tmp_path / f"{name}.mat")], Rules.preset("backgammon"), level="expert"
                )
                check_against_gnubg(frame, json.loads((tmp_path / f"{name}.json").read_text()), exact=net is not None)
        finally:
            use_net(None)


def check_against_gnubg(frame: pd.DataFrame, reference: dict, exact: bool = False) -> None:
    """``exact``: gnubg's weights, the issue's bounds; else gnubg-nn's, looser ones for the marks and a
    money session's luck-adjusted result."""
    marks = 1 if exact else 3
    assert list(frame.columns[:5]) == ["scope", "match", "path", "player", "side"]
    assert set(STATISTICS_COLUMNS) <= set(frame.columns)
    for side, key in ((0, "X"), (1, "O")):
        row = frame[(frame["scope"] == "match") & (frame["side"] == side)].iloc[0]
        moves, cube, dice = (reference["stats"][key][part] for part in ("moves", "cube", "dice"))
        assert row["unjudged"] == 0
        # exactly
        assert (row["total_moves"], row["unforced_moves"]) == (moves["total-moves"], moves["unforced-moves"])
        assert (row["doubles"], row["takes"], row["passes"]) == (cube["n-doubles"], cube["n-takes"], cube["n-drops"])
        # counts within 1
        for ours, theirs in (
            ("cube_decisions", "total-cube"),
            ("close_cube_decisions", "close-cube"),
            ("missed_doubles_below_cp", "missed-double-below-cp"),
            ("missed_doubles_above_cp", "missed-double-above-cp"),
            ("wrong_doubles_below_dp", "wrong-double-below-dp"),
            ("wrong_doubles_above_tg", "wrong-double-above-tg"),
            ("wrong_takes", "wrong-take"),
            ("wrong_passes", "wrong-drop"),
        ):
            assert abs(row[ours] - cube[theirs]) <= 1, (ours, row[ours], cube[theirs])
        for mark in ("doubtful", "bad", "very bad"):
            assert abs(row["moves_" + mark.replace(" ", "_")] - moves["marked"][mark]) <= marks, mark
        # equity within 5% or 0.05
        cube_emg = sum(v for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill"))
        cube_mwc = sum(v for k, v in cube.items() if k.startswith("err-") and k.endswith("-cost"))
        assert close(row["checker_error_emg"], moves["error-skill"], 0.05, 0.05)
        assert close(
            row["checker_error_mwc"],
            moves["error-cost"],
            0.05,
            0.05 if not reference["match-info"]["match-length"] else 0.005,
        )
        assert close(row["cube_error_emg"], cube_emg, 0.05, 0.05)
        assert close(row["cube_error_mwc"], cube_mwc, 0.05, 0.005)
        assert close(row["luck_emg"], dice["luck"], 0.05, 0.05)
        assert row["actual_result"] == pytest.approx(dice["actual-result"], abs=1e-6)
        money = not reference["match-info"]["match-length"]
        if money and not exact:  # points, each roll's luck times its cube: within 0.1 points or 10%
            assert close(row["luck_adjusted_result"], dice["luck-adjusted-result"], 0.1, 0.1)
        else:
            assert abs(row["luck_adjusted_result"] - dice["luck-adjusted-result"]) <= 0.05
        if not money:  # gnubg's FIBS rating estimates, from the numbers above
            fibs = reference["stats"][key]["error-based-fibs-rating"]
            # the rating lost to errors (2050 less the rating) within 5%
            assert close(2050 - row["fibs_rating_from_errors"], 2050 - fibs["total"], 0.05, 10.0)
            assert close(row["fibs_rating_checker_loss"], fibs["chequer"], 0.05, 10.0)
            if "fibs-rating-difference" in dice:
                lar, length = dice["luck-adjusted-result"], reference["match-info"]["match-length"]
                if abs(lar) < 0.45:
                    assert close(row["fibs_rating_luck_difference"], dice["fibs-rating-difference"], 0.05, 25.0)
                else:  # near a sure result the logarithm magnifies 0.004 MWC to 90 points: gnubg's own figure
                    assert fibs_luck_difference(lar, length) == pytest.approx(dice["fibs-rating-difference"], rel=2e-3)


def test_rolls_and_plays_one_by_one() -> None:
    """Per roll: the luck and the play's error next to gnubg's."""
    name = "match-5p-52"
    reference = json.loads((DATA / f"{name}.json").read_text())
    match = tk.read_match(DATA / f"{name}.mat")
    judge = Judge(rules_of(name), level="expert")
    luck, error = [], []
    for rg, game in zip(replay(match, judge.rules), reference["games"]):
        ours = [j for j in judge.game(match, rg) if j.kind == "roll"]
        theirs = [a for a in game["game"] if a["action"] == "move" and a.get("dice")]
        assert len(ours) == len(theirs)
        for mine, gnubg in zip(ours, theirs):
            analysis = gnubg["analysis"]
            roll = mine.roll
            assert roll is not None
            luck.append(abs(roll.luck_emg - analysis["luck-value"]))
            if "best" in analysis and roll.moved:
                assert roll.error_emg is not None
                error.append(abs(roll.error_emg - (analysis["best"] - analysis["played"])))
                assert roll.plays == analysis["n"]
    assert len(luck) > 150
    assert sum(d < 0.01 for d in luck) / len(luck) >= 0.95
    assert sum(d < 0.01 for d in error) / len(error) >= 0.95


def test_overall_rows_sum_the_matches(frames: dict) -> None:
    frame, _ = frames["match-3p-31"]
    both = pd.concat([frame, frames["match-5p-52"][0]])
    overall = statistics_frame(
        [tk.read_match(DATA / "match-3p-31.mat"), tk.read_match(DATA / "match-5p-52.mat")], level="expert"
    )
    alpha = overall[(overall["scope"] == "overall") & (overall["player"] == "Alpha")].iloc[0]
    per = both[(both["scope"] == "match") & (both["player"] == "Alpha")]
    assert alpha["unforced_moves"] == per["unforced_moves"].sum()
    assert alpha["checker_error_emg"] == pytest.approx(per["checker_error_emg"].sum())
    assert alpha["pr"] == pytest.approx(
        500 * (per["checker_error_emg"].sum() + per["cube_error_emg"].sum()) / per["pr_decisions"].sum()
    )


def test_cube_decisions_one_by_one() -> None:
    """Each cube decision gnubg analysed (before a roll, and each double):
    our no double and double/take MWC next to gnubg's."""
    from tavlakit.analysis.statistics import decisions_frame

    name = "match-7p-73"
    reference = json.loads((DATA / f"{name}.json").read_text())
    frame = decisions_frame(tk.read_match(DATA / f"{name}.mat"), level="expert")
    ours = frame[frame["kind"].isin(["no double", "double"])]
    theirs = [
        a["analysis"]
        for game in reference["games"]
        for a in game["game"]
        if "nd-cubeful-eq" in (a.get("analysis") or {})
    ]
    assert len(ours) == len(theirs) > 150
    nd = ours["no_double_mwc"].to_numpy() - [a["nd-cubeful-eq"] for a in theirs]
    dt = ours["double_take_mwc"].to_numpy() - [a["dt-cubeful-eq"] for a in theirs]
    assert (abs(nd) < 0.01).mean() >= 0.95 and (abs(dt) < 0.01).mean() >= 0.95
    rows = frame[frame["kind"] == "take"]
    assert (rows["right_action"].isin(["take", "pass"])).all() and (rows["cube_error_emg"] >= 0).all()


def test_keys_decoded_in_bulk_as_one_by_one() -> None:
    import numpy as np

    from tavlakit.engine.ids import decode_position_key
    from tavlakit.evaluation.keys import boards_of_keys

    keys = []
    for game in json.loads((DATA / "match-9p-94.json").read_text())["games"]:
        keys += [tk.Position.from_position_id(a["board"]).position_key() for a in game["game"] if "board" in a]
    assert len(keys) > 300
    one_by_one = np.array([decode_position_key(k) for k in keys])
    assert (boards_of_keys(keys) == one_by_one).all()
    assert (boards_of_keys(keys, flip=True) == one_by_one[:, ::-1]).all()


def test_keys_written_in_bulk_as_gnubg_nn_writes_them() -> None:
    """Every play of every roll of a game's positions (races, bear-offs,
    chequers on the bar): the keys of the boards as gnubg-nn's
    ``key_of_board`` gives them, and the plays those of gnubg-nn's ``moves``."""
    import gnubg_nn

    from tavlakit.evaluation.equity import ROLLS, Evaluator
    from tavlakit.evaluation.keys import keys_of_boards

    rules = Rules.preset("backgammon")
    match = tk.read_match(DATA / "match-9p-94.mat")
    ev = Evaluator(rules)
    bars = checked = ended = 0
    for rg in replay(match, rules):
        for step in rg.steps:
            if step.turn.kind != "roll" or not step.known or ev.net_view(step.before) is None:
                continue
            checked += 1
            board = ev.net_view(step.before)
            table = ev.plays_table(step.before)
            mover_view = table.boards[:, ::-1].tolist()
            assert table.keys() == [gnubg_nn.key_of_board(b) for b in mover_view]
            assert keys_of_boards(table.boards[:, ::-1]) == table.keys()
            for roll, (start, end) in zip(ROLLS, table.spans):
                theirs = gnubg_nn.moves(board, *roll) or (gnubg_nn.key_of_board(board),)
                assert sorted(table.keys(start, end)) == sorted(theirs)
            bars += step.before.bar()[0] > 0
            ended += bool((table.boards[:, 0].sum(axis=1) == 0).any())  # a play that bears off the last chequer
    assert checked > 300 and bars > 0 and ended > 0


def test_a_games_plays_are_scored_once_each_and_alike_where_they_meet_again() -> None:
    """Every play of every roll of a game's positions (boards met more than
    once among them): the distinct boards are numpy's, and the net scores
    each row as it scores that board alone."""
    import numpy as np

    from tavlakit.evaluation.equity import ROLLS, _net_plays, net_board
    from tavlakit.evaluation.keys import distinct_boards
    from tavlakit.evaluation.net import evaluate

    match = tk.read_match(DATA / "match-3p-31.mat")
    rg = next(iter(replay(match, Rules.preset("backgammon"))))
    positions = [net_board(step.before) for step in rg.steps if step.turn.kind == "roll" and step.known]
    after = np.concatenate([table.boards for table in _net_plays(np.array(positions, np.int8), ROLLS)])
    rows, numbers = distinct_boards(after)
    unique, first, inverse = np.unique(after.reshape(len(after), -1), axis=0, return_index=True, return_inverse=True)
    assert len(rows) == len(unique) < 0.95 * len(after)  # some boards met again
    assert sorted(rows.tolist()) == sorted(first.tolist())
    assert (after[rows][numbers] == after).all()
    probs = evaluate(after)
    alone = evaluate(after[rows])
    assert (probs == alone[numbers]).all()
    assert (probs[first[inverse.ravel()]] == probs).all()


def test_a_full_cache_is_emptied_without_losing_the_rolls_at_hand() -> None:
    judge, fresh = Judge(Rules.preset("backgammon"), level="expert"), Judge(Rules.preset("backgammon"), level="expert")
    match = tk.read_match(DATA / "match-3p-31.mat")
    judge.search._scores.update({(i, i): None for i in range(2_001)})  # type: ignore[misc]
    rolls = [j for rg in replay(match, judge.rules) for j in judge.game(match, rg) if j.kind == "roll"]
    again = [j for rg in replay(match, fresh.rules) for j in fresh.game(match, rg) if j.kind == "roll"]
    assert len(rolls) > 100 and len(judge.search._scores) < 2_000  # emptied, then filled with this match's positions
    assert [j.roll for j in rolls] == [j.roll for j in again]


def test_a_full_table_cache_is_emptied_without_losing_the_positions_asked_for() -> None:
    """Positions asked for again with new ones, the evaluator's tables full:
    every table comes back, the same as a fresh evaluator's."""
    from tavlakit.evaluation.equity import Evaluator

    rules = Rules.preset("backgammon")
    ev, fresh = Evaluator(rules), Evaluator(rules)
    start = tk.Position.initial()
    ev.plays_table(start)
    ev._tables.update({i: None for i in range(501)})  # type: ignore[misc]
    later = start.legal_positions((3, 1), rules)[0].flip()
    tables = ev.plays_tables([start, later])
    for table, theirs in zip(tables, fresh.plays_tables([start, later])):
        assert table.spans == theirs.spans and (table.probs == theirs.probs).all()
        assert (table.boards == theirs.boards).all()
    assert len(ev._tables) == 2


def test_each_plays_cube_efficiency_is_that_of_the_position_it_leads_to() -> None:
    """The efficiencies the statistics take from a plays table's boards
    against those of the engine's own plays of each roll, position by
    position (the opponent on roll: contact, race and bearoff ones)."""
    from tavlakit.evaluation.cubeful import CONTACT_X, efficiency, efficiency_many
    from tavlakit.evaluation.equity import ROLLS, Evaluator

    rules = Rules.preset("backgammon")
    ev = Evaluator(rules)
    kinds = set()
    for name in ("match-9p-94", "money-nocube-16"):
        match = tk.read_match(DATA / f"{name}.mat")
        for rg in replay(match, rules):
            for step in rg.steps[::3]:
                if step.turn.kind != "roll" or not step.known:
                    continue
                _probs, spans, boards = ev.plays_table(step.before)
                x = efficiency_many(boards)
                for roll, (start, end) in zip(ROLLS, spans):
                    plays = step.before.legal_positions(roll, rules) or [step.before.flip()]
                    found = sorted(round(efficiency(after), 9) for after in plays)
                    ours = sorted(round(v, 9) for v in x[start:end].tolist())
                    assert ours == found, (step.before.position_id(), roll)
                    kinds.update("contact" if v == CONTACT_X else "other" for v in found)
    assert kinds == {"contact", "other"}


def test_the_imports_are_out_of_the_garbage_collectors_way_once_an_analysis_has_begun() -> None:
    """After a game's rolls are scored, the objects of the imports and of
    numba's kernels (more than a hundred thousand) are frozen: a full
    collection no longer walks them."""
    import gc

    judge = Judge(Rules.preset("backgammon"), level="expert")
    match = tk.read_match(DATA / "match-3p-31.mat")
    rg = next(iter(replay(match, judge.rules)))
    list(judge.game(match, rg))
    assert gc.get_freeze_count() > 100_000


def test_what_the_evaluator_keeps_owns_its_memory() -> None:
    """A position's plays table and each roll's best board are arrays of
    their own, not views of the listing's larger room (the evaluator keeps
    them: views would keep every room alive)."""
    from tavlakit.evaluation.equity import Evaluator
    from tavlakit.evaluation.keys import boards_of_keys

    ev = Evaluator(Rules.preset("backgammon"))
    start = tk.Position.initial()
    ev.best(start, (3, 1))
    table = ev.plays_table(start)
    owner = table.boards if table.boards.base is None else table.boards.base  # (a batch of one position)
    assert owner.base is None and len(owner) == len(table.boards) == table.spans[-1][1]
    assert ev._rolls((start, (3, 1)))[2].base is None
    best = boards_of_keys([ev.best_key(start, (3, 1))])[0, 1]  # the mover's side
    assert best[[4, 5, 7]].tolist() == [2, 4, 2]  # 8/5 6/5, gnubg's best 31 at 0 ply
