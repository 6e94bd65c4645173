"""Bad input gives clear, located problems: no traceback, no hang, flat memory."""

from __future__ import annotations

import random
import time
import tracemalloc
from pathlib import Path

from tavlakit.formats.mat import MAX_LINE, iter_mat, read_mat
from tavlakit.formats.text import decode

GAME = """ Game {n}
 Ann : {a}                        Bob : {b}
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 63: 24/18 13/10              Doubles => 2
  3)  Takes                      55: 13/8 13/8 6/1* 6/1
  4) 51: 25/20 6/5*               Doubles => 4
  5)  Drops                       Wins 2 points
"""


def problems(match) -> list:
    return match.problems + [p for g in match.games for p in g.problems]


def test_empty_file() -> None:
    for text in ("", "\n\n   \n"):
        match = read_mat(text, source="empty.mat")
        assert [(p.code, p.file) for p in match.problems] == [("empty", "empty.mat")]
        assert match.games == []


def test_comments_and_tags_only_are_no_match() -> None:
    """A file of comments or tags alone holds no game: said, not passed over."""
    for text in ("; nothing here\n", '; [Player 1 "A"]\n; [Player 2 "B"]\n'):
        match = read_mat(text, source="notes.mat")
        assert [(p.code, p.severity) for p in match.problems] == [("empty", "error")]
        assert match.games == []


def test_binary_junk_with_nul_bytes() -> None:
    data = random.Random(5).randbytes(200_000)
    assert b"\0" in data
    match = read_mat(data, source="junk.mat")
    assert [p.code for p in match.problems] == ["encoding"]  # one error: not also "the file holds no match"
    assert "binary" in match.problems[0].message and match.problems[0].file == "junk.mat"


def test_junk_text_gives_one_located_problem() -> None:
    data = bytes(b if b not in (0, 10, 13) else 65 for b in random.Random(7).randbytes(50_000))
    data = b"\n".join(data[i : i + 60] for i in range(0, len(data), 60))
    start = time.perf_counter()
    match = read_mat(data, source="junk.txt")
    assert time.perf_counter() - start < 5
    found = problems(match)
    assert found[0].code == "encoding"  # not UTF-8: read as cp1254, said so
    # no match line and no game: one problem for the file, at its first bad line
    [empty] = found[1:]
    assert empty.code == "empty" and empty.line and empty.column
    assert "line(s) not understood" in empty.message
    assert match.games == []


def test_one_bad_row_does_not_stop_the_next() -> None:
    text = " 1 point match\n" + GAME.format(n=1, a=0, b=0).replace("63: 24/18 13/10", "63: 24/18 xx/10")
    match = read_mat(text, source="bad.mat")
    [problem] = problems(match)
    assert (problem.code, problem.line, problem.column, problem.game, problem.move) == ("syntax", 5, 16, 1, 2)
    assert "xx/10" in problem.message and "unknown play" in problem.message
    turns = match.games[0].turns
    assert [t.number for t in turns] == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    # the bad cell is kept as a roll whose play is unknown; the other cell is read
    assert (turns[2].player, turns[2].dice, turns[2].moves, turns[2].status) == (0, (6, 3), (), "unknown")
    assert (turns[3].player, turns[3].kind, turns[3].cube) == (1, "double", 2)
    assert match.games[0].result.points == 2


def test_bad_cube_cell_is_left_out_and_said() -> None:
    text = " 1 point match\n" + GAME.format(n=1, a=0, b=0).replace("Doubles => 4", "Doubles => x")
    match = read_mat(text, source="bad.mat")
    [problem] = problems(match)
    assert (problem.line, problem.column, problem.move) == (7, 35, 4)
    assert "'Doubles => x' is left out" in problem.message
    assert [(t.number, t.player) for t in match.games[0].turns][6:] == [(4, 0), (5, 0)]


