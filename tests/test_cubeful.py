"""Cubeful 0-ply equities and cube decisions against gnubg 1.07's own."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from gnubg_cube import ask_gnubg_cube

from tavlakit import Position
from tavlakit.evaluation.cubeful import CubeState, cube_decision_many, cube_inputs, efficiency, eq2mwc, mwc2eq
from tavlakit.evaluation.equity import net_board

DATA = Path(__file__).parent / "data" / "gnubg"

#: cube states: (cube, owner, mover, length, score, crawford); owner -1 centred
STATES = [
    (1, -1, 0, 0, (0, 0), 0),
    (2, 0, 0, 0, (0, 0), 0),
    (4, 1, 0, 0, (0, 0), 0),
    (1, -1, 0, 7, (0, 0), 0),
    (1, -1, 1, 7, (2, 4), 0),
    (2, 0, 0, 7, (3, 1), 0),
    (2, 1, 1, 7, (3, 1), 0),
    (1, -1, 0, 5, (3, 3), 0),
    (1, -1, 0, 5, (4, 2), 1),
    (1, -1, 1, 5, (4, 2), 0),
    (1, -1, 0, 5, (4, 2), 0),
    (4, 1, 1, 11, (2, 5), 0),
    (1, -1, 0, 3, (1, 1), 0),
    (2, 0, 0, 9, (0, 6), 0),
]


def positions(step: int = 23) -> list[str]:
    """Positions gnubg met in its self-play matches (every ``step``-th turn)."""
    out = []
    for path in sorted(DATA.glob("selfplay-*.json")):
        for game in json.loads(path.read_text())["games"]:
            out += [a["board"] for a in game["game"] if a["action"] == "move"][::step]
    return out


def state_of(spec: tuple) -> CubeState:
    cube, owner, mover, length, score, crawford = spec
    return CubeState(
        value=cube, owner=None if owner < 0 else owner, mover=mover, length=length, score=score, crawford=bool(crawford)
    )


@pytest.fixture(scope="module")
def answers(gnubg_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, tuple, dict]]:
    jobs = [(pid, list(spec)) for pid in positions() for spec in STATES]
    found = ask_gnubg_cube(
        gnubg_bin, [[pid, [*spec[:4], list(spec[4]), spec[5]]] for pid, spec in jobs], tmp_path_factory.mktemp("cube")
    )
    return [(pid, spec, answer) for (pid, spec), answer in zip(jobs, found)]


def test_cube_decisions_equal_gnubgs(answers: list[tuple[str, tuple, dict]]) -> None:
    """gnubg's own probabilities through our Janowski model give gnubg's
    no double / double-take / double-pass equities and its optimal action;
    so do the two-sided bear-off database's cubeful equities where gnubg
    takes the cube's worth from them."""
    assert len(answers) > 300
    actions = exact = 0
    for pid, spec, answer in answers:
        state = state_of(spec)
        pos = Position.from_position_id(pid)
        inputs = cube_inputs([net_board(pos)])
        mine = cube_decision_many(np.array([answer["probs"]]), state, inputs)[0]
        exact += answer["class"] == 4 and mine.available
        optimal, nd, dt, dp = answer["cube"][:4]
        if not mine.available:  # gnubg still reports numbers for a cube the mover cannot turn
            assert mine.no_double == pytest.approx(nd, abs=2e-5), (pid, spec)
            continue
        for ours, theirs in (
            (mine.no_double, nd),
            (mine.double_take, dt),
            (mine.double_pass, dp),
            (mine.optimal, optimal),
        ):
            assert ours == pytest.approx(theirs, abs=2e-4), (pid, spec, mine, answer["cube"])
        actions += 1
    assert actions > 200 and exact > 10


def test_efficiency_follows_gnubgs_classes(answers: list[tuple[str, tuple, dict]]) -> None:
    # gnubg 1.07's classes: 0 over, 4-7 bear-off databases, 8 race, 9 crashed, 10 contact
    for pid, _, answer in answers[:: len(STATES)]:
        x = efficiency(Position.from_position_id(pid))
        kind = answer["class"]
        if kind in (9, 10):
            assert x == 0.68, pid
        elif kind in (4, 5, 6, 7):
            assert x == 0.6, pid
        elif kind == 8:
            assert 0.6 <= x <= 0.7, pid


