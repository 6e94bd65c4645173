"""The match viewer in a real browser: Debian's chromium driven by Playwright.

The viewer of a gnubg-written match, opened from disk, is stepped through
with the keyboard; at every step the Position ID it shows must be the one
in GNU Backgammon's own record of that match (``gnubg.match()``, saved in
tests/data/gnubg). No console error and no network request may occur.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gnubg_records import DATA, gnubg_dump
from viewer_reference import game_starts, gnubg_ids

from tavlakit.formats import read_match
from tavlakit.pictures import viewer

MATCH = "selfplay-3p-7"  # 2 games, 83 turns, doubles, a take and a drop


class Watched:
    """A page that records console errors, page errors and requests that
    are not the page file itself or ``data:`` URLs."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 860})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.url = path.resolve().as_uri()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "request",
            lambda r: (
                None if r.url.split("#")[0] == self.url or r.url.startswith("data:") else self.requests.append(r.url)
            ),
        )
        self.page.goto(self.url)
        self.page.wait_for_selector("body[data-ready='1']", timeout=10_000)

    def shown_id(self) -> str:
        return str(self.page.text_content('[data-role="position-id"]'))

    def shown_ids(self) -> tuple[str, str]:
        """The Position ID shown, and the one the board's own SVG carries (one round trip)."""
        shown, board = self.page.evaluate(
            """() => [document.querySelector('[data-role="position-id"]').textContent,
                      document.querySelector('.board svg').getAttribute('data-position-id')]"""
        )
        return shown, board

    def clean(self) -> None:
        assert self.errors == []
        assert self.requests == []


def test_keyboard_walk_matches_gnubg_record(browser: Any, tmp_path: Path) -> None:
    """Right arrow from the first frame to the last: every Position ID shown
    (and the board's own) is gnubg's; Home, End and PageUp land where they should."""
    expected = gnubg_ids(gnubg_dump(MATCH))
    page_file = tmp_path / f"{MATCH}.html"
    page_file.write_text(viewer.html(read_match(DATA / f"{MATCH}.mat")), encoding="utf-8")
    watched = Watched(browser, page_file)
    page = watched.page
    shown = []
    for step in range(len(expected)):
        text, board = watched.shown_ids()
        assert board == text, step
        shown.append(text)
        if step == 20:
            page.screenshot(path=str(tmp_path / "turn-20.png"))
        page.keyboard.press("ArrowRight")
    assert shown == expected
    assert watched.shown_id() == expected[-1]  # the last frame stays the last
    start_of_last = game_starts(gnubg_dump(MATCH))[-1]
    page.keyboard.press("Home")
    assert watched.shown_id() == expected[start_of_last]
    page.keyboard.press("End")
    assert watched.shown_id() == expected[-1]
    page.keyboard.press("PageUp")
    assert watched.shown_id() == expected[0]
    assert page.get_attribute(".turn.current", "data-f") == "0"
    page.screenshot(path=str(tmp_path / "start.png"))
    watched.clean()


def test_problems_and_analysis_shown(browser: Any, tmp_path: Path) -> None:
    """A transcript with an illegal play still gets a viewer: the turn is
    flagged in the move list and clicking it shows the problem's message;
    with analysis each game has a chart and a roll shows its luck."""
    good = (DATA / f"{MATCH}.mat").read_text(encoding="utf-8")
    bad = good.replace("63: 8/5 11/5", "63: 8/2 11/5", 1).replace("43: 13/10 13/9", "43: 13/10 13/8", 1)
    assert bad.count("8/2 11/5") == bad.count("13/10 13/8") == 1  # one fault in each game
    source = tmp_path / "bad.mat"
    source.write_text(bad, encoding="utf-8")
    page_file = tmp_path / "bad.html"
    page_file.write_text(viewer.html(read_match(source), analyse=True, level="expert"), encoding="utf-8")
    watched = Watched(browser, page_file)
    page = watched.page
    flagged = page.locator(".game-pane:not([hidden]) .turn.error")
    assert flagged.count() >= 1
    flagged.first.click()
    message = str(page.text_content(".problems"))
    assert "illegal-play" in message and "(roll 63)" in message and "bad.mat:8" in message
    page.keyboard.press("Home")
    page.keyboard.press("n")  # the next problem: the same turn, from the start
    assert page.text_content(".problems") == message
    page.click("button.summary")  # and on to the one after it
    assert page.text_content(".problems") != message
    assert page.locator(".turn.current.error, .turn.current.warning").count() == 1
    assert "not judged: a play or dice that are not legal" in str(page.text_content(".analysis"))
    page.keyboard.press("ArrowRight")  # the next turn is judged again
    assert "Luck" in str(page.text_content(".analysis"))
    assert page.locator(".chart").count() == 2
    page.screenshot(path=str(tmp_path / "problem.png"))
    watched.clean()


