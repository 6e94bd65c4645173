"""SVG board pictures: parsed back as XML and compared with the position.

The expected counts come straight from ``Position.points()`` (each side's
own view, index 24 = bar; borne off = 15 minus the rest), not from the
drawing code; point labels and orientation are checked against hand-worked
facts about a backgammon board.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from test_engine_perft import read_table

from tavlakit.engine.play import Play
from tavlakit.engine.position import Position
from tavlakit.pictures import svg

NS = {"s": "http://www.w3.org/2000/svg"}
CHECKERS = 15


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def stacks(root: ET.Element) -> dict[tuple[int, int], int]:
    """``{(side, point): count}`` of the picture's stack groups."""
    out: dict[tuple[int, int], int] = {}
    for g in root.iterfind(".//s:g[@data-count]", NS):
        assert "stack" in g.attrib["class"].split()
        key = (int(g.attrib["data-side"]), int(g.attrib["data-point"]))
        assert key not in out, f"two stacks for {key}"
        out[key] = int(g.attrib["data-count"])
    return out


def expected(pos: Position) -> dict[tuple[int, int], int]:
    out = {}
    for side, own in enumerate(pos.points()):
        for index, count in enumerate(own):
            if count:
                out[(side, 25 if index == 24 else index + 1)] = count
        if sum(own) < CHECKERS:
            out[(side, 0)] = CHECKERS - sum(own)
    return out


def shown_checkers(group: ET.Element) -> int:
    """What a reader of the picture counts on a stack: drawn checkers, or
    the number written on it when there are more than fit."""
    written = [t.text for t in group.iterfind("s:text", NS)]
    if written:
        assert len(written) == 1
        return int(written[0] or "")
    return len(group.findall("s:circle[@class]", NS)) or len(group.findall("s:rect", NS))


def check(pos: Position, **options: object) -> ET.Element:
    root = parse(svg.board(pos, **options))  # type: ignore[arg-type]
    assert stacks(root) == expected(pos)
    assert Position.from_position_id(root.attrib["data-position-id"]) == pos
    for g in root.iterfind(".//s:g[@data-count]", NS):
        assert shown_checkers(g) == int(g.attrib["data-count"]), g.attrib
    return root


# --- many positions ------------------------------------------------------


def perft_positions() -> list[Position]:
    _, rows = read_table()
    return [Position.from_position_id(pid) for pid, _ in rows]


def extreme_positions() -> list[Position]:
    """Hand-built corners: all on one point, all on the bar, all off."""
    return [
        Position.from_points({6: 15}, {6: 15}),
        Position.from_points({25: 15}, {25: 15}),
        Position.from_points({}, {1: 1}),
        Position.from_points({1: 1}, {}),
        Position.from_points({24: 8, 25: 7}, {19: 9, 20: 6}),
        Position.from_points({}, {}),
    ]


def test_perft_positions() -> None:
    positions = perft_positions()
    assert len(positions) > 2000
    for pos in positions:
        check(pos)


def test_generated_bar_bear_off_and_closed_positions() -> None:
    engine_tests = pytest.importorskip("test_engine_gnubg", reason="the board generators need gnubg-nn")
    rng = random.Random(8)
    count = 0
    for kind in ("on-bar", "bear-off", "closed", "primed", "crowded", "stragglers"):
        for opponent, mover in engine_tests.boards_of_kind(rng, kind, 60):
            pos = Position.from_points(mover, opponent)
            check(
                pos,
                flipped=rng.random() < 0.5,
                player=rng.randint(0, 1),
                numbering="absolute",
                dice=(rng.randint(1, 6), rng.randint(1, 6)),
                cube=(2, rng.choice([0, 1, None])),
            )
            count += 1
    assert count == 360


def test_extreme_positions() -> None:
    for pos in extreme_positions():
        for flipped in (False, True):
            check(pos, flipped=flipped, on_roll=pos.winner() is None)


# --- geometry: where things are drawn ------------------------------------


