"""Rollouts: against gnubg 1.07's own, the same numbers however the trials are split
(processes, a Dask cluster, a killed run resumed), Tavla's mars by the rules, bad input."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gnubg_rollout import ask_gnubg_rollout
from typer.testing import CliRunner

from tavlakit import Position, Rules
from tavlakit.analysis.mistakes import Mistakes, RolledOut
from tavlakit.analysis.rollouts import Job, cube_state, rollout, run
from tavlakit.cli import app
from tavlakit.engine.matchid import MatchState, gnubg_id, parse_id
from tavlakit.engine.numbering import Numbering
from tavlakit.evaluation.cubeful import mwc2eq
from tavlakit.evaluation.equity import net_board
from tavlakit.evaluation.net import use_net
from tavlakit.evaluation.rollout import Alternative, Settings, permutations, throws
from tavlakit.evaluation.search import Search, passed

REPO = Path(__file__).resolve().parents[1]
OPENING = "4HPwATDgc/ABMA"
#: Positions of gnubg's self-play (tests/data/gnubg): contact, a race; with a match score.
CONTACT = "sGfwIwCwa+QDIA"
RACE = "tgEAgGHzxIEAAA"
FIBS = REPO / "samples" / "fibs-bluenote-nori.txt"  # a 7-point match with cube mistakes


def job_of(gnubg: str, settings: Settings) -> tuple[Job, MatchState]:
    """A rollout of a position as gnubg 1.07's ``rollout`` command does it:
    no cube decision before the first roll (measured: with one, a position
    gnubg's 0-ply cube decision passes came out at +1.000 for us, +0.897
    for gnubg; without, +0.899)."""
    pos, state = parse_id(gnubg)
    assert state is not None
    other, mover = net_board(pos)
    alternative = Alternative((tuple(other), tuple(mover)), cube_state(state, Rules.preset("backgammon")), top=False)
    return Job((alternative,), settings, backgammon=True, outside_home=False, net=None), state


@pytest.fixture
def gnubg_net(gnubg_wd: Path) -> Iterator[str]:
    """gnubg's weights for one test (the next ones, in whatever order, evaluate with gnubg-nn's own)."""
    use_net(gnubg_wd)
    yield str(gnubg_wd.resolve())
    use_net(None)


def test_rollouts_agree_with_gnubgs_own(gnubg_bin: Path, gnubg_net: str, tmp_path: Path) -> None:
    """gnubg 1.07's rollout of the same positions with the same settings
    (0-ply cubeful play, 288 trials truncated at 4 plies, variance
    reduction, quasi-random dice): every output within 3 combined standard
    errors (the dice differ: gnubg draws its permutations with ISAAC)."""
    ids = [
        gnubg_id(Position.from_position_id(OPENING), MatchState(jacoby=True)),
        gnubg_id(Position.from_position_id(CONTACT), MatchState(length=7, score=(2, 4))),
        gnubg_id(Position.from_position_id(RACE), MatchState(cube=2, cube_owner=0)),
    ]
    agree_with_gnubg(gnubg_bin, gnubg_net, tmp_path, ids, Settings(trials=288, truncate=4, seed=11))


def test_one_ply_rollouts_agree_with_gnubgs_own(gnubg_bin: Path, gnubg_net: str, tmp_path: Path) -> None:
    """The same at 1 ply (gnubg's chequer play and cube decisions at 1 ply,
    its pruning nets and the same move filter), 144 trials truncated at 3
    plies: a money opening and a contact position at 2-4 to 7."""
    ids = [
        gnubg_id(Position.from_position_id(OPENING), MatchState(jacoby=True)),
        gnubg_id(Position.from_position_id(CONTACT), MatchState(length=7, score=(2, 4))),
    ]
    agree_with_gnubg(gnubg_bin, gnubg_net, tmp_path, ids, Settings(trials=144, truncate=3, seed=11, plies=1))


def test_a_deeper_trial_plays_the_search_s_best() -> None:
    """Truncated after the first play, without variance reduction, a trial
    at 1 ply (2 plies) is worth the 0-ply equity of the play the 1-ply
    (world-class) search ranks first for its roll (gnubg's hint at those
    levels: tests/test_levels.py), a trial at 0 ply that of the 0-ply best;
    each level's choice differs from the one a ply less deep for some rolls."""
    from tavlakit.evaluation.levels import ONE_PLY, WORLD_CLASS
    from tavlakit.evaluation.rollout import DICE, roll_index

    rules = Rules.preset("backgammon")
    pos, state = Position.from_position_id(CONTACT), MatchState(jacoby=True)
    cube = cube_state(state, rules)
    shallow = Search(rules)
    searches = {0: shallow, 1: Search(rules, level=ONE_PLY), 2: Search(rules, level=WORLD_CLASS)}
    differ = {1: 0, 2: 0}
    for plies, deep in searches.items():
        settings = Settings(trials=36, truncate=1, seed=4, variance_reduction=False, plies=plies)
        job, _state = job_of(gnubg_id(pos, state), settings)
        found = run(job, journal=False)[:, 0, 6]
        rolls = roll_index(throws(permutations(4), 4, np.arange(36), 0))
        for trial, roll in enumerate(rolls.tolist()):
            dice = (int(DICE[roll, 0]), int(DICE[roll, 1]))
            scores = shallow.scores(pos, dice, cube)
            best = deep.candidates(pos, dice, cube)[0][1]
            assert found[trial] == pytest.approx(scores.value_of(best), abs=1e-6), (plies, dice)
            if plies:
                differ[plies] += best != searches[plies - 1].candidates(pos, dice, cube)[0][1]
    assert min(differ.values()) > 0, differ


