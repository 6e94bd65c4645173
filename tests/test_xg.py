"""eXtreme Gammon .xg files: every corpus file read, checked against XG's own
.mat export and gnubg's SGF of the same match, against the boards and scores
the files themselves store, and damaged files made from the real ones."""

from __future__ import annotations

import io
import math
import shutil
import struct
import zlib
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.analysis import plays_frame
from tavlakit.engine.position import Position
from tavlakit.formats import REGISTRY, open_games
from tavlakit.formats.xg import MAGIC, RECORD_SIZE, _archive, rtf_text
from tavlakit.pictures.viewer import html, recorded_errors
from tavlakit.record.match import Match
from tavlakit.replay.fingerprint import Fingerprinter, fingerprint
from tavlakit.replay.walker import replay

#: What each corpus file holds, read off XG's own screens of the records
#: (players, length, games, final score as the match footer says it).
FILES = {
    "test.xg": (("Kévin Unger", "Maxence Job"), 7, 7),
    "match_with_comment.xg": (("Nicolas HARMAND", "Kévin UNGER"), 9, 8),
    "Lux Heuler-Franzosen 7 point match 12.08.2024.xg": (("Lux Heuler", "Franzosen"), 7, 7),
    "Squire-Jørgensen-Harmand-Unger 7 point match 18-08-2024.xg": (("Squire/Jørgensen", "Harmand/Unger"), 7, 8),
}


def records(path: Path) -> list[bytes]:
    """The game file's records (through the reader's archive code; the
    fields are read here by their offsets in XG's description)."""
    games = _archive(path.read_bytes()).games
    return [games[i : i + RECORD_SIZE] for i in range(0, len(games), RECORD_SIZE)]


