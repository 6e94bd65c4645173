"""A converter's notes (``lost-on-write``) name only what the output really
cannot hold: not the hit marks SGF never stores, not Crawford marks that a
.mat's reader finds again from the score."""

from __future__ import annotations

import io
from pathlib import Path

from tavlakit.engine.rules import DEFAULT_RULES
from tavlakit.formats.mat import read_mat, write_mat
from tavlakit.formats.sgf import read_sgf
from tavlakit.record.matchscore import ScoreKeeper


def crawford_games(match) -> list[int]:
    """The games a reader of ``match`` takes for the Crawford game (marks, else the score)."""
    keeper, rules, found = ScoreKeeper(match.length), match.rules or DEFAULT_RULES, []
    for game in match.games:
        score, _problems = keeper.score(game)
        if keeper.crawford(game, score, rules):
            found.append(game.number)
    return found


def test_a_mat_from_sgf_says_nothing_of_crawford_marks(corpus_dir: Path) -> None:
    """gnubg's SGF marks every game Crawford or not; the .mat keeps no mark,
    but its reader finds gnubg's Crawford game from the score."""
    files = sorted(corpus_dir.glob("*/*.sgf"))
    assert len(files) == 14
    marked = 0
    for path in files:
        match = read_sgf(path)
        out = io.StringIO()
        notes = write_mat(match, out)
        assert not [p.message for p in notes if "Crawford" in p.message], path.name
        gnubg = [g.number for g in match.games if g.crawford]
        marked += len(gnubg)
        assert crawford_games(read_mat(out.getvalue())) == gnubg, path.name
    assert marked >= 2  # charlot1-charlot2 ...2305 and Gibbon's 7point have a Crawford game


def test_a_crawford_mark_the_score_does_not_give_is_reported(corpus_dir: Path) -> None:
    match = read_sgf(corpus_dir / "gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2308.sgf")
    match.games[0].crawford = True  # at 0-0 of a 7-point match: no reader of the .mat could know
    notes = write_mat(match, io.StringIO())
    assert [p.message for p in notes if "Crawford" in p.message] == [
        "Crawford marks (game 1) cannot be written in a .mat transcript; left out"
    ]
