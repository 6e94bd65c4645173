"""Reading GNU Backgammon SGF: the corpus, the paired .mat files, set-up
nodes, escapes and bad input."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tavlakit.engine.play import Move
from tavlakit.engine.position import Position
from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import SgfReader, letter_point, point_letter, read_sgf
from tavlakit.record.match import Game, Match


def sgf_sources(corpus: Path) -> list[dict[str, str]]:
    with open(corpus / "SOURCES.tsv", encoding="utf-8") as f:
        return [row for row in csv.DictReader(f, delimiter="\t") if row["file"].endswith(".sgf")]


def test_every_corpus_sgf_reads(corpus_dir: Path) -> None:
    rows = sgf_sources(corpus_dir)
    assert len(rows) == 14
    for row in rows:
        match = read_sgf(corpus_dir / row["file"])
        problems = match.problems + [p for g in match.games for p in g.problems]
        assert all(p.file == str(corpus_dir / row["file"]) for p in problems)
        if row["format"] == "gnubg-sgf":
            assert [p for p in problems if p.severity == "error"] == [], row["file"]
            assert len(match.games) == int(row["games"]), row["file"]


def test_points_letters() -> None:
    # docs/formats.md, SGF points: a = White's 1 = Black's 24; y bar; z off.
    assert [point_letter(p, 0) for p in (1, 24, 25, 0)] == ["a", "x", "y", "z"]
    assert [point_letter(p, 1) for p in (24, 1, 13)] == ["a", "x", "l"]
    assert all(letter_point(point_letter(p, who), who) == p for p in range(26) for who in (0, 1))


def game_view(game: Game, hits: bool = True, order: bool = True) -> tuple:
    turns = []
    for t in game.turns:
        moves = [(m.src, m.dst, m.hit if hits else False) for m in t.moves]
        turns.append((t.player, t.kind, t.dice, tuple(moves if order else sorted(moves)), t.cube, t.status))
    result = (game.result.winner, game.result.points) if game.result else None
    return game.number, game.score, result, turns


def test_gnubg_pair_reads_like_its_mat(corpus_dir: Path) -> None:
    """gnubg 1.08 wrote both files of the charlot match: same games, moves,
    dice, hit marks, cube and results."""
    base = corpus_dir / "gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2305"
    sgf = read_sgf(base.with_suffix(".sgf"))
    mat = read_mat(base.with_suffix(".mat").read_text(encoding="utf-8"))
    assert sgf.players == mat.players and sgf.length == mat.length == 7
    assert sgf.tags["EventDate"] == mat.tags["EventDate"] == "2025.11.08"
    assert len(sgf.games) == len(mat.games) == 4
    for ours, theirs in zip(sgf.games, mat.games):
        assert game_view(ours) == game_view(theirs)
        assert theirs.crawford in (None, ours.crawford)
    # what only the SGF says: resignations and the Crawford game (6-2 in a 7-point match)
    assert [g.result.resigned for g in sgf.games] == [True, False, False, True]
    assert [g.crawford for g in sgf.games] == [False, False, False, True]
    hits = sum(m.hit for g in sgf.games for t in g.turns for m in t.moves)
    assert hits == sum(m.hit for g in mat.games for t in g.turns for m in t.moves) > 10


def test_gibbon_pair_reads_like_its_mat(corpus_dir: Path) -> None:
    """Gibbon's 7point.sgf and .mat: the .mat marks no hits and orders some
    moves differently; dice keep the thrown order in both."""
    sgf = read_sgf(corpus_dir / "gnu_gibbon" / "7point.sgf")
    mat = read_mat((corpus_dir / "gnu_gibbon" / "7point.mat").read_bytes())
    assert len(sgf.games) == len(mat.games) == 9
    for ours, theirs in zip(sgf.games, mat.games):
        assert game_view(ours, hits=False, order=False) == game_view(theirs, hits=False, order=False)
    assert sgf.games[1].turns[0].dice == (2, 6)  # ;W[26xrmk], not sorted
    assert sgf.games[3].result.resigned  # RE[W+2Resign]


def test_hits_from_the_board() -> None:
    match = read_sgf("(;GM[6];B[41lpab];W[31fehe];B[41stpt];W[31xufe];B[65agbg];W[41hded];B[21sugh])")
    last = match.games[0].turns[-1]
    assert last.moves == (Move(6, 4, True), Move(18, 17, True))  # the .mat's "21: 6/4* 18/17*"


def test_edited_position(corpus_dir: Path) -> None:
    """gibbon's edited.sgf: dice first, then cube and board set-up nodes."""
    match = read_sgf(corpus_dir / "gnu_gibbon" / "edited.sgf")
    game = match.games[0]
    assert game.score == (6, 3) and match.players == ("Joe Black", "Snow White")
    assert [(t.player, t.dice, t.moves) for t in game.turns] == [(0, (5, 3), ())]
    white = {1: 2, 3: 2, 6: 3, 8: 1, 13: 5, 24: 2}  # AW[a][a][c][c][f][f][f][h][m]x5[x][x]
    black = {13: 4, 10: 1, 8: 3, 6: 5, 25: 2}  # AB[l]x4[o][q]x3[s]x5[y][y]
    assert game.start == Position.from_points(white, black).position_id()
    # Debian gnubg 1.07 shows this Position ID after `load match edited.sgf`
    assert game.start == "4HPiAWAzTvABMA"
    # the cube set-up (CV[2], CP[w]) is the game's starting cube; CO is kept raw
    assert (game.cube, game.cube_owner) == (2, 0)
    assert game.turns[0].extra == {"sgf-after:CO": ["w"]}
    assert {p.code for p in game.problems} == {"unsupported"}


