"""Spot checks: hand-picked rows of real files of every writer, and what they say.

Each expectation was written by reading the quoted line of the file, not by
running the reader.
"""

from __future__ import annotations

from pathlib import Path

from tavlakit.engine.play import Move
from tavlakit.formats.mat import read_mat
from tavlakit.record.match import Match, Turn

DATA = Path(__file__).parent / "data" / "mat"


def M(src: int, dst: int, hit: bool = False) -> Move:
    return Move(src, dst, hit)


def read(corpus: Path, name: str) -> Match:
    match = read_mat((corpus / name).read_bytes(), source=name)
    assert match.problems == [] and all(g.problems == [] for g in match.games), name
    return match


def cells(match: Match, game: int, row: int) -> dict[int, list[Turn]]:
    """The turns written on row ``row`` of game ``game``, by player."""
    found: dict[int, list[Turn]] = {}
    for turn in match.games[game - 1].turns:
        if turn.number == row:
            found.setdefault(turn.player, []).append(turn)
    return found


def only(match: Match, game: int, row: int, player: int) -> Turn:
    [turn] = cells(match, game, row)[player]
    return turn


def test_galaxy(corpus_dir: Path) -> None:
    match = read(corpus_dir, "bglab/match10329741.txt")
    assert match.players == ("lasse", "abtin_rad") and match.length == 5
    assert match.tags["Site"] == "BackgammonGalaxy" and match.tags["Player 1 Elo"] == "5,00/0"
    assert list(match.tags)[:3] == ["Site", "Match ID", "Player 1"]
    # `  1)                             65: 24/18 18/13`
    assert cells(match, 1, 1).keys() == {1}
    assert only(match, 1, 1, 1).moves == (M(24, 18), M(18, 13))
    # `  2) 55: 6/1 6/1 8/3 8/3         63:`
    assert only(match, 1, 2, 0).moves == (M(6, 1), M(6, 1), M(8, 3), M(8, 3))
    empty = only(match, 1, 2, 1)
    assert (empty.dice, empty.moves, empty.status) == ((6, 3), (), "play")
    # `  3)  Doubles => 2                Takes`
    assert (only(match, 1, 3, 0).kind, only(match, 1, 3, 0).cube) == ("double", 2)
    assert only(match, 1, 3, 1).kind == "take"
    # game 5: ` 15) 53: 3/0 3/0                  Doubles => 2`
    #         ` 16)  Takes                       Losses 1 point`, blank, `      Wins 1 point and the match`
    assert only(match, 5, 15, 0).moves == (M(3, 0), M(3, 0))
    assert (only(match, 5, 15, 1).kind, only(match, 5, 15, 1).cube) == ("double", 2)
    assert only(match, 5, 16, 0).kind == "take"
    result = match.games[4].result
    assert (result.winner, result.points, result.resigned) == (0, 1, True)
    assert match.games[4].score == (4, 2)


def test_galaxy_resign_layouts(corpus_dir: Path) -> None:
    # (a) ` 54)  Losses 4 point              Wins 4 point` (game 1) and
    #     ` 28)  Losses 1 point   ...(col 67)   Wins 1 point and the match` (last game)
    match = read(corpus_dir, "bglab/match11860310.txt")
    first, last = match.games[0].result, match.games[-1].result
    assert (first.winner, first.points, first.resigned) == (1, 4, True)
    assert (last.winner, last.points, last.resigned) == (1, 1, True)
    # (c) ` Losses 1 point` at col 1 after ` 17) 52: 4/0 4/2                 32:`,
    #     then `      Wins 1 point and the match`
    match = read(corpus_dir, "bglab/match3222030.txt")
    result = match.games[-1].result
    assert (result.winner, result.points, result.resigned) == (0, 1, True)
    assert only(match, len(match.games), 17, 1).dice == (3, 2)
    # (b) right cell: ` 30) 64: 3/0 3/0                  Losses 2 point`, blank,
    #     `      Wins 2 point and the match` (bglab match1004844.txt line 58)
    match = read(corpus_dir, "bglab/match1004844.txt")
    [game] = [g for g in match.games if any(t.line == 58 for t in g.turns)]
    assert (game.result.winner, game.result.points, game.result.resigned) == (0, 2, True)
    assert only(match, game.number, 30, 0).moves == (M(3, 0), M(3, 0))


