"""gnubg's bear-off databases (evaluation/bearoff.py) against gnubg-nn's reader, hand-worked boards and gnubg 1.07."""

from __future__ import annotations

from pathlib import Path

import gnubg_nn
import numpy as np
import pytest
from gnubg_eval import ask_gnubg_eval

from tavlakit.evaluation.bearoff import (
    ONE_SIDED,
    TWO_SIDED,
    bearoff_index,
    databases,
    load,
    max_turns,
    one_sided,
    two_sided,
)


def side(*home: int) -> np.ndarray:
    """One side's 25 counts with ``home`` on its points 1, 2, ..."""
    counts = np.zeros(25, dtype=np.int8)
    counts[: len(home)] = home
    return counts


def test_the_files_come_from_gnubg_nns_installed_package() -> None:
    assert ONE_SIDED.parent == TWO_SIDED.parent == Path(gnubg_nn.__file__).parent / "data"
    assert ONE_SIDED.is_file() and TWO_SIDED.is_file()


def test_boards_are_numbered_as_gnubg_nn_numbers_them() -> None:
    """Every one-sided board (54 263 of them) has gnubg-nn's number; the
    two-sided database numbers its boards of up to six the same way."""
    for number in range(1, 54264):
        assert bearoff_index(side(*gnubg_nn.bearoff_id_2_pos(number)), 6, 15) == number
    assert bearoff_index(side(), 6, 15) == 0
    assert bearoff_index(side(0, 0, 0, 0, 0, 6), 6, 6) == 923  # the last of 924


def test_distributions_are_gnubg_nns() -> None:
    """The rolls to bear off each board, as gnubg-nn's own reader of the same file gives them."""
    db = databases()
    for number in range(1, 54264, 7):
        theirs = np.array(gnubg_nn.bearoff_probabilities(number))
        assert np.abs(db.rolls[number, 1 : 1 + len(theirs)] - theirs).max() < 2e-5
        assert db.rolls[number, 1 + len(theirs) :].sum() == 0
        assert max_turns(side(*gnubg_nn.bearoff_id_2_pos(number)), db) == len(theirs)


def test_hand_worked_boards() -> None:
    """Boards worked out by hand: one chequer on the ace point is off in a
    roll; one on the six point is off in a roll that moves it six pips (27
    of 36: a 6, dice adding up to six or more, or a double of 2s or more),
    else in the next; two on the six point are off in one roll only with a
    double of 3s or more; on roll with one chequer on the 2-point against
    one on the ace point, the side on roll wins; a gammon needs 15 chequers left."""
    db = databases()
    assert db.rolls[bearoff_index(side(1), 6, 15), 1] == 1.0
    six = db.rolls[bearoff_index(side(0, 0, 0, 0, 0, 1), 6, 15)]
    assert six[1] == pytest.approx(27 / 36, abs=1e-4) and six[2] == pytest.approx(9 / 36, abs=1e-4)
    assert db.rolls[bearoff_index(side(0, 0, 0, 0, 0, 2), 6, 15), 1] == pytest.approx(4 / 36, abs=1e-4)
    board = np.stack([side(1), side(0, 1)])
    assert one_sided(board)[0] == 1.0
    assert one_sided(board)[1:].sum() == 0  # no gammons: the opponent has borne off 14
    full = np.stack([side(1), side(15)])  # 15 on my ace point, one chequer of theirs left
    p = one_sided(full)
    assert p[0] == 0.0 and p[3] == 0.0  # lost, but a chequer comes off at once: no gammon
    assert two_sided(np.stack([side(1), side(1)]))[0, 0] == pytest.approx(1.0, abs=1e-4)  # on roll: wins


def test_bearoff_positions_evaluate_as_gnubg(gnubg_bin: Path, tmp_path: Path) -> None:
    """Hand-picked bear-off positions, and those of random play: gnubg's
    cubeless chances (one-sided database, or two-sided where both sides
    have six chequers or fewer) and, in money play, its cubeful no double
    and double/take equities, which gnubg reads from the two-sided database."""
    rng = np.random.default_rng(3)
    boards = [np.stack([side(1, 1, 1), side(0, 2, 0, 0, 1)]), np.stack([side(3, 3, 3, 3, 3), side(0, 0, 4, 4, 4, 3)])]
    while len(boards) < 60:
        mine, theirs = (rng.multinomial(int(rng.integers(1, 16)), [1 / 6] * 6) for _ in range(2))
        if len(boards) % 2:  # half of them two-sided
            mine, theirs = (rng.multinomial(int(rng.integers(1, 7)), [1 / 6] * 6) for _ in range(2))
        boards.append(np.stack([side(*theirs), side(*mine)]))
    ids = [gnubg_nn.position_id(b.tolist()) for b in boards]
    answers = ask_gnubg_eval(gnubg_bin, [[i, [1, -1, 0, 0, [0, 0], 0], 0, 0, 1] for i in ids], tmp_path)
    small = [b for b in boards if b.sum(axis=1).max() <= 6]
    assert len(small) >= 25
    exact = two_sided(np.array(small))
    for board, answer in zip(boards, answers):
        if board.sum(axis=1).max() <= 6:
            equities = exact[next(i for i, b in enumerate(small) if (b == board).all())]
            assert answer["probs"][0] == pytest.approx(equities[0] / 2 + 0.5, abs=1e-6)
            # the cube centred: no double is the database's centred equity, double/take twice the opponent's cube's
            assert answer["cube"][1] == pytest.approx(equities[2], abs=1e-6)
            assert answer["cube"][2] == pytest.approx(2 * equities[3], abs=1e-6)
        else:
            assert np.abs(one_sided(board) - answer["probs"]).max() < 1e-6


def test_a_file_that_is_not_a_database_is_an_error(tmp_path: Path) -> None:
    fake = tmp_path / "gnubg_os0.bd"
    fake.write_bytes(b"not a database")
    with pytest.raises(ValueError, match="not gnubg's bear-off database"):
        load(fake, TWO_SIDED)
    with pytest.raises(ValueError, match="cannot be read"):
        load(tmp_path / "missing.bd", TWO_SIDED)
