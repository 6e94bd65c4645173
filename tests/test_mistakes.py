"""A player's mistakes: exactly the largest errors of the plays frame, the
candidates gnubg's hint gives for the IDs they carry, a page with one card
per mistake, a valid Anki package with one note per mistake, Tavla and
Turkish; bad input is one line and exit status 2."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis import mistakes as mistakes_module
from tavlakit.analysis.decisions import join_decisions
from tavlakit.analysis.mistakes import CUBE_KINDS, Mistakes, UnknownPlayer
from tavlakit.cli import app
from tavlakit.engine.matchid import parse_id
from tavlakit.engine.play import Play
from tavlakit.i18n import set_language
from tavlakit.pictures import anki, study

REPO = Path(__file__).resolve().parents[1]
FIBS = REPO / "samples" / "fibs-bluenote-nori.txt"  # a 7-point match with cube actions
TAVLA = REPO / "samples" / "tavla-t000.mat"
runner = CliRunner()


@pytest.fixture(scope="module")
def fibs() -> tk.analysis.Analysis:
    return tk.analysis.analyse(FIBS, luck=False, statistics=True, level="expert")


def largest(analysis: tk.analysis.Analysis, name: str, top: int) -> pd.DataFrame:
    """The ``top`` largest errors of ``name`` read off the plays frame with
    the judged values joined to it: a roll's play error and, on the same
    row, the cube decision before it, each one a decision."""
    plays = join_decisions(analysis.plays, analysis.decisions)
    mine = plays[plays["name"] == name]
    rolls = mine[mine["error_emg"].notna()].assign(decision="roll", lost=lambda f: f["error_emg"])
    cubes = mine[mine["cube_error_emg"].notna()].assign(
        decision=lambda f: f["cube_decision"], lost=lambda f: f["cube_error_emg"]
    )
    both = pd.concat([rolls, cubes])[["path", "game", "turn", "decision", "lost"]]
    return both[both["lost"] > 0].nlargest(top, "lost", keep="all")


def test_the_mistakes_are_the_largest_errors_of_the_plays_frame(fibs: tk.analysis.Analysis) -> None:
    for name in ("nori", "BlueNote"):
        found = fibs.mistakes(player=name, top=12)
        expected = largest(fibs, name, 12)
        assert len(found) == 12 and len(expected) == 12  # (no tie at the edge)
        frame = found.frame
        assert set(frame["name"]) == {name}
        assert frame["error_emg"].tolist() == sorted(frame["error_emg"], reverse=True)
        assert frame["error_emg"].tolist() == pytest.approx(expected["lost"].tolist())
        got = {(m.path, m.game, m.turn, m.kind) for m in found}
        assert got == set(expected[["path", "game", "turn", "decision"]].itertuples(index=False, name=None))
        assert {m.kind for m in found} & set(CUBE_KINDS), "the match has cube mistakes among the worst"
    # both players, and the floor
    everyone = fibs.mistakes(top=None, min_error=0.1)
    assert min(m.error_emg for m in everyone) >= 0.1
    assert len(everyone) == len(largest(fibs, "nori", 999).query("lost >= 0.1")) + len(
        largest(fibs, "BlueNote", 999).query("lost >= 0.1")
    )


def test_a_mistake_holds_its_position_candidates_and_level(fibs: tk.analysis.Analysis) -> None:
    found = fibs.mistakes(top=20)
    plays = fibs.plays.set_index(["path", "game", "turn"])
    for m in found:
        row = plays.loc[(m.path, m.game, m.turn)]
        assert m.level.key == "expert" and m.name == row["name"]
        position, state = parse_id(m.gnubg_id)
        assert position == m.position and state is not None
        assert state.score == m.score and state.length == 7 and state.cube == m.cube
        assert parse_id(m.xgid)[0] == m.position
        if m.kind == "roll":
            assert m.position.position_id() == row["position_id"]  # the board before the roll
            assert f"{m.dice[0]}{m.dice[1]}" == row["dice"] and sorted(state.dice) == sorted(m.dice)
            best, made = m.candidates[0], next(c for c in m.candidates if c.played)
            assert best.equity - made.equity == pytest.approx(m.error_emg)  # the error is the analysis'
            assert [c.equity for c in m.candidates] == sorted((c.equity for c in m.candidates), reverse=True)
            # the candidates are the legal plays, each once
            legal = {m.position.apply(p).position_key() for p in m.position.legal_plays(m.dice)}
            assert {m.position.apply(c.play).position_key() for c in m.candidates} == legal
            assert len(m.candidates) == len(legal)
            # the play made is the record's
            assert m.position.apply(made.play) == m.position.apply(Play.parse(row["play"]))
        else:
            taker = m.kind in ("take", "pass")
            assert (m.position.flip() if taker else m.position).position_id() == row["position_id"]
            nd, dt, dp = (c.equity for c in m.candidates)
            optimal = max(nd, min(dt, dp))
            lost = {"no double": optimal - nd, "double": optimal - min(dt, dp), "take": dt - dp, "pass": dp - dt}
            assert lost[m.kind] == pytest.approx(m.error_emg)


def test_the_candidates_are_gnubgs_hint(gnubg_bin: Path, gnubg_wd: Path, tmp_path: Path) -> None:
    """With gnubg's own weights, gnubg reads each mistake's ID as the same
    position, score, cube and dice, and its 0-ply hint ranks the same plays
    with the same equities (a cube decision: the same three equities)."""
    from gnubg_hint import ask_gnubg_hint

    from tavlakit.evaluation.net import use_net

    try:
        analysis = tk.analysis.analyse(FIBS, luck=False, statistics=True, net=gnubg_wd, level="expert")
        found = analysis.mistakes(top=30)
    finally:
        use_net(None)
    answers = ask_gnubg_hint(gnubg_bin, [(m.gnubg_id, m.kind == "roll") for m in found], tmp_path)
    compared = 0
    for m, answer in zip(found, answers):
        assert answer["id"] == m.gnubg_id, "gnubg read the ID as it is written"
        assert answer["score"] == list(m.score) and answer["cube"] == m.cube
        if m.kind != "roll":
            ours = [c.equity for c in m.candidates]
            assert ours == pytest.approx(answer["cube_equities"], abs=1e-3), m.gnubg_id
            continue
        theirs = [(m.position.apply(Play.parse(text)).position_key(), equity) for text, equity in answer["moves"]]
        ours_by_key = {m.position.apply(c.play).position_key(): c.equity for c in m.candidates}
        assert len(theirs) == len(ours_by_key)
        for key, equity in theirs:
            assert ours_by_key[key] == pytest.approx(equity, abs=1e-3), (m.gnubg_id, key)
        assert theirs[0][0] == m.position.apply(m.candidates[0].play).position_key()
        compared += 1
    assert compared >= 10


def test_the_page_lists_the_mistakes_worst_first(fibs: tk.analysis.Analysis) -> None:
    found = fibs.mistakes(player="nori", top=8)
    page = study.page(found)
    cards = re.findall(r"<section class='mistake' id='m(\d+)'>(.*?)</section>", page, re.S)
    assert [int(n) for n, _card in cards] == list(range(1, 9))
    shown = [float(re.search(r"<span class='lost'>\u2212([\d.]+)</span>", card).group(1)) for _n, card in cards]
    assert shown == [round(m.error_emg, 3) for m in found] == sorted(shown, reverse=True)
    for (_n, card), m in zip(cards, found):
        assert m.gnubg_id in card and m.xgid in card
        board = re.search(r"<svg.*?</svg>", card, re.S).group(0)
        assert f'data-position-id="{m.position_id}"' in board
        if m.kind == "roll":  # the best play and the play made: two colours, a legend each
            assert board.count('class="legend-item"') == 2 and 'data-colour="arrow2"' in board
            assert f'data-dice="{m.dice[0]}{m.dice[1]}"' in board
            played_row = re.search(r"<tr class='[^']*played[^']*'>.*?</tr>", card, re.S).group(0)
            assert next(c for c in m.candidates if c.played).text in played_row
        # each candidate's depth, as gnubg's hint gives it (here expert: all at 0 ply)
        listed = [c for i, c in enumerate(m.candidates) if m.kind != "roll" or i < study.SHOWN or c.played]
        assert re.findall(r"<td class='ply'>(\d) ply</td>", card) == [str(c.plies) for c in listed]
    assert "<script" not in page and "http" not in page.replace("http://www.w3.org/2000/svg", "")


def test_the_anki_deck_has_one_note_per_mistake(fibs: tk.analysis.Analysis, tmp_path: Path) -> None:
    found = fibs.mistakes(top=15)
    out = tmp_path / "deck.apkg"
    assert anki.deck(found, out, title="test deck") == 15
    with zipfile.ZipFile(out) as package:
        names = set(package.namelist())
        assert "collection.anki2" in names and "media" in names
        media = json.loads(package.read("media"))
        (tmp_path / "collection.anki2").write_bytes(package.read("collection.anki2"))
        pictures = {name: package.read(number).decode() for number, name in media.items()}
    with sqlite3.connect(tmp_path / "collection.anki2") as db:
        notes = [row[0].split("\x1f") for row in db.execute("select flds from notes")]
        cards = db.execute("select count(*) from cards").fetchone()[0]
        decks = json.loads(db.execute("select decks from col").fetchone()[0])
        models = json.loads(db.execute("select models from col").fetchone()[0])
    assert len(notes) == cards == 15
    assert "test deck" in {deck["name"] for deck in decks.values()}
    (model,) = models.values()
    assert [field["name"] for field in model["flds"]] == list(anki.FIELDS)
    for fields, m in zip(sorted(notes, key=lambda f: f[0]), sorted(found, key=lambda m: f"{m.gnubg_id} {m.kind}")):
        decision, front, question, back, answer = fields
        assert decision == f"{m.gnubg_id} {m.kind}"
        front_svg = pictures[re.search(r"src='([^']+)'", front).group(1)]
        back_svg = pictures[re.search(r"src='([^']+)'", back).group(1)]
        assert f'data-position-id="{m.position_id}"' in front_svg and 'class="arrow"' not in front_svg
        assert ("your play?" in question) == (m.kind == "roll")
        if m.kind == "roll":
            assert 'class="arrow"' in back_svg
            assert m.candidates[0].text in answer and f"{m.error_emg:.3f}" in answer


def test_tavla_mistakes_in_turkish(tmp_path: Path) -> None:
    """Tavla has no cube: only plays, no cube on the boards, Tavla's match
    winning chances; the page and the deck speak Turkish."""
    analysis = tk.analysis.analyse(TAVLA, luck=False, statistics=True, level="expert")
    found = analysis.mistakes(player="Ayşe", top=6)
    assert len(found) == 6 and {m.kind for m in found} == {"roll"}
    decisions = analysis.decisions.set_index(["path", "game", "turn", "kind"])
    for m in found:
        row = decisions.loc[(m.path, m.game, m.turn, "roll")]
        assert (m.error_emg, m.error_mwc) == (row["error_emg"], row["error_mwc"])
        assert m.error_mwc != m.error_emg  # MWC at the Tavla score, not EMG
    set_language("tr")
    try:
        page = study.page(found)
        assert anki.deck(found, tmp_path / "tavla.apkg") == 6
    finally:
        set_language("en")
    assert "<html lang='tr'>" in page and "Kaybedilen değer" in page and "Ayşe oyuncusunun hataları" in page
    assert 'class="cube"' not in page


def test_in_jupyter_a_table_with_a_board_in_each_row(fibs: tk.analysis.Analysis) -> None:
    found = fibs.mistakes(top=4)
    assert isinstance(found, Mistakes)
    table = found._repr_html_()
    assert table.count("<tr>") == 5 and table.count("<svg") == 4


def test_unregistered_the_notebook_shows_the_plain_frame(
    fibs: tk.analysis.Analysis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mistakes_module, "_DRAWERS", [])
    found = fibs.mistakes(top=3)
    table = found._repr_html_()
    assert "<svg" not in table and table.count("<tr") == 4 and "error_emg" in table


def test_tk_analysis_registers_the_pictures_table() -> None:
    """The analysis never imports the pictures: the front door's ``tk.analysis`` brings the table in."""
    code = (
        "import sys, tavlakit as tk\n"
        "tk.analysis\n"
        "study = sys.modules['tavlakit.pictures.study']\n"
        "assert sys.modules['tavlakit.analysis.mistakes']._DRAWERS == [study.table]\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_a_name_not_in_the_files_lists_the_names_there(fibs: tk.analysis.Analysis) -> None:
    with pytest.raises(UnknownPlayer, match="BlueNote, nori"):
        fibs.mistakes(player="Nori")


def test_cli_mistakes_writes_the_page_and_the_deck(tmp_path: Path) -> None:
    page, deck = tmp_path / "m.html", tmp_path / "m.apkg"
    run = runner.invoke(
        app,
        [
            *("mistakes", str(FIBS), "--player", "nori", "--top", "5", "--level", "expert"),
            *("-o", str(page), "--anki", str(deck), "-j", "1"),
        ],
    )
    assert run.exit_code == 0, run.output
    assert "5 mistakes" in run.output and "expert (0 ply)" in run.output
    assert page.read_text(encoding="utf-8").count("<section class='mistake'") == 5
    assert zipfile.is_zipfile(deck)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "Nori"], "no player 'Nori' in the files; the players there: BlueNote, nori"),
        (["--ply", "4"], "only 0-, 1-, 2- and 3-ply"),
    ],
)
def test_cli_mistakes_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    run = runner.invoke(
        app, ["mistakes", str(FIBS), "-o", str(tmp_path / "m.html"), "-j", "1", "--level", "expert", *args]
    )
    assert run.exit_code == 2
    assert message in run.output and "Traceback" not in run.output
    assert not (tmp_path / "m.html").exists()


