"""``tavlakit board`` with the three kinds of ID, and ``--svg``.

The PositionID:MatchID pairs are Debian gnubg 1.07's own (``set xgid X``
then ``gnubg.positionid()`` / ``gnubg.matchid()``, via tests/gnubg_ids.py)
for the XGIDs beside them, so each pair and its XGID must give the same
picture.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_svg import NS, expected, stacks
from typer.testing import CliRunner

from tavlakit.cli import app
from tavlakit.engine.position import Position

runner = CliRunner()

# 7-point match, score 6 (player 0) - 3 (player 1), player 1 on roll with 2-1, cube 2 owned by player 0
MATCH_XGID = "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10"
MATCH_GNUBG = "b9sBCIC5bYDQAA:QQnlAGAAGAAE"
# money game, Jacoby, both sides with a checker on the bar, 6-3 to play, cube centred
MONEY_XGID = "XGID=aA--BBBCC-------b-bbcbab-A:0:0:1:63:0:0:3:0:10"
MONEY_GNUBG = "1m4zAECx7Q4AIA:cAkPAAAAAAAA"


def run(*args: object):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


def picture(tmp_path: Path, *args: object) -> tuple[str, ET.Element]:
    out = tmp_path / "board.svg"
    result = run("board", *args, "--svg", out)
    assert result.exit_code == 0, result.output
    assert "Position ID:" in result.output  # the ASCII board as before
    text = out.read_text(encoding="utf-8")
    return text, ET.fromstring(text)


def test_position_id(tmp_path: Path) -> None:
    _, root = picture(tmp_path, "4HPwATDgc/ABMA", "--size", 250)
    assert root.attrib["data-position-id"] == "4HPwATDgc/ABMA"
    assert root.attrib["width"] == "250"
    assert stacks(root) == expected(Position.initial())
    assert root.find(".//s:g[@class='dice']", NS) is None
    assert root.find(".//s:g[@class='cube']", NS) is None


def test_gnubg_id_carries_dice_cube_and_score(tmp_path: Path) -> None:
    text, root = picture(tmp_path, MATCH_GNUBG)
    assert root.attrib["data-position-id"] == "b9sBCIC5bYDQAA"
    assert root.find(".//s:g[@class='dice']", NS).attrib["data-dice"] == "21"  # type: ignore[union-attr]
    cube = root.find(".//s:g[@class='cube']", NS)
    assert cube is not None and (cube.attrib["data-value"], cube.attrib["data-owner"]) == ("2", "0")
    assert "6 of 7 points" in text and "3 of 7 points" in text
    # player 1 is on roll: its info line says so and reads 3 of 7
    info = root.find(".//s:g[@class='info side-0']", NS)
    assert info is not None and "on roll" in ET.tostring(info, encoding="unicode")
    assert "3 of 7 points" in ET.tostring(info, encoding="unicode")


@pytest.mark.parametrize(("gnubg", "xgid"), [(MATCH_GNUBG, MATCH_XGID), (MONEY_GNUBG, MONEY_XGID)])
def test_xgid_draws_what_gnubg_id_draws(tmp_path: Path, gnubg: str, xgid: str) -> None:
    a, _ = picture(tmp_path, gnubg, "--numbering", "absolute")
    b, root = picture(tmp_path, xgid, "--numbering", "absolute")
    assert a == b
    assert stacks(root) == expected(Position.from_position_id(gnubg.split(":")[0]))


def test_money_id_bar_checkers(tmp_path: Path) -> None:
    _, root = picture(tmp_path, MONEY_GNUBG)
    found = stacks(root)
    assert found[(0, 25)] == 1 and found[(1, 25)] == 1
    assert root.find(".//s:g[@class='cube']/s:text", NS).text == "64"  # type: ignore[union-attr]


def test_flipped_and_absolute(tmp_path: Path) -> None:
    plain, _ = picture(tmp_path, MATCH_GNUBG)
    flipped, _ = picture(tmp_path, MATCH_GNUBG, "--flipped")
    absolute, _ = picture(tmp_path, MATCH_GNUBG, "--numbering", "absolute")
    assert len({plain, flipped, absolute}) == 3


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["not-an-id!"], "Position ID"),
        (["4HPwATDgc/ABMB"], "Position ID"),
        (["4HPwATDgc/ABMA:cAkgAVAAAA!E"], "Match ID"),
        (["4HPwATDgc/ABMA:"], "Match ID"),
        (["XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:7:21:3:6:0:7:10"], "XGID"),
        (["XGID=-B-CB:1:-1:1:21:3:6:0:7:10"], "XGID"),
        (["4HPwATDgc/ABMA", "--numbering", "turkish"], "numbering"),
        (["4HPwATDgc/ABMA", "--size", "0"], "size"),
    ],
)
def test_bad_input_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    result = run("board", *args, "--svg", tmp_path / "x.svg")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.output
    assert not (tmp_path / "x.svg").exists()


def test_unwritable_svg(tmp_path: Path) -> None:
    result = run("board", "4HPwATDgc/ABMA", "--svg", tmp_path / "missing" / "x.svg")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith("error: cannot write")
    assert "Traceback" not in result.output


XG_POSITION = "xgparser/01_checkerPosition_EN.txt"


@pytest.mark.parametrize("args", [("--numbering", "absolute"), ("--lang", "tr")])
def test_position_text_candidates_in_the_pictures_numbering(corpus_dir: Path, tmp_path: Path, args) -> None:
    """XG's text writes the plays of X (Black, on roll) in X's own numbering
    (``19/18 14/12``); in the absolute numbering Black's point p is 25 - p,
    so the candidates read ``6/7 11/13``, as the arrows and the labels do."""
    out = tmp_path / "b.svg"
    result = run("board", corpus_dir / XG_POSITION, *args, "--svg", out)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    first = next(line for line in lines if line.startswith("1. "))
    assert first.split("  ")[0] == "1. 6/7 11/13", first
    assert "19/18" not in result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    drawn = {(a.attrib["data-from"], a.attrib["data-to"]) for a in root.findall(".//s:g[@class='arrow']", NS)}
    assert drawn == {("19", "18"), ("14", "12")}  # the mover's own points (the picture places them absolutely)
    plain = run("board", corpus_dir / XG_POSITION)
    assert "1. 19/18 14/12  " in plain.output  # the file's own text where no point is renumbered