def test_studio(corpus_dir: Path) -> None:
    match = read(corpus_dir, "bglab/Magic - Lasse 5pt Backgammon Studio 2024_04_22 19_06_30.txt")
    assert match.players == ("Magic", "Lasse") and match.length == 5
    # `  2) 41: bar/21* 21/20                  43: bar/21 24/21`
    assert only(match, 1, 2, 0).moves == (M(25, 21, True), M(21, 20))
    assert only(match, 1, 2, 1).moves == (M(25, 21), M(24, 21))
    # `  4) 44: bar/21 24/20 13/9(2)           42: 14/8`  (a merged move stays merged)
    assert only(match, 1, 4, 0).moves == (M(25, 21), M(24, 20), M(13, 9), M(13, 9))
    assert only(match, 1, 4, 1).moves == (M(14, 8),)
    # `  10) 42: bar/21 3/1                    54: 21/16 8/4*`  (rows >= 10 shift the left cell)
    assert only(match, 1, 10, 0).dice == (4, 2)
    assert only(match, 1, 10, 1).moves == (M(21, 16), M(8, 4, True))
    # `  11) 61: bar/24 15/9*                  55: Cannot Move`
    cannot = only(match, 1, 11, 1)
    assert (cannot.dice, cannot.moves, cannot.status) == ((5, 5), (), "cannot-move")
    # `  27)  Drops                             Wins 1 point`
    assert only(match, 1, 27, 0).kind == "drop"
    assert (match.games[0].result.winner, match.games[0].result.points) == (1, 1)
    # game 2: `  18) 65: 9/4 8/2                       22: 8/6 7/5 2/off(2)`
    assert only(match, 2, 18, 1).moves == (M(8, 6), M(7, 5), M(2, 0), M(2, 0))
    # `  26)  Doubles => 2                      Drops` then `  27)  Wins 1 point` (numbered result row, left)
    assert (match.games[1].result.winner, match.games[1].result.points) == (0, 1)
    assert match.games[2].score == (1, 1)


def test_studio_absurd_points_and_unknown(corpus_dir: Path) -> None:
    # `  24) 32: ????                           Wins 4016 point` and an empty `  25)` row after it
    match = read(corpus_dir, "bglab/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt")
    game = next(g for g in match.games if g.result and g.result.points == 4016)
    [turn] = [t for t in game.turns if t.number == 24]
    assert (turn.player, turn.dice, turn.status, turn.text) == (0, (3, 2), "unknown", "32: ????")
    assert game.result.winner == 1


def test_xg(corpus_dir: Path) -> None:
    match = read(corpus_dir, "matfile_go/fullmatch1.mat")
    # Player 1 "Kubota Kanade" is printed in the RIGHT column; player 0 is the left one.
    assert match.players == ("Moriuchi Toshiyuki", "Kubota Kanade")
    assert match.tags["Player 1"] == "Kubota Kanade" and match.length == 17
    # `  2) 22: 25/23 13/11 6/4 6/4     63: 24/15`
    assert only(match, 1, 2, 0).moves == (M(25, 23), M(13, 11), M(6, 4), M(6, 4))
    assert only(match, 1, 2, 1).moves == (M(24, 15),)
    # ` 17) 51: 25/24 8/3               55: 15/0 9/4`  (doubles written with two merged parts)
    assert only(match, 1, 17, 1).moves == (M(15, 0), M(9, 4))
    # ` 37) 66: ???                      Wins 4 point` (line 116)
    game = next(g for g in match.games if g.line and g.line < 116 and any(t.line == 116 for t in g.turns))
    [turn] = [t for t in game.turns if t.line == 116]
    assert (turn.number, turn.player, turn.dice, turn.status) == (37, 0, (6, 6), "unknown")
    assert (game.result.winner, game.result.points) == (1, 4)


