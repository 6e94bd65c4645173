"""gnubg 1.07's look-ahead (evaluation/lookahead.py, moves.py) against gnubg itself and gnubg-nn.

With gnubg's own weights, the look-ahead must give gnubg's numbers: its
move generator gnubg-nn's plays, its pruning gnubg's choice of plays, its
2-ply cube decisions and the 2-ply errors of a real match's plays gnubg's
default analysis. A few near ties (two plays within gnubg's float32
rounding of each other) may go the other way; the bounds below allow them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import gnubg_nn
import numpy as np
import pytest
from gnubg_analysis import analyse_in_gnubg
from gnubg_eval import ask_gnubg_eval
from test_net_inputs import fixed, played_boards, random_play

import tavlakit as tk
from tavlakit.analysis.judge import Judge
from tavlakit.evaluation.cache import DEFAULT_SLOTS, key_into
from tavlakit.evaluation.cubeful import CubeState, mwc2eq
from tavlakit.evaluation.keys import boards_of_keys
from tavlakit.evaluation.lookahead import DICE, Lookahead, kept
from tavlakit.evaluation.met import default_met
from tavlakit.evaluation.moves import plays
from tavlakit.evaluation.net import use_net
from tavlakit.replay.walker import replay

#: A real 7-point match from FIBS (one game of about 55 rolls, two doubles), analysed by gnubg in the test.
MATCH = "bglib/asasan-nori-2009Jan172209.txt"


@pytest.fixture
def gnubg_weights(gnubg_wd: Path) -> Iterator[None]:
    """gnubg's own weights for the test, gnubg-nn's after it."""
    use_net(gnubg_wd)
    yield
    use_net(None)


def test_plays_are_gnubg_nns() -> None:
    """Every roll of the boards of random games to the end: the same plays
    as gnubg-nn lists (gnubg's rules: the bar first, as many dice and pips
    as can be played, bearing off), each once, each of gnubg-nn's class."""
    boards = np.array(played_boards(31, 12), dtype=np.int8)
    rolls = np.repeat(DICE, len(boards), axis=0)
    every = np.tile(boards, (21, 1, 1))
    moved, kinds, counts = plays(every, rolls)
    at = 0
    for board, (high, low), count in zip(every.tolist(), rolls.tolist(), counts.tolist()):
        keys = gnubg_nn.moves(board, high, low)
        theirs = boards_of_keys(list(keys)) if keys else np.zeros((0, 2, 25), dtype=np.int8)
        ours = moved[at : at + count]
        at += count
        assert sorted(map(bytes, ours)) == sorted(map(bytes, theirs))
        assert kinds[at - count : at].tolist() == [gnubg_nn.classify(b) for b in ours.tolist()]
    assert len(every) > 5000 and counts.max() > 100 and (counts == 0).any()
    assert (np.bincount(kinds, minlength=6) > 50).all()  # every class met, the two-sided bear-off too


def test_how_many_plays_gnubg_keeps_when_it_prunes() -> None:
    """Five and the whole part of the binary logarithm of the number of plays."""
    assert [kept(n) for n in (11, 15, 16, 31, 32, 100, 1000)] == [8, 8, 9, 9, 10, 11, 14]


def cube_decisions(boards: np.ndarray, state: CubeState, plies: int) -> np.ndarray:
    """Our no double and double/take equities (EMG) of ``boards`` at ``plies`` plies."""
    doubled = state.doubled() if state.available() else None
    values = Lookahead().values(boards, [[state, doubled]] * len(boards), [state] * len(boards), top=True, plies=plies)
    if not state.length:
        return values * [1.0, 2.0]
    return np.vectorize(lambda v: mwc2eq(v, state))(values)


def test_pruning_plays_as_gnubg(gnubg_exact: Path, tmp_path: Path, gnubg_weights: None) -> None:
    """Positions of random play where gnubg's pruning nets change its
    1-ply cubeful equity (pruned against not pruned): ours is gnubg's
    pruned one, not the other."""
    ids = list(fixed("pruning"))
    jobs = [[pid, [1, -1, 0, 0, [0, 0], 0], 1, prune, 1] for pid in ids for prune in (0, 1)]
    answers = ask_gnubg_eval(gnubg_exact, jobs, tmp_path)
    unpruned = np.array([a["cube"][1] for a in answers[0::2]])
    pruned = np.array([a["cube"][1] for a in answers[1::2]])
    changed = np.abs(pruned - unpruned) > 1e-3
    boards = np.array([gnubg_nn.board_from_position_id(pid) for pid in ids], dtype=np.int8)[changed]
    ours = cube_decisions(boards, CubeState(), 1)[:, 0]
    assert changed.sum() >= 20
    assert np.abs(ours - pruned[changed]).max() < 1e-5
    assert (np.abs(ours - pruned[changed]) < np.abs(ours - unpruned[changed])).all()


#: Cube states: (cube, owner, mover, length, score, crawford); owner -1 centred.
STATES = [(1, -1, 0, 0, (0, 0), 0), (2, 1, 0, 0, (0, 0), 0), (1, -1, 1, 7, (2, 4), 0), (2, 0, 0, 9, (3, 5), 0)]


