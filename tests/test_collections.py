"""One match, one player: the same match stored twice is found by its
content, and spellings of one player's name merge."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis.collection import rename_players
from tavlakit.cli import app
from tavlakit.collections.names import PlayerNames
from tavlakit.formats import find_records
from tavlakit.replay.fingerprint import fingerprint

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
# gnubg exported one match both ways (samples/SOURCES.md)
MAT = SAMPLES / "charlot1-charlot2_7p_2025-11-08-2305.mat"
SGF = SAMPLES / "charlot1-charlot2_7p_2025-11-08-2305.sgf"
runner = CliRunner()


def test_a_mat_and_its_sgf_have_one_fingerprint() -> None:
    mat, sgf = tk.read_match(MAT), tk.read_match(SGF)
    assert [g.result.resigned for g in mat.games if g.result] != [g.result.resigned for g in sgf.games if g.result]
    assert fingerprint(mat) == fingerprint(sgf) is not None


def test_other_matches_and_one_changed_die_differ() -> None:
    prints = [fingerprint(tk.read_match(p)) for p in find_records([SAMPLES]) if p != SGF]
    assert len(set(prints)) == len(prints)
    match = tk.read_match(MAT)
    turn = next(t for t in match.games[2].turns if t.dice == (6, 5))
    turn_index = match.games[2].turns.index(turn)
    changed = tk.read_match(MAT)
    changed.games[2].turns[turn_index] = replace(turn, dice=(6, 4))
    assert fingerprint(changed) != fingerprint(match)
    other = tk.read_match(MAT)
    mover = next(t for t in other.games[1].turns if len(t.moves) == 2)
    other.games[1].turns[other.games[1].turns.index(mover)] = replace(mover, moves=mover.moves[:1])
    assert fingerprint(other) != fingerprint(match)  # a play that leaves another board


def _notation(match: tk.Match) -> tk.Match:
    """The match written as another writer would: no hit marks, the dice in
    the other order, a checker's run of two dice as one move, doubles' moves
    in another order."""
    merged = 0
    for game in match.games:
        for index, turn in enumerate(game.turns):
            if turn.kind != "roll" or not turn.moves:
                continue
            moves = [m._replace(hit=False) for m in turn.moves]
            first, *rest = moves
            if not merged and rest and rest[0].src == first.dst and not first.hit and not turn.moves[0].hit:
                moves = [first._replace(dst=rest[0].dst), *rest[1:]]  # 24/18 18/15 as 24/15
                merged += 1
            dice = turn.dice[::-1] if turn.dice else None
            game.turns[index] = replace(turn, moves=tuple(reversed(moves)), dice=dice)
    assert merged
    return match


def test_the_game_not_its_notation() -> None:
    """Hit marks, the order of the dice and of the moves, and a checker's
    run written in one move or two are notation: the fingerprint is of the
    dice, the boards the plays leave, the cube and the results."""
    match = tk.read_match(MAT)
    assert fingerprint(_notation(tk.read_match(MAT))) == fingerprint(match) is not None


def test_a_fibs_file_and_its_sgf_are_one_match(tmp_path: Path) -> None:
    """A FIBS client's file (no hit marks) and its own conversion to .sgf (hits marked)."""
    fibs = tmp_path / "fibs.txt"
    fibs.write_bytes((SAMPLES / "fibs-bluenote-nori.txt").read_bytes())
    converted = runner.invoke(app, ["convert", str(fibs), "--to", "sgf", "-o", str(tmp_path)])
    assert converted.exit_code == 0, converted.output
    sgf = tmp_path / "fibs.sgf"
    assert any(m.hit for g in tk.read_match(sgf).games for t in g.turns for m in t.moves)
    assert fingerprint(tk.read_match(fibs)) == fingerprint(tk.read_match(sgf)) is not None
    result = runner.invoke(app, ["validate", "--json", str(fibs), str(sgf)])
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["code"], r["file"]) for r in rows if r.get("severity") == "info"] == [("duplicate-match", str(sgf))]
    both = runner.invoke(app, ["stats", "--no-luck", "--json", "-j", "1", str(fibs), str(sgf)])
    rows = [json.loads(line) for line in both.output.splitlines() if line.startswith("{")]
    games = {row["player"]: row["games"] for row in rows}
    assert games and set(games.values()) == {len(tk.read_match(fibs).games)}, both.output