def test_setup_ranges(corpus_dir: Path) -> None:
    """AE[a:g][e:l] clears White's 1-12 and Black's 24-13 (overlap allowed)."""
    game = read_sgf(corpus_dir / "gnu_gibbon" / "non-unique-points.sgf").games[0]
    assert game.start == Position.from_points({24: 2, 13: 5}, {8: 3, 6: 5}).position_id()
    game = read_sgf("(;GM[6];AE[a:y]AW[a:c][y]AB[x:x]PL[B])").games[0]
    assert game.start == Position.from_points({1: 1}, {1: 1, 2: 1, 3: 1, 25: 1}).position_id()  # seen by Black
    assert game.extra["sgf-setup:PL"] == ["B"]


def test_root_properties(corpus_dir: Path) -> None:
    match = read_sgf(corpus_dir / "gnu_gibbon" / "game-info-properties.sgf")
    assert match.players == ("Schaeael", "Tuennes")
    assert match.tags == {
        "Transcriber": "Karl Dapp der Abwaschbare",
        "Player 2 Rating": "rookie",
        "EventDate": "2010-01-30,31,02-01",
        "Event": "Walpurgisnacht",
        "Site": "Venus",
        "Round": "finals",
        "Jacoby": "On",
        "Player 1 Rating": "World champion",
    }
    assert match.comments == ["This game really shook the world of backgammon!"]
    game = match.games[0]
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 32)
    assert set(game.extra) == {f"sgf:{p}" for p in ("BT", "CP", "GN", "ON", "OT", "SO", "TM", "US", "WT")}


def test_moves_cube_and_annotations(corpus_dir: Path) -> None:
    game = read_sgf(corpus_dir / "gnu_gibbon" / "move-properties.sgf").games[0]
    assert [(t.player, t.kind, t.cube) for t in game.turns] == [
        (0, "roll", None),
        (1, "roll", None),
        (0, "double", 2),
        (1, "take", None),
        (0, "roll", None),
        (1, "double", 4),
        (0, "drop", None),
    ]
    assert game.turns[4].extra == {"sgf:MN": ["123"]} and game.turns[5].extra == {"sgf:KO": [""]}
    game = read_sgf(corpus_dir / "gnu_gibbon" / "move-annotation.sgf").games[0]
    assert [t.extra for t in game.turns] == [{"sgf:BM": ["1"]}, {"sgf:DO": [""]}, {"sgf:IT": ["1"]}, {"sgf:TE": ["2"]}]


