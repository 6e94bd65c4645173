"""The .mat reader and writer against GNU Backgammon's own idea of the same matches.

* gnubg self-play matches (tests/data/gnubg, made by ``make_selfplay.py``):
  our reading of gnubg's ``export match mat`` equals gnubg's ``gnubg.match()``.
* Corpus matches of every dialect, written by :func:`write_mat` and imported
  by Debian's gnubg: gnubg sees the same dice, boards, cube actions and results.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gnubg_load import load_in_gnubg

from tavlakit.engine.play import Move
from tavlakit.engine.position import Position
from tavlakit.formats.mat import read_mat, write_mat
from tavlakit.record.match import Game, Match

DATA = Path(__file__).parent / "data" / "gnubg"
SELFPLAY = sorted(DATA.glob("selfplay-*.mat"))


def gnubg_side(letter: str) -> int:
    """gnubg's ``X`` is the .mat's left column (player 0), ``O`` the right."""
    return {"X": 0, "O": 1}[letter]


def gnubg_actions(game: dict) -> list[tuple]:
    """gnubg's actions as ``(kind, player, dice, board before, moves)``;
    resignations have no row in a .mat and are left out. A roll that ends
    the game unplayed (the .mat's ``43:`` before `Wins`) is a ``set`` of
    the dice in gnubg, without a board."""
    out = []
    for action in game["game"]:
        kind = action["action"]
        if kind == "resign":
            continue
        player = gnubg_side(action["player"])
        if kind == "move" or (kind == "set" and "dice" in action):
            dice = tuple(action["dice"])
            moves = tuple(tuple(move) for move in action.get("move", ()))
            out.append(("roll", player, dice, action.get("board"), moves))
        else:
            assert kind in ("double", "take", "drop"), kind
            out.append((kind, player, None, None, None))
    return out


def our_actions(game: Game, moves_from: list[tuple] | None = None) -> list[tuple]:
    """Our turns in the same shape; boards come from replaying our moves.

    With ``moves_from`` (gnubg's actions) the moves compared are gnubg's own,
    checked to give the same position as ours (gnubg splits merged moves).
    """
    board0 = Position.initial()  # from player 0's side
    out = []
    theirs = iter(moves_from or [])
    for turn in game.turns:
        if turn.kind != "roll":
            out.append((turn.kind, turn.player, None, None, None))
            next(theirs, None)
            continue
        assert turn.dice is not None
        mine = board0 if turn.player == 0 else board0.flip()
        after = mine.apply(turn.moves)
        moves = tuple((m.src, m.dst) for m in turn.moves)
        other = next(theirs, None)
        if (
            moves_from is not None
            and other is not None
            and other[0] == "roll"
            and other[4]
            and mine.apply(Move(*m) for m in other[4]) == after
        ):
            moves = other[4]
        out.append(("roll", turn.player, turn.dice, mine.position_id(), moves))
        board0 = after if turn.player == 0 else after.flip()
    return out


def compare(ours: Match, theirs: dict, split: bool = False) -> None:
    info = theirs["match-info"]
    # gnubg splits FIBS's `name,rating` into a name and a rating
    names = tuple(",".join(filter(None, (info[side]["name"], info[side].get("rating")))) for side in "XO")
    assert ours.players == names
    assert ours.length == info["match-length"]
    assert len(ours.games) == len(theirs["games"])
    for game, other in zip(ours.games, theirs["games"]):
        gi = other["info"]
        assert game.score == (gi["score-X"], gi["score-O"]), game.number
        assert game.result is not None
        assert game.result.winner == gnubg_side(gi["winner"]), game.number
        if game.result.resigned:
            # our `Losses` row is read by gnubg as a resignation too; gnubg then
            # scores it from its cube, not from the points Galaxy wrote
            assert gi["resigned"], game.number
        elif ours.length:  # in money play gnubg scores by its Jacoby rule, not by the file
            assert game.result.points == gi["points-won"], game.number
        expected = gnubg_actions(other)
        got = our_actions(game, expected if split else None)
        # gnubg's unplayed last roll has no board: leave ours out of the comparison there
        got = [mine[:3] + (None,) + mine[4:] if ref[3] is None else mine for mine, ref in zip(got, expected)] + got[
            len(expected) :
        ]
        assert got == expected, f"game {game.number}"


@pytest.mark.parametrize("path", SELFPLAY, ids=lambda p: p.stem)
def test_selfplay_read_equals_gnubg_record(path: Path) -> None:
    """gnubg's own .mat export, read by us, is gnubg's game record: same
    dice (as written), same moves part by part, same boards, cube and results."""
    match = read_mat(path.read_bytes(), source=str(path))
    assert not match.problems and not any(g.problems for g in match.games)
    compare(match, json.loads(path.with_suffix(".json").read_text()))


def test_selfplay_set_has_cube_actions() -> None:
    """The committed self-play set exercises doubles, takes and drops."""
    kinds = {t.kind for path in SELFPLAY for g in read_mat(path.read_bytes()).games for t in g.turns}
    assert {"roll", "double", "take", "drop"} <= kinds
    assert len(SELFPLAY) >= 4


# One corpus match per writer, and Galaxy resignations in both cells.
DIALECTS = {
    "gnubg": "gnubgparser/charlot1-charlot2_7p_2025-11-08-2305.mat",
    "galaxy": "bglab/match10074339.txt",
    "galaxy-resign": "bglab/match11860310.txt",
    "galaxy-resign-right": "bglab/match1004844.txt",
    "xg": "matfile_go/fullmatch1.mat",
    "studio": "bglab/Bulgakov - Llabba 13pt Backgammon Studio 2023_09_12 13_54_06.txt",
    "dailygammon": "bglib/1864694.txt",
    "fibs": "bglib/BlueNote-nori-2009Jan172304.txt",
    "raccoon": "raccoon/gnubg_eval_20260410_051307.txt",
}


def test_written_mat_imports_into_gnubg(corpus_dir: Path, gnubg_bin: Path, tmp_path: Path) -> None:
    """write_mat output of a match of every dialect, imported by gnubg, is the same match."""
    matches = {}
    for name, rel in DIALECTS.items():
        match = read_mat((corpus_dir / rel).read_bytes(), source=rel)
        matches[name] = match
        with open(tmp_path / f"{name}.mat", "w", encoding="utf-8") as out:
            assert write_mat(match, out) == []
    dumps = load_in_gnubg(gnubg_bin, [tmp_path / f"{name}.mat" for name in matches], tmp_path)
    for match, theirs in zip(matches.values(), dumps):
        compare(match, theirs, split=True)
