"""Tavla dice names against seed 001 (../shared/seeds/001_*.txt, "Zar isimleri")."""

from __future__ import annotations

from itertools import product

import pytest

import tavlakit as tk
from tavlakit.engine.dicenames import FIVES, JOINERS

ROLLS = [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)]

# copied by hand from the seed's text
SEED_DOUBLES = {1: "hep yek", 2: "dubara", 3: "dü se", 4: "dört cihar", 5: "dü beş", 6: "düşeş"}
SEED_EXAMPLES = {(6, 5): "şeş beş", (6, 4): "şeş cihar", (5, 3): "penç ü se"}


def test_twenty_one_rolls() -> None:
    assert len(ROLLS) == 21


@pytest.mark.parametrize("die", range(1, 7))
def test_every_double(die: int) -> None:
    assert tk.dice_name((die, die)) == SEED_DOUBLES[die]
    assert tk.parse_dice(SEED_DOUBLES[die]) == (die, die)


@pytest.mark.parametrize("roll", sorted(SEED_EXAMPLES))
def test_seed_examples(roll: tuple[int, int]) -> None:
    assert tk.dice_name(roll) == SEED_EXAMPLES[roll]
    assert tk.dice_name(roll[::-1]) == SEED_EXAMPLES[roll]  # larger die first, whatever the order given
    assert tk.parse_dice(SEED_EXAMPLES[roll]) == roll


def test_seed_alternative_spelling_of_duses() -> None:
    assert tk.parse_dice("Dü şeş") == (6, 6)  # "6-6: Dü şeş (düşeş)"


def test_number_names() -> None:
    # yek (1), dü (2), se (3), cihar (4), penç ya da beş (5), şeş (6)
    assert tk.dice_name((6, 1)) == "şeş yek"
    assert tk.dice_name((6, 2)) == "şeş dü"
    assert tk.dice_name((6, 3)) == "şeş se"
    assert tk.dice_name((5, 1), five="beş") == "beş ü yek"
    assert tk.dice_name((6, 5), five="penç") == "şeş penç"
    assert tk.dice_name((4, 2), joiner="none") == "cihar dü"
    assert tk.dice_name((6, 5), joiner="ü") == "şeş ü beş"


@pytest.mark.parametrize("five,joiner", list(product(FIVES, JOINERS)))
def test_round_trip_every_option(five, joiner) -> None:
    names = {tk.dice_name(r, five=five, joiner=joiner) for r in ROLLS}
    assert len(names) == 21
    for roll in ROLLS:
        assert tk.parse_dice(tk.dice_name(roll, five=five, joiner=joiner)) == roll


@pytest.mark.parametrize(
    "text,roll",
    [
        ("duses", (6, 6)),
        ("ses bes", (6, 5)),
        ("DÜŞEŞ", (6, 6)),
        ("ŞEŞ BEŞ", (6, 5)),
        ("şeş-beş", (6, 5)),
        ("şeşbeş", (6, 5)),
        ("CİHAR Ü DÜ", (4, 2)),
        ("CIHAR U DU", (4, 2)),
        ("cıhar ü se", (4, 3)),
        ("  Penç Ü Se ", (5, 3)),
        ("HEP YEK", (1, 1)),
        ("DÖRT CİHAR", (4, 4)),
        ("dort cihar", (4, 4)),
        ("penc u se", (5, 3)),
    ],
)
def test_parse_without_turkish_letters_and_any_case(text: str, roll: tuple[int, int]) -> None:
    assert tk.parse_dice(text) == roll


@pytest.mark.parametrize("text", ["", "şeş", "se şeş", "yedi", "dü dü", "6-5", "dubara dubara"])
def test_unknown_names_say_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError) as info:
        tk.parse_dice(text)
    message = str(info.value)
    assert repr(text) in message
    for name in SEED_DOUBLES.values():
        assert name in message
    assert "şeş beş 6-5" in message and "penç ü se 5-3" in message


def test_numpy_integers() -> None:
    import numpy as np

    assert tk.dice_name((np.int64(6), np.int8(5))) == "şeş beş"


@pytest.mark.parametrize("roll", [(0, 3), (7, 1), (3,), (1, 2, 3), (6.0, 5), ("6", "5")])
def test_bad_rolls(roll) -> None:
    with pytest.raises(ValueError, match="two numbers 1-6"):
        tk.dice_name(roll)


def test_bad_option() -> None:
    with pytest.raises(ValueError, match="five is one of"):
        tk.dice_name((5, 3), five="pen")  # type: ignore[arg-type]


def test_roll_name_column_of_the_plays_frame() -> None:
    from pathlib import Path

    from tavlakit.analysis.frames import plays_frame

    gnubg = Path(__file__).resolve().parent / "data" / "gnubg"
    plays = plays_frame(tk.read_match(gnubg / "selfplay-3p-1.mat"), luck=False)
    rolls = plays[plays["kind"] == "roll"]
    # game 1 opens "63: 24/18 18/15" (read from the transcript): şeş se
    assert rolls.iloc[0]["dice"] == "63" and rolls.iloc[0]["roll_name"] == "şeş se"
    for row in rolls.itertuples():
        high, low = sorted((int(row.die1), int(row.die2)), reverse=True)
        assert tk.parse_dice(row.roll_name) == (high, low)
        if high == low:
            assert row.roll_name == SEED_DOUBLES[high]
    cubes = plays[plays["kind"] != "roll"]
    assert cubes["roll_name"].isna().all()