def test_names_and_files_do_not_count() -> None:
    match = tk.read_match(MAT)
    renamed = tk.read_match(MAT)
    renamed.players = ("Charlot One", "Charlot Two")
    renamed.source = "elsewhere.mat"
    assert fingerprint(renamed) == fingerprint(match)


def test_validate_says_it_once_as_info() -> None:
    result = runner.invoke(app, ["validate", "--json", str(MAT), str(SGF), str(SAMPLES / "tavla-t000.mat")])
    rows = [json.loads(line) for line in result.output.splitlines()]
    infos = [r for r in rows if r.get("severity") == "info"]
    assert infos == [{**infos[0], "code": "duplicate-match", "file": str(SGF)}]
    assert str(MAT) in infos[0]["message"]
    assert rows[-1]["summary"]["infos"] == 1 and rows[-1]["summary"]["errors"] == 0
    assert result.exit_code == 0


def test_stats_counts_it_once_and_says_so() -> None:
    both = runner.invoke(app, ["stats", "--no-luck", "--json", "-j", "1", str(MAT), str(SGF)])
    alone = runner.invoke(app, ["stats", "--no-luck", "--json", "-j", "1", str(MAT)])
    assert both.exit_code == 0, both.output
    assert "1 match(es) stored twice were counted once" in both.output
    rows = [json.loads(line) for line in both.output.splitlines() if line.startswith("{")]
    assert rows == [json.loads(line) for line in alone.output.splitlines() if line.startswith("{")]


def test_player_names_merge_case_spaces_and_ratings() -> None:
    names = PlayerNames()
    assert names.merge(["BlueNote,1660", "bluenote ", "BlueNote (1755)", "Blue Note"]) == {
        "BlueNote,1660": "BlueNote",
        "bluenote ": "BlueNote",
        "BlueNote (1755)": "BlueNote",
        "Blue Note": "Blue Note",
    }


def test_a_bad_mapping_line_is_located() -> None:
    with pytest.raises(ValueError, match=r"club\.txt:2: expected 'alias = name'"):
        PlayerNames.parse("BN = BlueNote\nBlueNote\n", "club.txt")


def test_players_frame_shows_the_merged_name(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "bglib").glob("BlueNote-nori-*.txt"))[:4]
    plain = tk.analysis.analyse(files, luck=False, jobs=1)  # FIBS's name,rating: the rating is a column
    assert sorted(plain.players[plain.players["scope"] == "overall"]["player"]) == ["BlueNote", "nori"]
    matches = [tk.read_match(path) for path in files]
    matches[1].players = ("bluenote ", " nori")  # another spelling of each
    result = tk.analysis.analyse(matches, luck=False)
    overall = result.players[result.players["scope"] == "overall"]
    assert len(overall) > 2
    merged = rename_players(result, PlayerNames())
    players = merged.players
    overall = players[players["scope"] == "overall"].set_index("player")
    assert sorted(overall.index) == ["BlueNote", "nori"]
    assert overall.loc["BlueNote", "games"] == (
        result.games["player0"].str.lower().str.startswith("bluenote").sum()
        + result.games["player1"].str.lower().str.startswith("bluenote").sum()
    )


def test_stats_names_file(tmp_path: Path, corpus_dir: Path) -> None:
    files = [str(p) for p in sorted((corpus_dir / "bglib").glob("BlueNote-nori-*.txt"))[:3]]
    mapping = tmp_path / "names.txt"
    mapping.write_text("# one club\nnori = Nori Sensei\nBlueNote = Blue\n", encoding="utf-8")
    result = runner.invoke(app, ["stats", "--no-luck", "--json", "-j", "1", "--names", str(mapping), *files])
    assert result.exit_code == 0, result.output
    players = {json.loads(line)["player"] for line in result.output.splitlines() if line.startswith("{")}
    assert players == {"Nori Sensei", "Blue"}
    mapping.write_text("nori\n", encoding="utf-8")
    bad = runner.invoke(app, ["stats", "--no-luck", "--names", str(mapping), *files])
    assert bad.exit_code == 2 and "names.txt:1" in bad.output
