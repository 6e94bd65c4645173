"""Reading Gibbon Match Dumps (.gmd): every corpus file, 7point.gmd against
Gibbon's own .mat and .sgf of the same match, the set-up positions against
edited.sgf, and bad input."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.engine.play import Move
from tavlakit.engine.position import Position
from tavlakit.formats import by_content, by_extension, find_records
from tavlakit.formats.gmd import read_gmd
from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import read_sgf
from tavlakit.record.match import Match, Result
from tavlakit.replay.walker import replay


def gmd_rows(corpus: Path) -> list[dict[str, str]]:
    with open(corpus / "SOURCES.tsv", encoding="utf-8") as f:
        return [row for row in csv.DictReader(f, delimiter="\t") if row["format"] == "gibbon-gmd"]


def read(corpus: Path, name: str) -> Match:
    return tk.read_match(corpus / "gnu_gibbon" / name)


def plays(match: Match, game: int = 0) -> list[tuple[int, str, tuple[int, int] | None, str, int | None]]:
    return [(t.player, t.kind, t.dice, str(t.play), t.cube) for t in match.games[game].turns]


def test_every_corpus_gmd_reads(corpus_dir: Path) -> None:
    rows = gmd_rows(corpus_dir)
    assert len(rows) == 41
    for row in rows:
        path = corpus_dir / row["file"]
        assert by_extension(path).name == "gmd"  # type: ignore[union-attr]
        assert by_content(path.read_text(encoding="utf-8")).name == "gmd"
        match = tk.read_match(path)
        problems = match.problems + [p for g in match.games for p in g.problems]
        assert [p for p in problems if p.severity == "error"] == [], row["file"]
        assert all(p.file == str(path) and p.line for p in problems), row["file"]
        assert len(match.games) == int(row["games"]), row["file"]
        assert match.length == 7 and match.tags["Crawford"] == "On"
        assert match.comments == ["Created by Gibbon version 0.2.0"]
        report = tk.validate(match)
        assert report.errors == [], (row["file"], report.errors)


def steps(match: Match) -> list[list[tuple[object, ...]]]:
    """Each game's turns as the engine replays them: who, what, the board
    before and after (Position IDs), the cube."""
    return [
        [
            (
                s.player,
                s.turn.kind,
                s.turn.dice and sorted(s.turn.dice),
                s.before.position_id(),
                s.after.position_id(),
                s.cube,
                s.owner,
            )
            for s in game.steps
        ]
        for game in replay(match)
    ]


def results(match: Match) -> list[tuple[int, int] | None]:
    return [(g.result.winner, g.result.points) if g.result else None for g in match.games]


def test_7point_is_the_match_of_its_mat_and_sgf(corpus_dir: Path) -> None:
    gmd = read(corpus_dir, "7point.gmd")
    mat = read_mat((corpus_dir / "gnu_gibbon" / "7point.mat").read_bytes())
    sgf = read_sgf(corpus_dir / "gnu_gibbon" / "7point.sgf")
    assert gmd.players == mat.players == sgf.players == ("JoeBlack", "SnowWhite")
    assert gmd.length == mat.length == sgf.length == 7
    assert len(gmd.games) == 9
    ours = steps(gmd)
    assert ours == steps(mat) == steps(sgf)
    assert sum(len(game) for game in ours) == 369
    assert results(gmd) == results(mat) == results(sgf)
    assert [g.score for g in gmd.games] == [g.score for g in mat.games] == [g.score for g in sgf.games]
    assert gmd.final_score() == (8, 5)

    # hit marks come from the board, as the SGF reader has them: the same points hit in every turn
    # (Gibbon orders some moves differently, so which of two checkers hit may differ)
    def hits(match: Match) -> list[list[int]]:
        return [sorted(m.dst for m in t.moves if m.hit) for g in match.games for t in g.turns]

    assert hits(gmd) == hits(sgf) and sum(map(len, hits(gmd))) > 20
    # what only Gibbon's files say: game 4 ended by an accepted resignation
    assert [g.result.resigned for g in gmd.games] == [g.result.resigned for g in sgf.games]  # type: ignore[union-attr]
    assert gmd.games[3].result.resigned  # type: ignore[union-attr]


def test_7point_header_and_first_game(corpus_dir: Path) -> None:
    match = read(corpus_dir, "7point.gmd")
    assert match.tags["Site"] == "София (България)"
    assert match.tags["Player 2 Rating"] == "1234.56 123 (FIBS), 0.984 31 (Gibbon)"  # Rank:W: SnowWhite
    assert match.tags["Player 1 Rating"] == "2345.67 234 (FIBS), 0.845 266 (Gibbon)"  # Rank:B: JoeBlack
    assert plays(match) == [
        (1, "roll", (4, 2), "8/4 6/4", None),
        (0, "roll", (3, 2), "24/22 13/10", None),
        (1, "roll", (4, 3), "24/20 6/3*", None),
        (0, "roll", (5, 2), "bar/18", None),
        (1, "roll", (1, 3), "8/7* 6/3", None),
        (0, "roll", (3, 4), "", None),
        (1, "double", None, "", 2),
        (0, "drop", None, "", None),
    ]
    assert match.games[0].turns[0].extra["gmd:time"] == ["12345"]  # Roll:W:12345: 4 2
    assert match.games[0].result == Result(1, 1)
    assert match.games[1].score == (0, 1)


# File, then per game: the turns (player, kind, dice, play, cube) and the result, read by eye.
EDGES = {
    "dance-complete1.gmd": [
        (
            [
                (0, "roll", (2, 5), "24/22 13/8", None),
                (1, "roll", (5, 5), "8/3* 8/3 6/1* 6/1", None),
                (0, "roll", (3, 1), "", None),
            ],
            None,
        )
    ],
    "dance-incomplete.gmd": [
        ([(0, "roll", (2, 5), "24/22 13/8", None), (1, "roll", (5, 5), "8/3* 8/3 6/1* 6/1", None)], None)
    ],
    "drop-black-complete.gmd": [
        ([(0, "roll", (2, 4), "8/4 6/4", None), (1, "double", None, "", 2), (0, "drop", None, "", None)], (1, 1)),
        ([(0, "roll", (2, 4), "8/4 6/4", None), (1, "roll", (5, 2), "", None)], None),
    ],
    "drop-white-incomplete.gmd": [([(1, "roll", (4, 2), "8/4 6/4", None), (0, "double", None, "", 2)], None)],
    "drop-white-complete.gmd": [
        ([(1, "roll", (4, 2), "8/4 6/4", None), (0, "double", None, "", 2), (1, "drop", None, "", None)], (0, 1)),
        ([(1, "roll", (4, 2), "8/4 6/4", None), (0, "roll", (5, 2), "", None)], None),
    ],
    "maxfill-black-complete.gmd": [
        ([(0, "roll", (2, 4), "8/4 6/4", None), (1, "roll", (5, 2), "", None)], (0, 1)),
        (
            [
                (0, "roll", (2, 4), "8/4 6/4", None),
                (1, "double", None, "", 2),
                (0, "take", None, "", None),
                (1, "roll", (5, 2), "", None),
            ],
            None,
        ),
    ],
    "reject-black-complete.gmd": [
        (
            [
                (0, "roll", (2, 4), "8/4 6/4", None),
                (1, "double", None, "", 2),
                (0, "take", None, "", None),
                (1, "roll", (3, 1), "8/5 6/5", None),
                (0, "roll", (4, 4), "", None),
            ],
            None,
        )
    ],
    "roll-white-complete.gmd": [
        (
            [
                (1, "roll", (4, 2), "8/4 6/4", None),
                (0, "roll", (3, 1), "8/5 6/5", None),
                (1, "double", None, "", 2),
                (0, "take", None, "", None),
                (1, "roll", (4, 4), "", None),
            ],
            None,
        )
    ],
    "roll-black-incomplete.gmd": [([(0, "roll", (2, 4), "8/4 6/4", None), (1, "roll", (3, 1), "", None)], None)],
    "win-by-double.gmd": [([(0, "double", None, "", 4)], None)],
    "win-by-move.gmd": [([(0, "roll", (3, 2), "", None)], None)],
    "maxfill-white-complete.gmd": [
        ([(1, "roll", (4, 2), "8/4 6/4", None), (0, "roll", (5, 2), "", None)], (1, 1)),
        (
            [
                (1, "roll", (4, 2), "8/4 6/4", None),
                (0, "double", None, "", 2),
                (1, "take", None, "", None),
                (0, "roll", (5, 2), "", None),
            ],
            None,
        ),
    ],
    "reject2-black-complete.gmd": [
        (
            [
                (0, "roll", (2, 4), "8/4 6/4", None),
                (1, "roll", (3, 1), "8/5 6/5", None),
                (0, "double", None, "", 2),
                (1, "take", None, "", None),
                (0, "roll", (4, 4), "", None),
            ],
            None,
        )
    ],
    "opening-white-double-complete.gmd": [([(1, "roll", (4, 2), "", None)], None)],
    "initial-with-game.gmd": [([], None)],
    "initial.gmd": [],
    "win-by-double-complete.gmd": [([(0, "double", None, "", 4), (1, "drop", None, "", None)], (0, 2))],
    "win-by-move-complete.gmd": [([(0, "roll", (3, 2), "3/off", None)], (0, 6))],  # White on the bar: backgammon
    "win-by-resignation-complete.gmd": [([], (0, 1))],
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_cases(corpus_dir: Path, name: str) -> None:
    match = read(corpus_dir, name)
    got = [(plays(match, i), results(match)[i]) for i in range(len(match.games))]
    assert got == EDGES[name]


def test_resignations(corpus_dir: Path) -> None:
    accepted = read(corpus_dir, "maxfill-white-complete.gmd").games[0].result
    assert accepted == Result(1, 1, resigned=True)  # Resign:B:: 1, Accept:W:
    refused = read(corpus_dir, "reject-white-complete.gmd")
    game = refused.games[0]
    assert game.result is None and game.extra["gmd:refused-resignations"] == ["Resign:W:: 1 / Reject:B:"]
    assert [(p.code, p.line) for p in game.problems] == [("unsupported", 8)]
    open_offer = read(corpus_dir, "maxfill-black-incomplete.gmd").games[0]
    assert open_offer.extra["gmd:open-resignation"] == ["Resign:W:: 1"]
    assert [(p.code, p.line) for p in open_offer.problems] == [("unsupported", 8)]


def test_opening_ties_are_kept(corpus_dir: Path) -> None:
    game = read(corpus_dir, "opening-black-double-complete.gmd").games[0]
    assert game.extra["gmd:opening-ties"] == ["33", "66"]
    assert [(t.player, t.dice) for t in game.turns] == [(0, (2, 4))]  # White threw 2, Black 4
    assert read(corpus_dir, "initial-with-two-doubles.gmd").games[0].turns == []


def test_set_up_position_as_gibbon_wrote_it_in_sgf(corpus_dir: Path) -> None:
    """edited.gmd and edited.sgf are the same edited position (Gibbon wrote both)."""
    gmd = read(corpus_dir, "edited.gmd").games[0]
    sgf = read_sgf(corpus_dir / "gnu_gibbon" / "edited.sgf").games[0]
    assert gmd.start == sgf.start == "4HPiAWAzTvABMA"
    assert (gmd.score, gmd.cube, gmd.cube_owner) == (sgf.score, sgf.cube, sgf.cube_owner) == ((6, 3), 2, 0)
    assert [(t.player, t.dice, t.moves) for t in gmd.turns] == [(0, (5, 3), ())]
    # Points{2 0 .. 5 0 3 0 1 0 0 4 ..}: White has 2 on the bar, Black one checker on its 3 point
    start = Position.from_position_id(read(corpus_dir, "win-by-move.gmd").games[0].start or "")
    assert start.bar() == (0, 2) and start.points()[0][2] == 1 and start.off() == (14, 0)


def test_folder_and_conversion(corpus_dir: Path, tmp_path: Path) -> None:
    files = find_records(corpus_dir / "gnu_gibbon")
    assert sum(path.suffix == ".gmd" for path in files) == 41
    match = read(corpus_dir, "7point.gmd")
    tk.write_match(match, tmp_path / "7point.mat")
    again = tk.read_match(tmp_path / "7point.mat")
    assert steps(again) == steps(match) and results(again) == results(match)
    with pytest.raises(ValueError, match="does not write"):
        tk.write_match(match, tmp_path / "x.gmd")
    assert not (tmp_path / "x.gmd").exists()


HEAD = "GMD-2\nLength: 7\nGame:\nRoll:W:: 4 2\n"


@pytest.mark.parametrize(
    "text, code, line, column, words",
    [
        (HEAD + "Move:W:: 8/4 6/44\n", "syntax", 5, 16, "not between 0 and 25"),
        (HEAD + "Move:B:: 1/3\n", "syntax", 5, 1, "without a roll of that player"),
        (HEAD + "Move:W:: 8/4 6/\n", "syntax", 5, 14, "cannot read '6/'"),
        (HEAD + "Resign:W::\n", "syntax", 5, 11, "ends too early"),
        (HEAD + "Roll:W:: x y\n", "syntax", 5, 10, "cannot read"),
        (HEAD + "Take:B:\n", "syntax", 5, 1, "answers no double"),
        (HEAD + "Accept:B:\n", "syntax", 5, 1, "answers no resignation"),
        (HEAD + "Bogus:W:: 1\n", "unsupported", 5, 1, "not a Gibbon event"),
        (HEAD + "Double:-:\n", "syntax", 5, 1, "names no player"),
        ("Length: 7\nGame:\n", "syntax", 1, 1, "starts with 'GMD-"),
        ("GMD-2\nLength: 7\nRoll:W:: 4 2\n", "syntax", 3, 1, "before the first 'Game:'"),
        ("GMD-2\nGame: Points{1 2 3}\n", "syntax", 2, 7, "26"),
        ("GMD-2\nGame: Points{0 15 15 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0}\n", "syntax", 2, 7, "set-up"),
    ],
)
def test_bad_input_is_located(text: str, code: str, line: int, column: int, words: str) -> None:
    match = read_gmd(text, "bad.gmd")
    problems = match.problems + [p for g in match.games for p in g.problems]
    assert [(p.code, p.file, p.line, p.column) for p in problems] == [(code, "bad.gmd", line, column)], problems
    assert words in problems[0].message


def test_cut_and_garbage_files_never_raise(corpus_dir: Path) -> None:
    text = (corpus_dir / "gnu_gibbon" / "7point.gmd").read_text(encoding="utf-8")
    for cut in range(0, len(text), 97):
        match = read_gmd(text[:cut])
        assert all(p.line for g in match.games for p in g.problems)
    match = read_gmd(text[: text.index("Move:B:: 14/18 17/18")] + "Move:B:: 14/1")
    assert len(match.games) == 2 and match.games[1].turns[-1].moves == (Move(11, 24),)
    garbage = read_gmd(b"\x00\xff GMD-2\n\x01\x02", "junk.gmd")
    assert garbage.games == [] and garbage.problems and all(p.file == "junk.gmd" for p in garbage.problems)


def test_mutated_gmd_files_never_raise(corpus_dir: Path) -> None:
    """Bytes flipped, lines deleted or doubled, digits changed, truncation."""
    import random

    from fuzzing import mutate

    rng = random.Random(18)
    for row in gmd_rows(corpus_dir)[::3]:
        data = (corpus_dir / row["file"]).read_bytes()
        for _ in range(15):
            mutated, _how = mutate(data, rng)
            match = read_gmd(mutated, "m.gmd")
            report = tk.validate(match)
            assert not any(p.code == "internal" for p in report.problems)
            assert all(p.file == "m.gmd" for p in report.problems)
