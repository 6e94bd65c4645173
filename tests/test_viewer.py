"""The match viewer page and ``tavlakit show``, without a browser: what the
page holds (boards, Position IDs, problems, analysis) and what the command writes."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from gnubg_records import DATA, gnubg_dump
from typer.testing import CliRunner
from viewer_reference import gnubg_ids

from tavlakit.analysis.luck import closed_out
from tavlakit.cli import app
from tavlakit.engine.position import Position
from tavlakit.formats import read_match
from tavlakit.pictures import viewer
from tavlakit.record.match import Match
from tavlakit.replay.walker import validate

SELFPLAY = sorted(DATA.glob("selfplay-*.mat"))
runner = CliRunner()


def boards(data: dict) -> list[tuple[str, str]]:
    """Every frame's (shown Position ID, board SVG rebuilt from the page's lines)."""
    lines = data["lines"]
    return [
        (frame["id"], "\n".join(lines[i] for i in frame["s"])) for game in data["games"] for frame in game["frames"]
    ]


@pytest.mark.parametrize("path", SELFPLAY, ids=lambda p: p.stem)
def test_position_ids_are_gnubgs(path: Path) -> None:
    """Each frame's Position ID (next player on roll) is the one in gnubg's record."""
    data = viewer.page_data(viewer.html(read_match(path)))
    assert [pid for pid, _ in boards(data)] == gnubg_ids(gnubg_dump(path.stem))


def test_boards_rebuilt_from_the_page_are_the_positions() -> None:
    """The deduplicated lines rebuild, for every frame, an SVG that parses and
    whose stacks are the frame's position, checker for checker."""
    data = viewer.page_data(viewer.html(read_match(DATA / "selfplay-7p-5.mat")))
    frames = boards(data)
    assert len(frames) == 350
    for pid, picture in frames:
        root = ET.fromstring(picture)
        assert root.get("data-position-id") == pid
        mine, theirs = Position.from_position_id(pid).points()
        counted = [[0] * 26, [0] * 26]
        for stack in root.iter("{http://www.w3.org/2000/svg}g"):
            if "stack" in (stack.get("class") or "").split():
                counted[int(stack.get("data-side", ""))][int(stack.get("data-point", ""))] = int(
                    stack.get("data-count", "")
                )
        position = Position.from_position_id(pid)
        assert counted[0][1:25] == list(mine[:24]) and counted[0][25] == mine[24]
        assert counted[1][1:25] == list(theirs[:24]) and counted[1][25] == theirs[24]
        assert (counted[0][0], counted[1][0]) == position.off()


def _broken(tmp_path: Path) -> Path:
    """gnubg's 3-point match with Bravo's second play made illegal (8/2 is not a 3)."""
    text = (DATA / "selfplay-3p-7.mat").read_text(encoding="utf-8")
    source = tmp_path / "bad.mat"
    source.write_text(text.replace("63: 8/5 11/5", "63: 8/2 11/5", 1), encoding="utf-8")
    return source


def test_problems_shown_at_their_turn(tmp_path: Path) -> None:
    """Every problem the validator finds is on the page, the illegal play at
    its own turn; the page says how many there are."""
    match = read_match(_broken(tmp_path))
    report = validate(match)
    assert report.errors
    page = viewer.html(match)
    data = viewer.page_data(page)
    shown = [(p[1], p[2]) for game in data["games"] for frame in game["frames"] for p in frame.get("p", [])]
    assert sorted(shown) == sorted((p.code, p.message) for p in report.problems)
    third = data["games"][0]["frames"][2]  # the start, Bravo's 21, Alpha's 52, then Bravo's 63
    assert data["games"][0]["frames"][3]["t"] == "Bravo 63: 11/5 8/2"
    assert [p[1] for p in data["games"][0]["frames"][3]["p"]] == ["illegal-play"]
    assert "p" not in third
    errors, warnings = len(report.errors), len(report.warnings)
    said = re.search(r'<button class="summary (\w+)"[^>]*>([^<]*)', page)
    assert said is not None and said.group(1) == "error"  # red: the page has errors
    assert said.group(2).startswith(f"{errors} error" + ("s" if errors > 1 else ""))
    assert (f"{warnings} warning" in said.group(2)) == bool(warnings)
    assert 'class="turn error" data-g="0" data-f="3"' in page