def test_fibs_dice_in_thrown_order(corpus_dir: Path) -> None:
    match = read(corpus_dir, "bglib/AnaGabriela-nori-2009Mar222021.txt")
    assert match.players == ("AnaGabriela", "nori")  # the ratings (name,1570) are tags
    assert (match.tags["Player 1 Rating"], match.tags["Player 2 Rating"]) == ("1570", "1774")
    # `  1) 64: 8/2 6/2                 24: 8/4 6/4`
    assert only(match, 1, 1, 0).dice == (6, 4)
    assert only(match, 1, 1, 1).dice == (2, 4)
    # ` 15) 22: 2/0 2/0 2/0 5/3         46: 6/0 4/0`
    assert only(match, 1, 15, 1).dice == (4, 6)
    assert only(match, 1, 15, 1).moves == (M(6, 0), M(4, 0))
    # ` 20) 24: 1/0` then `      Wins 2 points`
    assert only(match, 1, 20, 0).moves == (M(1, 0),)
    assert (match.games[0].result.winner, match.games[0].result.points) == (0, 2)
    # `  4)  Doubles => 2                Takes`
    assert only(match, 1, 4, 1).kind == "take"


def test_dailygammon(corpus_dir: Path) -> None:
    match = read(corpus_dir, "bglib/1864694.txt")
    assert match.players == ("bgnori", "Scapegoat") and match.length == 15
    # ` 15) 53: 21/16 16/13                  Doubles => 2` / ` 16)  Drops                          Wins 1 point`
    game = match.games[1]
    assert only(match, 2, 15, 1).cube == 2
    assert only(match, 2, 16, 0).kind == "drop"
    assert (game.result.winner, game.result.points) == (1, 1)
    # game 3: `  1) 54: 13/8 13/9                   62: 24/18 18/16*`
    assert match.games[2].score == (0, 5)
    assert only(match, 3, 1, 1).moves == (M(24, 18), M(18, 16, True))
    # ` 11)  Doubles => 2                    Drops` then `      Wins 1 point`
    assert (match.games[2].result.winner, match.games[2].result.points) == (0, 1)


def test_gnubg_snowie_export_illegal_rows(corpus_dir: Path) -> None:
    match = read(corpus_dir, "bglib/Nori-Kenji081229.txt")
    on_line: dict[int, list[Turn]] = {}
    for game in match.games:
        for turn in game.turns:
            on_line.setdefault(turn.line, []).append(turn)
    # line 315 ` 24) 11: Illegal play (25;0;1;...;1;1;) 11: `: left illegal, right rolled 11 and no move
    assert [(t.player, t.dice, t.status, t.moves) for t in on_line[315]] == [
        (0, (1, 1), "illegal", ()),
        (1, (1, 1), "play", ()),
    ]
    assert on_line[315][0].extra["illegal"][0].startswith("25;0;1;0;0;Kenji;nori;")
    # line 486 ` 24) 53: 6/1 6/3                 21: Illegal play (...) `
    assert [(t.player, t.dice, t.status) for t in on_line[486]] == [(0, (5, 3), "play"), (1, (2, 1), "illegal")]
    # line 517 ` 13) 21: Illegal play (...)  Doubles => 2` and ` 14)  Drops   Wins 1 point`
    assert [(t.player, t.kind, t.status) for t in on_line[517]] == [(0, "roll", "illegal"), (1, "double", "play")]


def test_gibbon_crlf(corpus_dir: Path) -> None:
    match = read(corpus_dir, "gnu_gibbon/7point.mat")
    assert match.players == ("JoeBlack", "SnowWhite") and match.length == 7
    # `  1)                             42: 8/4 6/4`, `  3) 52: 25/23 23/18             13: 8/7 6/3`
    assert only(match, 1, 1, 1).moves == (M(8, 4), M(6, 4))
    assert only(match, 1, 3, 1).dice == (1, 3)
    # game 2: ` 17)  Doubles => 4                Drops        ` then ` Wins 2 points` at col 1
    assert only(match, 2, 17, 0).cube == 4
    assert (match.games[1].result.winner, match.games[1].result.points) == (0, 2)
    assert all("\r" not in t.text for g in match.games for t in g.turns)