def test_analysed_turn_and_chart_click(browser: Any, tmp_path: Path) -> None:
    """With analysis: a doubtful play shows its luck, error and the best
    play; the highlighted move-list cell is the turn shown; a click on the
    chart jumps to a turn of that game. The screenshot is the README's
    picture (written to docs/viewer.png when TAVLAKIT_UPDATE_DOCS is set)."""
    page_file = tmp_path / "analysed.html"
    noisy = Path(__file__).parent / "data" / "stats" / "match-7p-73.mat"  # gnubg's self-play with noise: errors
    page_file.write_text(viewer.html(read_match(noisy), analyse=True, level="expert"), encoding="utf-8")
    watched = Watched(browser, page_file)
    page = watched.page
    for key in ["PageDown"] + ["ArrowRight"] * 21:  # game 2, Bravo's 65: 13/8 7/1*
        page.keyboard.press(key)
    assert str(page.text_content(".counter")).startswith("turn 21 ")
    assert page.text_content(".turn-label") == "Bravo 65: 13/8 7/1*"
    assert str(page.text_content(".turn.current")).startswith("65: 13/8 7/1*")
    analysis = str(page.text_content(".analysis"))
    assert analysis.startswith("Luck ") and "Error 0.048 ?!; best play 13/8 13/7" in analysis
    shot = tmp_path / "viewer.png"
    page.screenshot(path=str(shot))
    if os.environ.get("TAVLAKIT_UPDATE_DOCS"):
        (Path(__file__).resolve().parents[1] / "docs" / "viewer.png").write_bytes(shot.read_bytes())
    box = page.locator('.chart[data-game="1"]').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.4)
    turn = int(str(page.text_content(".counter")).split()[1])
    assert 5 < turn < 30
    watched.clean()


def test_notebook_iframe_runs(browser: Any, tmp_path: Path) -> None:
    """The Jupyter form (an iframe srcdoc, scripts sandboxed) shows the game
    asked for and steps with the keyboard too."""
    host = tmp_path / "notebook.html"
    shown = viewer.Viewer(read_match(DATA / f"{MATCH}.mat"), game=2)._repr_html_()
    host.write_text(f"<!DOCTYPE html><html><body>{shown}</body></html>", encoding="utf-8")
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(host.resolve().as_uri())
    inner = page.frame_locator("iframe")
    inner.locator("body[data-ready='1']").wait_for(timeout=10_000)
    expected = gnubg_ids(gnubg_dump(MATCH))
    start = game_starts(gnubg_dump(MATCH))[1]
    pid = inner.locator('[data-role="position-id"]')
    assert pid.text_content() == expected[start]
    inner.locator(".board").click()
    page.keyboard.press("ArrowRight")
    assert pid.text_content() == expected[start + 1]
    assert errors == []


def test_record_without_games(browser: Any, tmp_path: Path) -> None:
    """A file that holds no match still gets a page: its problem, no script error."""
    source = tmp_path / "empty.mat"
    source.write_text("hello\n", encoding="utf-8")
    match = read_match(source)
    assert not match.games and match.problems
    page_file = tmp_path / "empty.html"
    page_file.write_text(viewer.html(match), encoding="utf-8")
    watched = Watched(browser, page_file)
    assert "empty" in str(watched.page.text_content(".match-problems"))
    watched.page.keyboard.press("ArrowRight")
    watched.clean()