def agree_with_gnubg(gnubg_bin: Path, net: str, tmp_path: Path, ids: list[str], settings: Settings) -> None:
    """Each output of our rollout of each position (gnubg ID) within 3
    combined standard errors of gnubg's rollout with the same settings."""
    theirs = ask_gnubg_rollout(gnubg_bin, [[i, True] for i in ids], tmp_path, settings.trials, settings.truncate, 7,
                               plies=settings.plies)  # fmt: skip
    for gnubg, answer in zip(ids, theirs):
        job, state = job_of(gnubg, settings)
        job = Job(job.alternatives, settings, backgammon=True, outside_home=False, net=net)
        found = run(job, journal=False)[:, 0, :]
        mean, se = found.mean(axis=0), found.std(axis=0, ddof=1) / np.sqrt(len(found))
        cube = job.alternatives[0].state
        if state.length:  # gnubg shows EMG
            win, lose = cube.win_lose()
            mean[6], se[6] = mwc2eq(float(mean[6]), cube), se[6] * 2 / (win - lose)
        g_mean, g_se = answer["mean"], answer["se"]
        pairs = [(0, 0), (1, 1), (2, 2), (3, 4), (4, 5), (5, 6), (6, 7)]
        for mine, at in pairs:
            sigma = float(np.hypot(se[mine], g_se[at])) + 1e-4  # gnubg prints four decimals
            assert abs(mean[mine] - g_mean[at]) <= 3 * sigma, (gnubg, mine, mean[mine], g_mean[at], sigma)


