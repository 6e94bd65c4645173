"""Short faces of the record model: one-line reprs and Jupyter HTML summaries.

Scores, results and game counts are checked against gnubg's own record of
its self-play matches (``gnubg.match()`` in tests/data/gnubg/*.json), not
against our own reading.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.record.match import Game, Match, Result
from tavlakit.record.problem import Problem

DATA = Path(__file__).parent / "data" / "gnubg"
MATCHES = sorted(DATA.glob("selfplay-*.mat"))


def gnubg_facts(mat: Path) -> tuple[tuple[str, str], int, list[dict], tuple[int, int]]:
    """Players, length, game infos and final score from gnubg's own dump."""
    dump = json.loads(mat.with_suffix(".json").read_text(encoding="utf-8"))
    info = dump["match-info"]
    games = [g["info"] for g in dump["games"]]
    last = games[-1]
    final = [last["score-X"], last["score-O"]]
    final[0 if last["winner"] == "X" else 1] += last["points-won"]
    return (info["X"]["name"], info["O"]["name"]), info["match-length"], games, (final[0], final[1])


def cells(fragment: str) -> list[list[str]]:
    """The rows of the (first) table of an HTML fragment, parsed as XML."""
    root = ET.fromstring(f"<div>{fragment}</div>")
    table = root.find("table")
    assert table is not None
    return [["".join(td.itertext()) for td in tr] for tr in table.iter("tr")]


@pytest.mark.parametrize("mat", MATCHES, ids=lambda p: p.stem)
def test_match_and_game_reprs_against_gnubg(mat: Path) -> None:
    players, length, games, final = gnubg_facts(mat)
    match = tk.read_match(mat)
    text = repr(match)
    assert "\n" not in text and len(text) < 200
    assert (
        f"<Match {players[0]!r} vs {players[1]!r}, {length}-point match, {len(games)} games, "
        f"score {final[0]}-{final[1]}>" == text
    )
    assert match.final_score() == final
    for game, info in zip(match.games, games):
        face = repr(game)
        winner = 0 if info["winner"] == "X" else 1
        assert face.startswith(f"<Game {game.number}: {info['score-X']}-{info['score-O']}, {len(game.turns)} turns, ")
        assert f"{players[winner]!r} won {info['points-won']} point" in face  # gnubg's names, not "player 0"
        assert game.score_after()[winner] == info[f"score-{info['winner']}"] + info["points-won"]


@pytest.mark.parametrize("mat", MATCHES[:2], ids=lambda p: p.stem)
def test_match_html_table(mat: Path) -> None:
    players, _, games, _ = gnubg_facts(mat)
    match = tk.read_match(mat)
    rows = cells(match._repr_html_())
    assert rows[0] == ["game", "score", "turns", "result", "problems"]
    assert len(rows) == 1 + len(games)
    for row, info in zip(rows[1:], games):
        winner = players[0 if info["winner"] == "X" else 1]
        assert row[1] == f"{info['score-X']}-{info['score-O']}"
        assert row[3].startswith(f"{winner} wins {info['points-won']} point")
        assert row[4] == ""


def test_report_counts_and_lists_problems(tmp_path: Path) -> None:
    text = MATCHES[0].read_text(encoding="utf-8")
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) "))
    lines[row] = lines[row][:5] + "32: 10/7 10/8"  # a play from points player 0 does not hold
    bad = tmp_path / "bad.mat"
    bad.write_text("\n".join(lines), encoding="utf-8")
    report = tk.validate(tk.read_match(bad))
    assert report.errors
    face = repr(report)
    assert "\n" not in face
    assert f"{len(report.errors)} errors, {len(report.warnings)} warnings>" in face
    page = report._repr_html_()
    rows = cells(page)
    first = report.errors[0]
    game_row = next(r for r in rows[1:] if r[0] == str(first.game))
    assert "error" in game_row[4]
    assert first.code in page and "Traceback" not in page
    clean = tk.validate(tk.read_match(MATCHES[0]))
    assert repr(clean).endswith(", 0 errors, 0 warnings>")
    assert "no problems" in clean._repr_html_()


def test_text_is_escaped() -> None:
    match = Match(("<script>alert(1)</script>", "A & B"), 0, [Game(1, result=Result(0, 1, resigned=True))])
    page = match._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    rows = cells(page)
    assert rows[1][3] == "<script>alert(1)</script> wins 1 point (resigned)"
    assert "money" in repr(match) and "\n" not in repr(match)
    assert cells(match.games[0]._repr_html_())[1][3] == "player 0 wins 1 point (resigned)"


def test_problem_faces() -> None:
    problem = Problem("illegal-play", "error", "13/7 is <blocked>", file="m.mat", line=8, column=5, game=2)
    assert repr(problem) == "<Problem m.mat:8:5 error illegal-play: '13/7 is <blocked>'>"
    assert cells(problem._repr_html_())[1] == ["m.mat:8:5", "2", "", "error", "illegal-play", "13/7 is <blocked>"]


def test_long_match_repr_is_short() -> None:
    match = tk.read_match(MATCHES[-1])
    match.games = match.games * 10
    assert len(repr(match)) < 200
    assert len(cells(match._repr_html_())) == 1 + len(match.games)


def test_game_repr_names_players_as_the_file_does(tmp_path: Path) -> None:
    """The names the file gives, in every format; a file without names: Player 1 and Player 2."""
    match = tk.read_match(MATCHES[0])
    players, _length, games, _final = gnubg_facts(MATCHES[0])
    for fmt in ("sgf", "json"):
        path = tmp_path / f"m.{fmt}"
        tk.write_match(match, path)
        again = tk.read_match(path)
        winner = 0 if games[0]["winner"] == "X" else 1
        assert f"{players[winner]!r} won" in repr(again.games[0]), fmt
    nameless = tmp_path / "nameless.mat"
    nameless.write_text(" 1 point match\n\n Game 1\n  1) 31: 8/5 6/5\n      Wins 1 point\n", encoding="utf-8")
    assert "'Player 1' won 1 point" in repr(tk.read_match(nameless).games[0])
    assert repr(Game(2, result=Result(1, 2))) == "<Game 2: 0-0, 0 turns, 'Player 2' won 2 points>"