def test_raccoon_money_session(corpus_dir: Path) -> None:
    match = read(corpus_dir, "raccoon/gnubg_eval_20260410_051307.txt")
    assert match.length == 0 and match.tags["Jacoby"] == "Off"
    # `  2) 22: 8/6 8/6 8/6 6/4*        16: 25/24 24/18` (lower die first)
    assert only(match, 1, 2, 1).dice == (1, 6)
    assert only(match, 1, 2, 0).moves == (M(8, 6), M(8, 6), M(8, 6), M(6, 4, True))
    # `                                  Wins 3 point`; game 2 score ` Raccoon : 0   GNUBG : 3`
    assert (match.games[0].result.winner, match.games[0].result.points) == (1, 3)
    assert match.games[1].score == (0, 3)


def test_goldens_comments_and_truncation(corpus_dir: Path) -> None:
    name = "BgMatchFormat_Lib/abandoned_partial.mat"
    match = read_mat((corpus_dir / name).read_bytes(), source=name)
    assert match.tags == {"Match ID": "abandoned"}
    assert match.games[1].result is None  # the file ends inside game 2, at its comment line
    assert [(p.code, p.line) for g in match.games for p in g.problems] == [("truncated", 13)]
    assert match.games[1].comments == ["match aborted by tournament server"]
    assert (match.games[0].result.winner, match.games[0].result.points) == (1, 1)


def test_jbs_hand_transcript() -> None:
    """tests/data/mat/jbs-hand.mat: made by hand in the JBS transcript style
    (right cell at col 39, padded cells, Bar/Off words, ????)."""
    match = read_mat((DATA / "jbs-hand.mat").read_bytes(), source="jbs-hand.mat")
    assert match.problems == [] and [(p.code, p.game) for g in match.games for p in g.problems] == [("truncated", 2)]
    assert match.players == ("Ayşe Yılmaz", "Mochizuki Masayuki")
    assert match.tags == {"Site": "JBS", "Transcriber": "A. Person", "EventTime": "16:15"}
    g1 = match.games[0]
    assert [(t.number, t.player, t.kind, t.dice, t.moves, t.status, t.cube) for t in g1.turns] == [
        (1, 1, "roll", (3, 1), (M(8, 5), M(6, 5)), "play", None),
        (2, 0, "roll", (6, 4), (M(24, 18, True), M(13, 9)), "play", None),
        (2, 1, "roll", (5, 2), (M(25, 20), M(13, 11)), "play", None),
        (3, 0, "roll", (5, 5), (), "cannot-move", None),
        (3, 1, "roll", (6, 6), (M(24, 18), M(24, 18), M(13, 7, True), M(13, 7, True)), "play", None),
        (4, 0, "roll", (2, 1), (M(25, 23), M(25, 24)), "play", None),
        (4, 1, "double", None, (), "play", 2),
        (5, 0, "take", None, (), "play", None),
        (5, 1, "roll", (4, 2), (), "unknown", None),
    ]
    assert (g1.result.winner, g1.result.points, g1.result.resigned) == (1, 2, False)
    assert [(t.column, t.text) for t in g1.turns[:3]] == [
        (40, "31: 8/5 6/5"),
        (6, "64: 24/18* 13/9"),
        (40, "52: Bar/20 13/11"),
    ]
    g2 = match.games[1]
    assert g2.score == (0, 2) and g2.result is None
    assert g2.turns[0].moves == (M(4, 0), M(3, 0))
    assert g2.turns[1].moves == (M(1, 0), M(1, 0), M(2, 1), M(3, 2))


def test_tavla(corpus_dir: Path) -> None:
    match = read(corpus_dir, "tavla/t000.mat")
    assert match.rules is not None and match.rules.name == "tavla"
    assert match.players == ("Ayşe", "Mehmet Ali") and match.length == 5
    # `  1) 32: 24/22 13/10             63: 24/21 21/15*`
    assert only(match, 1, 1, 0).moves == (M(24, 22), M(13, 10))
    assert only(match, 1, 1, 1).moves == (M(24, 21), M(21, 15, True))
    # `  6) 66:                         61: 13/7 7/6`
    assert (only(match, 1, 6, 0).dice, only(match, 1, 6, 0).moves) == ((6, 6), ())
    # t002: `  1)                             44: 24/20 24/20 8/4 8/4` (an opening double)
    match = read(corpus_dir, "tavla/t002.mat")
    assert only(match, 1, 1, 1).moves == (M(24, 20), M(24, 20), M(8, 4), M(8, 4))


