"""What real files from other programs write, read as they mean it (issue
16): Galaxy's forfeits, a transcript without its ``N point match`` line,
``Can't Move``, gnubg's ``RU[NoCube]``, files cut short and typos; and over
the whole corpus, the errors reported are only the ones the README lists.
"""

from __future__ import annotations

import copy
import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from tavlakit.formats.jsonfmt import read_json, write_json
from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import read_sgf
from tavlakit.record.match import Result, Turn
from tavlakit.replay.walker import validate

REPO = Path(__file__).resolve().parents[1]
GALAXY = (REPO / "samples" / "galaxy-match1004844.txt").read_text(encoding="utf-8")
NOCUBE = Path(__file__).parent / "data" / "sgf" / "gnubg-3p-nocube.sgf"


def codes(report) -> list[tuple[str, str, int | None]]:
    """The problems but Galaxy's usual ones: the note that it marks no hits,
    and the capped points of the sample's last game (line 60)."""
    return [
        (p.severity, p.code, p.line)
        for p in report.problems
        if not (p.code == "hit-mark" and p.line is None) and (p.code, p.line) != ("points-capped", 60)
    ]


def galaxy_forfeit(length: int, points: int) -> str:
    """The Galaxy sample as a ``length``-point match whose second game stops
    after row 3 with Galaxy's forfeit rows: lasse (left, 1-0 up) leaves and
    williampitt gets ``points`` (line 33 of the text)."""
    lines = GALAXY.split("\n")
    lines[11] = f"{length} point match"
    lines[30:] = [f"  4)  Losses {points} point{' ' * 47}Wins {points} point and the match", ""]
    return "\n".join(lines)


def test_galaxy_forfeit_is_one_warning() -> None:
    """5-point match, 1-0: williampitt needed 5 at cube 1 (a game is worth 3 at most)."""
    report = validate(read_mat(galaxy_forfeit(5, 5)))
    assert codes(report) == [("warning", "forfeit", 31)]
    assert "williampitt needed" in report.problems[0].message


def test_points_beyond_the_game_and_not_what_was_needed_stay_absurd() -> None:
    assert codes(validate(read_mat(galaxy_forfeit(7, 5)))) == [("error", "absurd-points", 31)]
    assert codes(validate(read_mat(galaxy_forfeit(5, 3)))) == []  # a resigned backgammon: a real value


def test_transcript_without_a_match_length_line() -> None:
    """gnubg refuses such a file ("not a valid .mat file"): one located
    error on the first game header; the games are still read and checked
    (as a money session)."""
    text = GALAXY.replace("3 point match\n", "")
    match = read_mat(text)
    report = validate(match)
    assert codes(report)[:1] == [("error", "missing-length", 13)]
    assert report.problems[0].column == 2
    assert (match.length, len(match.games), report.games) == (0, 2, 2)
    assert codes(validate(read_mat(GALAXY.replace("3 point match", "0 point match")))) != codes(report)[:1]


@pytest.mark.parametrize("words", ["Can't Move", "Can\u2019t move", "Cannot Move"])
def test_cant_move_is_a_dance(words: str) -> None:
    """Studio's ``Cannot Move``, and ``Can't Move``: the roll could not be
    played. Bravo dances against Alpha's closed board with a checker on the bar."""
    text = (
        "5 point match\n\n Game 1\n Alpha : 0                      Bravo : 0\n"
        "  1) 31: 8/5 6/5                 66: 24/18 24/18 13/7 13/7\n"
        "  2) 42: 8/4 6/4                 55: 13/3 13/8\n"
        "  3) 62: 13/7 13/11              22: 6/4 6/4 8/6 8/6\n"
        "  4) 51: 11/6 6/5                21: 6/4 4/3\n"
        "  5) 11: 7/6 7/6 6/5 6/5         13: 7/6 6/3\n"
        "  6) 41: 13/9 9/8                64: 18/8\n"
        "  7) 62: 24/18 18/16             21: 18/16 16/15\n"
        f"  8) 65: 24/18 18/13             55: {words}\n"
        "      Wins 1 point\n"
    )
    match = read_mat(text)
    dance = match.games[0].turns[-1]
    assert (dance.dice, dance.moves, dance.status) == ((5, 5), (), "cannot-move")
    assert [p.code for p in match.games[0].problems] == []


def test_sgf_nocube_forbids_doubles() -> None:
    """gnubg writes ``RU[NoCube]`` for a match played with ``set cube use
    off`` (tests/data/sgf/make_gnubg_nocube.py): the match validates clean,
    and a double injected into it is ``cube-not-allowed``."""
    match = read_sgf(NOCUBE)
    assert match.rules is not None and not match.rules.cube
    assert validate(match).problems == []
    bad = copy.deepcopy(match)
    game = bad.games[0]
    roller = game.turns[2].player
    game.turns[2:] = [Turn(roller, "double", cube=2, number=3), Turn(1 - roller, "drop", number=3)]
    game.result = Result(roller, 1)
    del bad.games[1:]
    report = validate(bad)
    assert [(p.code, p.game) for p in report.problems] == [("cube-not-allowed", 1)]
    assert "no cube" in report.problems[0].message


