"""The JSON format: lossless round trips (corpus records of every reader,
generated records) and located problems for bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from record_strategies import matches

from tavlakit.formats.jsonfmt import match_to_dict, read_json, write_json
from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import read_sgf
from tavlakit.record.match import Match


def rewrite(match: Match) -> Match:
    out = io.StringIO()
    assert write_json(match, out) == []
    json.loads(out.getvalue())  # valid JSON
    return read_json(out.getvalue())


def everything(match: Match) -> list:
    """Fields equality leaves out but JSON keeps."""
    return [(g.extra, [(t.extra, t.number) for t in g.turns]) for g in match.games]


def test_corpus_round_trip(corpus_dir: Path) -> None:
    records = [read_sgf(p) for p in sorted(corpus_dir.glob("*/*.sgf"))]
    mats = sorted(corpus_dir.glob("*/*.mat")) + sorted((corpus_dir / "BgMatchFormat_Lib").glob("*"))[:20]
    records += [read_mat(p.read_bytes()) for p in mats if p.is_file()]
    assert len(records) > 25
    statuses = set()
    for match in records:
        again = rewrite(match)
        assert again == match and everything(again) == everything(match), match.source
        assert again.problems == []
        statuses |= {t.status for g in match.games for t in g.turns}
    assert {"play", "unknown"} <= statuses


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(matches())
def test_generated_round_trip(match: Match) -> None:
    again = rewrite(match)
    assert again == match and everything(again) == everything(match)


def test_defaults_are_left_out() -> None:
    match = read_sgf("(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B];W[31fehe];B[double];W[take])")
    turns = match_to_dict(match)["games"][0]["turns"]
    assert turns == [
        {"player": 0, "dice": [3, 1], "moves": ["6/5", "8/5"], "number": 1},
        {"player": 1, "kind": "double", "cube": 2, "number": 2},
        {"player": 0, "kind": "take", "number": 3},
    ]


def test_bad_json_is_located() -> None:
    match = read_json('{\n "games": [\n  {"number": 1,, "turns": []}\n ]\n}', source="m.json")
    [problem] = match.problems
    assert (problem.code, problem.file, problem.line, problem.column) == ("syntax", "m.json", 3, 16)
    assert match.games == []


GOOD_TURN = {"player": 0, "dice": [3, 1], "moves": ["8/5", "6/5"]}


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        ({"player": 2, "dice": [3, 1]}, "/games/0/turns/1/player: a player is 0 or 1"),
        ({"player": 0, "dice": [3, 1, 4]}, "/games/0/turns/1/dice: a roll has two dice, not 3"),
        ({"player": 0, "dice": [3, "1"]}, "/games/0/turns/1/dice/1: expected a whole number"),
        ({"player": 0, "dice": [3, 1], "moves": ["13-9"]}, "/games/0/turns/1/moves/0: cannot read move"),
        ({"player": 0, "dice": [3, 1], "moves": ["13/9/8"]}, "one move 'from/to' per entry"),
        ({"player": 0, "kind": "resign"}, "/games/0/turns/1/kind: expected one of roll"),
        ({"player": 0, "dice": [3, 1], "hits": 1}, "unknown field(s) hits"),
        ({"dice": [3, 1]}, "the field 'player' is missing"),
        ({"player": True, "dice": [3, 1]}, "expected a whole number"),
    ],
)
def test_schema_violations_in_turns(turn: dict, words: str) -> None:
    data = {"players": ["A", "B"], "games": [{"number": 1, "turns": [GOOD_TURN, turn]}]}
    match = read_json(json.dumps(data))
    [game] = match.games
    assert len(game.turns) == 1  # the bad turn is left out, the good one kept
    [problem] = game.problems
    assert problem.code == "syntax" and words in problem.message and problem.game == 1


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "/: expected a match object"),
        ({"games": [], "players": ["A"]}, "/players: two players expected"),
        ({"games": [], "format": "other"}, "/format: expected 'tavlakit-match'"),
        ({"games": [], "version": 2}, "/version: this tavlakit reads version 1"),
        ({"games": [], "tags": {"Site": 1}}, "/tags/Site: expected a string"),
        ({"players": ["A", "B"]}, "the field 'games' is missing"),
    ],
)
def test_schema_violations_in_the_header(data: object, words: str) -> None:
    match = read_json(json.dumps(data), source="h.json")
    [problem] = match.problems
    assert problem.code == "syntax" and words in problem.message and problem.file == "h.json"


def test_bad_game_is_left_out() -> None:
    data = {
        "games": [
            {"number": 1, "turns": []},
            {"number": 2, "start": "nonsense", "turns": []},
            {"number": 3, "result": {"winner": 1}, "turns": []},
        ]
    }
    match = read_json(json.dumps(data))
    assert [g.number for g in match.games] == [1]
    assert [p.game for p in match.problems] == [2, 3]
    assert "/games/1/start" in match.problems[0].message
    assert "/games/2/result: the field 'points' is missing" in match.problems[1].message


def test_streams_bytes_and_paths(tmp_path: Path) -> None:
    match = read_sgf("(;GM[6]PW[Ayşe]PB[B];W[31fehe])")
    path = tmp_path / "m.json"
    with open(path, "w", encoding="utf-8") as out:
        write_json(match, out)
    assert "Ayşe" in path.read_text(encoding="utf-8")
    assert read_json(path) == read_json(path.read_bytes()) == match
    assert read_json(path).source == str(path)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "games",
                    "turns",
                    "number",
                    "player",
                    "dice",
                    "moves",
                    "kind",
                    "score",
                    "result",
                    "winner",
                    "points",
                    "tags",
                    "players",
                    "extra",
                    "start",
                    "cube",
                    "x",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(JSON_VALUES)
def test_any_json_value_never_raises(value: object) -> None:
    match = read_json(json.dumps(value))
    assert isinstance(match, Match)
    assert all(p.code == "syntax" for p in match.problems + [p for g in match.games for p in g.problems])