def test_escapes_and_comments() -> None:
    text = r"(;GM[6]PW[a\]b]PB[c\\d]C[root];W[31fehe]C[good \] move\\ \: ok];B[double]C[)])"
    match = read_sgf(text)
    assert match.players == ("a]b", "c\\d")
    game = match.games[0]
    assert game.comments == ["root"]
    assert game.turns[0].comment == "good ] move\\ : ok"
    assert game.turns[1].comment == ")"


def test_roll_then_resign_and_dance() -> None:
    """gnubg keeps a roll not yet played as ;PL[B]DI[51]; a dance is ;W[34]."""
    match = read_sgf("(;GM[6]RE[W+1R];B[62agln];W[62mgxv];PL[B]DI[51])(;GM[6];W[34];PL[B]DI[53];B[53lqlo])")
    first, second = match.games
    assert [(t.player, t.dice, len(t.moves)) for t in first.turns] == [(1, (6, 2), 2), (0, (6, 2), 2), (1, (5, 1), 0)]
    assert first.turns[1].moves[0].hit  # 13/7* as gnubg's .mat writes it
    # a DI followed by the move made with those dice is one turn
    assert [(t.player, t.dice, len(t.moves)) for t in second.turns] == [(0, (3, 4), 0), (1, (5, 3), 2)]


def test_resign_nodes_of_gibbon(corpus_dir: Path) -> None:
    game = read_sgf(corpus_dir / "gnu_gibbon" / "7point.sgf").games[3]
    assert game.turns[-1].kind == "roll" and game.problems == []  # resign:2 / accept left no turn


BAD = [
    ("(;GM[6];W[31fehe]", 1, "ends inside"),
    ("junk (;GM[6];W[31fehe])", 1, "unexpected"),
    ("(;GM[6]\n;W[9z])", 2, "not a move"),
    ("(;GM[6]\n;W[31fex])", 2, "not a move"),
    ("(;GM[6]\n;W[31ef])", 2, "not a move from a point to a lower one"),
    ("(;GM[6]\n;W[31fehe]\n;B[31\n", 3, "unexpected"),
    ("(;GM[6]\n;AB[%]\n)", 2, "not a point"),
    ("(;GM[6]\n;DI[71])", 2, "not two dice"),
    ("(;GM[6]MI[length:x])", 1, "not a number"),
    ("(;GM[6]RE[Draw])", 1, "not W+n"),
    ("()", 1, "unexpected"),
    ("(;GM[6];W[31fehe])\n)\n(;GM[6];B[31fehe])", 2, "unexpected"),
    ("", None, "no backgammon game"),
    ("(;GM[1];B[dd])", None, "no backgammon game"),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD)
def test_bad_input_is_located(text: str, line: int | None, words: str) -> None:
    match = read_sgf(text, source="bad.sgf")
    problems = match.problems + [p for g in match.games for p in g.problems]
    found = [p for p in problems if words in p.message]
    assert found, problems
    assert found[0].line == line and found[0].file == "bad.sgf"
    assert found[0].line is None or found[0].column is not None


def test_bad_input_keeps_the_good_games() -> None:
    match = read_sgf("(;GM[6];W[31fehe])\n)\n(;GM[6];W[31fehe])\n(;GM[6];W[44]")
    assert [len(g.turns) for g in match.games] == [1, 1, 1]
    assert Counter(p.code for p in match.problems) == Counter({"syntax": 2})