def labels(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Point label text -> (x, y)."""
    out = {}
    for t in root.iterfind(".//s:text[@class='label']", NS):
        out[t.text or ""] = (float(t.attrib["x"]), float(t.attrib["y"]))
    assert len(out) == 24
    return out


def middle(root: ET.Element) -> float:
    return float(root.attrib["viewBox"].split()[3]) / 2


def stack_place(root: ET.Element, side: int, point: int) -> tuple[float, float]:
    g = root.find(f".//s:g[@data-side='{side}'][@data-point='{point}']", NS)
    assert g is not None
    c = g.find("s:circle", NS)
    assert c is not None
    return float(c.attrib["cx"]), float(c.attrib["cy"])


def test_gnubg_numbering_by_hand() -> None:
    """Side to move at the bottom: its 1-point bottom right, 12 bottom left,
    13 top left, 24 top right; the opponent's own p is our 25 - p."""
    root = check(Position.from_points({1: 2, 12: 1, 13: 1, 24: 1}, {2: 3, 5: 1}))
    spots = labels(root)
    low = middle(root)
    xs = sorted(x for x, _ in spots.values())
    assert spots["1"][0] == xs[-1] and spots["1"][1] > low
    assert spots["12"][0] == xs[0] and spots["12"][1] > low
    assert spots["13"][0] == xs[0] and spots["13"][1] < low
    assert spots["24"][0] == xs[-1] and spots["24"][1] < low
    for point in (1, 12, 13, 24):
        x, y = stack_place(root, 0, point)
        assert x == spots[str(point)][0] and (y > low) == (spots[str(point)][1] > low)
    # the opponent's own 2-point is the side to move's 23, its 5 our 20
    for own, ours in ((2, 23), (5, 20)):
        x, y = stack_place(root, 1, own)
        assert x == spots[str(ours)][0] and y < low


def test_flipped_puts_the_side_to_move_on_top() -> None:
    root = check(Position.from_points({1: 2}, {1: 2}), flipped=True)
    spots = labels(root)
    low = middle(root)
    x, y = stack_place(root, 0, 1)
    assert y < low and x == spots["1"][0] and spots["1"][1] < low
    assert x == max(x for x, _ in spots.values())  # the home board stays on the right
    assert stack_place(root, 1, 1)[1] > low


def test_absolute_numbering_by_hand() -> None:
    """Turkish numbering: White (player 0) counts 24->1 as usual, Black's own
    point p is White's 25 - p: Black's 8-point is labelled 17, Black's
    1-point (bottom right when Black is to move) is 24."""
    pos = Position.from_points({8: 1, 1: 1}, {6: 1})
    black = check(pos, numbering="absolute", player=1)
    spots = labels(black)
    assert stack_place(black, 0, 8)[0] == spots["17"][0]
    assert stack_place(black, 0, 1)[0] == spots["24"][0] and spots["24"][1] > middle(black)
    # White to move: absolute is White's own numbering, the same as gnubg's
    white = check(pos, numbering="absolute", player=0)
    assert labels(white) == labels(parse(svg.board(pos)))
    assert stack_place(white, 0, 8)[0] == labels(white)["8"][0]
    # gnubg numbering ignores the player
    assert labels(parse(svg.board(pos, player=1))) == labels(white)


# --- play, dice, cube, text ------------------------------------------------

BEFORE = Position.from_points({13: 2, 6: 3}, {20: 1})  # the opponent's blot on our 5
HITTING = Play.parse("13/8 8/5*")


def arrows(root: ET.Element) -> list[ET.Element]:
    return root.findall(".//s:g[@class='arrow']", NS)


def path_start(arrow: ET.Element) -> tuple[float, float]:
    found = re.match(r"M([\d.]+),([\d.]+)", arrow.find("s:path", NS).attrib["d"])  # type: ignore[union-attr]
    assert found
    return float(found[1]), float(found[2])


def test_play_before_it_is_made() -> None:
    root = check(BEFORE, dice=(5, 3), play=HITTING)
    spots = labels(root)
    drawn = arrows(root)
    assert [(a.attrib["data-from"], a.attrib["data-to"], a.attrib["data-hit"]) for a in drawn] == [
        ("13", "8", "0"),
        ("8", "5", "1"),
    ]
    assert abs(path_start(drawn[0])[0] - spots["13"][0]) < 20  # within the 13-point (40 wide)
    rings = root.findall(".//s:circle[@class='hit']", NS)
    assert len(rings) == 1 and float(rings[0].attrib["cx"]) == spots["5"][0]
    assert root.find(".//s:g[@class='dice']", NS).attrib["data-dice"] == "53"  # type: ignore[union-attr]


def test_play_just_made_by_the_opponent() -> None:
    """The viewer's case: the board after the play, the next player on roll;
    the play is in the numbering of the player who made it."""
    after = BEFORE.play(HITTING)
    root = check(after, dice=(5, 3), play=HITTING, play_by=1)
    assert stacks(root)[(0, 25)] == 1  # the hit checker is on the bar
    spots = labels(root)
    drawn = arrows(root)
    assert len(drawn) == 2
    assert abs(path_start(drawn[0])[0] - spots["12"][0]) < 20  # the mover's 13 is our 12
    ring = root.find(".//s:circle[@class='hit']", NS)
    assert ring is not None and float(ring.attrib["cx"]) == spots["20"][0]
    assert float(ring.attrib["cy"]) < middle(root)


def head_tip(arrow: ET.Element) -> tuple[float, float]:
    points = arrow.find("s:polygon", NS).attrib["points"].split()  # type: ignore[union-attr]
    x, y = points[0].split(",")
    return float(x), float(y)


@pytest.mark.parametrize("play_by", [0, 1])
def test_an_intermediate_hop_reaches_its_point(play_by: int) -> None:
    """22 played 24/22 22/20 13/11 11/9 by one checker each: each hop's head
    points at its own point. Before: an empty point's head stopped as short
    as at a checker's, half a point before it, so a 2-pip hop looked like 1."""
    play = Play.parse("24/22 22/20 13/11 11/9")
    start = Position.initial()
    root = check(start if play_by == 0 else start.play(play), dice=(2, 2), play=play, play_by=play_by)
    spots = labels(root)
    by_move = {(a.attrib["data-from"], a.attrib["data-to"]): a for a in arrows(root)}
    for src, dst in (("24", "22"), ("13", "11")):
        point = dst if play_by == 0 else str(25 - int(dst))  # the mover's point, in the picture's labels
        tip = head_tip(by_move[(src, dst)])
        assert abs(tip[0] - spots[point][0]) < 10, (src, dst, tip, spots[point])  # a point is 40 wide


def test_bar_and_off_moves() -> None:
    pos = Position.from_points({25: 1, 3: 2}, {1: 2})
    root = check(pos, play=Play.parse("bar/20 3/off"), dice=(5, 3))
    assert len(arrows(root)) == 2


def cube_y(root: ET.Element) -> float:
    rect = root.find(".//s:g[@class='cube']/s:rect", NS)
    assert rect is not None
    return float(rect.attrib["y"]) + float(rect.attrib["height"]) / 2


def test_cube_centred_or_at_the_owner() -> None:
    pos = Position.initial()
    centred = parse(svg.board(pos, cube=1))
    assert cube_y(centred) == middle(centred)
    assert centred.find(".//s:g[@class='cube']/s:text", NS).text == "64"  # type: ignore[union-attr]
    # side 0 is player 1 here: player 1 owns -> bottom; player 0 owns -> top
    assert cube_y(parse(svg.board(pos, cube=(4, 1), player=1))) > middle(centred)
    assert cube_y(parse(svg.board(pos, cube=(4, 0), player=1))) < middle(centred)
    assert cube_y(parse(svg.board(pos, cube=(4, 0), player=1, flipped=True))) > middle(centred)
    assert parse(svg.board(pos)).find(".//s:g[@class='cube']", NS) is None


def test_names_score_pips_and_on_roll() -> None:
    pos = Position.from_points({6: 2}, {1: 1})
    root = parse(
        svg.board(pos, names=("Ayşe <W>", "Bob & co"), score=(3, 5), length=7, player=1, caption="Game 2 & more")
    )
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for needed in (
        "Ayşe <W>",
        "Bob & co",
        "3 of 7 points",
        "5 of 7 points",
        "12 pips",
        "1 pips",
        "on roll",
        "Game 2 & more",
    ):
        assert needed in text
    # side 0 (Black, "Bob & co") is on roll and at the bottom
    info = root.find(".//s:g[@class='info side-0']", NS)
    assert info is not None
    assert [t.text for t in info.iterfind("s:text", NS)][:2] == ["Bob & co", "on roll"]
    assert "on roll" not in svg.board(pos, on_roll=False)


def test_colours_size_and_bad_options() -> None:
    pos = Position.initial()
    picture = svg.board(pos, colors={"felt": "#123456"}, size=250)
    root = parse(picture)
    assert root.attrib["width"] == "250" and "viewBox" in root.attrib
    assert 'fill="#123456"' in picture and svg.COLORS["felt"] not in picture
    assert "width" not in parse(svg.board(pos, size=None)).attrib
    with pytest.raises(ValueError, match="unknown colour"):
        svg.board(pos, colors={"flet": "red"})
    with pytest.raises(ValueError, match="numbering"):
        svg.board(pos, numbering="turkish")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        svg.board(pos, player=2)


def test_self_contained() -> None:
    picture = svg.board(BEFORE, dice=(5, 3), play=HITTING, cube=(2, 0), names=("a", "b"), score=(0, 0))
    for outside in ("href", "<script", "<image", "@import", "url(", "<style"):
        assert outside not in picture


def test_repr_svg() -> None:
    pos = Position.initial()
    assert pos._repr_svg_() == svg.board(pos)


def test_labels_by_the_opponent() -> None:
    """labels_by=1: the labels follow the opponent's own numbering, so its
    checkers on its own 6-point sit on the label 6 (top right)."""
    pos = Position.from_points({1: 1}, {6: 2})
    root = check(pos, labels_by=1)
    spots = labels(root)
    assert stack_place(root, 1, 6)[0] == spots["6"][0] and spots["6"][1] < middle(root)
    assert spots["24"][1] > middle(root) and spots["24"][0] == max(x for x, _ in spots.values())
    # the absolute numbering does not depend on it
    assert labels(parse(svg.board(pos, labels_by=1, numbering="absolute"))) == labels(parse(svg.board(pos)))


def test_hits_found_on_the_board_before_the_play() -> None:
    """A record without '*' marks: the board before the play shows the hit."""
    root = check(BEFORE, play=Play.parse("13/8 8/5"))
    assert [a.attrib["data-hit"] for a in arrows(root)] == ["0", "1"]
    # after the play only the marks can tell: the marked play from the board before
    after = BEFORE.play(HITTING)
    unmarked = Play.parse("13/8 8/5")
    assert 'data-hit="1"' not in svg.board(after, play=unmarked, play_by=1)
    assert 'data-hit="1"' in svg.board(after, play=BEFORE.mark_hits(unmarked), play_by=1)