def test_truncated_game_has_no_result() -> None:
    """A file that ends inside a game: one error at its last line."""
    text = (
        " 3 point match\n" + GAME.format(n=1, a=0, b=0) + "\n" + "\n".join(GAME.format(n=2, a=0, b=2).splitlines()[:4])
    )
    match = read_mat(text)
    assert [(p.code, p.severity, p.line, p.game, p.message) for p in problems(match)] == [
        ("truncated", "error", 13, 2, "the file ends inside game 2, after row 2: the game has no result")
    ]
    assert match.games[0].result is not None and match.games[1].result is None
    assert len(match.games[1].turns) == 4  # rows 1 and 2
    cut = read_mat(text.rsplit("\n", 1)[0] + "\n  2) 63: 24/18 1")  # cut mid-move: a syntax error alone
    [problem] = problems(cut)
    assert (problem.code, problem.line) == ("truncated", 13)
    assert problem.message.endswith("the last line '2) 63: 24/18 1' is cut short")


def test_long_line_is_reported_not_parsed() -> None:
    text = " 1 point match\n" + GAME.format(n=1, a=0, b=0) + ("  6) 31: " + "8/5 " * 250_000) + "\n"
    start = time.perf_counter()
    match = read_mat(text, source="long.mat")
    assert time.perf_counter() - start < 2
    [problem] = problems(match)
    assert (problem.code, problem.line, problem.game) == ("syntax", 9, 1)
    assert "1000008 characters long" in problem.message and MAX_LINE < 1_000_008


def test_crlf_and_bom_read_like_lf() -> None:
    text = " 3 point match\n\n" + GAME.format(n=1, a=0, b=0)
    plain = read_mat(text)
    assert read_mat(("\ufeff" + text).replace("\n", "\r\n").encode("utf-8")) == plain
    assert read_mat(text.replace("\n", "\r")) == plain  # old Mac line ends
    assert problems(read_mat(("\ufeff" + text).replace("\n", "\r\n"))) == []


def test_utf16_files_read_like_utf8() -> None:
    text = " 3 point match\n\n" + GAME.format(n=1, a=0, b=0).replace("Ann", "Ayşe")
    plain = read_mat(text.encode("utf-8"))
    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
        match = read_mat(text.replace("\n", "\r\n").encode(encoding))
        assert match == plain and problems(match) == []


def test_turkish_names_in_utf8_and_cp1254() -> None:
    text = " 3 point match\n\n" + GAME.format(n=1, a=0, b=0).replace("Ann", "Ayşe Çağlar").replace("Bob", "Gülşen İnce")
    utf8 = read_mat(text.encode("utf-8"))
    assert utf8.players == ("Ayşe Çağlar", "Gülşen İnce") and problems(utf8) == []
    legacy = read_mat(text.encode("cp1254"), source="tr.mat")
    assert legacy == utf8
    [warning] = problems(legacy)
    assert (warning.code, warning.severity, warning.file, warning.line) == ("encoding", "warning", "tr.mat", 4)
    assert "cp1254" in warning.message
    # bytes cp1254 leaves undefined fall back to ISO-8859-9, still without loss
    text, found = decode("Ayşe".encode("iso-8859-9") + b"\x81")
    assert text == "Ayşe\x81" and "iso-8859-9" in found[0].message


def test_wrongly_decoded_stream_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "tr.mat"
    path.write_bytes((" 3 point match\n\n" + GAME.format(n=1, a=0, b=0).replace("Ann", "Ayşe")).encode("cp1254"))
    with open(path, encoding="utf-8") as stream:
        reader = iter_mat(stream)
        games = list(reader.games())
    assert [p.code for p in reader.match.problems] == ["encoding"]
    assert games == []


