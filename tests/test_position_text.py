"""Analysed positions: XG's and BGBlitz's position texts in four interface
languages and gnubg's analysed game export; values read by eye from the
files, the files' own IDs, the CLI's board and moves, and bad input."""

from __future__ import annotations

import csv
import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_svg import NS, expected, stacks
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.cli import app
from tavlakit.engine.position import Position
from tavlakit.engine.rules import DEFAULT_RULES
from tavlakit.formats import find_records
from tavlakit.formats.position_text import read_positions
from tavlakit.record.problem import ProblemError
from tavlakit.replay.legality import judge

runner = CliRunner()
LANGUAGES = ("DE", "EN", "FR", "JP")
STEMS = ("01_checkerPosition", "02_NDT", "03_DT", "04_DP", "05_NRT", "06_RT", "07_RP")


def rows(corpus: Path, *formats: str) -> list[str]:
    with open(corpus / "SOURCES.tsv", encoding="utf-8") as f:
        return [row["file"] for row in csv.DictReader(f, delimiter="\t") if row["format"] in formats]


def summary(record: tk.PositionRecord) -> list[tuple[object, ...]]:
    """What must not depend on the interface language (the level is written in it: "4-plis")."""
    return [(c.equity, c.error, c.action, c.play and str(c.play), c.probabilities, c.mwc) for c in record.candidates]


def version(path: Path) -> str:
    """The analyser's version line (XG's DE files come from another version: other numbers)."""
    return next((line for line in path.read_text(encoding="utf-8").splitlines() if "Version" in line), "")


def test_every_position_file_reads(corpus_dir: Path) -> None:
    files = [f for f in rows(corpus_dir, "xg-position-text", "bgblitz-position-text") if "parser/" in f]
    assert len(files) == 56
    for name in files:
        record = tk.read_position(corpus_dir / name)
        assert record.problems == [], name
        assert record.format == ("xg-position" if name.startswith("xg") else "bgblitz-position")
        assert record.kind == ("checker" if "checker" in name else "cube")
        assert len(record.candidates) == (5 if record.kind == "checker" else 3), name
        assert all(not math.isnan(c.equity) and c.probabilities for c in record.candidates), name
        if record.kind == "cube":
            assert sorted(c.action for c in record.candidates) == ["double-pass", "double-take", "no-double"], name
        assert min(abs(c.error) for c in record.candidates) == 0, name


def xgid_of(path: Path) -> str:
    found = re.search(r"XGID=\S+", path.read_text(encoding="utf-8"))
    assert found
    return found[0]


def test_the_files_own_ids(corpus_dir: Path) -> None:
    """XG's XGID, and BGBlitz's Position-ID/Match-ID of the same positions."""
    for stem in STEMS:
        xg = tk.read_position(corpus_dir / "xgparser" / f"{stem}_EN.txt")
        blitz_path = corpus_dir / "bgfparser" / f"{stem}_EN.txt"
        blitz = tk.read_position(blitz_path)
        position_id = re.search(r"Position-ID: (\S+)", blitz_path.read_text(encoding="utf-8"))
        assert position_id
        assert xg.position == blitz.position == Position.from_position_id(position_id[1])
        assert xgid_of(corpus_dir / "xgparser" / f"{stem}_EN.txt") == xgid_of(blitz_path)
        assert (xg.dice, xg.cube, xg.score, xg.length) == (blitz.dice, blitz.cube, blitz.score, blitz.length)


@pytest.mark.parametrize("stem", STEMS)
def test_languages_give_the_same_numbers(corpus_dir: Path, stem: str) -> None:
    for folder in ("xgparser", "bgfparser"):
        paths = [corpus_dir / folder / f"{stem}_{lang}.txt" for lang in LANGUAGES]
        records = [tk.read_position(path) for path in paths]
        english = records[1]
        for path, record in zip(paths, records):
            assert [(c.action, c.play and str(c.play)) for c in record.candidates] == [
                (c.action, c.play and str(c.play)) for c in english.candidates
            ]
            assert (record.position, record.dice, record.cube, record.score) == (
                english.position,
                english.dice,
                english.cube,
                english.score,
            )
            if version(path)[:28] == version(paths[1])[:28]:
                assert summary(record) == summary(english), path.name


