"""The grandmaster level (3 plies) against gnubg 1.07's own grandmaster.

gnubg runs under qemu (the ``gnubg_exact`` fixture): natively its SSE
sigmoid's approximate reciprocal moves its values by up to about 1e-3 at 0
ply and, through the plays it then chooses, by up to 6e-3 at 2 and 3 plies
(measured on the first 8 boards of ``two-ply.txt``, money, centred cube);
under qemu ours agree to 1.6e-7 (3-ply cube decisions of the first four).
gnubg's 3-ply judgements of these take about 40 s under qemu.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from gnubg_deep import ask_gnubg_deep
from test_levels import REPO, opening

import tavlakit as tk
from tavlakit.engine.position import Position
from tavlakit.engine.rules import Rules
from tavlakit.evaluation.cubeful import CubeState
from tavlakit.evaluation.met import default_met
from tavlakit.evaluation.net import use_net
from tavlakit.evaluation.search import Search

MONEY = [1, -1, 0, 0, [0, 0], 0]
#: 7-point match, the side on roll 2, the other 4 (gnubg's player 0 on roll).
MATCH = [1, -1, 0, 7, [2, 4], 0]
#: (position id, cube (gnubg's cubeinfo), what gnubg recommends: its cube decision's number)
CUBES = [
    ("4HPwATDgc/ABMA", MONEY, "no double, take"),  # contact
    ("YdfggCg0z5gRCA", MONEY, "double, take"),  # contact
    ("fbEFSQAzDXiBQQ", MONEY, "double, pass"),  # contact
    ("bXcPAADb7g4AAA", MONEY, "double, take"),  # race, 57 against 62 pips
    ("YdfggCg0z5gRCA", MATCH, "double, pass"),
    ("bXcPAADb7g4AAA", MATCH, "no double, take"),
]
#: gnubg's cube decisions (its ``cubedecision`` numbers) by our words.
RECOMMENDATIONS = {"double, take": 0, "double, pass": 1, "no double, take": 2}
#: Hints: position, dice (money, centred cube), the plies gnubg judges the first plays at (the rest: 0).
HINTS = [
    ("4HPwATDgc/ABMA", (5, 2), [3, 3, 3, 2, 2, 2, 2, 2]),  # its 0-ply filter keeps all 8, the 2-ply one 3
    ("YdfggCg0z5gRCA", (4, 2), [2, 2, 2, 2, 2]),  # its 2-ply filter keeps 1: no 3-ply look
]


@pytest.fixture
def gnubg_weights(gnubg_wd: Path) -> Iterator[None]:
    """gnubg's own weights for the test, gnubg-nn's after it."""
    use_net(gnubg_wd)
    yield
    use_net(None)


def state_of(cube: list) -> CubeState:
    """The cube state of gnubg's ``cubeinfo`` (Jacoby on, beavers off: what gnubg recommends there)."""
    value, owner, mover, length, score, crawford = cube
    owner = None if owner < 0 else owner
    met = default_met() if length else None
    return CubeState(value, owner, mover, length, tuple(score), crawford=bool(crawford), beavers=False, met=met)


