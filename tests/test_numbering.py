"""The numbering a file is written in is the numbering the user reads back.

A transcript with ``; [Numbering "absolute"]`` numbers the points the way
a Tavla player writes a game by hand: White moves 24 -> 1, Black 1 -> 24.
Its problems, their ``expected one of`` lists and the viewer's move list
write Black's points that way too; and in the viewer with the absolute
numbering the move text, the arrows and the point labels agree for both
players. The transcripts here are made by hand.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tavlakit.cli import app
from tavlakit.engine.numbering import Numbering
from tavlakit.engine.position import Position, render
from tavlakit.formats import REGISTRY, read_match, write_match
from tavlakit.formats.mat import write_mat
from tavlakit.pictures import viewer
from tavlakit.pictures.svg import board as draw
from tavlakit.replay.walker import replay, validate

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "tavla-t000.mat"

#: White 31 8/5 6/5 leaves four checkers on White's 6 (Black's 19, absolute 6), so
#: Black's 55 1/6(2) is blocked; Black's 65 hits White's blot on absolute 18 but
#: marks the other move; Black's last row is written relative (8/5 6/5), backwards.
ABSOLUTE = """\
; [Numbering "absolute"]

 5 point match

 Game 1
 White : 0                       Black : 0
  1) 31: 8/5 6/5                 55: 1/6(2)
  2) 62: 24/18 13/11             65: 12/18 12/17*
  3) 21: bar/23 6/5              31: 8/5 6/5
"""
#: A game header after a fragment: its game is then unfinished (a warning),
#: not a file cut short, whose last cell the replayer leaves unjudged.
NEXT_GAME = "\n Game 2\n White : 0                       Black : 0\n"


def problems(text: str, tmp_path: Path, name: str = "hand.mat") -> list:
    path = tmp_path / name
    path.write_text(text + NEXT_GAME, encoding="utf-8")
    # the fragments stop mid-game on purpose: their end is not what these tests are about
    return [p for p in validate(read_match(path)).problems if p.code not in ("missing-result", "truncated")]


def test_problems_write_blacks_points_as_the_file_does(tmp_path: Path) -> None:
    blocked, marks, backwards = problems(ABSOLUTE, tmp_path)
    assert (blocked.code, blocked.line) == ("illegal-play", 7)
    assert blocked.message.startswith("1/6: point 6 is closed (4 opposing checkers)"), blocked.message
    # Black's 55 from its 13 point (absolute 12), worked by hand: 13/8(4), 13/8(2) 13/3, 13/3(2)
    assert blocked.expected == ("12/17(4)", "12/17(2) 12/22", "12/22(2)")
    assert (marks.code, marks.line, marks.message) == ("hit-mark", 8, "hit mark '*' missing on 18 and extra on 17")
    assert (backwards.code, backwards.line) == ("illegal-play", 9)
    assert backwards.message.startswith("8/5 does not move forward"), backwards.message
    assert all(play.count("/") for play in backwards.expected)
    assert "17/20" not in backwards.message and "24/19" not in blocked.message


def test_the_same_game_written_relative_keeps_gnubgs_numbers(tmp_path: Path) -> None:
    relative = (
        ABSOLUTE.replace('; [Numbering "absolute"]\n', "")
        .replace("55: 1/6(2)", "55: 24/19(2)")
        .replace("12/18 12/17*", "13/7 13/8*")
        .replace(" 31: 8/5 6/5\n", " 31: 17/20 19/20\n")
    )
    blocked, marks, backwards = problems(relative, tmp_path)
    assert blocked.message.startswith("24/19: point 19 is closed") and blocked.expected[0] == "13/8(4)"
    assert marks.message == "hit mark '*' missing on 7 and extra on 8"
    assert backwards.message.startswith("17/20 does not move forward")


def test_each_expected_play_is_legal_written_back_in_the_file(tmp_path: Path) -> None:
    """The plays offered, typed into the absolute file in place of the blocked one, are legal there."""
    first_row = ABSOLUTE.split("  2)")[0]
    (blocked,) = problems(first_row, tmp_path)
    for play in blocked.expected:
        assert problems(first_row.replace("1/6(2)", play), tmp_path) == [], play


def test_white_is_numbered_the_same_either_way(tmp_path: Path) -> None:
    text = ABSOLUTE.split("  2)")[0].replace("31: 8/5 6/5", "31: 8/4 6/5").replace("55: 1/6(2)", "55: 12/17(4)")
    (wrong,) = problems(text, tmp_path)
    assert wrong.message.startswith("the dice 3-1 do not reach: 6/5 is left over") and wrong.column == 6
    assert "8/5 6/5" in wrong.expected


# --- the viewer ----------------------------------------------------------------------


def frames(page: str) -> list[tuple[str, ET.Element]]:
    """Every turn's label and board (rebuilt from the page's lines)."""
    data = viewer.page_data(page)
    lines = data["lines"]
    return [
        (frame["t"], ET.fromstring("\n".join(lines[i] for i in frame["s"])))
        for game in data["games"]
        for frame in game["frames"]
    ]


def label_at(svg: ET.Element, own: int, mover_side: int) -> str:
    """The point label drawn at the mover's own point ``own`` (side 0's point, from ``mover_side``'s)."""
    q = own if mover_side == 0 else 25 - own
    polygon = next(p for p in svg.iter("{http://www.w3.org/2000/svg}polygon") if p.get("data-point") == str(q))
    corners = [tuple(map(float, c.split(","))) for c in polygon.get("points", "").split()]
    x, base = corners[2][0], corners[0][1]
    labels = [
        t
        for t in svg.iter("{http://www.w3.org/2000/svg}text")
        if t.get("class") == "label" and float(t.get("x", "0")) == x
    ]
    return min(labels, key=lambda t: abs(float(t.get("y", "0")) - base)).text or ""


