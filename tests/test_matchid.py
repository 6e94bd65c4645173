"""Match IDs and XGIDs against independent references: the BGBlitz exports in
the corpus (each prints a gnubg Position-ID/Match-ID and an XGID of the same
position) and Debian's gnubg (``set xgid`` / ``set matchid``)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from gnubg_ids import ask_gnubg

from tavlakit.engine.matchid import (
    MatchState,
    decode_match_id,
    encode_match_id,
    format_xgid,
    gnubg_id,
    parse_gnubg_id,
    parse_xgid,
)
from tavlakit.engine.position import Position

IDS = re.compile(r"Position-ID: (\S{14})\s+Match-ID: (\S{12})")


def bgblitz_vectors(corpus: Path) -> list[tuple[str, str, str, str]]:
    out = []
    for path in sorted((corpus / "bgfparser").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        found = IDS.search(text)
        xgid = re.search(r"XGID=\S+", text)
        assert found and xgid, path
        out.append((path.name, found[1], found[2], xgid[0]))
    return out


def test_bgblitz_pairs(corpus_dir: Path) -> None:
    vectors = bgblitz_vectors(corpus_dir)
    assert len(vectors) == 28
    for name, position_id, match_id, xgid in vectors:
        pos, state = parse_xgid(xgid)
        assert pos.position_id() == position_id, name
        theirs = decode_match_id(match_id)
        # BGBlitz writes the dice in thrown order, gnubg higher first.
        assert theirs.replace(dice=tuple(sorted(theirs.dice))) == state.replace(dice=tuple(sorted(state.dice))), name
        if theirs.dice[0] >= theirs.dice[1]:
            assert encode_match_id(state) == match_id, name
        assert format_xgid(pos, state) == xgid, name
        assert parse_gnubg_id(gnubg_id(pos, state)) == (
            pos,
            state.replace(dice=tuple(sorted(state.dice, reverse=True)), max_cube=1024),
        )


def test_first_bgblitz_vector_by_hand() -> None:
    """01_checkerPosition: Green (top) 6, Red (bottom) 3 of 7, Red to play 1-2,
    cube 2 owned by Green (the board shows the cube on Green's side)."""
    pos, state = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")
    assert state == MatchState(cube=2, cube_owner=0, on_roll=1, turn=1, dice=(2, 1), length=7, score=(6, 3))
    assert pos.pips() == (111, 52)  # Red 111, Green 52 as printed
    assert pos.bar() == (0, 0)


def test_bad_ids() -> None:
    for bad in ("", "cAkgAVAAAAA", "cAkgAVAAAA!E", "////////////"):
        with pytest.raises(ValueError):
            decode_match_id(bad)
    for bad in (
        "XGID=-B-CB:1",
        "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:2:21:3:6:0:7:10",
        "XGID=-B-CBBB---a---A---ABcbbbd?:1:-1:1:21:3:6:0:7:10",
        "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:2x:3:6:0:7:10",
    ):
        with pytest.raises(ValueError):
            parse_xgid(bad)


XGIDS = [
    "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:1:5:10",  # Crawford game
    "XGID=-b----E-C---eE---c-e----B-:2:1:1:00:2:1:0:5:10",  # bottom owns 4
    "XGID=aA--BBBCC-------b-bbcbab-A:0:0:1:63:0:0:3:0:10",  # money, Jacoby + beaver, both on the bar
    "XGID=-b----E-C---eE---c-e----B-:3:-1:1:00:0:0:1:0:10",  # money, Jacoby, top owns 8
    "XGID=--BaBCCBAA------acccc-a--A:0:0:1:00:0:2:0:7:10",
    "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:-1:00:3:6:0:7:10",  # top on roll: gnubg swaps players
    "XGID=-b----E-C---eE---c-e----B-:1:1:-1:44:1:2:0:3:10",
]


def test_xgid_against_gnubg(gnubg_bin: Path, tmp_path: Path) -> None:
    answers = ask_gnubg(gnubg_bin, [["xgid", x] for x in XGIDS], tmp_path)
    for xgid, answer in zip(XGIDS, answers):
        pos, state = parse_xgid(xgid)
        if state.on_roll == 0:
            # gnubg answers yes to "swap players so the player on roll appears on the bottom?"
            swap = {None: None, 0: 1, 1: 0}
            state = state.replace(on_roll=1, turn=1, cube_owner=swap[state.cube_owner], score=state.score[::-1])
        assert answer["position_id"] == pos.position_id(), xgid
        assert answer["match_id"] == encode_match_id(state), xgid
        cube = answer["cubeinfo"]
        assert (cube["cube"], cube["move"], tuple(cube["score"]), cube["matchto"], cube["crawford"]) == (
            state.cube,
            state.on_roll,
            state.score,
            state.length,
            int(state.crawford),
        ), xgid


def random_states(seed: int, count: int) -> list[MatchState]:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        length = rng.choice([0, 1, 3, 5, 7, 11, 25])
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        crawford = length > 1 and length - 1 in score and rng.random() < 0.5
        cube = 1 if crawford else 1 << rng.randrange(7)
        owner = None if cube == 1 else rng.choice([None, 0, 1])
        on_roll = rng.randrange(2)
        dice = (0, 0) if rng.random() < 0.3 else tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True))
        states.append(
            MatchState(
                cube=cube,
                cube_owner=owner,
                on_roll=on_roll,
                turn=on_roll,
                crawford=crawford,
                dice=dice,
                length=length,
                score=score,  # type: ignore[arg-type]
                jacoby=not length and rng.random() < 0.5,
            )
        )
    return states