def test_bytes_streams_and_paths(tmp_path: Path) -> None:
    path = tmp_path / "x.sgf"
    path.write_bytes("(;GM[6]PW[Ay\u015fe]PB[B];W[31fehe])".encode("cp1254"))
    match = read_sgf(path)
    assert match.players[0] == "Ayşe" and match.source == str(path)
    assert [p.code for p in match.problems] == ["encoding"]
    with open(path, encoding="cp1254") as stream:
        assert read_sgf(stream) == match
    assert isinstance(read_sgf("(;GM[6])"), Match)


MUTABLE = (
    "(;GM[6]MI[length:7][game:0][ws:0][bs:0]RE[W+2Resign]\n;B[42qusu]C[a\\]b]\n;W[32xvmj]\n;B[double]\n"
    ";W[take]\n;PL[B]DI[43];B[43aesv]\n;AE[a:g]AB[l][l]PL[W]\n;W[52ywwr])\n(;GM[6];W[34])"
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_sgf_never_raises(data: st.DataObject) -> None:
    text = list(MUTABLE)
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(text) - 1))
        char = data.draw(st.sampled_from(list("()[];\\:WBabyz0123456789 \nAEPLDIC")))
        op = data.draw(st.integers(0, 2))
        if op == 0:
            text[i] = char
        elif op == 1:
            del text[i]
        else:
            text.insert(i, char)
    match = read_sgf("".join(text), source="m.sgf")
    for problem in match.problems + [p for g in match.games for p in g.problems]:
        assert problem.file == "m.sgf"
        assert problem.line is None or problem.line >= 1


def test_header_before_the_games(corpus_dir: Path) -> None:
    reader = SgfReader(corpus_dir / "gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2308.sgf")
    assert reader.match.players == ("charlot1", "charlot2") and reader.match.length == 7
    assert reader.match.tags == {"EventDate": "2025.11.08", "Crawford": "On"} and reader.match.games == []
    games = reader.games()
    assert [len(next(games).turns), len(next(games).turns)] == [68, 70]


def test_beaver_and_variations() -> None:
    match = read_sgf("(;GM[6];W[double];B[double];W[take];B[31qtst]C[main](;W[41fbfe])(;W[41fbfa]C[side]))")
    game = match.games[0]
    assert [(t.player, t.kind, t.cube) for t in game.turns] == [
        (0, "double", 2),
        (1, "beaver", 4),
        (0, "take", None),
        (1, "roll", None),
        (0, "roll", None),
    ]
    assert game.turns[-1].moves[-1].dst == 5  # the first variation is the main line
    [problem] = game.problems
    assert problem.code == "unsupported" and "side variation" in problem.message and problem.line == 1


class _Counting(io.StringIO):
    """A text stream that counts the characters read from it."""

    taken = 0

    def read(self, size: int | None = -1) -> str:
        text = super().read(size)
        self.taken += len(text)
        return text


def test_a_large_collection_is_read_one_tree_at_a_time() -> None:
    """The reader does not hold the whole file: the first game comes after
    a small part of it is read; places stay those of the whole file."""
    one = (
        (Path(__file__).parents[1] / "samples" / "charlot1-charlot2_7p_2025-11-08-2305.sgf")
        .read_text(encoding="utf-8")
        .replace("\r\n", "\n")
    )
    text = one * 5 + "(;GM[6]\n;W[9z])"
    stream = _Counting(text)
    reader = SgfReader(stream, "big.sgf")
    games = reader.games()
    first = next(games)
    assert stream.taken < len(text) / 4
    rest = list(games)
    assert [first, *rest][:4] == read_sgf(one).games and len(rest) == 20
    starts = [i + 1 for i, row in enumerate(text.split("\n")) if row.startswith("(;")]
    assert [g.line for g in [first, *rest]] == starts
    [bad] = [p for p in rest[-1].problems if "not a move" in p.message]
    assert bad.line == text.count("\n") + 1 and bad.column == 2