def test_a_file_cut_mid_cell_is_one_error_at_its_last_line() -> None:
    """The sample cut inside row 6 of game 2 (mid-move): one truncated error,
    on the last line, that names the game and the row; validate exits 1."""
    lines = GALAXY.split("\n")[:34]
    lines[-1] = lines[-1][:23]  # '  6) 61: 11/5 6/5       ' -> '  6) 61: 11/5 6'
    report = validate(read_mat("\n".join(lines)))
    assert codes(report) == [("error", "truncated", 34)]
    assert report.problems[0].message.startswith("the file ends inside game 2, after row 6")


def test_a_typo_is_one_syntax_error_and_the_rest_is_checked() -> None:
    """``13/1O``: one syntax error on its line, with the cell as written (no
    '???' the user never wrote); a fault later in the game is still found."""
    text = GALAXY.replace("  5) 53: 25/20 13/10", "  5) 53: 25/20 13/1O")
    report = validate(read_mat(text))
    assert codes(report) == [("error", "syntax", 33)]
    assert "???" not in report.problems[0].message
    later = text.replace("  6) 61: 11/5 6/5", "  6) 61: 11/4 6/5")
    assert codes(validate(read_mat(later))) == [("error", "syntax", 33), ("error", "illegal-play", 34)]
    turn = read_mat(text).games[1].turns[8]
    assert (turn.status, turn.text) == ("unknown", "53: 25/20 13/1O")


def test_an_unreadable_play_kept_through_json_is_one_warning() -> None:
    """Converted to JSON, the play that could not be read stays as written;
    read back (no syntax error now), it is one unknown-play warning that
    quotes it, and the game goes on from the board the following rows fit."""
    text = GALAXY.replace("  5) 53: 25/20 13/10", "  5) 53: 25/20 13/1O")
    out = io.StringIO()
    write_json(read_mat(text), out)
    report = validate(read_json(out.getvalue()))
    assert [p.code for p in report.problems] == ["unknown-play", "points-capped", "hit-mark"]  # JSON has no lines
    assert "'25/20 13/1O' could not be read" in report.problems[0].message


# --- the whole corpus -------------------------------------------------------------

#: The errors of the corpus's program-written transcripts, as the README's
#: corpus table lists them (file -> error codes).
EXPECTED_ERRORS = {
    "bglib/Wakagashira-nori-2009Feb092123.txt": ["missing-play", "missing-play"],
    "bglib/HooShanG-nori-2009Jan291842.txt": ["truncated"],
    "bglib/PghPete-nori-2009Jan242317.txt": ["truncated"],
    "bglib/py199-nori-2009Jan171407.txt": ["truncated"],
    "bglab/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt": ["absurd-points"],
    "bglab/match8794401.txt": ["result-mismatch"],
    "bglab/match9814649.txt": ["result-mismatch"],
    "BgMatchFormat_Lib/abandoned_money.mat": ["score-mismatch", "truncated"],
    "BgMatchFormat_Lib/abandoned_partial.mat": ["truncated"],
    "BgMatchFormat_Lib/forfeit_partial.mat": ["truncated"],
    "BgMatchFormat_Lib/cube_take.mat": ["bear-off-outside"],
    "BgMatchFormat_Lib/dance.mat": ["illegal-play", "missing-play"],
    "BgMatchFormat_Lib/doubles_hit_bearoff.mat": ["bear-off-outside", "illegal-play", "opening-double"],
    "BgMatchFormat_Lib/money_session.mat": ["score-mismatch"],
}


def program_written(corpus: Path) -> list[str]:
    """The corpus's Jellyfish transcripts written by a program (SOURCES.tsv:
    format jf-mat, not a hand transcription), the generated Tavla ones included."""
    with open(corpus / "SOURCES.tsv", encoding="utf-8", newline="") as table:
        return [
            row["file"]
            for row in csv.DictReader(table, delimiter="\t")
            if row["format"] == "jf-mat" and "hand transcription" not in row["notes"]
        ]


def test_corpus_errors_are_the_listed_ones(corpus_dir: Path) -> None:
    files = program_written(corpus_dir)
    assert len(files) >= 580
    found: dict[str, list[str]] = {}
    games = Counter[str]()
    for name in files:
        report = validate(read_mat((corpus_dir / name).read_bytes(), source=name))
        games["games"] += report.games
        if report.errors:
            found[name] = sorted(p.code for p in report.errors)
    assert found == EXPECTED_ERRORS
    assert games["games"] >= 1990
