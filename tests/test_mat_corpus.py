"""Every Jellyfish transcript of the shared corpus reads cleanly and round-trips."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tavlakit.formats.mat import read_mat, write_mat


def corpus_files(corpus: Path) -> dict[str, int | None]:
    """``jf-mat`` files of SOURCES.tsv with their game counts, plus corpus/tavla/*.mat."""
    with open(corpus / "SOURCES.tsv", encoding="utf-8", newline="") as table:
        files: dict[str, int | None] = {
            row["file"]: int(row["games"]) for row in csv.DictReader(table, delimiter="\t") if row["format"] == "jf-mat"
        }
    for path in sorted((corpus / "tavla").glob("*.mat")):
        files.setdefault(str(path.relative_to(corpus)), None)
    return files


@pytest.fixture(scope="module")
def matches(corpus_dir: Path) -> dict[str, tuple]:
    """Every corpus transcript read once: ``{file: (expected games, match)}``."""
    return {
        name: (games, read_mat((corpus_dir / name).read_bytes(), source=name))
        for name, games in corpus_files(corpus_dir).items()
    }


def test_corpus_is_there(matches: dict) -> None:
    assert len(matches) >= 580
    assert sum(len(m.games) for _, m in matches.values()) >= 1900


#: Files that end inside a game (cut short, or goldens of abandoned matches).
CUT_SHORT = {
    "bglib/HooShanG-nori-2009Jan291842.txt",
    "bglib/PghPete-nori-2009Jan242317.txt",
    "bglib/py199-nori-2009Jan171407.txt",
    "BgMatchFormat_Lib/abandoned_money.mat",
    "BgMatchFormat_Lib/abandoned_partial.mat",
    "BgMatchFormat_Lib/forfeit_partial.mat",
}


def test_every_file_reads_without_problems(matches: dict) -> None:
    """No reading problem but one ``truncated`` error for each file that
    ends inside a game, and as many games as SOURCES.tsv counts."""
    problems = [
        (name, p.code)
        for name, (_, m) in matches.items()
        for p in m.problems + [q for g in m.games for q in g.problems]
    ]
    assert sorted(problems) == sorted((name, "truncated") for name in CUT_SHORT)
    wrong = {
        name: (games, len(m.games))
        for name, (games, m) in matches.items()
        if games is not None and games != len(m.games)
    }
    assert wrong == {}


def test_every_game_has_turns_and_players(matches: dict) -> None:
    for name, (_, match) in matches.items():
        assert len(match.players) == 2, name
        for game in match.games:
            assert game.turns, (name, game.number)
            assert all(t.player in (0, 1) for t in game.turns), (name, game.number)


@pytest.mark.parametrize("numbering", ["relative", "absolute"])
def test_round_trip(matches: dict, numbering: str) -> None:
    """load(write(load(f))) == load(f) for every file, with nothing lost on
    write; absolute numbering (player 1 written 25 - p) on the Tavla files
    and one file of each other writer family."""
    bad = []
    for name, (_, match) in matches.items():
        if numbering == "absolute" and not name.startswith(("tavla/", "gnubgparser/", "matfile_go/", "bglib/1")):
            continue
        out = io.StringIO()
        assert write_mat(match, out, numbering=numbering) == [], name
        again = read_mat(out.getvalue())
        if again != match or again.problems or any(g.problems for g in again.games) != (name in CUT_SHORT):
            bad.append(name)
    assert bad == []


def test_tavla_matches_agree_with_their_oracle(matches: dict, corpus_dir: Path) -> None:
    """corpus/tavla/tNNN.json (written by the generator of tNNN.mat) gives
    players, winners, written points and scores; the reader agrees."""
    import json

    for path in sorted((corpus_dir / "tavla").glob("*.json")):
        oracle = json.loads(path.read_text(encoding="utf-8"))
        match = matches[str(path.with_suffix(".mat").relative_to(corpus_dir))][1]
        assert match.tags["Variation"] == "Tavla"
        assert list(match.players) == oracle["players"]
        assert len(match.games) == len(oracle["games"])
        for game, expected in zip(match.games, oracle["games"]):
            assert game.number == expected["game"]
            assert list(game.score) == expected["score_before"]
            assert match.players[game.result.winner] == expected["winner"]
            assert game.result.points == expected["points_written"]