@pytest.fixture(scope="module")
def gnubgs(gnubg_exact: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """gnubg's grandmaster cube decisions of :data:`CUBES`, then its hints of :data:`HINTS`."""
    jobs = [[pid, cube, None] for pid, cube, _action in CUBES] + [[pid, MONEY, list(d)] for pid, d, _p in HINTS]
    return ask_gnubg_deep(gnubg_exact, jobs, tmp_path_factory.mktemp("grandmaster"))


@pytest.mark.parametrize("at", range(len(CUBES)))
def test_three_ply_cube_decisions_are_gnubgs(at: int, gnubgs: list[dict], gnubg_weights: None) -> None:
    """No double and double/take equities at 3 plies (contact and race,
    money and a match score) as gnubg's, and the same action."""
    pid, cube, action = CUBES[at]
    theirs = gnubgs[at]["cube"]
    assert theirs[4] == RECOMMENDATIONS[action]
    search = Search(Rules.preset("backgammon"), level="grandmaster")
    ours = search.cube(Position.from_position_id(pid), state_of(cube))
    assert abs(ours.no_double - theirs[1]) < 1e-5
    assert abs(ours.double_take - theirs[2]) < 1e-5
    assert ours.action == action


@pytest.mark.parametrize("at", range(len(HINTS)))
def test_the_grandmaster_hint_is_gnubgs(at: int, gnubgs: list[dict], gnubg_weights: None) -> None:
    """The plays of a roll as gnubg's grandmaster hint ranks them, each
    equity gnubg's: those its last filter kept first, at the ply it judged
    them at (3 plies, or 2 where a filter left one play: gnubg looks no
    deeper), then the others at the ply they were dropped at."""
    pid, dice, plies = HINTS[at]
    moves = gnubgs[len(CUBES) + at]["moves"]
    ours = Search(Rules.preset("backgammon"), level="grandmaster").candidates(
        Position.from_position_id(pid), dice, CubeState()
    )
    plies = plies + [0] * (len(moves) - len(plies))
    assert [p for _move, _equity, p in moves] == plies
    assert [p for _value, _key, p in ours] == plies
    assert max(abs(value - equity) for (value, _key, _p), (_move, equity, _q) in zip(ours, moves)) < 1e-5


def test_the_played_play_is_judged_as_deep_as_the_best() -> None:
    """gnubg's key move: a played play the filters dropped is judged at the
    ply of the best (among them in the ranking); one more than 0.03 worse
    than a best the filters left alone short of 3 plies has both judged at 3."""
    search = Search(Rules.preset("backgammon"), level="grandmaster")
    pos, dice = Position.from_position_id(HINTS[0][0]), HINTS[0][1]
    hint = search.candidates(pos, dice, CubeState())
    worst = hint[-1][1]
    played = search.candidates(pos, dice, CubeState(), played=worst)
    assert [key for _value, key, plies in played if plies == 3] == [key for _v, key, _p in hint[:3]] + [worst]
    pos, dice = Position.from_position_id(HINTS[1][0]), HINTS[1][1]
    hint = search.candidates(pos, dice, CubeState())
    played = search.candidates(pos, dice, CubeState(), played=hint[-1][1])
    assert [plies for _value, _key, plies in played[:2]] == [3, 3] and played[1][1] == hint[-1][1]
    assert played[0][1] == hint[0][1] and played[0][0] != hint[0][0]


def test_a_game_at_grandmaster_on_two_processes(tmp_path: Path) -> None:
    """The first turns of a game at grandmaster: the same output on two
    processes (the 2-ply step of each play's search and the cube decisions
    found there in a first round, the 3-ply step in a second) as in one."""
    path = tmp_path / "short.mat"
    tk.write_match(opening(REPO / "tests" / "data" / "gnubg" / "selfplay-3p-1.mat", 8), path)
    alone = tk.analysis.analyse([path], statistics=True, level="grandmaster", jobs=1)
    split = tk.analysis.analyse([path], statistics=True, level="grandmaster", jobs=2)
    for name in ("plays", "statistics", "decisions"):
        pd.testing.assert_frame_equal(getattr(split, name), getattr(alone, name))
    assert alone.statistics.attrs["level"] == "grandmaster" and set(alone.statistics["level"]) == {"grandmaster"}
    assert alone.decisions["error_emg"].notna().sum() >= 3


def test_the_rounds_find_all_a_match_asks_for(corpus_dir: Path, tmp_path: Path) -> None:
    """``-j`` finds a match's look-ahead in rounds (analysis/deep.py), one a
    ply of the level's filters: a real game whose turn 15 was played outside
    the 16 plays the 0-ply filter keeps (so the played play is asked for at
    3 plies only in a later round) is planned without failing, and after the
    rounds the judge asks for nothing more."""
    from tavlakit.analysis.deep import find_deep, plan
    from tavlakit.analysis.statistics import Judging
    from tavlakit.evaluation.search import PlaysAsked
    from tavlakit.replay.walker import default_rules

    match = tk.read_match(corpus_dir / "bglib" / "Kalagh-nori-2009Jan231111.txt")
    match.games = match.games[1:2]
    game = match.games[0]
    game.turns, game.result = game.turns[:16], None
    path = tmp_path / "game.mat"
    tk.write_match(match, path)
    judging = Judging(None, "grandmaster")
    judge = judging.judge(default_rules(match))
    first = plan(judge, match)
    assert first and all(asked.plies == 2 for asked in first if isinstance(asked, PlaysAsked))
    with find_deep(path, judging, 1):
        pass
    assert plan(judge, match) == []
