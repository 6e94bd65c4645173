"""The Turkish catalog's words: the seeds' word for the doubling cube
("Video", seed 003), "bilgi" for a note, and the turn counter as Turkish
writes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit import i18n
from tavlakit.cli import app
from tavlakit.pictures import viewer

REPO = Path(__file__).resolve().parents[1]
CATALOG = REPO / "tavlakit" / "locale" / "tr" / "LC_MESSAGES" / "tavlakit.po"
SEEDS = REPO.parent / "shared" / "seeds"


def translations() -> dict[str, str]:
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle)
    out = {}
    for message in catalog:
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            out[ids[0]] = " ".join(strings)
    return out


def test_the_cube_is_the_seeds_video() -> None:
    words = translations()
    cube = {mid: text for mid, text in words.items() if "cube" in mid.lower() and "cubeless" not in mid.lower()}
    assert len(cube) > 10
    assert not [text for text in words.values() if "küp" in text.lower()]
    assert "video" in words["a double, but the rules have no cube"]
    assert "videolu" in words["judged at {level}, cubeful equity at the score"]
    glossary = (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "| doubling cube | video |" in glossary and "vido" in glossary


def test_seed_003_calls_it_video() -> None:
    seed = next(SEEDS.glob("003_*.txt"), None) if SEEDS.is_dir() else None
    if seed is None:
        pytest.skip(f"no seed texts at {SEEDS} (the project's shared folder beside the checkout)")
    text = seed.read_text(encoding="utf-8")
    assert "Çift Kuralı (Video)" in text and "video çekmiş" in text


def test_a_note_is_bilgi_not_not(tmp_path: Path) -> None:
    words = translations()
    assert words["info"] == "bilgi"
    folder = tmp_path / "records"
    folder.mkdir()
    sample = REPO / "samples" / "tavla-t000.mat"
    (folder / "a.mat").write_bytes(sample.read_bytes())
    (folder / "b.mat").write_bytes(sample.read_bytes())
    result = CliRunner().invoke(app, ["--lang", "tr", "validate", str(folder)])
    assert "bilgi duplicate-match" in result.output and " not duplicate-match" not in result.output
    assert "1 bilgi" in result.output


def test_turn_counter_reads_as_turkish_does() -> None:
    try:
        i18n.set_language("tr")
        page = viewer.html(tk.read_match(REPO / "samples" / "tavla-t000.mat"))
    finally:
        i18n.set_language("en")
    assert viewer.page_data(page)["text"]["of"] == "{n} / {total}"  # "21 / 38", not "38 sıradan 21."
