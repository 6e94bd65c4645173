"""Analysis levels: gnubg's presets, world class by default, the level said
in every output, one match on every core, the store, Tavla."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis.statistics import decisions_frame, statistics_frame
from tavlakit.cli import app
from tavlakit.evaluation.levels import (
    DEFAULT_LEVEL,
    EXPERT,
    GRANDMASTER,
    LEVELS,
    ONE_PLY,
    WORLD_CLASS,
    MoveFilter,
    level,
)

REPO = Path(__file__).resolve().parents[1]
STATS = REPO / "tests" / "data" / "stats"
runner = CliRunner()


def opening(path: Path, turns: int = 24) -> tk.Match:
    """A record cut to the first turns of its first game (a world-class analysis takes long)."""
    match = tk.read_match(path)
    match.games = match.games[:1]
    game = match.games[0]
    game.turns, game.result = game.turns[:turns], None
    return match


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 24 turns of a 3-point match gnubg played, as a .mat."""
    path = tmp_path_factory.mktemp("levels") / "short.mat"
    tk.write_match(opening(REPO / "tests" / "data" / "gnubg" / "selfplay-3p-1.mat"), path)
    return path


def test_world_class_is_what_gnubgs_default_analysis_prints(gnubg_bin: Path, tmp_path: Path) -> None:
    """gnubg 1.07's own ``show analysis``, no setting changed: its default
    analysis is the world-class level, setting by setting."""
    from gnubg_jobs import run_gnubg

    script = tmp_path / "show.py"
    script.write_text('import gnubg\ngnubg.command("show analysis")\n', encoding="utf-8")
    shown = run_gnubg(gnubg_bin, script, tmp_path, HOME=str(tmp_path)).stdout
    chequer, cube, luck = re.split(r"\n\s*Cube decisions:|\n\s*Luck analysis:", shown.split("Chequer play:")[1])
    plies = [int(re.search(r"(\d+)-ply evaluation", part).group(1)) for part in (chequer, cube, luck)]  # type: ignore[union-attr]
    assert plies == [WORLD_CLASS.chequer_plies, WORLD_CLASS.cube_plies, WORLD_CLASS.luck_plies]
    pruned = ["Using pruning neural nets" in part for part in (chequer, cube, luck)]
    assert pruned == [WORLD_CLASS.pruning, WORLD_CLASS.pruning, False]
    two = chequer.split("Move filter for 2 ply:")[1].split("Move filter for 3 ply:")[0]
    keep = re.search(r"keep the first (\d+) 0-ply moves and up to (\d+) more moves within equity ([\d.]+)", two)
    assert keep is not None
    assert WORLD_CLASS.filters == (MoveFilter(int(keep[1]), int(keep[2]), float(keep[3])), None)
    assert "Skip pruning for 1-ply moves." in two  # the second filter: None, every play kept
    # grandmaster: gnubg's analysis filter for 3 plies, ply by ply
    three = chequer.split("Move filter for 3 ply:")[1].split("Move filter for 4 ply:")[0]
    kept = re.findall(r"keep the first (\d+) (\d)-ply moves and up to (\d+) more moves within equity ([\d.]+)", three)
    assert [(int(ply), MoveFilter(int(a), int(e), float(t))) for a, ply, e, t in kept] == GRANDMASTER.steps
    assert "Skip pruning for 1-ply moves." in three and GRANDMASTER.filters[1] is None
    # gnubg's names, by the depth --ply gives
    assert [level(n) for n in (0, 1, 2, 3)] == [EXPERT, ONE_PLY, WORLD_CLASS, GRANDMASTER]
    assert DEFAULT_LEVEL is WORLD_CLASS
    assert (EXPERT.chequer_plies, EXPERT.cube_plies, EXPERT.pruning) == (0, 0, False)
    assert (GRANDMASTER.chequer_plies, GRANDMASTER.cube_plies, GRANDMASTER.pruning) == (3, 3, True)
    assert set(LEVELS) == {"expert", "1-ply", "world-class", "grandmaster"}


def test_level_names_and_bad_ones() -> None:
    assert level("World class") is level("world_class") is WORLD_CLASS
    assert level("Grandmaster") is level(3) is level("3") is GRANDMASTER
    with pytest.raises(ValueError, match="choose from expert, 1-ply, world-class, grandmaster"):
        level("supremo")
    with pytest.raises(ValueError, match="only 0-, 1-, 2- and 3-ply"):
        level(4)


def test_world_class_by_default_and_said_in_the_frames(short: Path) -> None:
    match = tk.read_match(short)
    deep = statistics_frame([match])
    fast = statistics_frame([match], level="expert")
    assert deep.attrs["level"] == "world-class" and set(deep["level"]) == {"world-class"}
    assert fast.attrs["level"] == "expert" and set(fast["level"]) == {"expert"}
    # luck is judged at 0 ply at every level, as gnubg judges it; the plays are not
    assert deep["luck_emg"].tolist() == pytest.approx(fast["luck_emg"].tolist(), abs=1e-12)
    assert deep["checker_error_emg"].tolist() != pytest.approx(fast["checker_error_emg"].tolist(), abs=1e-3)
    assert decisions_frame([match], level=1).attrs["level"] == "1-ply"