def test_match_id_against_gnubg(gnubg_bin: Path, tmp_path: Path) -> None:
    """gnubg takes our IDs, shows the same state and gives the same ID back."""
    states = random_states(4, 60)
    answers = ask_gnubg(gnubg_bin, [["matchid", encode_match_id(s)] for s in states], tmp_path)
    for state, answer in zip(states, answers):
        assert answer["match_id"] == encode_match_id(state), state
        assert decode_match_id(answer["match_id"]) == state
        cube, info = answer["cubeinfo"], answer["posinfo"]
        owner = -1 if state.cube_owner is None else state.cube_owner
        assert (
            cube["cube"],
            cube["cubeowner"],
            cube["move"],
            tuple(cube["score"]),
            cube["matchto"],
            cube["crawford"],
            cube["jacoby"],
        ) == (state.cube, owner, state.on_roll, state.score, state.length, int(state.crawford), int(state.jacoby)), (
            state
        )
        assert (tuple(info["dice"]), info["turn"], info["doubled"], info["resigned"]) == (
            state.dice,
            state.turn,
            0,
            0,
        ), state


def test_position_from_xgid_matches_board() -> None:
    """Both bars: the bottom player (on roll) has one on the bar, the top one too."""
    pos, state = parse_xgid("XGID=aA--BBBCC-------b-bbcbab-A:0:0:1:63:0:0:3:0:10")
    assert pos.bar() == (1, 1)
    assert state.jacoby and state.beaver and not state.crawford
    assert pos == Position.from_points(
        {1: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 25: 1}, {9: 2, 7: 2, 6: 2, 5: 3, 4: 2, 3: 1, 2: 2, 25: 1}
    )


def test_doubled_and_resigned_states_from_gnubg(gnubg_bin: Path, tmp_path: Path) -> None:
    """States only play reaches (a double waiting for an answer, a
    resignation offered): gnubg's IDs decode to what gnubg says the state is."""
    jobs = [
        ["command", "set player 0 human"],
        ["command", "set player 1 human"],
        ["matchid", "cAkgAVAAAAAE"],
        ["command", "double"],
        ["matchid", "cAkgAVAAAAAE"],
        ["command", "roll"],
        ["command", "resign backgammon"],
        ["matchid", "UQngADAAMAAE"],
        ["command", "resign single"],
    ]
    answers = ask_gnubg(gnubg_bin, jobs, tmp_path)
    doubled, resigned, resigned_before_roll = answers[3], answers[6], answers[8]
    for answer in answers[2:]:
        state = decode_match_id(answer["match_id"])
        assert encode_match_id(state) == answer["match_id"]
        cube, info = answer["cubeinfo"], answer["posinfo"]
        assert (
            state.cube,
            -1 if state.cube_owner is None else state.cube_owner,
            state.on_roll,
            state.score,
            state.length,
        ) == (cube["cube"], cube["cubeowner"], cube["move"], tuple(cube["score"]), cube["matchto"])
        assert (state.turn, int(state.doubled), state.resign, state.dice) == (
            info["turn"],
            info["doubled"],
            info["resigned"],
            tuple(sorted(info["dice"], reverse=True)),
        )
    assert decode_match_id(doubled["match_id"]).doubled and decode_match_id(doubled["match_id"]).turn == 0
    assert decode_match_id(resigned["match_id"]).resign == 3
    assert decode_match_id(resigned_before_roll["match_id"]).resign == 1


def test_xgid_doubled() -> None:
    """'D' in the dice field: a double waits for the other side's answer
    (gnubg's SetXGID: fTurn = !fMove, fDoubled)."""
    pos, state = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:5:10")
    assert (state.doubled, state.on_roll, state.turn, state.dice, state.cube) == (True, 1, 0, (0, 0), 2)
    assert format_xgid(pos, state) == "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:5:10"