def test_xg_checker_play_read_by_eye(corpus_dir: Path) -> None:
    record = tk.read_position(corpus_dir / "xgparser" / "01_checkerPosition_EN.txt")
    assert record.position.position_id() == "b9sBCIC5bYDQAA"
    assert (record.dice, record.cube, record.score, record.length, record.level) == ((2, 1), (2, 1), (3, 6), 7, "4-ply")
    assert record.names == ("Player 1", "Player 2")
    first, _, third, fourth, _ = record.candidates
    assert (first.text, first.equity, first.error, first.level) == ("19/18 14/12", -0.491, 0.0, "4-ply")
    assert first.probabilities == pytest.approx((0.2545, 0.0, 0.0, 0.7455, 0.3109, 0.0009))
    assert (third.text, third.equity, third.error) == ("19/17 18/17", -0.576, 0.085)
    assert (fourth.text, fourth.level, fourth.equity, fourth.error) == ("14/11", "3-ply", -0.568, 0.076)
    assert record.best is first


def test_xg_cube_decision_read_by_eye(corpus_dir: Path) -> None:
    record = tk.read_position(corpus_dir / "xgparser" / "02_NDT_EN.txt")
    assert (record.kind, record.dice, record.cube, record.score, record.length) == ("cube", None, (1, None), (0, 5), 9)
    assert record.level == "XG Roller++"
    assert [(c.action, c.equity, c.error) for c in record.candidates] == [
        ("no-double", 0.337, 0.0),
        ("double-take", 0.215, 0.122),
        ("double-pass", 1.0, -0.663),
    ]
    assert record.probabilities == pytest.approx((0.544, 0.1822, 0.0053, 0.456, 0.1271, 0.0051))
    redouble = tk.read_position(corpus_dir / "xgparser" / "07_RP_JP.txt")
    assert redouble.cube == (2, 0)  # "Cube: 2, X own cube": the side on roll
    assert [(c.text, c.action, c.equity) for c in redouble.candidates] == [
        ("ノーリダブル", "no-double", 1.027),
        ("リダブル/テイク", "double-take", 1.869),
        ("リダブル/パス", "double-pass", 1.0),
    ]


def test_bgblitz_read_by_eye(corpus_dir: Path) -> None:
    cube = tk.read_position(corpus_dir / "bgfparser" / "03_DT_EN.txt")
    assert cube.names == ("Red", "Green") and cube.level is None  # BGBlitz writes no level
    assert [(c.action, c.mwc, c.equity, c.error) for c in cube.candidates] == [
        ("double-take", 0.410, 0.625, 0.0),
        ("no-double", 0.407, 0.585, 0.040),
        ("double-pass", 0.433, 1.0, -0.375),
    ]
    assert cube.probabilities == pytest.approx((0.610, 0.251, 0.008, 0.390, 0.133, 0.003))
    play = tk.read_position(corpus_dir / "bgfparser" / "01_checkerPosition_FR.txt")
    assert [(str(c.play), c.mwc, c.equity, c.error) for c in play.candidates][:2] == [
        ("19/18 14/12", 0.124, -0.492, 0.0),
        ("19/18 3/1", 0.111, -0.545, 0.053),
    ]
    assert play.candidates[0].probabilities == (0.254, 0.0, 0.0, 0.746, 0.338, 0.004)
    # 05_NRT: BGBlitz draws four checkers and "2" for a stack of six
    assert tk.read_position(corpus_dir / "bgfparser" / "05_NRT_EN.txt").position.points()[1][4] == 6


