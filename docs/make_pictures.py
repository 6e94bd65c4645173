"""Re-make docs/board.svg and docs/board.png, the README's board picture.

The board is a turn of a gnubg self-play match (tests/data/gnubg): the
position after the first hitting play from the tenth turn on, drawn as the
match viewer draws it (player 0 at the bottom, the play as arrows, dice,
cube, names and score). The PNG is a screenshot by headless Chromium.

    python docs/make_pictures.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import tavlakit as tk
from tavlakit.pictures import svg
from tavlakit.replay.walker import Step, replay

DOCS = Path(__file__).resolve().parent
MATCH = DOCS.parent / "tests" / "data" / "gnubg" / "selfplay-7p-5.mat"
WIDTH = 720


def pick(match: tk.Match) -> tuple[tk.Game, Step]:
    """The first turn from the tenth on whose play hits."""
    for replayed in replay(match):
        for step in replayed.steps[9:]:
            if step.turn.kind == "roll" and any(m.hit for m in step.turn.moves):
                return replayed.game, step
    raise SystemExit(f"no hitting play in {MATCH}")


def picture() -> str:
    match = tk.read_match(MATCH)
    game, step = pick(match)
    nxt = step.on_roll
    return svg.board(
        step.next_view,
        play=step.turn.play,
        play_by=1,
        dice=step.dice,
        player=nxt,
        flipped=nxt == 1,
        labels_by=1,
        names=match.players,
        score=game.score,
        length=match.length,
        cube=(step.cube_after, step.owner_after),
        size=WIDTH,
    )


def screenshot(svg_file: Path, png_file: Path, chromium: str) -> None:
    text = svg_file.read_text(encoding="utf-8")
    _, _, width, height = map(float, ET.fromstring(text).attrib["viewBox"].split())
    window = f"{WIDTH},{round(WIDTH * height / width)}"
    page = svg_file.with_suffix(".html")
    page.write_text(f'<!DOCTYPE html><html><body style="margin:0">{text}</body></html>', encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--hide-scrollbars",
                f"--window-size={window}",
                f"--screenshot={png_file}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    page.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    svg_file = DOCS / "board.svg"
    svg_file.write_text(picture() + "\n", encoding="utf-8")
    screenshot(svg_file, DOCS / "board.png", args.chromium)
    print(f"wrote {svg_file} and {DOCS / 'board.png'}")


if __name__ == "__main__":
    main()