def assert_text_arrows_and_labels_agree(page: str, names: tuple[str, str], absolute: bool) -> int:
    """For every play shown: the labels at the arrows' ends are the points the move text names,
    and in the absolute numbering White's arrows run down the labels, Black's up."""
    checked = 0
    for label, svg in frames(page):
        arrows = [a for a in svg.iter("{http://www.w3.org/2000/svg}g") if a.get("class") == "arrow"]
        if not arrows:
            continue
        player = 0 if label.startswith(names[0] + " ") else 1
        # after a roll the board is seen by the other player: the mover is side 1
        ends = [(int(a.get("data-from", "")), int(a.get("data-to", ""))) for a in arrows]
        shown = {
            (label_at(svg, s, 1) if 0 < s < 25 else None, label_at(svg, d, 1) if 0 < d < 25 else None) for s, d in ends
        }
        text = label.split(": ", 1)[1]
        written = set(re.findall(r"\b\d+\b", re.sub(r"\(\d\)", "", text)))
        assert written <= {n for pair in shown for n in pair if n}, (label, shown)
        for start, end in shown:
            if start and end and absolute:
                assert (int(start) > int(end)) == (player == 0), (label, shown)
        checked += 1
    return checked


def test_viewer_of_an_absolute_file_is_absolute(tmp_path: Path) -> None:
    path = tmp_path / "t000-absolute.mat"
    write_match(read_match(SAMPLE), path, numbering="absolute")
    match = read_match(path)
    assert match.numbering == "absolute"
    page = viewer.html(match)
    labels = [label for label, _svg in frames(page)]
    assert "Mehmet Ali 63: 1/10*" in labels  # the file's "63: 1/4 4/10*"; gnubg's 24/15*
    assert ">63: 1/10*<" in page  # the move list
    assert assert_text_arrows_and_labels_agree(page, match.players, absolute=True) > 60


@pytest.mark.parametrize("numbering", ["absolute", "gnubg"])
def test_viewer_text_arrows_and_labels_agree(numbering: str) -> None:
    match = read_match(SAMPLE)
    page = viewer.html(match, numbering=numbering)  # type: ignore[arg-type]
    assert assert_text_arrows_and_labels_agree(page, match.players, numbering == "absolute") > 60


def test_viewer_problems_in_the_absolute_numbering(tmp_path: Path) -> None:
    path = tmp_path / "hand.mat"
    path.write_text(ABSOLUTE, encoding="utf-8")
    data = viewer.page_data(viewer.html(read_match(path)))
    messages = [p[2] for game in data["games"] for frame in game["frames"] for p in frame.get("p", [])]
    assert any(m.startswith("1/6: point 6 is closed") for m in messages), messages
    assert "Black 55: 1/6(2)" in [frame["t"] for frame in data["games"][0]["frames"]]