def test_every_validator_problem_on_the_page() -> None:
    """gnubg's .mat marks no hits: the validator's one warning about the
    whole match is listed at the top of the page."""
    match = read_match(DATA / "selfplay-3p-7.mat")
    for game in match.games:
        for turn in game.turns:
            turn.moves = tuple(m._replace(hit=False) for m in turn.moves)
    report = validate(match)
    built = viewer.build(match)
    assert built.problem_count == len(report.problems) == 1
    assert [p.code for p in built.problems] == ["hit-mark"]
    assert "written without" in viewer.page(built).split('<ul class="match-problems">')[1].split("</ul>")[0]
    # a warning is not drawn as an error (before: "1 problem" in red)
    page = viewer.page(built)
    assert re.search(r'<button class="summary warning"[^>]*>1 warning \u25b8', page)
    assert '<li class="warning"><b>hit-mark</b>' in page


def test_analysis_luck_error_and_chart() -> None:
    """With analysis every judged roll has its luck; gnubg's own 0-ply plays
    are nearly all the best play by the same net; a chart per game."""
    match = read_match(DATA / "selfplay-3p-7.mat")
    built = viewer.build(match, analyse=True, level="expert")
    rolls = [f for gf in built.games for f in gf.frames if f.step is not None and f.step.turn.kind == "roll"]
    judged = [f for f in rolls if f.error is not None]
    forced = [closed_out(f.step.before) for f in rolls]  # type: ignore[union-attr]
    assert all((f.luck is None) == dances for f, dances in zip(rolls, forced))  # a forced dance: no luck line
    assert len(judged) >= 0.9 * len(rolls)
    assert sum(f.error < 0.01 for f in judged) >= 0.9 * len(judged)  # type: ignore[operator]
    for frame in judged:
        assert (frame.best is None) == (frame.error < 0.0005)  # type: ignore[operator]
        if frame.best:
            dice = frame.step.turn.dice  # type: ignore[union-attr]
            legal = {p.notation() for p in frame.step.before.legal_plays(dice)}  # type: ignore[union-attr]
            assert frame.best in legal
    page = viewer.page(built)
    assert page.count('<svg class="chart"') == 2
    data = viewer.page_data(page)
    assert any("Luck" in frame.get("a", "") for frame in data["games"][0]["frames"])