def test_the_chosen_play_is_gnubgs_wherever_the_gap_is_clear(gnubg_bin: Path, gnubg_net: str, tmp_path: Path) -> None:
    """The three best 0-ply plays of openings (31: one clearly best; 64:
    two within a hair) and of middle-game rolls, rolled out by us and, each
    play's position with the opponent on roll, by gnubg 1.07's own rollout
    (the same settings, its own chequer play): wherever our best leads
    another play by more than three combined standard errors, gnubg's
    rollout ranks our best above it."""
    rules = Rules.preset("backgammon")
    settings: dict[str, Any] = {"trials": 324, "truncate": 4, "seed": 7, "journal": False}
    cases = [(OPENING, (3, 1)), (OPENING, (6, 4)), (CONTACT, (4, 2)), (CONTACT, (6, 3))]
    ours, jobs = [], []
    for position_id, dice in cases:
        pos, state = Position.from_position_id(position_id), MatchState(jacoby=True, dice=dice)
        keys = [key for _v, key, _p in Search(rules).candidates(pos, dice, cube_state(state, rules))[:3]]
        ours.append(rollout(pos, state, dice=dice, keys=keys, **settings))
        jobs += [[gnubg_id(passed(key), MatchState(jacoby=True)), True] for key in keys]
    theirs = ask_gnubg_rollout(gnubg_bin, jobs, tmp_path, settings["trials"], settings["truncate"], 7)
    clear = 0
    for number, frame in enumerate(ours):
        gnubg = [-answer["mean"][7] for answer in theirs[3 * number : 3 * number + 3]]  # the opponent's, turned
        equity, se = frame["equity"].to_numpy(), frame["equity_se"].to_numpy()
        best = int(np.argmax(equity))
        for other in range(3):
            if other != best and equity[best] - equity[other] > 3 * np.hypot(se[best], se[other]):
                clear += 1
                assert gnubg[best] > gnubg[other], (cases[number], list(frame["alternative"]), equity, gnubg)
    assert clear >= 5  # (the openings' 31 and the middle game: clear; the 64: not all)


def test_the_first_rolls_are_stratified() -> None:
    """Every 36 trials see each of the 36 first throws once; every 1296
    each pair of first and second throws once (gnubg's quasi-random dice)."""
    perm = permutations(5)
    trials = np.arange(1296)
    first, second = throws(perm, 5, trials, 0), throws(perm, 5, trials, 1)
    assert sorted(first[:36].tolist()) == list(range(36))
    assert len(set(zip(first.tolist(), second.tolist()))) == 1296


@pytest.mark.parametrize("plies", [0, 1])
def test_the_same_numbers_whatever_the_split(plies: int) -> None:
    """A seed gives the same trials in one process, in batches of any size
    and on two processes, at 0 ply and at 1."""
    job, _state = job_of(OPENING + ":cAkAAAAAAAAA", Settings(trials=80, truncate=3, seed=3, plies=plies))
    whole = run(job, jobs=1, journal=False)
    assert np.array_equal(whole, run(job, jobs=2, journal=False))
    from tavlakit.analysis.rollouts import play_trials

    parts = np.concatenate([play_trials(job, 0, 7), play_trials(job, 7, 50), play_trials(job, 57, 23)])
    assert np.array_equal(whole, parts)


@pytest.mark.parametrize("workers", [1, 2, 8])
def test_the_batches_cover_every_trial_not_done_once(workers: int) -> None:
    """Batches of 36 to 144 trials, the large first: every trial not done
    in one, none done in any (a journal of other batch sizes: runs cut
    anywhere); the last ones small enough for the workers to end together."""
    from tavlakit.analysis.rollouts import batches

    done = np.zeros(1296, dtype=np.bool_)
    done[40:100] = done[500:501] = done[1290:] = True
    found = batches(done, workers)
    covered = np.zeros(len(done), dtype=np.int64)
    for first, count in found:
        covered[first : first + count] += 1
    assert np.array_equal(covered, (~done).astype(np.int64))
    sizes = [count for _first, count in found]
    assert max(sizes) <= 144 and all(count >= 36 or first + count in (40, 500, 1290) for first, count in found)
    assert max(sizes[-2 * workers :]) <= 36 < max(sizes)