def footers(path: Path) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Each game's score after it and the match's final score, from the footer records."""
    games, final = [], (0, 0)
    for record in records(path):
        if record[8] == 4:
            games.append(struct.unpack_from("<ii", record, 12))
        elif record[8] == 5:
            final = struct.unpack_from("<ii", record, 12)
    return games, final


@pytest.fixture(scope="module")
def xg_dir(corpus_dir: Path) -> Path:
    return corpus_dir / "xg"


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_corpus_file_reads_with_its_games_and_scores(xg_dir: Path, name: str) -> None:
    path = xg_dir / name
    match = tk.read_match(path)
    players, length, games = FILES[name]
    assert (match.players, match.length, len(match.games)) == (players, length, games)
    assert match.problems == [] and all(g.problems == [] for g in match.games)
    after, final = footers(path)
    assert [g.score_after() for g in match.games] == after  # the file's own score after every game
    assert match.final_score() == final
    assert [g.number for g in match.games] == list(range(1, games + 1))
    assert match.tags["Variation"] == "Backgammon" and match.tags["Crawford"] == "On"
    for game in match.games:
        assert game.result is not None and game.turns
        assert any(t.kind == "roll" and t.moves for t in game.turns)


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_boards_the_file_stores_after_every_play(xg_dir: Path, name: str) -> None:
    """The engine's board after each play (the record's moves replayed) is
    the board XG stored with it (PositionEnd, the mover's view); a record
    XG itself marks invalid (InvalidM) is the only illegal play."""
    path = xg_dir / name
    raw = records(path)
    match = tk.read_match(path)
    played = 0
    invalid = []
    for rg in replay(match):
        for step in rg.steps:
            turn = step.turn
            if turn.kind != "roll" or not turn.moves:
                continue
            assert turn.line is not None
            record = raw[turn.line - 1]
            assert record[8] == 3
            stored = Position(struct.unpack_from("<26b", record, 35))
            if struct.unpack_from("<i", record, 2480)[0]:
                invalid.append(turn.line)
            assert step.after == stored, (rg.game.number, turn.line)
            played += 1
        assert [p.line for p in rg.problems if p.severity == "error"] == [
            line for line in invalid if any(t.line == line for t in rg.game.turns)
        ]
    assert played > 150


def turns(match: Match) -> list[list[tuple[object, ...]]]:
    return [
        [(t.player, t.kind, t.dice, tuple(sorted((m.src, m.dst) for m in t.moves)), t.cube) for t in g.turns]
        for g in match.games
    ]


def test_the_same_match_as_xgs_own_mat_export(xg_dir: Path) -> None:
    """test.mat is XG's export of test.xg: the same games, scores, dice,
    plays, cube actions, results and the same Position ID after every turn.
    The export writes '???' for a roll the loser resigned after (the .xg
    has the roll and no play) and cannot say 'resigned'."""
    xg = tk.read_match(xg_dir / "test.xg")
    mat = tk.read_match(xg_dir / "test.mat")
    assert xg.players == mat.players and xg.length == mat.length
    assert [g.score for g in xg.games] == [g.score for g in mat.games]
    assert turns(xg) == turns(mat)
    unknown = [(g.number, i) for g in mat.games for i, t in enumerate(g.turns) if t.status == "unknown"]
    assert len(unknown) == 3 and unknown == [
        (g.number, len(g.turns) - 1) for g in xg.games if g.result and g.result.resigned and not g.turns[-1].moves
    ]
    assert [(g.result.winner, g.result.points) for g in xg.games if g.result] == [
        (g.result.winner, g.result.points) for g in mat.games if g.result
    ]
    for ours, theirs in zip(replay(xg), replay(mat)):
        ids = [s.after.position_id() for s in ours.steps]
        known = [s.after.position_id() for s in theirs.steps]
        cut = next((i for i, s in enumerate(theirs.steps) if s.turn.status == "unknown"), len(known))
        assert ids[:cut] == known[:cut]
        assert ours.result_kind == theirs.result_kind


def test_hit_marks_as_xgs_text_export_writes_them(xg_dir: Path) -> None:
    """The .xg holds no hit marks: they come from the boards it stores, and
    are those of test.txt, XG's export that writes them."""

    def hits(match: Match) -> list[list[set[int]]]:
        return [[{m.dst for m in t.moves if m.hit} for t in g.turns] for g in match.games]

    xg = hits(tk.read_match(xg_dir / "test.xg"))
    assert xg == hits(tk.read_match(xg_dir / "test.txt")) and sum(len(h) for g in xg for h in g) > 60


def test_the_same_match_as_gnubgs_sgf(xg_dir: Path) -> None:
    """gnubg's SGF of the match has the same dice, plays, cube actions and
    results, resignations included (one content fingerprint)."""

    def digest(path: Path) -> str | None:
        match, games = open_games(path)
        prints = Fingerprinter(match)
        list(prints.games(replay(match, games=games)))
        return prints.digest()

    assert digest(xg_dir / "test.xg") == digest(xg_dir / "test.sgf") == fingerprint(tk.read_match(xg_dir / "test.sgf"))
    sgf = tk.read_match(xg_dir / "test.sgf")
    xg = tk.read_match(xg_dir / "test.xg")
    assert [g.result for g in xg.games] == [g.result for g in sgf.games]
    assert [g.crawford for g in xg.games] == [g.crawford for g in sgf.games]


def test_comments_tags_and_cube_actions(xg_dir: Path) -> None:
    match = tk.read_match(xg_dir / "match_with_comment.xg")
    said = {(g.number, t.dice, t.comment) for g in match.games for t in g.turns if t.comment}
    assert said == {
        (1, (5, 4), "coup assez difficile"),
        (1, (6, 6), "les double 66 sont toujpurs difficiles à trouver"),
    }
    assert match.tags["Event"] == "Entrainement live" and match.tags["Site"] == "Café Jussieu, Paris"
    test = tk.read_match(xg_dir / "test.xg")
    assert test.tags["EventDate"] == "2023.11.26" and test.tags["EventTime"] == "09.30"  # as XG's export says
    assert test.tags["Round"] == "Tableau Or 2" and test.tags["CubeLimit"] == "1024"
    cube = [(g.number, t.player, t.kind, t.cube) for g in test.games for t in g.turns if t.kind != "roll"]
    assert cube[:3] == [(1, 0, "double", 2), (1, 1, "drop", None), (2, 0, "double", 2)]
    assert [(g.result.winner, g.result.points, g.result.resigned) for g in test.games if g.result] == [
        (0, 1, False),
        (0, 2, True),
        (1, 1, False),
        (1, 1, False),
        (1, 2, True),
        (0, 2, False),
        (0, 2, True),
    ]


def test_rtf_comments_become_plain_text() -> None:
    rtf = (
        r"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0\fcharset0 Arial;}}{\colortbl;}{\*\generator Riched20;}"
        "\x01\x02"
        r"\pard\fs20 one \b two\b0\par three \{x\}\par}"
    )
    assert rtf_text(rtf.replace("\x01\x02", "\n")) == "one two\nthree {x}"


# --- XG's analysis -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FILES))
def test_recorded_error_is_zero_exactly_for_xgs_best_play(xg_dir: Path, name: str) -> None:
    """recorded_error is 0 where the board played is XG's best candidate's
    (or within 0.0001 of its equity: XG stores such a play's error as 0),
    else the equity it lost against the best candidate, read from the
    candidates' equities; NaN where the record holds no analysis (XG's
    -1000: a roll not played before a resignation). A record XG marks
    invalid (InvalidM) is left aside."""
    path = xg_dir / name
    raw = records(path)
    match = tk.read_match(path)
    plays = plays_frame(match, luck=False)
    rolls = plays[plays["kind"] == "roll"]
    lines = [t.line for g in match.games for t in g.turns if t.kind == "roll"]
    assert len(lines) == len(rolls)
    best = 0
    for line, error, luck in zip(lines, rolls["recorded_error"], rolls["recorded_luck"]):
        record = raw[line - 1]
        if struct.unpack_from("<d", record, 2312)[0] == -1000:
            assert math.isnan(error)
            continue
        assert luck == pytest.approx(struct.unpack_from("<d", record, 2320)[0])
        if struct.unpack_from("<i", record, 2480)[0]:
            continue
        count = struct.unpack_from("<i", record, 188)[0]
        equity = [struct.unpack_from("<7f", record, 1408 + 28 * k)[6] for k in range(count)]
        played = next(k for k in range(count) if record[192 + 26 * k : 218 + 26 * k] == record[35:61])
        lost = equity[0] - equity[played]
        assert (error == 0) == (played == 0 or lost < 1e-4)
        if error:
            assert error == pytest.approx(lost, rel=1e-6, abs=1e-9) and error > 0
        best += played == 0
    unplayed = sum(1 for g in match.games if g.result and g.result.resigned and not g.turns[-1].moves)
    assert 0 < best < len(rolls) and rolls["recorded_error"].isna().sum() == unplayed


def test_recorded_errors_add_up_to_what_the_viewer_and_stats_show(xg_dir: Path) -> None:
    match = tk.read_match(xg_dir / "test.xg")
    plays = plays_frame(match, luck=False)
    sums = plays.groupby("player")["recorded_error"].sum()
    page = html(match)
    for side in (0, 1):
        shown = f'data-program="XG" data-player="{side}" data-value="{recorded_errors(match)["XG"][side]!r}"'
        assert shown in page
        assert recorded_errors(match)["XG"][side] == pytest.approx(sums[side], abs=1e-12)
    players = tk.analysis.players_frame(tk.analysis.analyse(match, luck=False))
    per_match = players[players["scope"] == "match"].set_index("side")["recorded_error"]
    assert list(per_match) == pytest.approx([sums[0], sums[1]])
    data = tk.viewer.page_data(page)
    texts = [f.get("a", "") for g in data["games"] for f in g["frames"]]
    analysed = [
        t
        for g in match.games
        for t in g.turns
        if t.analysis and (t.analysis.error, t.analysis.luck, t.analysis.cube_error) != (None, None, None)
    ]
    assert sum(t.startswith("XG: ") for t in texts) == len(analysed) > 340  # saying whose figures they are


@pytest.mark.parametrize("name", sorted(FILES))
def test_recorded_cube_errors_are_the_equity_lost_by_xgs_own_cube_equities(xg_dir: Path, name: str) -> None:
    """Every analysed cube decision's recorded error is the equity the
    action lost against XG's own three equities in the same record (read
    here by their offsets in XG's description: no double, double/take,
    double/pass at 152, 156, 160, the doubler's view, a pass = +1): the
    doubler's (a double, or not doubling: kept on the roll after it) and
    the taker's (take or drop), >= 0 whatever sign XG stores them with."""
    path = xg_dir / name
    match = tk.read_match(path)
    turns = {(t.line, t.kind): t for g in match.games for t in g.turns}
    checked = wrong = 0
    for number, record in enumerate(records(path), 1):
        if record[8] != 2 or struct.unpack_from("<d", record, 200)[0] == -1000:
            continue
        doubled, take = struct.unpack_from("<ii", record, 16)
        no_double, double_take, double_pass = struct.unpack_from("<3f", record, 152)
        doubling = min(double_take, double_pass)  # the taker answers for the doubler's worst
        best = max(no_double, doubling)
        if doubled == 1:
            answer = turns[number, "take" if take == 1 else "drop"]
            pairs = [
                (turns[number, "double"].analysis, best - doubling),
                (answer.analysis, (double_take if take == 1 else double_pass) - doubling),
            ]
        else:
            pairs = [(turns[number + 1, "roll"].analysis, best - no_double)]
        for analysis, lost in pairs:
            assert analysis is not None
            recorded = analysis.cube_error if doubled != 1 else analysis.error
            assert recorded is not None and recorded >= 0
            assert recorded == pytest.approx(lost, abs=1e-4)
            checked += 1
            wrong += recorded > 0.001
    assert checked > 5 and wrong >= 3


def test_recorded_errors_are_in_emg_as_gnubgs(xg_dir: Path) -> None:
    """XG's errors are in EMG (normalised to the cube), the unit of gnubg's
    own analysis of the same match (xg/test.sgf, gnubg's writer): XG's
    checker errors add up to gnubg's within 10%, at cube 1 and at cube 2
    alike (points would double them at cube 2, MWC shrink them), and the
    doubles XG calls wrong by more than 0.1 gnubg finds wrong too (its
    cubeful MWC of no double above double/take, from its DA property)."""
    xg = tk.read_match(xg_dir / "test.xg")
    sgf = tk.read_match(xg_dir / "test.sgf")
    totals = {1: [0.0, 0.0], 2: [0.0, 0.0]}
    doubles = 0
    for ours, gnubg in zip(xg.games, sgf.games):
        assert [t.kind for t in ours.turns] == [t.kind for t in gnubg.turns]
        cube = 1
        for mine, theirs in zip(ours.turns, gnubg.turns):
            analysis = mine.analysis
            if mine.kind == "take":
                cube *= 2
            elif mine.kind == "double" and analysis is not None and (analysis.error or 0) > 0.1:
                fields = theirs.extra["sgf:DA"][0].split()
                assert float(fields[13]) > float(fields[20])  # gnubg: no double better than double/take
                doubles += 1
            elif mine.kind == "roll" and "sgf:A" in theirs.extra and analysis and analysis.error is not None:
                played, *options = theirs.extra["sgf:A"]
                equities = [float(option.split()[9]) for option in options]
                if int(played) < len(equities):
                    totals[cube][0] += analysis.error
                    totals[cube][1] += equities[0] - equities[int(played)]
    assert doubles == 2
    for xg_total, gnubg_total in totals.values():
        assert gnubg_total > 2 and xg_total == pytest.approx(gnubg_total, rel=0.1)


def test_candidates_level_and_cube_analysis(xg_dir: Path) -> None:
    match = tk.read_match(xg_dir / "test.xg")
    first = match.games[0].turns[0]
    assert first.analysis is not None and first.analysis.program == "XG" and first.analysis.level == "XG Roller++"
    candidates = first.analysis.candidates
    assert len(candidates) == 8 and first.analysis.played == 0
    assert sorted(candidates[0].moves) == sorted(first.moves)
    assert [c.equity for c in candidates] == sorted((c.equity for c in candidates), reverse=True)
    for candidate in candidates:
        assert candidate.probabilities is not None
        win, gammon, backgammon, lose_gammon, lose_backgammon = candidate.probabilities
        assert 0 <= backgammon <= gammon <= win <= 1 and 0 <= lose_backgammon <= lose_gammon <= 1 - win + 1e-6
    double = next(t for t in match.games[0].turns if t.kind == "double")
    assert double.analysis is not None and [c.action for c in double.analysis.candidates] == [
        "no double",
        "double/take",
        "double/pass",
    ]
    assert double.analysis.error == 0.0


# --- formats: recognised by content, converted, kept --------------------------------


def test_recognised_by_its_magic_bytes_whatever_the_name(xg_dir: Path, tmp_path: Path) -> None:
    assert REGISTRY["xg"].magic == MAGIC and REGISTRY["xg"].binary
    renamed = tmp_path / "match.txt"
    shutil.copy(xg_dir / "test.xg", renamed)
    expected = tk.read_match(xg_dir / "test.xg")
    assert tk.read_match(renamed).games == expected.games
    assert tk.read_match(io.BytesIO((xg_dir / "test.xg").read_bytes())).games == expected.games
    with pytest.raises(ValueError, match="does not write"):
        tk.write_match(expected, tmp_path / "out.xg")


def test_converted_to_mat_and_json_and_read_back(xg_dir: Path) -> None:
    match = tk.read_match(xg_dir / "test.xg")
    text = io.StringIO()
    lost = tk.write_match(match, text, "mat")
    assert any("analysis" in p.message for p in lost)
    back = tk.read_match(io.StringIO(text.getvalue()), "mat")
    assert turns(back) == turns(match)
    assert [[t.moves for t in g.turns] for g in back.games] == [[t.moves for t in g.turns] for g in match.games]
    assert [g.result for g in back.games] == [g.result for g in match.games]
    assert tk.validate(back).errors == []
    data = io.StringIO()
    assert tk.write_match(match, data, "json") == []
    assert tk.read_match(io.StringIO(data.getvalue()), "json") == match  # XG's analysis included


# --- damaged files -------------------------------------------------------------------


def pack(header: bytes, games: bytes) -> bytes:
    """An .xg file: ``header`` (the header and thumbnail of a real file) and
    an archive holding ``games`` as temp.xg, as XG's archive lays it out."""
    packed = zlib.compress(games)
    name = b"\x07temp.xg".ljust(256, b"\0") + b"\0" * 256
    index = zlib.compress(name + struct.pack("<iiiIBB2x", len(games), len(packed), 0, zlib.crc32(games), 0, 2))
    body = packed + index
    return header + body + struct.pack("<Iiiiii12x", zlib.crc32(body), 1, 1, len(index), len(packed), 1)


def parts(path: Path) -> tuple[bytes, bytes]:
    data = path.read_bytes()
    size, thumbnail = struct.unpack_from("<I", data, 8)[0], struct.unpack_from("<I", data, 24)[0]
    return data[: size + thumbnail], _archive(data).games


def one_problem(data: bytes, tmp_path: Path) -> tuple[Match, tk.Problem]:
    path = tmp_path / "damaged.xg"
    path.write_bytes(data)
    match = tk.read_match(path)
    problems = [*match.problems, *(p for g in match.games for p in g.problems)]
    assert len(problems) == 1, problems
    assert problems[0].code == "unreadable" and problems[0].severity == "error" and problems[0].file == str(path)
    return match, problems[0]


def test_the_packer_makes_a_file_read_as_the_original(xg_dir: Path, tmp_path: Path) -> None:
    header, games = parts(xg_dir / "test.xg")
    path = tmp_path / "repacked.xg"
    path.write_bytes(pack(header, games))
    assert tk.read_match(path) == tk.read_match(xg_dir / "test.xg")


def test_bad_magic(xg_dir: Path, tmp_path: Path) -> None:
    match, problem = one_problem(b"RGMX" + (xg_dir / "test.xg").read_bytes()[4:], tmp_path)
    assert match.games == [] and "RGMH" in problem.message


def test_a_record_cut_short_keeps_the_games_before_it(xg_dir: Path, tmp_path: Path) -> None:
    header, games = parts(xg_dir / "test.xg")
    whole = tk.read_match(xg_dir / "test.xg")
    cut = 300  # inside game 5 (records 239-480)
    match, problem = one_problem(pack(header, games[: (cut - 1) * RECORD_SIZE + 1000]), tmp_path)
    assert problem.line == cut and f"record {cut}" in problem.message
    assert match.games[:4] == whole.games[:4] and len(match.games) == 5
    assert match.games[4].result is None and match.games[4].turns == whole.games[4].turns[: len(match.games[4].turns)]


def test_a_cut_archive_keeps_the_games_before_the_cut(xg_dir: Path, tmp_path: Path) -> None:
    data = (xg_dir / "test.xg").read_bytes()
    whole = tk.read_match(xg_dir / "test.xg")
    match, problem = one_problem(data[: len(data) // 2], tmp_path)
    assert 1 <= len(match.games) < len(whole.games) and match.games[0] == whole.games[0]
    assert problem.line is not None and problem.line > 1


@pytest.mark.parametrize("fill", [0, 0xFF])
def test_a_corrupt_zlib_stream_keeps_the_games_before_it(xg_dir: Path, tmp_path: Path, fill: int) -> None:
    data = bytearray((xg_dir / "test.xg").read_bytes())
    start = (
        len(data)
        - 36
        - struct.unpack_from("<i", data, len(data) - 20)[0]
        - struct.unpack_from("<i", data, len(data) - 24)[0]
    )
    middle = start + 60_000
    data[middle : middle + 64] = bytes([fill]) * 64
    whole = tk.read_match(xg_dir / "test.xg")
    match, problem = one_problem(bytes(data), tmp_path)
    assert match.games[:2] == whole.games[:2] and len(match.games) < len(whole.games)
    assert "record" in problem.message


def test_example_xg_holds_less_than_one_record(xg_dir: Path, tmp_path: Path) -> None:
    match, problem = one_problem((xg_dir / "example.xg").read_bytes(), tmp_path)
    assert match.games == [] and problem.line == 1 and "578 of 2560" in problem.message


def test_a_variant_the_engine_does_not_play_is_unsupported(xg_dir: Path, tmp_path: Path) -> None:
    header, games = parts(xg_dir / "test.xg")
    nack = bytearray(games)
    nack[96:100] = struct.pack("<i", 1)  # the match header's Variation: Nackgammon
    path = tmp_path / "nack.xg"
    path.write_bytes(pack(header, bytes(nack)))
    match = tk.read_match(path)
    [problem] = match.problems
    assert problem.code == "unsupported" and problem.line == 1 and "Nackgammon" in problem.message
    assert len(match.games) == 7 and "Variation" not in match.tags


def test_mutated_files_never_raise(xg_dir: Path, tmp_path: Path) -> None:
    """Bytes changed in the records (repacked, so the archive is sound) or in
    the file itself, or the file cut anywhere: read and validated without an
    exception or an ``internal`` problem."""
    import random

    rng = random.Random("xg-mutations")
    header, games = parts(xg_dir / "match_with_comment.xg")
    original = (xg_dir / "match_with_comment.xg").read_bytes()
    cases = []
    fields = [
        8,
        *range(9, 110),
        *range(192, 220),
        *range(900, 920),
        *range(2308, 2336),
        *range(2472, 2476),
        *range(2524, 2528),
    ]  # the kind, players, moves, dice, boards, candidates, errors, comments
    for _ in range(40):
        data = bytearray(games)
        for _ in range(rng.randint(1, 40)):
            at = rng.randrange(len(data) // RECORD_SIZE) * RECORD_SIZE + rng.choice(fields)
            data[at] = rng.choice([0, 1, 2, 3, 5, 6, 24, 25, 127, 128, 254, 255, rng.randrange(256)])
        cases.append(pack(header, bytes(data)))
    for _ in range(10):
        data = bytearray(original)
        at = rng.randrange(len(data))
        data[at : at + 8] = bytes(rng.randrange(256) for _ in range(8))
        cases.append(bytes(data))
        cases.append(original[: rng.randrange(len(original))])
    for i, data in enumerate(cases):
        match = tk.read_match(io.BytesIO(data))
        report = tk.validate(match)
        assert not [p for p in report.problems if p.code == "internal"]
        for game in match.games:
            for turn in game.turns:
                if turn.analysis is not None:
                    list(turn.analysis.candidates)
        tk.write_match(match, io.StringIO(), "json")
        if i % 10 == 0:
            html(match)


def test_the_commands_read_xg(xg_dir: Path, tmp_path: Path) -> None:
    """validate, convert, show, stats and analyse --store take .xg files as any record."""
    from typer.testing import CliRunner

    from tavlakit.cli import app

    def run(*args: object) -> str:
        result = CliRunner().invoke(app, [str(a) for a in args])
        assert result.exit_code == 0, result.output
        return result.output

    test = xg_dir / "test.xg"
    assert run("validate", test).splitlines()[-1].startswith("1 file(s), 7 game(s), 334 play(s): 0 error(s)")
    run("convert", test, "-o", tmp_path / "test.mat")
    assert turns(tk.read_match(tmp_path / "test.mat")) == turns(tk.read_match(test))
    run("show", test, "-o", tmp_path / "test.html")
    assert 'data-role="recorded-error"' in (tmp_path / "test.html").read_text(encoding="utf-8")
    sums = plays_frame(tk.read_match(test), luck=False).groupby("player")["recorded_error"].sum()
    rows = run("stats", "--no-luck", "--by", "file", test, xg_dir / "match_with_comment.xg")
    assert "recorded_error" in rows and all(f"{total:.3f}" in rows for total in sums)
    run("analyse", test, "--store", tmp_path / "store", "--no-luck", "-j", "1")
    stored = tk.analysis.open_store(tmp_path / "store")
    assert stored.plays.groupby("player")["recorded_error"].sum().tolist() == pytest.approx(sums.tolist())


def test_the_file_headers_comment_is_a_match_comment(xg_dir: Path, tmp_path: Path) -> None:
    header, games = parts(xg_dir / "test.xg")
    at = 40 + 3 * 2048  # the header's Comments, after the GUID and three 1,024-character texts
    noted = header[:at] + "Kısa not".encode("utf-16-le") + header[at + 16 :]
    path = tmp_path / "noted.xg"
    path.write_bytes(pack(noted, games))
    assert tk.read_match(path).comments == ["Kısa not"]
    assert tk.read_match(xg_dir / "test.xg").comments == []


def test_a_record_of_an_unknown_kind_is_said_and_left_out(xg_dir: Path, tmp_path: Path) -> None:
    header, games = parts(xg_dir / "test.xg")
    assert games[2 * RECORD_SIZE + 8] == 2 and struct.unpack_from("<i", games, 2 * RECORD_SIZE + 16)[0] == -2
    changed = bytearray(games)
    changed[2 * RECORD_SIZE + 8] = 7  # record 3: game 1's first cube record, no decision in it
    path = tmp_path / "kind7.xg"
    path.write_bytes(pack(header, bytes(changed)))
    match = tk.read_match(path)
    [problem] = match.problems
    assert (problem.code, problem.severity, problem.line) == ("unsupported", "warning", 3)
    assert match.games == tk.read_match(xg_dir / "test.xg").games


def test_statistics_show_xgs_totals_beside_ours(corpus_dir: Path) -> None:
    """The statistics frame carries the record's own analysis beside ours:
    XG's checker error of each player is the sum of the plays frame's
    recorded_error, and a record without analysis has NaN there."""
    from tavlakit.analysis.statistics import statistics_frame

    match = tk.read_match(corpus_dir / "xg" / "match_with_comment.xg")
    stats = statistics_frame(match, level="expert")
    plays = tk.analysis.analyse(match, luck=False).plays
    rolls = plays[plays["kind"] == "roll"]
    for row in stats[stats["scope"] == "match"].itertuples():
        assert row.recorded_by == "XG"
        mine = rolls[rolls["name"] == row.player]
        assert row.recorded_checker_error == pytest.approx(mine["recorded_error"].sum())
        assert row.recorded_luck == pytest.approx(mine["recorded_luck"].sum())
        cube = [
            (t.analysis.cube_error if t.kind == "roll" else t.analysis.error) or 0.0
            for g in match.games
            for t in g.turns
            if t.player == row.side and t.analysis is not None
        ]
        assert row.recorded_cube_error == pytest.approx(sum(cube)) and sum(cube) > 0.1
    plain = statistics_frame(tk.read_match(corpus_dir / "xg" / "test.mat"), level="expert")
    assert plain["recorded_checker_error"].isna().all() and plain["recorded_by"].isna().all()
    assert plain["recorded_cube_error"].isna().all()


def test_statistics_recorded_cube_error_of_test_xg(corpus_dir: Path) -> None:
    """XG's cube errors in test.xg, worked out by hand from the three
    equities XG stores with each decision (no double, double/take,
    double/pass): Kévin Unger did not double game 1 at 0.9783 against
    double/pass 1.0 (0.0217), passed game 4's double at 0.9939 against a
    pass of 1.0 (0.0061), did not double game 5 at 0.6198 against
    double/take 0.8179 (0.1981), doubled game 6 at double/take 0.3135
    against no double 0.4643 (0.1508); Maxence Job doubled game 5 at
    double/take -0.1710 against no double 0.1132 (0.2842)."""
    from tavlakit.analysis.statistics import statistics_frame

    stats = statistics_frame(tk.read_match(corpus_dir / "xg" / "test.xg"), level="expert")
    rows = stats[stats["scope"] == "match"].set_index("side")
    expected = [0.0217 + 0.0061 + 0.1981 + 0.1508, 0.2842]
    assert rows["recorded_cube_error"].tolist() == pytest.approx(expected, abs=3e-4)