def test_galaxy_row_number_printed_twice() -> None:
    """Galaxy layout (d) of docs/formats.md, Results (bglab match2900236.txt, not in
    the corpus): ` 24) 43: 21/18 18/14              24)  Losses 2 point ...`
    with `Wins 2 point and the match` after it on the same row."""
    text = (
        "5 point match\n\n Game 1\n lasse : 3                       foo : 2\n"
        " 23) 65: 13/7 13/8                 41: 24/23 13/9\n"
        " 24) 43: 21/18 18/14              24)  Losses 2 point"
        "                Wins 2 point and the match\n"
    )
    match = read_mat(text)
    assert match.games[0].problems == []
    assert only(match, 1, 24, 0).moves == (M(21, 18), M(18, 14))
    assert cells(match, 1, 24).keys() == {0}
    result = match.games[0].result
    assert (result.winner, result.points, result.resigned) == (0, 2, True)


def test_fibs_rating_is_its_own_column_as_gnubg_reads_it(tmp_path: Path, gnubg_bin: Path) -> None:
    """A FIBS client writes ``BlueNote,1660 : 2``: gnubg 1.07's ``import mat``
    names the player ``BlueNote`` with rating ``1660``; so does tavlakit (the
    name is the name; the rating a tag, a column of the games frame, and
    gnubg's SGF ``WR``/``BR`` when converted)."""
    from gnubg_load import load_in_gnubg
    from typer.testing import CliRunner

    import tavlakit as tk
    from tavlakit.cli import app

    fibs = tmp_path / "fibs.mat"  # (gnubg_load imports a .mat by its name)
    fibs.write_bytes((Path(__file__).resolve().parents[1] / "samples" / "fibs-bluenote-nori.txt").read_bytes())
    [dump] = load_in_gnubg(gnubg_bin, [fibs], tmp_path)
    info = dump["match-info"]
    gnubg = ((info["X"]["name"], info["X"]["rating"]), (info["O"]["name"], info["O"]["rating"]))
    match = tk.read_match(fibs)
    ours = tuple((match.players[i], match.tags[f"Player {i + 1} Rating"]) for i in (0, 1))
    assert ours == gnubg == (("BlueNote", "1660"), ("nori", "1733"))
    games = tk.analysis.analyse(match, luck=False).games
    assert set(games["player0"]) == {"BlueNote"} and set(games["rating0"]) == {1660.0}
    assert set(games["rating1"]) == {1733.0}
    sgf = tmp_path / "fibs.sgf"
    assert CliRunner().invoke(app, ["convert", str(fibs), "-o", str(sgf)]).exit_code == 0
    assert "PW[BlueNote]" in sgf.read_text(encoding="utf-8") and "WR[1660]" in sgf.read_text(encoding="utf-8")
    # a name that merely holds a comma is left alone
    plain = read_mat(" 1 point match\n\n Game 1\n Smith, J : 0     Ann : 0\n  1) 31: 8/5 6/5\n")
    assert plain.players == ("Smith, J", "Ann") and "Player 1 Rating" not in plain.tags


def test_gnubg_elo_tags_give_the_rating_column(corpus_dir: Path) -> None:
    """gnubg's own .mat export says ``; [Player 1 Elo "1600.00/0"]`` (rating/experience)."""
    import tavlakit as tk

    path = next(p for p in sorted(corpus_dir.rglob("*.mat")) if "Player 1 Elo" in p.read_text(errors="replace"))
    games = tk.analysis.analyse(tk.read_match(path), luck=False).games
    assert set(games["rating0"]) == {1600.0} and set(games["rating1"]) == {1600.0}