def test_a_dask_cluster_gives_the_same_numbers(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    job, _state = job_of(OPENING + ":cAkAAAAAAAAA", Settings(trials=72, truncate=2, seed=9))
    here = run(job, jobs=1, journal=False)
    options = {"n_workers": 2, "threads_per_worker": 1, "processes": False, "dashboard_address": None}
    with distributed.LocalCluster(**options) as cluster:
        there = run(job, scheduler=cluster.scheduler_address, journal=tmp_path)
    assert np.array_equal(here, there)


def test_a_killed_rollout_resumed_gives_the_same_result(tmp_path: Path) -> None:
    """SIGKILL half-way; run again: the journal's batches are kept, the
    rest played, the numbers those of a run never stopped."""
    command = [sys.executable, "-m", "tavlakit", "rollout", OPENING, "--trials", "360", "--truncate", "6", "--json",
               "-j", "1"]  # fmt: skip
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(REPO))
    started = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = tmp_path / "cache" / "tavlakit" / "rollouts"
    deadline = time.time() + 120
    while time.time() < deadline and len(list(journal.glob("*/*.npy"))) < 2:
        time.sleep(0.05)
    started.send_signal(signal.SIGKILL)
    started.wait()
    kept = len(list(journal.glob("*/*.npy")))
    assert 2 <= kept < 10  # killed half-way
    resumed = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    whole = rollout(OPENING, trials=360, truncate=6, journal=False)
    assert json.loads(resumed.stdout)["alternatives"][0]["equity"] == pytest.approx(whole["equity"][0], abs=1e-12)


def test_tavla_mars_is_scored_by_the_rules() -> None:
    """The side on roll bears off its last chequer at once, the opponent
    has all fifteen at home, none borne off: a mars under the 'none borne
    off' definition, a plain win under 'outside home'."""
    pos = Position.from_points([1] + [0] * 24, [3, 3, 3, 2, 2, 2] + [0] * 19)
    for preset, mars in (("tavla", 1.0), ("tavla-outside-home", 0.0)):
        frame = rollout(pos, rules=Rules.preset(preset), trials=36, journal=False)
        assert list(frame["alternative"]) == ["position"]
        assert frame["win"][0] == pytest.approx(1.0) and frame["win_gammon"][0] == pytest.approx(mars)
        assert frame["equity"][0] == pytest.approx(1.0 + mars)


