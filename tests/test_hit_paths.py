"""A written play that can be carried out along paths that hit differently
(``41: 6/1`` past an opponent's blot on 2: 6/5/1 hits nothing, 6/2*/1
hits): the replayer takes the reading the record means. In a file that
marks hits with ``*`` an unmarked path hits nothing and a marked one hits
where marked; in a file that marks none, the rest of the game decides.

The positions are made by hand from the initial one: after ``42: 8/4 6/4``
and Bob's ``21: 24/23 24/22`` Bob has blots on Ann's 2 and 3 points, Ann's
5 point is open, so Ann's ``6/1`` with 4-1 reads both ways.
"""

from __future__ import annotations

import pytest

import tavlakit as tk
from tavlakit.engine.play import Move
from tavlakit.engine.position import Position
from tavlakit.formats.mat import read_mat
from tavlakit.record.match import Game, Turn
from tavlakit.replay.resync import Guess, choose
from tavlakit.replay.walker import validate

BG = tk.Rules.preset("backgammon")
OPENING = ("42: 8/4 6/4", "21: 24/23 24/22")
CLOSE = (" Doubles => 2", " Drops")


def transcript(*rows: tuple[str, str]) -> str:
    """A one-game 5-point transcript in gnubg's layout; Bob drops a double at the end."""
    lines = [" 5 point match", "", " Game 1", " Ann : 0                        Bob : 0"]
    for number, (left, right) in enumerate((OPENING, *rows, CLOSE), 1):
        lines.append(f"{number:3d}) {left:<28}{right}".rstrip())
    lines.append("      Wins 1 point")
    return "\n".join(lines) + "\n"


def problems(text: str) -> list[tuple[str, str, int | None]]:
    return [(p.severity, p.code, p.line) for p in validate(read_mat(text), BG).problems]


NO_MARKS = [("warning", "hit-mark", None)]  # the one per-match note of a writer that marks no hits


@pytest.mark.parametrize("dice", ["41", "14"])
def test_marking_file_unmarked_path_hits_nothing(dice: str) -> None:
    """Ann's 6/1 (no '*') keeps Bob's blot on 2, which Ann hits later with 8/2*."""
    text = transcript((f"{dice}: 6/1", "65: 13/7 13/8"), ("63: 8/2* 8/5", "43: bar/22 13/9"))
    assert problems(text) == []


@pytest.mark.parametrize("dice", ["41", "14"])
def test_marking_file_marked_path_hits(dice: str) -> None:
    """6/2*/1 (the hit marked on the way, as Studio writes it) puts Bob on the bar; Bob enters."""
    text = transcript((f"{dice}: 6/2*/1", "43: bar/22 22/18"), ("63: 13/7* 13/10", "65: bar/20 13/7"))
    assert problems(text) == []


@pytest.mark.parametrize("dice", ["41", "14"])
def test_unmarked_file_later_hit_decides(dice: str) -> None:
    """No '*' anywhere: 6/1, then Bob plays on without entering and Ann hits
    the blot on 2 later: only the no-hit path fits."""
    text = transcript((f"{dice}: 6/1", "65: 13/7 13/8"), ("63: 8/2 8/5", "43: bar/22 13/9"))
    assert problems(text) == NO_MARKS


@pytest.mark.parametrize("dice", ["41", "14"])
def test_unmarked_file_checker_on_the_bar_decides(dice: str) -> None:
    """No '*' anywhere: 6/1, then Bob enters from the bar: only the hit path fits."""
    text = transcript((f"{dice}: 6/1", "43: bar/22 13/9"), ("63: 13/7 13/10", "65: 13/7 13/8"))
    assert problems(text) == NO_MARKS


@pytest.mark.parametrize("dice", ["41", "14"])
def test_marking_file_a_missing_mark_is_a_warning_not_errors(dice: str) -> None:
    """A file that marks hits writes 6/1 without '*', but Bob enters from the
    bar next: the hit path is the only one under which the game goes on, so
    the play is read so, and the missing mark is the one problem."""
    text = transcript((f"{dice}: 6/1", "43: bar/22 22/18"), ("63: 13/7* 13/10", "65: bar/20 13/7"))
    assert problems(text) == [("warning", "hit-mark", 6)]
    assert "'*' missing on 2" in validate(read_mat(text), BG).problems[0].message


def test_look_ahead_follows_both_readings() -> None:
    """resync.choose plays a later two-way play both ways: the candidate
    board fits all three later rolls whichever way Bob's blot was taken."""
    bob = Position.initial().play([Move(8, 4), Move(6, 4)]).apply([Move(24, 23), Move(24, 22)])
    turns = [
        Turn(1, "roll", (2, 1), (Move(24, 23), Move(24, 22))),
        Turn(0, "roll", (1, 4), (Move(6, 1),)),  # 6/5/1 is walked first
        Turn(1, "roll", (4, 3), (Move(25, 22), Move(13, 9))),
        Turn(0, "roll", (6, 3), (Move(13, 7), Move(13, 10))),
    ]
    choice = choose([Guess(bob.board, (), "unchanged")], Game(1, turns=turns), 0, 1, BG)
    assert (choice.fits, choice.to_end) == (3, True)


def test_marks_of_an_earlier_game_count() -> None:
    """Game 2 writes no '*' (Bob doubles and Ann drops right after 6/1, so
    nothing later tells the readings apart), but game 1 of the file marks
    hits: 6/1 is read as hitting nothing, as such a writer means it."""
    first = transcript(("41: 6/2*/1", "43: bar/22 22/18"), ("63: 13/7* 13/10", "65: bar/20 13/7"))
    second = "\n".join(
        [
            " Game 2",
            " Ann : 1                        Bob : 0",
            f"  1) {OPENING[0]:<28}{OPENING[1]}",
            "  2) 41: 6/1                      Doubles => 2",
            "  3)  Drops",
            "                                  Wins 1 point",
            "",
        ]
    )
    assert problems(first + "\n" + second) == []
    alone = " 5 point match\n\n" + second.replace("Game 2", "Game 1").replace("Ann : 1", "Ann : 0")
    assert problems(alone) == NO_MARKS  # no marks in the file: the first way found, 6/2*/1, an unmarked hit


def test_a_dance_decides_too() -> None:
    """No '*' anywhere: after 6/1 Bob writes 66 'Cannot Move', which only the
    hit path allows (Bob on the bar against Ann's 6 point); the look-ahead
    follows a written dance like any play."""
    text = transcript(("14: 6/1", "66: Cannot Move"), ("63: 13/7 13/10", "43: bar/22 13/9"))
    assert problems(text) == NO_MARKS