def test_gnubg_game_export(corpus_dir: Path) -> None:
    files = rows(corpus_dir, "gnubg-text-export")
    assert len(files) == 3
    checked = plays = 0
    for name in files:
        path = corpus_dir / name
        text = path.read_text(encoding="utf-8")
        records = read_positions(path)
        assert records[0].problems == []
        blocks = text.count("Move number")
        ids = re.findall(r"Position ID: (\S+)", text)
        assert len(ids) == blocks and {r.position.position_id() for r in records} <= set(ids)
        assert sum(r.kind == "checker" for r in records) == text.count("\nRolled ")
        assert sum(r.kind == "cube" for r in records) == text.count("\nCube analysis")
        plays += sum(r.kind == "checker" for r in records) - 1  # the file's last play has no block after it
        for record, after in itertools.pairwise(records):
            if record.kind == "checker":
                played = [c for c in record.candidates if c.played]
                assert len(played) == 1 and played[0].play is not None
                assert record.position.play(played[0].play) == after.position  # the next block's Position ID
                checked += 1
    assert checked == plays > 100
    first, cube = read_positions(corpus_dir / files[0])[:2]
    assert (first.dice, first.level, first.names, first.length) == ((5, 1), "Cubeful 0-ply", ("BoardLord", "Llabba"), 7)
    assert [(c.text, c.equity, c.error, c.played) for c in first.candidates][:2] == [
        ("24/23 13/8", 0.002, 0.0, True),
        ("24/18", -0.035, 0.037, False),
    ]
    assert first.candidates[0].probabilities == (0.501, 0.136, 0.007, 0.499, 0.138, 0.005)
    assert (cube.kind, cube.level, cube.dice) == ("cube", "0-ply", None)
    assert [(c.action, c.equity, c.error) for c in cube.candidates] == [
        ("no-double", -0.002, 0.0),
        ("double-pass", 1.0, -1.002),
        ("double-take", -0.347, 0.345),
    ]
    assert cube.probabilities == (0.499, 0.138, 0.005, 0.501, 0.136, 0.007)


def test_an_export_of_two_positions_one_broken(corpus_dir: Path) -> None:
    """AnkiGammon's example: two XG positions; in the second the XGID gives a side 18
    checkers and the board 16: both are located, the first position is kept."""
    path = corpus_dir / "AnkiGammon" / "example_xg_export.txt"
    records = read_positions(path)
    assert len(records) == 1
    record = records[0]
    assert (record.dice, record.names, record.score, record.length) == ((6, 3), ("Player 2", "Player 1"), (3, 4), 5)
    assert [(c.text, c.level, c.equity, c.error) for c in record.candidates][:2] == [
        ("11/8 11/5", "XG Roller+", 0.589, 0.0),
        ("9/3* 6/3", "XG Roller+", 0.529, 0.061),
    ]
    assert [(p.code, p.line) for p in record.problems] == [("syntax", 46), ("syntax", 50)]


def test_every_candidate_play_is_legal(corpus_dir: Path) -> None:
    for name in rows(corpus_dir, "xg-position-text", "bgblitz-position-text", "gnubg-text-export"):
        for record in read_positions(corpus_dir / name):
            for candidate in record.candidates if record.dice else ():
                assert candidate.play is not None
                verdict = judge(record.position.board, record.dice, candidate.play.moves, DEFAULT_RULES)
                assert verdict.after is not None, (name, candidate.text)