def test_cli_mistakes_unreadable_inputs_and_outputs(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_bytes(bytes(range(256)))
    run = runner.invoke(app, ["mistakes", str(junk), "-o", str(tmp_path / "m.html"), "-j", "1"])
    assert run.exit_code == 2 and "junk.mat" in run.output
    run = runner.invoke(app, ["mistakes", str(FIBS), "-o", str(tmp_path / "no" / "m.html"), "-j", "1", "--level", "0"])
    assert run.exit_code == 2 and "cannot write" in run.output and "Traceback" not in run.output


def test_h_is_help() -> None:
    short, long = runner.invoke(app, ["mistakes", "-h"]), runner.invoke(app, ["mistakes", "--help"])
    assert short.exit_code == long.exit_code == 0 and short.output == long.output and "--anki" in short.output


def test_cli_mistakes_writes_what_it_read_and_says_what_it_could_not(tmp_path: Path) -> None:
    """As show: a page of the files read, each input nothing was read from on a line of its own, exit 2."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.txt").write_bytes(FIBS.read_bytes())
    (folder / "binary.mat").write_bytes(bytes(range(256)) * 4)
    (folder / "empty.mat").write_bytes(b"")
    run = runner.invoke(app, ["mistakes", str(folder), "-o", str(tmp_path / "m.html"), "-j", "1", "--ply", "0"])
    assert run.exit_code == 2
    assert sum(str(folder / name) in run.output for name in ("binary.mat", "empty.mat")) == 2
    assert (tmp_path / "m.html").read_text(encoding="utf-8").count("<section class='mistake'") == 20
