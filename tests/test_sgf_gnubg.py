"""SGF interop with Debian's gnubg: what we write, gnubg loads with the same
moves, dice, cube actions and results (``gnubg.match()``); what gnubg
writes, we read as gnubg itself recorded it. One gnubg run loads every file."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from gnubg_load import gnubg_view, load_in_gnubg, record_view
from record_strategies import random_match

from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import read_sgf, write_sgf
from tavlakit.record.match import Match

DATA = Path(__file__).parent / "data"
#: gnubg's own SGF files with its gnubg.match() dump beside them (gnubg-3p-nocube.sgf has none:
#: tests/test_real_files.py reads it for RU[NoCube])
GNUBG_SGF = sorted(p for p in (DATA / "sgf").glob("gnubg-*.sgf") if p.with_suffix(".json").exists())
SELFPLAY_MAT = sorted((DATA / "gnubg").glob("selfplay-*.mat"))
CORPUS_SGF = [
    "gnubgparser/charlot1-charlot2_7p_2025-11-08-2305.sgf",
    "gnubgparser/charlot1-charlot2_7p_2025-11-08-2308.sgf",
    "gnu_gibbon/7point.sgf",
    "gnu_gibbon/edited.sgf",
]


def test_gnubg_written_sgf_reads_as_gnubg_recorded() -> None:
    """gnubg's own ``save match`` files against its ``gnubg.match()`` dumps."""
    assert len(GNUBG_SGF) == 2
    for path in GNUBG_SGF:
        match = read_sgf(path)
        dump = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        assert match.problems == [] and all(g.problems == [] for g in match.games)
        assert record_view(match) == gnubg_view(dump), path.name
        assert match.players == (dump["match-info"]["X"]["name"], dump["match-info"]["O"]["name"])
        assert match.length == dump["match-info"]["match-length"]


@pytest.fixture(scope="module")
def loaded(gnubg_bin: Path, corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple]:
    """Every record we write, with what gnubg read back from our SGF."""
    work = tmp_path_factory.mktemp("sgf-gnubg")
    records: dict[str, Match] = {}
    for name in CORPUS_SGF:
        records[name] = read_sgf(corpus_dir / name)
    for path in GNUBG_SGF:
        records[path.name] = read_sgf(path)
    for path in SELFPLAY_MAT:
        records[path.name] = read_mat(path.read_text(encoding="utf-8"), source=str(path))
    files = []
    for i, (name, match) in enumerate(records.items()):
        out = work / f"ours-{i}.sgf"
        with open(out, "w", encoding="utf-8") as stream:
            problems = write_sgf(match, stream)
        assert [p for p in problems if "tag" not in p.message] == [], (name, problems)
        files.append(out)
    dumps = load_in_gnubg(gnubg_bin, files, work)
    return {name: (match, dump) for (name, match), dump in zip(records.items(), dumps)}


@pytest.mark.parametrize("name", CORPUS_SGF + [p.name for p in GNUBG_SGF] + [p.name for p in SELFPLAY_MAT])
def test_gnubg_loads_what_we_write(loaded: dict[str, tuple], name: str) -> None:
    match, dump = loaded[name]
    assert gnubg_view(dump) == record_view(match)
    assert (dump["match-info"]["X"]["name"], dump["match-info"]["O"]["name"]) == match.players
    assert dump["match-info"]["match-length"] == match.length


def test_gnubg_agrees_with_its_own_selfplay_records(loaded: dict[str, tuple]) -> None:
    """The self-play .mat files (gnubg's export), read by the .mat reader and
    written by us as SGF, load into what gnubg recorded when it played them
    (but for resignations, which a .mat does not mark)."""

    def unresigned(games: list[dict]) -> list[dict]:
        return [dict(g, result=g["result"] and g["result"][:2]) for g in games]

    assert len(SELFPLAY_MAT) >= 5
    for path in SELFPLAY_MAT:
        _, dump = loaded[path.name]
        original = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        assert unresigned(gnubg_view(dump)) == unresigned(gnubg_view(original)), path.name


def test_gnubg_sets_up_the_edited_position(loaded: dict[str, tuple]) -> None:
    match, dump = loaded["gnu_gibbon/edited.sgf"]
    position_id, _match_id = dump["ids"]
    assert position_id == match.games[0].start == "4HPiAWAzTvABMA"


def test_gnubg_loads_generated_matches(gnubg_bin: Path, tmp_path: Path) -> None:
    """Random matches with legal plays, cube actions, set-up starts,
    comments and resignations (one gnubg run for all)."""
    generated = [random_match(seed, sgf=True) for seed in range(12)]
    assert sum(len(g.turns) for m in generated for g in m.games) > 300
    assert any(g.start for m in generated for g in m.games)
    files = []
    for i, match in enumerate(generated):
        out = tmp_path / f"gen-{i}.sgf"
        with open(out, "w", encoding="utf-8") as stream:
            assert write_sgf(match, stream) == []
        files.append(out)
    for match, dump in zip(generated, load_in_gnubg(gnubg_bin, files, tmp_path)):
        assert gnubg_view(dump) == record_view(match)
        # gnubg's reader keeps the "\\" escape in PW/PB (its own writer escapes "\\")
        escaped = tuple(n.replace("\\", "\\\\") for n in match.players)
        assert (dump["match-info"]["X"]["name"], dump["match-info"]["O"]["name"]) == escaped


def test_every_corpus_mat_as_sgf_loads_in_gnubg(gnubg_bin: Path, corpus_dir: Path, tmp_path: Path) -> None:
    """Every .mat transcript of the corpus (read by the .mat reader), written
    as SGF, loads into gnubg with the same moves, dice, cube actions and
    scores. Results too, except for Galaxy/Studio (bglab) and Tavla files:
    gnubg recomputes the points of a finished game from the board and cube
    (and of a resignation from its level), and those writers' points differ."""
    with open(corpus_dir / "SOURCES.tsv", encoding="utf-8") as f:
        names = [row["file"] for row in csv.DictReader(f, delimiter="\t") if row["format"] == "jf-mat"]
    assert len(names) > 500
    records, files = [], []
    for i, name in enumerate(names):
        match = read_mat((corpus_dir / name).read_bytes(), source=name)
        out = tmp_path / f"mat-{i}.sgf"
        with open(out, "w", encoding="utf-8") as stream:
            write_sgf(match, stream)
        records.append(match)
        files.append(out)
    recomputed = 0
    for name, match, dump in zip(names, records, load_in_gnubg(gnubg_bin, files, tmp_path)):
        theirs, ours = gnubg_view(dump), record_view(match)
        assert [(g["score"], g["actions"]) for g in theirs] == [(g["score"], g["actions"]) for g in ours], name
        if [g["result"] for g in theirs] != [g["result"] for g in ours]:
            assert name.split("/")[0] in ("bglab", "tavla"), name
            recomputed += 1
    assert recomputed < len(names) // 5