def test_fifty_megabytes_stream_in_flat_memory(tmp_path: Path) -> None:
    """A 50 MB file of repeated games (each with long comment lines, to make
    it big quickly) is read game by game; the memory peak stays far below
    the file size."""
    comment = "; " + "a very long remark about this game " * 100 + "\n"
    path = tmp_path / "big.mat"
    with open(path, "w", encoding="utf-8") as out:
        out.write(" 0 point match\n\n")
        n = 0
        while out.tell() < 50_000_000:
            n += 1
            out.write(GAME.format(n=n, a=2 * (n - 1), b=0) + comment * 10 + "\n")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        with open(path, encoding="utf-8") as stream:
            reader = iter_mat(stream, source=str(path))
            count = turns = bad = 0
            for game in reader.games():
                count += 1
                turns += len(game.turns)
                bad += len(game.problems)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == n and turns == 9 * n and bad == 0
    assert size >= 50_000_000
    assert peak < 2_000_000, f"peak {peak} bytes for a {size}-byte file"


def test_resignation_that_contradicts_the_result() -> None:
    """`Losses` in the left cell says the left player resigned; a `Wins` for
    the left player contradicts it."""
    text = (
        " 1 point match\n Game 1\n Ann : 0                        Bob : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2)  Losses 1 point\n"
        "      Wins 1 point\n"
    )
    match = read_mat(text, source="r.mat")
    [problem] = problems(match)
    assert (problem.code, problem.line, problem.column) == ("result-mismatch", 5, 7)
    result = match.games[0].result
    assert (result.winner, result.points, result.resigned) == (0, 1, True)


def test_header_is_ready_before_the_games_are_read() -> None:
    text = ' ; [Site "x"]\n\n 7 point match\n\n' + "\n".join(GAME.format(n=n, a=0, b=2 * n - 2) for n in (1, 2, 3))
    pulled = []

    def lines():
        for line in text.splitlines(keepends=True):
            pulled.append(line)
            yield line

    reader = iter_mat(lines(), source="s.mat")
    assert reader.match.length == 7 and reader.match.players == ("Ann", "Bob")
    assert reader.match.tags == {"Site": "x"} and reader.match.games == []
    assert pulled[-1] == " Game 2\n"  # the header and game 1 only (and game 2's first line)
    games = reader.games()
    assert next(games).number == 1 and pulled[-1] == " Game 2\n"
    assert next(games).number == 2 and pulled[-1] == " Game 3\n"
    assert [g.number for g in games] == [3]


def test_roll_after_an_unnumbered_result_is_reported() -> None:
    text = " 1 point match\n Game 1\n a : 0    b : 0\n  1) 31: 8/5 6/5\n      Wins 1 point    63: 24/18 13/10\n"
    match = read_mat(text)
    [problem] = problems(match)
    assert (problem.code, problem.line, problem.column) == ("syntax", 5, 23)
    assert (match.games[0].result.winner, match.games[0].result.points) == (0, 1)


def test_pathological_lines_are_quick() -> None:
    """Lines just under MAX_LINE built to make regular expressions backtrack."""
    for body in ("24/" * 1300, "a : " * 1000, " : 1 " * 800, "(2)" * 1300, "24/18*" * 650, "1" * 4000):
        start = time.perf_counter()
        match = read_mat(" 1 point match\n Game 1\n a : 0    b : 0\n  1) 63: " + body + "\n      Wins 1 point\n")
        assert time.perf_counter() - start < 0.5
        assert [p.code for p in problems(match)] == ["syntax"]


def test_game_line_with_extra_text_still_starts_a_game() -> None:
    text = (
        " 3 point match\n"
        + GAME.format(n=1, a=0, b=0).replace(" Game 1", " Game 1 (Crawford)")
        + "\n"
        + GAME.format(n=2, a=0, b=2)
    )
    match = read_mat(text)
    assert [g.number for g in match.games] == [1, 2]
    [problem] = problems(match)
    assert (problem.code, problem.line, problem.column, problem.game) == ("syntax", 2, 9, 1)


def test_a_file_that_is_no_transcript_is_one_problem() -> None:
    """gnubg's text export of a game (a board, analysis) is not a .mat."""
    text = "\n".join(f"Move number {n}:  X to play 51   analysis line {n}" for n in range(1, 300)) + "\n"
    match = read_mat(text, source="export.txt")
    assert [(p.code, p.line) for p in problems(match)] == [("empty", 1)]
    assert "299 line(s) not understood" in problems(match)[0].message