def test_page_is_self_contained() -> None:
    """No URL to fetch anything from: no src/href attributes, no http(s) URL
    outside the SVG namespace, a policy that forbids every request."""
    page = viewer.html(read_match(DATA / "selfplay-3p-1.mat"), analyse=False)
    assert not re.search(r"\b(src|href)\s*=", page)
    assert set(re.findall(r"https?://[^\s\"'<)]+", page)) <= {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in page


def test_25_games_under_2_mb() -> None:
    """A money session of 25 games (gnubg's self-play games one after the
    other) gives a page under 2 MB."""
    games = [g for path in SELFPLAY for g in read_match(path).games]
    match = Match(players=("Alpha", "Bravo"), length=0, games=(games * 2)[:25])
    for number, game in enumerate(match.games, 1):
        game.number = number
        game.score = (0, 0)
    page = viewer.html(match)
    assert len(page.encode("utf-8")) < 2_000_000
    assert sum(len(g["frames"]) for g in viewer.page_data(page)["games"]) > 1_000


def test_notebook_viewer_is_an_isolated_iframe() -> None:
    match = read_match(DATA / "selfplay-3p-7.mat")
    shown = viewer.Viewer(match, game=2)._repr_html_()
    assert shown.startswith('<iframe srcdoc="') and 'sandbox="allow-scripts"' in shown
    inner = html.unescape(re.search(r'srcdoc="([^"]*)"', shown).group(1))  # type: ignore[union-attr]
    assert viewer.page_data(inner)["start"] == 1


def test_bad_game_number() -> None:
    with pytest.raises(ValueError, match="no game 9"):
        viewer.html(read_match(DATA / "selfplay-3p-7.mat"), game=9)


# --- tavlakit show ------------------------------------------------------------


def run(*args: object):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


def test_show_one_file(tmp_path: Path) -> None:
    out = tmp_path / "m.html"
    result = run(
        "show",
        DATA / "selfplay-5p-2.mat",
        "-o",
        out,
        "--game",
        2,
        "--numbering",
        "absolute",
        "--analyse",
        "--level",
        "expert",
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.count('<svg class="chart"') == 3
    data = viewer.page_data(page)
    assert data["start"] == 1
    assert [pid for pid, _ in boards(data)] == gnubg_ids(gnubg_dump("selfplay-5p-2"))


def test_show_folder_writes_index(tmp_path: Path) -> None:
    records = tmp_path / "records"
    (records / "sub").mkdir(parents=True)
    for path in SELFPLAY[:2]:
        (records / path.name).write_bytes(path.read_bytes())
    (records / "sub" / SELFPLAY[0].name).write_bytes(SELFPLAY[0].read_bytes())
    _broken(records)
    site = tmp_path / "site"
    result = run("show", records, "-o", site)
    assert result.exit_code == 0, result.output
    index = (site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)">', index)
    assert sorted(links) == sorted(
        ["bad.html", f"{SELFPLAY[0].stem}.html", f"{SELFPLAY[1].stem}.html", f"sub-{SELFPLAY[0].stem}.html"]
    )
    for link in links:
        assert (site / link).exists()
    bad_row = next(row for row in index.split("<tr>") if 'href="bad.html"' in row)
    errors = len(validate(read_match(records / "bad.mat")).errors)
    last = gnubg_dump("selfplay-3p-7")["games"][-1]["info"]
    final = [last["score-X"], last["score-O"]]
    final["XO".index(last["winner"])] += last["points-won"]
    assert f'<td class="error">{errors} error' in bad_row and "Alpha \u2013 Bravo" in bad_row
    assert f"{final[0]}\u2013{final[1]}" in bad_row


@pytest.mark.parametrize(
    "args, message",
    [
        (["--numbering", "roman"], "unknown numbering 'roman'"),
        (["--rules", "chess"], "unknown rules 'chess'"),
        (["--game", "7"], "no game 7"),
    ],
)
def test_show_bad_options_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = run("show", DATA / "selfplay-3p-7.mat", "-o", tmp_path / "x.html", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.html").exists()


def test_show_unreadable_file_exit_2(tmp_path: Path) -> None:
    result = run("show", tmp_path / "missing.mat", "-o", tmp_path)
    assert result.exit_code == 2
    assert "unreadable" in result.output and "Traceback" not in result.output


def test_comments_shown_at_their_turn() -> None:
    """A turn's comment (SGF ``C[]``) is shown with that turn, a game's with its start."""
    match = read_match(DATA / "selfplay-3p-7.mat")
    match.games[0].turns[2].comment = "the 5-point at once"
    match.games[1].comments.append("Alpha leads 1-0")
    data = viewer.page_data(viewer.html(match))
    commented = [(gi, fi, f["c"]) for gi, g in enumerate(data["games"]) for fi, f in enumerate(g["frames"]) if "c" in f]
    assert commented == [(0, 3, "the 5-point at once"), (1, 0, "Alpha leads 1-0")]


def test_index_errors_red_warnings_amber(tmp_path: Path) -> None:
    """Before: every problem count was red in index.html, warnings too."""
    records = tmp_path / "records"
    records.mkdir()
    _broken(records)
    (records / "unmarked.mat").write_text(
        (DATA / "selfplay-3p-7.mat").read_text(encoding="utf-8").replace("*", ""), encoding="utf-8"
    )
    (records / "clean.mat").write_bytes((DATA / "selfplay-3p-7.mat").read_bytes())
    result = run("show", records, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    rows = {re.search(r'href="([^"]+)"', row).group(1): row for row in index.split("<tr>") if "href=" in row}
    assert re.search(r'<td class="error">\d+ errors?', rows["bad.html"])
    assert '<td class="warning">1 warning</td>' in rows["unmarked.html"]
    assert rows["clean.html"].endswith("<td></td></tr>") or "<td></td></tr>" in rows["clean.html"]
    assert "td.warning{color:#9a6700" in index


def test_analysis_shows_each_cube_decision() -> None:
    """With analysis, each double, take or pass and each roll a cube decision
    came before says the right action, the error and the three equities
    (tavlakit.analysis.statistics, checked against gnubg in test_statistics.py)."""
    stats = Path(__file__).parent / "data" / "stats"
    built = viewer.build(read_match(stats / "match-5p-52.mat"), analyse=True, level="expert")
    frames = [f for gf in built.games for f in gf.frames if f.step is not None]
    doubles = [f for f in frames if f.step.turn.kind == "double"]  # type: ignore[union-attr]
    assert doubles and all(f.cube and f.cube.startswith("Cube: double; right: ") for f in doubles)
    answers = [f for f in frames if f.step.turn.kind in ("take", "drop")]  # type: ignore[union-attr]
    assert all(f.cube and ("right: take" in f.cube or "right: pass" in f.cube) for f in answers)
    assert any(f.cube and "error" in f.cube for f in frames if f.step.turn.kind == "roll")  # type: ignore[union-attr]
    data = viewer.page_data(viewer.page(built))
    shown = [frame.get("a", "") for game in data["games"] for frame in game["frames"]]
    assert sum("Cube: double" in text for text in shown) == len(doubles)