def test_cli_board_draws_the_best_play(corpus_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = runner.invoke(
        app, ["board", str(corpus_dir / "xgparser" / "01_checkerPosition_DE.txt"), "--svg", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Position ID: b9sBCIC5bYDQAA" in result.output and "1. 19/18 14/12" in result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.attrib["data-position-id"] == "b9sBCIC5bYDQAA"
    assert stacks(root) == expected(Position.from_position_id("b9sBCIC5bYDQAA"))
    arrows = sorted((a.attrib["data-from"], a.attrib["data-to"]) for a in root.iterfind(".//s:*[@data-from]", NS))
    assert arrows == [("14", "12"), ("19", "18")]
    cube = runner.invoke(
        app,
        [
            "board",
            str(corpus_dir / "bglab" / "BoardLord - Llabba 7pt Backgammon Studio 2023_08_09 18_11_07.txt"),
            "--decision",
            "2",
        ],
    )
    assert cube.exit_code == 0 and "Position ID: 4PPgASjgc/ABMA" in cube.output and "cube decision" in cube.output
    wrong = runner.invoke(app, ["board", str(corpus_dir / "xgparser" / "02_NDT_EN.txt"), "--decision", "2"])
    assert wrong.exit_code == 2 and "--decision" in wrong.output
    missing = runner.invoke(app, ["board", str(tmp_path / "nothere.txt")])
    assert missing.exit_code == 2 and "not a file tavlakit can read" in missing.output
    match = runner.invoke(app, ["board", str(corpus_dir / "gnu_gibbon" / "7point.mat")])
    assert match.exit_code == 2 and "7point.mat:1: error syntax: not a position text" in match.output


def test_cli_moves_checks_every_candidate(corpus_dir: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["moves", str(corpus_dir / "bgfparser" / "01_checkerPosition_JP.txt")])
    assert result.exit_code == 0, result.output
    assert result.output.count(": legal") == 5
    text = (corpus_dir / "xgparser" / "01_checkerPosition_EN.txt").read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("19/18 3/1  ", "19/13 3/1  "), encoding="utf-8")  # 19/13 with 21
    result = runner.invoke(app, ["moves", str(bad)])
    assert result.exit_code == 1
    assert "2. 19/13 3/1: not legal" in result.output and result.output.count(": legal") == 4
    cube = runner.invoke(app, ["moves", str(corpus_dir / "xgparser" / "03_DT_FR.txt")])
    assert cube.exit_code == 0 and "no plays to check" in cube.output


def test_folders_report_positions(corpus_dir: Path, tmp_path: Path) -> None:
    files = find_records([corpus_dir / "xgparser", corpus_dir / "bgfparser", corpus_dir / "bglab"])
    notes = [p for p in files.problems if p.code == "position"]
    assert len(notes) == 59 and all(p.severity == "info" for p in notes)
    assert not any(p.code == "not-a-record" for p in files.problems)
    assert not any("xgparser" in str(f) or "bgfparser" in str(f) or "BoardLord" in str(f) for f in files)
    result = runner.invoke(app, ["validate", str(corpus_dir / "xgparser")])
    assert result.output.count("info position: eXtreme Gammon position text") == 28
    one = runner.invoke(app, ["validate", str(corpus_dir / "bgfparser" / "04_DP_FR.txt")])
    assert one.exit_code == 0 and "info position: BGBlitz position text: 1 analysed decision(s)" in one.output
    target = tmp_path / "out.mat"
    done = runner.invoke(app, ["convert", str(corpus_dir / "xgparser" / "02_NDT_DE.txt"), "-o", str(target)])
    assert done.exit_code == 0 and "not converted (an analysed position" in done.output and not target.exists()


def test_cut_files_give_located_problems(corpus_dir: Path) -> None:
    for name in ("xgparser/01_checkerPosition_EN.txt", "bgfparser/03_DT_EN.txt", "xgparser/05_NRT_JP.txt"):
        text = (corpus_dir / name).read_text(encoding="utf-8")
        for cut in range(0, len(text), 53):
            try:
                record = tk.read_position(text[:cut])
            except ProblemError as exc:
                assert exc.problem.line
                continue
            assert all(p.line for p in record.problems)
            if ("xgparser" in name and "Version" not in text[:cut]) or len(record.candidates) < 3:
                assert record.problems, (name, cut)  # XG's closing line is missing, or a cube action


def test_disagreeing_ids_and_board(corpus_dir: Path) -> None:
    text = (corpus_dir / "xgparser" / "02_NDT_EN.txt").read_text(encoding="utf-8")
    moved = text.replace("XGID=---BBaB-BbA", "XGID=---BBaBB-bA", 1)  # a checker moved on the ID only
    record = tk.read_position(
        moved,
    )
    assert [(p.code, p.line) for p in record.problems] == [("position-mismatch", 5)]
    blitz = (corpus_dir / "bgfparser" / "02_NDT_EN.txt").read_text(encoding="utf-8")
    other = blitz.replace(":0:0:1:00:0:5:0:9:10", ":0:0:1:00:0:4:0:9:10")  # the XGID's score differs
    problems = tk.read_position(other).problems
    assert [p.code for p in problems] == ["position-mismatch"] and "Position ID" in problems[0].message


def test_not_a_position() -> None:
    for text in ("", "hello\nworld\n", " 7 point match\n"):
        with pytest.raises(ProblemError) as caught:
            tk.read_position(text)
        assert caught.value.problem.line == 1
    with pytest.raises(ProblemError):
        tk.read_position("XGID=nonsense\n")
    with pytest.raises(OSError):
        tk.read_position("nothere.txt")


def test_mutated_position_texts_never_raise(corpus_dir: Path) -> None:
    """Bytes flipped, lines deleted or doubled, digits changed, truncation:
    a located problem or a ProblemError, never another exception."""
    import random

    from fuzzing import mutate

    rng = random.Random(18)
    for name in rows(corpus_dir, "xg-position-text", "bgblitz-position-text", "gnubg-text-export")[::4]:
        data = (corpus_dir / name).read_bytes()
        for _ in range(12):
            mutated, _how = mutate(data, rng)
            text, _problems = tk.formats.text.decode(mutated)
            try:
                records = read_positions(text)
            except ProblemError as exc:
                assert exc.problem.line
                continue
            assert all(p.line for r in records for p in r.problems)


def test_show_refuses_a_position_text_alike_as_a_file_and_in_a_folder(corpus_dir: Path, tmp_path: Path) -> None:
    """Before: the file gave an empty page titled 'Player 1 – Player 2'
    (exit 0), the folder 'no record files found' (exit 2) without a word of
    the position. Now both: the position's note, no page, exit 2."""
    text = corpus_dir / "xgparser" / "01_checkerPosition_EN.txt"
    folder = tmp_path / "positions"
    folder.mkdir()
    (folder / text.name).write_bytes(text.read_bytes())
    for given in (folder / text.name, folder):
        out = tmp_path / f"site-{given.name}"
        result = CliRunner().invoke(app, ["show", str(given), "-o", str(out)])
        assert result.exit_code == 2, result.output
        assert not out.exists() or not list(out.rglob("*.html")), result.output
        [line] = [line for line in result.output.splitlines() if "info position" in line]
        assert line.startswith(f"{folder / text.name}") and "tavlakit board" in line, line
        assert "wrote" not in result.output


def test_validate_quiet_on_position_texts_prints_only_the_summary(corpus_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "positions"
    folder.mkdir()
    names = ["01_checkerPosition_EN.txt", "02_NDT_EN.txt", "03_DT_EN.txt"]
    for name in names:
        (folder / name).write_bytes((corpus_dir / "xgparser" / name).read_bytes())
    quiet = CliRunner().invoke(app, ["validate", "-q", str(folder)])
    assert quiet.exit_code == 2  # no record in it, as before
    lines = quiet.output.splitlines()
    assert not [line for line in lines if "info position" in line], quiet.output
    assert any(
        line.startswith("0 file(s), 0 game(s), 0 play(s): 0 error(s), 0 warning(s), 3 note(s)") for line in lines
    )
    loud = CliRunner().invoke(app, ["validate", "--json", str(folder)])
    rows = [json.loads(line) for line in loud.output.splitlines() if line.startswith("{")]
    assert [r["code"] for r in rows[:-1]] == ["position"] * 3 and rows[-1]["summary"]["infos"] == 3