@pytest.mark.parametrize("spec", STATES)
def test_two_ply_cube_decisions_are_gnubgs(spec: tuple, gnubg_exact: Path, tmp_path: Path, gnubg_weights: None) -> None:
    """Contact positions of random play, money and match play: gnubg's
    2-ply no double and double/take equities (its pruning nets on)."""
    cube, owner, mover, length, score, crawford = spec
    state = CubeState(
        value=cube,
        owner=None if owner < 0 else owner,
        mover=mover,
        length=length,
        score=score,
        crawford=bool(crawford),
        met=default_met(),
    )
    ids = list(fixed("two-ply"))
    answers = ask_gnubg_eval(
        gnubg_exact, [[pid, [cube, owner, mover, length, list(score), crawford], 2, 1, 1] for pid in ids], tmp_path
    )
    boards = np.array([gnubg_nn.board_from_position_id(pid) for pid in ids], dtype=np.int8)
    ours = cube_decisions(boards, state, 2)
    theirs = np.array([a["cube"][1:3] for a in answers])
    columns = 2 if state.available() else 1
    error = np.abs(ours[:, :columns] - theirs[:, :columns])
    assert len(ids) >= 20 and error.max() < 1e-4


def test_default_analysis_of_a_real_match_is_gnubgs(
    corpus_dir: Path, gnubg_bin: Path, tmp_path: Path, gnubg_weights: None
) -> None:
    """gnubg's default ``analyse match`` of a real match, turn by turn: the
    2-ply error of each play (its best and played plays' equities) and the
    2-ply no double and double/take of each cube decision; the luck (0 ply)."""
    record = corpus_dir / MATCH
    reference = analyse_in_gnubg(gnubg_bin, record, tmp_path)
    match = tk.read_match(record)
    judge = Judge(tk.Rules.preset("backgammon"), level="world-class")
    plays_off, cubes_off, luck_off = [], [], []
    for rg, game in zip(replay(match, judge.rules), reference["games"], strict=True):
        ours = list(judge.game(match, rg))
        rolls = [j.roll for j in ours if j.roll is not None]
        theirs = [a for a in game if a["action"] == "move" and a.get("dice")]
        assert len(rolls) == len(theirs)
        for roll, gnubg in zip(rolls, theirs):
            luck_off.append(abs(roll.luck_emg - gnubg["luck"]))
            if "best" in gnubg and roll.moved and roll.error_emg is not None:
                plays_off.append(abs(roll.error_emg - (gnubg["best"] - gnubg["played"])))
        decisions = [j.cube for j in ours if j.kind in ("no double", "double") and j.cube is not None]
        asked = [a for a in game if "nd" in a]
        assert len(decisions) == len(asked)
        for decision, gnubg in zip(decisions, asked):
            cubes_off.append(
                max(abs(decision.no_double_mwc - gnubg["nd"]), abs(decision.double_take_mwc - gnubg["dt"]))
            )
    assert len(plays_off) > 25 and len(cubes_off) > 15
    assert (np.array(plays_off) < 1e-3).mean() >= 0.97 and max(plays_off) < 0.01
    assert max(cubes_off) < 1e-3
    assert max(luck_off) < 1e-3


def test_threads_give_the_same_values() -> None:
    """Expanding a level's nodes on two threads gives the very values of one."""
    boards = np.array(list(random_play(43, 40).values()), dtype=np.int8)[:30]
    state = CubeState()
    found = [
        Lookahead(threads).values(
            boards, [[state, state.doubled()]] * len(boards), [state] * len(boards), top=True, plies=2
        )
        for threads in (1, 2)
    ]
    assert np.array_equal(found[0], found[1])


def test_the_cache_changes_no_value() -> None:
    """The values of 2-ply cube decisions are the very values without the
    evaluation cache, with a cache too small to keep much, and with the
    default one (which finds some); a board's key is its own."""
    boards = np.array(list(random_play(47, 40).values()), dtype=np.int8)[:20]
    state = CubeState()
    looks = [Lookahead(cache=size) for size in (0, 64, DEFAULT_SLOTS)]
    cubes = [[state, state.doubled()]] * len(boards)
    found = [look.values(boards, cubes, [state] * len(boards), top=True, plies=2) for look in looks]
    assert np.array_equal(found[0], found[1]) and np.array_equal(found[0], found[2])
    assert looks[0].hit_rates() == (0.0, 0.0)
    prune, full = looks[2].hit_rates()
    assert prune == 0.0 and 0.05 < full < 1  # (the pruning nets' values are not kept)
    keys = np.zeros((3, 4), dtype=np.uint64)
    moved = boards[0].copy()
    point = int(np.flatnonzero(moved[1, 1:])[0]) + 1  # a chequer of the side on roll moved one pip
    moved[1, point] -= 1
    moved[1, point - 1] += 1
    key_into(boards[0], True, keys[0])
    key_into(boards[0], False, keys[1])
    key_into(moved, True, keys[2])
    assert len({tuple(k) for k in keys.tolist()}) == 3