def test_show_keeps_the_files_numbering(tmp_path: Path) -> None:
    path = tmp_path / "hand.mat"
    path.write_text(ABSOLUTE, encoding="utf-8")
    result = CliRunner().invoke(app, ["show", str(path), "-o", str(tmp_path / "hand.html")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "hand.html").read_text(encoding="utf-8")
    assert ">55: 1/6(2)" in page and "24/19" not in page


# --- one Numbering: every function and command takes the same names, with one error

#: The one error of a numbering no function knows.
BAD = "unknown numbering 'roman'; expected relative (also called gnubg) or absolute"

#: Every function that takes a numbering, given one it does not know.
TAKERS: dict[str, Callable[[Any], object]] = {
    "svg.board": lambda match: draw(Position.initial(), numbering="roman"),
    "render": lambda match: render(Position.initial(), numbering="roman"),
    "viewer.html": lambda match: viewer.html(match, numbering="roman"),
    "viewer.build": lambda match: viewer.build(match, numbering="roman"),
    "replay": lambda match: list(replay(match, numbering="roman")),
    "write_mat": lambda match: write_mat(match, io.StringIO(), numbering="roman"),
    "write_match": lambda match: write_match(match, io.StringIO(), "mat", numbering="roman"),
    "Format.write": lambda match: REGISTRY["mat"].write(match, io.StringIO(), numbering="roman"),
}


@pytest.mark.parametrize("where", list(TAKERS))
def test_a_bad_numbering_is_one_error_everywhere(where: str) -> None:
    """Before: four messages (or a TypeError) for the same mistake."""
    with pytest.raises(ValueError) as caught:
        TAKERS[where](read_match(SAMPLE))
    assert str(caught.value) == BAD


@pytest.mark.parametrize("command", ["board", "show", "convert"])
def test_a_bad_numbering_is_one_line_on_the_command_line(tmp_path: Path, command: str) -> None:
    out = tmp_path / ("x.svg" if command == "board" else "x.html" if command == "show" else "x.mat")
    args = {
        "board": ["board", "4HPwATDgc/ABMA", "--svg", str(out)],
        "show": ["show", str(SAMPLE), "-o", str(out)],
        "convert": ["convert", str(SAMPLE), "-o", str(out)],
    }[command]
    result = CliRunner().invoke(app, [*args, "--numbering", "roman"])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {BAD}"
    assert not out.exists()


def test_every_spelling_names_one_numbering(tmp_path: Path) -> None:
    """``gnubg`` (the pictures' old name) and ``relative`` (the writer's) are
    one numbering, in any case; each function takes both and the member.
    Before: the writer refused ``gnubg`` and the viewer ``relative``."""
    match = read_match(SAMPLE)
    board = Position.initial().play(match.games[0].turns[0].moves).flip()  # after the opening play: not symmetric
    for drawn in (
        lambda n: draw(board, numbering=n, player=1),
        lambda n: viewer.html(match, numbering=n),
        lambda n: render(board, numbering=n, player=1),
    ):
        relative = {drawn(n) for n in ("gnubg", "relative", "Relative", Numbering.RELATIVE)}
        absolute = {drawn(n) for n in ("absolute", " ABSOLUTE ", Numbering.ABSOLUTE)}
        assert len(relative) == len(absolute) == 1 and relative != absolute
    texts = {n: io.StringIO() for n in ("gnubg", "relative", "absolute")}
    for name, out in texts.items():
        write_mat(match, out, numbering=name)  # type: ignore[arg-type]
    assert texts["gnubg"].getvalue() == texts["relative"].getvalue() != texts["absolute"].getvalue()
    for spelling in ("gnubg", "relative"):
        result = CliRunner().invoke(
            app, ["convert", str(SAMPLE), "-o", str(tmp_path / f"{spelling}.mat"), "--numbering", spelling]
        )
        assert result.exit_code == 0, result.output
        assert (tmp_path / f"{spelling}.mat").read_text(encoding="utf-8") == texts["relative"].getvalue()
    boards = [
        CliRunner().invoke(app, ["board", "4HPwATDgc/ABMA:cAkgAVAAAAAE", "--numbering", n]).output
        for n in ("gnubg", "relative", "absolute")
    ]
    assert boards[0] == boards[1] != boards[2]


@pytest.mark.parametrize(
    ("tag", "numbering"),
    [
        ("absolute", Numbering.ABSOLUTE),
        ("Absolute", Numbering.ABSOLUTE),
        ("relative", Numbering.RELATIVE),
        ("gnubg", Numbering.RELATIVE),
        (None, Numbering.RELATIVE),
    ],
)
def test_the_mat_tag_names_the_numbering(tag: str | None, numbering: Numbering) -> None:
    text = ABSOLUTE.replace('"absolute"', f'"{tag}"') if tag else ABSOLUTE.split("\n", 1)[1]
    match = read_match(io.StringIO(text), "mat")
    assert match.numbering is numbering and "Numbering" not in match.tags
    assert not [p for p in match.problems if p.code == "bad-tag"]


def test_a_tag_naming_no_numbering_is_a_located_warning() -> None:
    """Before: read as relative without a word."""
    match = read_match(io.StringIO(ABSOLUTE.replace('"absolute"', '"roman"')), "mat")
    [bad] = [p for p in match.problems if p.code == "bad-tag"]
    assert (bad.severity, bad.line, bad.column) == ("warning", 1, 1)
    assert bad.message == f"tag Numbering: {BAD}; the points are read as relative"
    assert match.numbering is Numbering.RELATIVE


def test_render_to_move_is_the_absolute_numbering_of_that_colour() -> None:
    """``to_move`` (the older word) keeps working: ``"black"`` is the absolute numbering with Black on roll."""
    start = Position.initial()
    assert render(start, "black") == render(start, numbering="absolute", player=1) != render(start, "white")
    assert render(start, to_move="white") == render(start, numbering=Numbering.ABSOLUTE, player=0)
    with pytest.raises(ValueError, match="not both"):
        render(start, "white", numbering="relative")
    with pytest.raises(ValueError, match="player is 0"):
        render(start, numbering="absolute", player=2)
