"""write_mat: gnubg's layout, resignations, absolute numbering, what cannot be written."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tavlakit.engine.play import Move
from tavlakit.engine.rules import Rules
from tavlakit.formats.mat import read_mat, write_mat
from tavlakit.record.match import Game, Match, Result, Turn, rules_to_tags

GNUBG_FILES = sorted((Path(__file__).parent / "data" / "gnubg").glob("*.mat"))


def written(match: Match, **options: str) -> str:
    out = io.StringIO()
    assert write_mat(match, out, **options) == []
    return out.getvalue()


@pytest.mark.parametrize("path", GNUBG_FILES, ids=lambda p: p.stem)
def test_layout_is_gnubgs(path: Path) -> None:
    """Reading a gnubg export and writing it again gives gnubg's text back,
    up to trailing blanks (gnubg leaves one after two-part moves)."""
    text = path.read_text(encoding="utf-8")
    ours = written(read_mat(text))
    assert [line.rstrip() for line in ours.splitlines()] == [line.rstrip() for line in text.splitlines()]


def test_drop_row_columns_are_gnubgs(corpus_dir: Path) -> None:
    """gnubgparser's gnubg_selfplay_drops_7p.mat: `  8)  Drops                       Wins 1 point `."""
    text = (corpus_dir / "gnubgparser" / "gnubg_selfplay_drops_7p.mat").read_text(encoding="utf-8")
    ours = written(read_mat(text)).splitlines()
    assert "  8)  Drops                       Wins 1 point" in ours
    assert [line.rstrip() for line in ours] == [line.rstrip() for line in text.splitlines()]


def small_match() -> Match:
    game = Game(
        number=1,
        score=(0, 0),
        turns=[
            Turn(0, dice=(3, 1), moves=(Move(8, 5), Move(6, 5))),
            Turn(1, dice=(6, 5), moves=(Move(24, 13),)),  # merged: stays one move
            Turn(0, dice=(5, 5), status="cannot-move"),
            Turn(1, kind="double", cube=2),
            Turn(0, kind="beaver", cube=4),
            Turn(1, dice=(2, 1), status="unknown"),
        ],
        result=Result(0, 4, resigned=True),
    )
    tags = {"Site": "here", "Player 1": "Ayşe"} | rules_to_tags(Rules.preset("tavla"))
    return Match(players=("Ayşe Yılmaz", "Bob, Jr."), length=5, games=[game], tags=tags, comments=["a header note"])


def test_small_match_text() -> None:
    assert written(small_match()).splitlines() == [
        '; [Site "here"]',
        '; [Player 1 "Ayşe"]',
        '; [Variation "Tavla"]',
        "; a header note",
        "",
        " 5 point match",
        "",
        " Game 1",
        " Ayşe Yılmaz : 0                Bob, Jr. : 0",
        "  1) 31: 8/5 6/5                 65: 24/13",
        "  2) 55: Cannot Move              Doubles => 2",
        "  3)  Beavers => 4               21: ???",
        "  4)                              Losses 4 points",
        "      Wins 4 points",
        "",
    ]


def test_resignations_read_back_for_both_players() -> None:
    for winner in (0, 1):
        match = small_match()
        match.games[0].result = Result(winner, 2, resigned=True)
        again = read_mat(written(match))
        assert again == match
        assert again.games[0].result.resigned and again.games[0].result.winner == winner


def test_absolute_numbering() -> None:
    """Player 1's points are written 25 - p (bar 0, off 25), and read back."""
    match = small_match()
    match.games[0].turns[1] = Turn(1, dice=(6, 5), moves=(Move(25, 19, True), Move(6, 0)))
    text = written(match, numbering="absolute")
    assert '; [Numbering "absolute"]' in text
    assert "  1) 31: 8/5 6/5                 65: 0/6* 19/25" in text.splitlines()
    again = read_mat(text)
    assert again == match and "Numbering" not in again.tags


def test_what_cannot_be_written_is_reported() -> None:
    match = small_match()
    match.players = ("a:b", "c")
    match.comments = ["two\nlines"]
    game = match.games[0]
    game.turns[0].comment = "a fine play"
    game.turns.append(Turn(1, dice=None))
    game.start, game.crawford = "4HPwATDgc/ABMA", True
    out = io.StringIO()
    problems = write_mat(match, out)
    assert {p.code for p in problems} == {"lost-on-write"}
    messages = " | ".join(p.message for p in problems)
    for what in (
        "player names",
        "comments with line breaks",
        "turn comments (game 1)",
        "set-up start positions (game 1)",
        "Crawford marks (game 1)",
        "rolls without two one-digit dice",
    ):
        assert what in messages
    text = out.getvalue()
    assert " a;b : 0" in text and "; two\n; lines\n" in text
    again = read_mat(text)
    assert again.problems == [] and again.games[0].problems == []
    assert len(again.games[0].turns) == len(game.turns) - 1
    with pytest.raises(ValueError, match="numbering"):
        write_mat(match, io.StringIO(), numbering="upside-down")


def test_double_without_cube_value_doubles_the_cube() -> None:
    """Records from formats without cube values (gnubg SGF's ``;W[double]``)."""
    game = Game(
        number=1,
        turns=[
            Turn(0, kind="double"),
            Turn(1, kind="take"),
            Turn(1, kind="double"),
            Turn(0, kind="beaver"),
            Turn(1, kind="drop"),
        ],
        result=Result(0, 8),
    )
    again = read_mat(written(Match(length=0, games=[game])))
    assert [t.cube for t in again.games[0].turns] == [2, None, 4, 8, None]