def test_the_level_on_the_command_line(short: Path) -> None:
    result = runner.invoke(app, ["stats", "--by", "match", str(short)])
    assert result.exit_code == 0, result.output
    assert "Evaluated at world class (2 ply, pruning nets) with gnubg-nn's own weights" in result.output.splitlines()
    one = runner.invoke(app, ["stats", "--by", "match", "--ply", "1", "--json", str(short)])
    assert {json.loads(line)["level"] for line in one.output.splitlines()} == {"1-ply"}
    clash = runner.invoke(app, ["stats", "--by", "match", "--ply", "0", "--level", "world-class", str(short)])
    assert clash.exit_code == 2 and "name different levels" in clash.output
    unknown = runner.invoke(app, ["stats", "--by", "match", "--level", "supremo", str(short)])
    assert unknown.exit_code == 2 and "choose from expert, 1-ply, world-class" in " ".join(unknown.output.split())
    alone = runner.invoke(app, ["show", "--level", "expert", str(short)])
    assert alone.exit_code == 2 and "--level and --ply go with --analyse" in alone.output


def test_the_viewer_says_its_level(short: Path) -> None:
    from tavlakit.pictures import viewer

    page = viewer.html(tk.read_match(short), analyse=True, level="expert")
    assert "judged at expert (0 ply), cubeful equity at the score" in page


def test_one_match_on_every_core_gives_the_same_output() -> None:
    """One file: its games are judged on two processes and put together
    again, the output the same as in one process."""
    record = STATS / "match-9p-94.mat"  # 6 games
    one = runner.invoke(app, ["stats", "--by", "match", "--level", "expert", "--json", "-j", "1", str(record)])
    two = runner.invoke(app, ["stats", "--by", "match", "--level", "expert", "--json", "-j", "2", str(record)])
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output and len(one.output.splitlines()) == 4
    alone = tk.analysis.analyse([record], statistics=True, level="expert", jobs=1)
    split = tk.analysis.analyse([record], statistics=True, level="expert", jobs=2)
    for name in ("plays", "games", "statistics", "decisions"):
        pd.testing.assert_frame_equal(getattr(split, name), getattr(alone, name))
    assert [str(p) for p in split.problems] == [str(p) for p in alone.problems]


def test_the_store_keeps_the_level(tmp_path: Path) -> None:
    from tavlakit.analysis.store import files_frame, open_store, update

    record = STATS / "match-3p-31.mat"
    store = tmp_path / "store"
    update(store, [record], jobs=1, level="expert")
    assert files_frame(store)["level"].tolist() == ["expert"]
    stored = open_store(store)
    direct = statistics_frame([tk.read_match(record)], level="expert")
    assert stored.statistics.attrs["level"] == "expert"
    for column in ("checker_error_emg", "cube_error_emg", "luck_emg", "pr", "unforced_moves"):
        assert stored.statistics[column].tolist() == pytest.approx(direct[column].tolist())
    assert len(stored.decisions) == len(decisions_frame([tk.read_match(record)], level="expert"))
    again = update(store, [record], jobs=1, level=0)  # the same level: nothing to do
    assert again.analysed == []
    deeper = update(store, [record], jobs=1, level=1)  # another level: analysed again
    assert deeper.analysed == [str(record)] and files_frame(store)["level"].tolist() == ["1-ply"]


def test_a_store_judges_at_world_class_unless_asked(short: Path, tmp_path: Path) -> None:
    """A store made without a level (the CLI, the Python API) judges at
    world class, gnubg's default analysis, as every other command."""
    from tavlakit.analysis.store import STORE_LEVEL, files_frame, open_store

    assert STORE_LEVEL is DEFAULT_LEVEL is WORLD_CLASS
    store = tmp_path / "store"
    made = runner.invoke(app, ["analyse", str(short), "--store", str(store), "-j", "1"])
    assert made.exit_code == 0, made.output
    assert files_frame(store)["level"].tolist() == ["world-class"]
    stored = open_store(store)
    assert stored.statistics.attrs["level"] == stored.decisions.attrs["level"] == "world-class"
    direct = statistics_frame([tk.read_match(short)], level="world-class")
    for column in ("checker_error_emg", "cube_error_emg", "luck_emg", "pr"):
        assert stored.statistics[column].tolist() == pytest.approx(direct[column].tolist())