def test_emg_and_mwc_are_one_scale() -> None:
    state = CubeState(length=7, score=(2, 4), mover=1)
    for value in (-1.0, -0.3, 0.0, 0.4, 1.0):
        assert mwc2eq(eq2mwc(value, state), state) == pytest.approx(value)
    win, lose = state.win_lose()
    assert eq2mwc(1.0, state) == pytest.approx(win) and eq2mwc(-1.0, state) == pytest.approx(lose)


def test_one_ply_cube_decisions_near_gnubgs(gnubg_bin: Path, tmp_path: Path) -> None:
    """At 1 ply the nets' differences add up over 21 rolls: gnubg-nn's
    probabilities, gnubg 1.07's own 1-ply cube evaluation."""
    import numpy as np

    from tavlakit import Rules
    from tavlakit.evaluation.search import Search

    jobs = [(pid, spec) for pid in positions(46) for spec in STATES[::2]]
    found = ask_gnubg_cube(
        gnubg_bin, [[pid, [*spec[:4], list(spec[4]), spec[5]]] for pid, spec in jobs], tmp_path, plies=1
    )
    search = Search(Rules.preset("backgammon"), level=1)
    diffs = []
    for (pid, spec), answer in zip(jobs, found):
        if answer["class"] in (4, 5):
            continue
        state = state_of(spec)
        mine = search.cube(Position.from_position_id(pid), CubeState(**{**state.__dict__, "met": search.met}))
        optimal, nd, dt, _dp = answer["cube"][:4]
        diffs.append(abs(mine.no_double - nd))
        if mine.available:
            diffs += [abs(mine.double_take - dt), abs(mine.optimal - optimal)]
    diffs_array = np.array(diffs)
    assert len(diffs_array) > 100
    assert np.median(diffs_array) < 0.005 and (diffs_array < 0.02).mean() >= 0.95 and diffs_array.max() < 0.1


def test_two_ply_cube_decisions_near_gnubgs_and_nearer_than_one_ply(gnubg_bin: Path, tmp_path: Path) -> None:
    """gnubg 1.07's 2-ply cube evaluation (no pruning net) against ours at 2
    ply, and against ours at 1 ply: looking deeper must bring them closer."""
    import numpy as np

    from tavlakit import Rules
    from tavlakit.evaluation.search import Search

    jobs = [(pid, spec) for pid in positions(46) for spec in STATES[::4]]
    found = ask_gnubg_cube(
        gnubg_bin, [[pid, [*spec[:4], list(spec[4]), spec[5]]] for pid, spec in jobs], tmp_path, plies=2
    )
    searches = {plies: Search(Rules.preset("backgammon"), level=plies) for plies in (1, 2)}
    diffs: dict[int, list[float]] = {1: [], 2: []}
    for (pid, spec), answer in zip(jobs, found):
        if answer["class"] in (4, 5):
            continue
        _optimal, nd, dt, _dp = answer["cube"][:4]
        for plies, search in searches.items():
            state = CubeState(**{**state_of(spec).__dict__, "met": search.met})
            mine = search.cube(Position.from_position_id(pid), state)
            diffs[plies].append(abs(mine.no_double - nd))
            if mine.available:
                diffs[plies].append(abs(mine.double_take - dt))
    two, one = np.array(diffs[2]), np.array(diffs[1])
    assert len(two) > 100
    assert np.median(two) < 0.002 and (two < 0.01).mean() >= 0.95 and two.max() < 0.05
    assert np.median(two) < np.median(one) / 3


def test_cubeless_is_cubeful_with_a_dead_cube() -> None:
    import numpy as np

    from tavlakit.evaluation.cubeful import cubeful_many, cubeless_many
    from tavlakit.evaluation.met import default_met

    rng = np.random.default_rng(7)
    win = rng.uniform(0.02, 0.98, 200)
    gammon_w, gammon_l = win * rng.uniform(0, 0.4, 200), (1 - win) * rng.uniform(0, 0.4, 200)
    p = np.column_stack([win, gammon_w, gammon_w * 0.1, gammon_l, gammon_l * 0.1])
    for spec in STATES:
        state = CubeState(**{**state_of(spec).__dict__, "met": default_met()})
        assert np.allclose(cubeless_many(p, state), cubeful_many(p, state, np.zeros(len(p))), atol=1e-12)