def test_a_turn_of_a_record_is_the_turn_the_plays_frame_shows() -> None:
    """Roll n of a record file: the board before it and its dice, as the
    analysis's plays frame of the same file has them (every game's rolls in order)."""
    import tavlakit as tk
    from tavlakit.analysis.rollouts import record_turn

    sample = REPO / "samples" / "charlot1-charlot2_7p_2025-11-08-2305.mat"
    plays = tk.analysis.analyse(sample, luck=False).plays
    rolls = plays[plays["kind"] == "roll"].reset_index(drop=True)
    for number in (1, 2, 17, len(rolls)):
        pos, state, rules = record_turn(sample, number)
        row = rolls.iloc[number - 1]
        assert pos.position_id() == row["position_id"]
        assert f"{max(state.dice)}{min(state.dice)}" == row["dice"] and state.length == 7
        assert rules.cube
    with pytest.raises(ValueError, match="no roll"):
        record_turn(sample, len(rolls) + 1)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nonsense"], "Position ID"),
        (["--trials", "0", OPENING], "--trials"),
        (["--trials", str(10**12), OPENING], "--trials"),
        (["--truncate", "-1", OPENING], "--truncate"),
        (["--turn", "9999", str(REPO / "samples" / "tavla-t000.mat")], "no roll 9999"),
        ([str(REPO / "samples" / "missing.mat")], "not a file"),
        (["--level", "grandmaster", OPENING], "world class"),
        (["--scheduler", "tcp://127.0.0.1:9", "--trials", "36", OPENING], "scheduler"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tavlakit.analysis.rollouts.CONNECT_TIMEOUT", 1)
    result = CliRunner().invoke(app, ["rollout", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def nori() -> Mistakes:
    """nori's worst mistakes in a 7-point match: chequer plays and cube decisions, judged at expert."""
    import tavlakit as tk

    return tk.analysis.analyse(FIBS, luck=False, statistics=True, level="expert").mistakes("nori", top=12)


def test_mistakes_verified_by_rollouts(nori: Mistakes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify``: a chequer mistake's best play and the one made, a cube
    mistake's three answers, each judged equity beside its rollout; a
    rollout of expert play lands near the 0-ply judgement (a sign or a
    side turned round would put it far away); the command rolls out
    before it writes the page, which shows them, and prints them."""
    from tavlakit.analysis.rollouts import verify

    kinds = set()
    for mistake in nori:
        if mistake.kind in kinds:
            continue
        kinds.add(mistake.kind)
        rows = verify(mistake, trials=72, truncate=2, journal=False)
        assert list(rows["alternative"]) == [c.text for c in mistake.candidates if mistake.kind != "roll" or c.played
                                              or c is mistake.candidates[0]]  # fmt: skip
        assert list(rows["judged"]) == [
            c.equity for c in mistake.candidates if mistake.kind != "roll" or c.played or c is mistake.candidates[0]
        ]
        assert (abs(rows["equity"] - rows["judged"]) < 0.2).all(), rows
    assert "roll" in kinds and len(kinds) > 1
    page = tmp_path / "m.html"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    args = ["mistakes", str(FIBS), "--player", "nori", "--top", "2", "--level", "expert", "-o", str(page)]
    result = CliRunner().invoke(app, [*args, "--verify", "1", "--trials", "36", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "rolled out" in result.output and "* the decision made" in result.output
    cards = page.read_text(encoding="utf-8").split("<section class='mistake'")[1:]
    assert len(cards) == 2 and "Rollout: 36 trials, seed 1, played to the end" in cards[0]
    assert "class='num rollout'" not in cards[1]  # only the first rolled out


def _rollout_cells(card: str) -> list[tuple[str, str]]:
    """A card's rollout column: (equity, standard error) of each row, blank where not rolled out."""
    return re.findall(r"<td class='num rollout'>([^<]*)(?:<span class='se'> \u00b1([0-9.]+)</span>)?</td>", card)


def test_the_page_shows_the_rollouts_of_the_verified_mistakes(nori: Mistakes) -> None:
    """The page's rolled-out equities, their standard errors and the
    verdict are those of ``tk.analysis.rollout`` of the same position (its
    gnubg ID), plays and seed: a chequer play's best play and the one made,
    a cube decision's three answers; a mistake not verified has no rollout."""
    from tavlakit.analysis.rollouts import verified
    from tavlakit.pictures import anki, study

    play = next(m for m in nori if m.kind == "roll")
    cube = next(m for m in nori if m.kind != "roll")
    options: dict[str, Any] = {"trials": 36, "truncate": 2, "seed": 5, "journal": False}
    checked = verified([play, cube, nori[-1]], 2, **options)
    assert checked[2].rollout is None
    cards = study.page(checked).split("<section class='mistake'")[1:]
    # the play: the best and the one made, by the position each leads to
    made = next(n for n, c in enumerate(play.candidates) if c.played)
    keys = [play.position.play(play.candidates[n].play).flip().position_key() for n in (0, made)]  # type: ignore[arg-type]
    theirs = rollout(play.gnubg_id, keys=keys, **options)
    (best, best_se), (mine, mine_se) = zip(theirs["equity"], theirs["equity_se"])
    shown = [n for n in range(len(play.candidates)) if n < study.SHOWN or n == made]
    expected = {0: (f"{best:+.3f}", f"{best_se:.3f}"), made: (f"{mine:+.3f}", f"{mine_se:.3f}")}
    assert _rollout_cells(cards[0]) == [expected.get(n, ("", "")) for n in shown]
    margin, sigma = best - mine, float(np.hypot(best_se, mine_se))
    verdict = "Reversed by the rollout" if margin <= 2 * sigma else "Confirmed by the rollout"
    assert verdict in cards[0] and f"{abs(margin):.3f} \u00b1 {sigma:.3f}" in cards[0]
    assert "Rollout: 36 trials, seed 5, truncated at 2 plies, play at expert (0 ply), cubeful." in cards[0]
    # the cube decision: no double, double/take, double/pass (the cash, exact)
    theirs = rollout(cube.gnubg_id, **options)
    assert list(theirs["alternative"]) == ["no double", "double, take", "double, pass"]
    assert _rollout_cells(cards[1]) == [
        (f"{e:+.3f}", f"{se:.3f}" if se else "") for e, se in zip(theirs["equity"], theirs["equity_se"])
    ]
    assert "Rollout: 36 trials" in anki.answer(checked[1], Numbering.RELATIVE)
    assert "class='num rollout'" not in cards[2] and "Rollout:" not in cards[2]


def test_a_tavla_mistake_is_rolled_out_by_tavlas_rules() -> None:
    """A Tavla mistake is rolled out with no cube and Tavla's mars (the
    page says cubeless), its numbers those of a rollout under the record's rules."""
    import tavlakit as tk
    from tavlakit.analysis.rollouts import verified
    from tavlakit.pictures import study

    found = tk.analysis.analyse(REPO / "samples" / "tavla-t000.mat", luck=False, statistics=True, level="expert")
    mistake = found.mistakes(top=1)[0]
    assert not mistake.rules.cube and mistake.kind == "roll"
    checked = verified([mistake], trials=36, truncate=2, journal=False)[0]
    assert checked.rollout is not None and not checked.rollout.cubeful
    made = next(n for n, c in enumerate(mistake.candidates) if c.played)
    keys = [mistake.position.play(mistake.candidates[n].play).flip().position_key() for n in (0, made)]  # type: ignore[arg-type]
    theirs = rollout(mistake.position, dice=mistake.dice, keys=keys, rules=mistake.rules, trials=36, truncate=2,
                     journal=False)  # fmt: skip
    assert [checked.rollout.equities[n][0] for n in (0, made)] == pytest.approx(list(theirs["equity"]), abs=1e-12)
    assert "play at expert (0 ply), cubeless." in study.card(checked, 1, Numbering.RELATIVE)


@pytest.mark.parametrize(
    ("kind", "margin", "sigma"),
    [
        ("roll", 0.30 - 0.26, 0.05),  # the best less the one made
        ("no double", 0.62 - 0.55, 0.05),  # double: the take (0.62 < the cash 1.0) against no double
        ("double", 0.55 - 0.62, 0.05),
        ("take", 0.62 - 1.00, 0.04),  # the taker's: the doubler's 0.62 after a take against the cash
        ("pass", 1.00 - 0.62, 0.04),
    ],
)
def test_the_verdict_of_a_rollout(nori: Mistakes, kind: str, margin: float, sigma: float) -> None:
    """Worked by hand: how much the level's best rolled out better than the
    choice made (for the decider), its combined standard error, and the
    verdict reversed when that is within two of them, or less."""
    from tavlakit.analysis.rollouts import _margin

    mistake = replace(next(m for m in nori if (m.kind == "roll") == (kind == "roll")), kind=kind)
    if kind == "roll":
        made = next(n for n, c in enumerate(mistake.candidates) if c.played)
        equities = {0: (0.30, 0.03), made: (0.26, 0.04)}
    else:
        equities = {0: (0.55, 0.03), 1: (0.62, 0.04), 2: (1.0, 0.0)}
    found = _margin(mistake, equities)
    assert found == pytest.approx((margin, sigma))
    assert RolledOut(equities, *found, trials=36, truncate=0, seed=1, level="expert").reversed == (margin <= 2 * sigma)
    assert RolledOut(equities, 0.09, 0.05, trials=36, truncate=0, seed=1, level="expert").reversed
    assert not RolledOut(equities, 0.11, 0.05, trials=36, truncate=0, seed=1, level="expert").reversed