def test_an_expert_store_under_the_new_default(short: Path, tmp_path: Path) -> None:
    """A store made at expert, given some of its files without a level: those
    are judged again at world class, the others keep their rows at expert, and
    the run says the store now mixes two levels; given all, one level again."""
    from tavlakit.analysis.store import files_frame, open_store, update

    other = tmp_path / "other.mat"
    tk.write_match(opening(STATS / "match-3p-31.mat"), other)
    store = tmp_path / "store"
    update(store, [short, other], jobs=1, level="expert")
    before = open_store(store)
    run = runner.invoke(app, ["analyse", str(short), "--store", str(store), "-j", "1"])
    assert run.exit_code == 0, run.output
    assert "1 file(s): 1 analysed, 0 unchanged, 0 dropped" in run.output and "2 file(s)" in run.output
    warning = f"{store}: warning mixed-levels: its files are judged at different levels: expert (1), world-class (1)"
    assert warning in " ".join(run.output.split())
    levels = files_frame(store).set_index("path")["level"]
    assert levels.to_dict() == {str(short): "world-class", str(other): "expert"}
    mixed = open_store(store)
    pd.testing.assert_frame_equal(mixed.plays, before.plays)  # (the plays, their luck and errors: 0 ply at any level)
    assert len(mixed.statistics) == len(before.statistics)
    assert mixed.statistics.attrs["level"] is None and mixed.decisions.attrs["level"] is None
    by_path = mixed.statistics.dropna(subset=["path"]).groupby("path")["level"].agg(set).to_dict()
    assert by_path == {str(short): {"world-class"}, str(other): {"expert"}}
    # the kept file's rows as they were (the level column's type: object where the overall rows have none)
    kept = [f[f["path"] == str(other)].reset_index(drop=True) for f in (mixed.statistics, before.statistics)]
    pd.testing.assert_frame_equal(*kept, check_dtype=False)
    whole = update(store, [short, other], jobs=1)
    assert whole.analysed == [str(other)] and not [p for p in whole.problems if p.code == "mixed-levels"]
    assert open_store(store).statistics.attrs["level"] == "world-class"


def test_tavla_at_every_level() -> None:
    """Tavla has no cube: no cube decision at any level; luck the same at
    every level, the plays judged deeper at world class, at the score of
    Tavla's own match equity table."""
    match = opening(REPO / "samples" / "tavla-t000.mat", 30)
    frames = {name: decisions_frame([match], level=name) for name in ("expert", "world-class")}
    for frame in frames.values():
        assert set(frame["kind"]) == {"roll"}
    fast, deep = frames["expert"], frames["world-class"]
    assert deep["luck_emg"].tolist() == pytest.approx(fast["luck_emg"].tolist(), abs=1e-12)
    assert (deep["error_emg"].fillna(0) - fast["error_emg"].fillna(0)).abs().max() > 0.01
    stats = statistics_frame([match])
    assert set(stats["rules"].dropna()) == {"tavla"} and stats["level"].iloc[0] == "world-class"
    assert stats["cube_decisions"].sum() == 0


def test_the_judge_takes_the_answers_still_coming_as_it_needs_them() -> None:
    """While -j's look-ahead still comes (Deep.coming, analysis/deep.py),
    the search takes the answers in order, only as far as it needs them,
    instead of looking into those positions itself; what none brings it
    finds itself, as a search with nothing coming does."""
    from tavlakit.engine.position import Position
    from tavlakit.engine.rules import Rules
    from tavlakit.evaluation.cubeful import CubeState
    from tavlakit.evaluation.search import Asked, CubeAsked, Found, PlaysAsked, Search

    search = Search(Rules.preset("backgammon"), level="world-class")
    start, state = tk.Position.initial(), CubeState()
    cube, plays = CubeAsked(start, state, 2), PlaysAsked(("made-up", "keys"), state, 2)
    taken: list[Asked] = []

    def coming() -> Iterator[tuple[Asked, Found]]:
        answers: list[tuple[Asked, Found]] = [(cube, (0.1, 0.2, 1.0)), (plays, [0.3, 0.4])]
        for pair in answers:
            taken.append(pair[0])
            yield pair

    search.deep.coming = coming()
    assert search.deep_cube(start, state, 2) == (0.1, 0.2, 1.0) and taken == [cube]
    assert search.deep_values(["keys", "made-up"], state, 2) == [0.4, 0.3] and taken == [cube, plays]
    later = Position.from_position_id("YdfggCg0z5gRCA")
    assert search.deep_cube(later, state, 2) == Search(search.rules, level="world-class").deep_cube(later, state, 2)
    assert search.deep.coming is None


def test_one_game_at_world_class_on_two_processes_decision_by_decision(short: Path) -> None:
    """A file of one game at world class: its look-ahead found on two
    processes, in runs of its decisions (:mod:`tavlakit.analysis.deep`),
    the output the same as in one process; the judge asked nothing more."""
    from tavlakit.analysis import deep
    from tavlakit.analysis.statistics import Judging

    alone = tk.analysis.analyse([short], statistics=True, level="world-class", jobs=1)
    split = tk.analysis.analyse([short], statistics=True, level="world-class", jobs=2)
    for name in ("plays", "games", "statistics", "decisions"):
        pd.testing.assert_frame_equal(getattr(split, name), getattr(alone, name))
    judging = Judging(None, WORLD_CLASS)
    with deep.find_deep(short, judging, 2):
        pass
    (judge,) = judging.judges.values()
    found = judge.search.deep
    assert len(found.plays) > 20 and len(found.cubes) > 5
    judge.search.planned = asked = []
    list(judge.judge(tk.read_match(short)))
    assert asked == []
