"""Hand-worked positions for each rule of ``docs/rules.md``.

Every expected result below was worked out by hand from the rule text
(the seed named in each test is the source); none comes from the engine.
Positions are written from the mover's own view: the mover plays 24 -> 1,
25 is its bar. Opponent checkers are given *in the mover's numbering* too,
so a test reads like the board it describes.
"""

from __future__ import annotations

import pytest

from tavlakit import Move, Play, Position, Rules
from tavlakit.engine.rules import opening_rolls

TAVLA = Rules.preset("tavla")
BACKGAMMON = Rules.preset("backgammon")
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def board(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    """Mover on roll; ``opponent`` points in the mover's numbering (25 - own)."""
    return Position.from_points(mover, {25 - p: n for p, n in opponent.items()})


def checkers(pos: Position) -> tuple[int, ...]:
    """The mover's checkers as points, highest first (borne-off ones left out)."""
    s = pos.board
    return tuple(p for p in range(25, 0, -1) for _ in range(max(s[p], 0)))


def results(pos: Position, dice: tuple[int, int], rules: Rules = TAVLA) -> set[tuple[int, ...]]:
    """Where the mover's checkers stand after each legal play."""
    return {checkers(pos.apply(play)) for play in pos.legal_plays(dice, rules)}


def notations(pos: Position, dice: tuple[int, int], rules: Rules = TAVLA) -> set[str]:
    return {str(play) for play in pos.legal_plays(dice, rules)}


def cannot_move(pos: Position, dice: tuple[int, int], rules: Rules = TAVLA) -> bool:
    return pos.legal_plays(dice, rules) == [Play()]


# --- start and moving (000, 001, 002) --------------------------------------


def test_start_position() -> None:
    pos = Position.initial()
    assert checkers(pos) == (24, 24) + (13,) * 5 + (8,) * 3 + (6,) * 5
    assert checkers(pos.flip()) == checkers(pos)  # the sides mirror each other
    assert pos.position_id() == "4HPwATDgc/ABMA"  # gnubg's ID of the start
    assert pos.pips() == (167, 167)


def test_five_three_one_checker_or_two() -> None:
    """000 §7: with 5-3 one checker goes 5 and another 3, or one goes 8."""
    pos = board({20: 1, 10: 1}, {1: 2})
    assert results(pos, (5, 3)) == {(12, 10), (15, 7), (17, 5), (20, 2)}
    lone = board({20: 1, 1: 14}, {24: 2})
    assert results(lone, (5, 3)) == {(12,) + (1,) * 14}


def test_five_five_twenty_fifteen_ten_five() -> None:
    """000 §7: 5-5 moves one checker 20, or 15 + 5, 10 + 10, 5 + 15."""
    pos = board({24: 1, 23: 1}, {1: 2})
    assert results(pos, (5, 5)) == {
        (23, 4),  # a) 24 goes 20
        (18, 9),  # b) 24 goes 15, 23 goes 5
        (14, 13),  # c) 10 each
        (19, 8),  # d) 24 goes 5, 23 goes 15
        (24, 3),  # a) the other checker goes 20
    }


def test_closed_point_cannot_be_landed_on_but_jumped() -> None:
    """000, 002: two opposing checkers close a point; it can be jumped over."""
    pos = board({20: 1, 1: 14}, {15: 2, 14: 2})
    # 20/15 and 20/14 are closed; 20/18/13 jumps both
    assert results(pos, (5, 2)) == {(13,) + (1,) * 14}
    assert notations(pos, (5, 2)) == {"20/13"}


def test_intermediate_point_must_be_open() -> None:
    """002, 001: a checker using both dice stops on the way; both stops closed = no move."""
    pos = board({20: 1, 1: 14}, {17: 2, 14: 2})
    assert cannot_move(pos, (6, 3))
    assert pos.legal_positions((6, 3), TAVLA) == [pos.flip()]  # the turn passes
    one_way = board({20: 1, 1: 14}, {17: 2})
    assert notations(one_way, (6, 3)) == {"20/11"}  # only via 14
    assert [list(p) for p in one_way.legal_plays((6, 3), TAVLA)] == [[Move(20, 14), Move(14, 11)]]


def test_doubles_stop_at_each_step() -> None:
    """002: a checker moving several steps of a double stops on each."""
    pos = board({20: 1, 1: 14}, {12: 2})
    # 20/16, then 16/12 is closed: only one 4 can be played
    plays = pos.legal_plays((4, 4), TAVLA)
    assert [list(p) for p in plays] == [[Move(20, 16)]]


def test_doubles_play_as_many_as_possible() -> None:
    """000-003: doubles give four moves; as many as can be played."""
    pos = board({24: 1, 1: 14}, {6: 2})
    assert [str(p) for p in pos.legal_plays((6, 6), TAVLA)] == ["24/12"]
    free = board({24: 1, 1: 14}, {})
    assert [str(p) for p in free.legal_plays((2, 2), TAVLA)] == ["24/16"]


def test_hit_sends_blot_to_bar() -> None:
    """000 §8: landing on a single opposing checker hits it."""
    pos = board({13: 1, 1: 14}, {9: 1})
    (play,) = [p for p in pos.legal_plays((4, 1), TAVLA) if Move(13, 9, True) in p.moves]
    after = pos.apply(play)
    assert after.bar() == (0, 1)
    assert Position.from_position_id(after.position_id()) == after


# --- both dice, larger die (001, 003) --------------------------------------


def test_both_dice_must_be_played() -> None:
    """001: if both dice can be played, a play using only one is illegal."""
    pos = board({20: 1, 1: 14}, {17: 2})
    # 20/14 alone would use one die; 20/14/11 uses both, so it is forced
    assert results(pos, (6, 3)) == {(11,) + (1,) * 14}


@pytest.mark.parametrize(("larger_die", "expected"), [(True, {14}), (False, {14, 15})])
def test_larger_die_when_only_one_can_be_played(larger_die: bool, expected: set[int]) -> None:
    """001: larger must be played; 003: either may be (rules.larger_die)."""
    pos = board({20: 1, 1: 14}, {9: 2})  # 20/14/9 and 20/15/9 both end on the closed 9
    rules = TAVLA.replace(larger_die=larger_die)
    assert {r[0] for r in results(pos, (6, 5), rules)} == expected
    assert all(len(p) == 1 for p in pos.legal_plays((6, 5), rules))


@pytest.mark.parametrize("larger_die", [True, False])
def test_smaller_die_when_larger_cannot_be_played(larger_die: bool) -> None:
    pos = board({20: 1, 1: 14}, {9: 2, 14: 2})
    assert notations(pos, (6, 5), TAVLA.replace(larger_die=larger_die)) == {"20/15"}


# --- the bar (000, 001, 002, 003) ------------------------------------------

HOME_BUT_24 = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2}  # only the 1 can enter (on 24)


def test_bar_checker_enters_first() -> None:
    pos = board({25: 1, 13: 2, 6: 2}, HOME_BUT_24)
    plays = pos.legal_plays((6, 1), TAVLA)
    assert {str(p) for p in plays} == {"bar/18", "bar/24 13/7"}
    assert all(p.moves[0] == Move(25, 24) for p in plays)


def test_second_bar_checker_blocks_the_rest() -> None:
    pos = board({25: 2, 13: 2}, HOME_BUT_24)
    assert notations(pos, (6, 1)) == {"bar/24"}  # the 6 can neither enter nor move
    assert notations(pos, (6, 5)) == {""}  # dance


def test_dancing_on_a_closed_board() -> None:
    """001: no die can enter: the turn is lost, for every roll."""
    closed = {p: 2 for p in range(19, 25)}
    pos = board({25: 1, 13: 5, 8: 3, 6: 5}, closed)
    for dice in ALL_ROLLS:
        assert cannot_move(pos, dice), dice
        assert pos.legal_positions(dice, TAVLA) == [pos.flip()]


def test_entering_hits_a_blot_in_the_opponents_home() -> None:
    """000 §10: entering on a single opposing checker hits it."""
    pos = board({25: 1, 1: 14}, {20: 2, 21: 2, 22: 2, 23: 2, 24: 1})
    plays = {str(p): p for p in pos.legal_plays((1, 6), TAVLA)}
    assert set(plays) == {"bar/24*/18", "bar/18"}  # enter with the 1 and hit, or with the 6
    assert pos.apply(plays["bar/24*/18"]).bar() == (0, 1)
    assert pos.apply(plays["bar/18"]).bar() == (0, 0)


# --- hit and run (000 vur-kaç) -----------------------------------------------


@pytest.mark.parametrize(("hit_and_run", "expected"), [(True, {"9/5*/3", "9/3"}), (False, {"9/3"})])
def test_hit_and_run_in_home(hit_and_run: bool, expected: set[str]) -> None:
    pos = board({9: 1, 1: 14}, {5: 1, 24: 2})
    assert notations(pos, (4, 2), TAVLA.replace(hit_and_run=hit_and_run)) == expected


def test_no_hit_and_run_still_lets_other_checkers_move() -> None:
    pos = board({9: 1, 8: 1, 1: 13}, {5: 1, 24: 2})
    found = notations(pos, (4, 2), TAVLA.replace(hit_and_run=False))
    assert "9/5* 8/6" in found
    assert "9/5*/3" not in found


@pytest.mark.parametrize("hit_and_run", [True, False])
def test_hit_outside_home_may_go_on(hit_and_run: bool) -> None:
    pos = board({19: 1, 1: 14}, {15: 1, 24: 2})
    assert notations(pos, (4, 2), TAVLA.replace(hit_and_run=hit_and_run)) == {"19/15*/13", "19/13"}


# --- bearing off (000 §12, 001, 002, 003) ----------------------------------

SEED_HOME = {5: 1, 4: 1, 2: 1, 1: 1}  # 11 borne off, the 3-point empty
FAR = {24: 2}  # opponent checkers out of the way


def test_bear_off_two_one() -> None:
    """000 §12: with 2-1 one checker comes off the 2 and one off the 1."""
    pos = board(SEED_HOME, FAR)
    assert Play.parse("2/off 1/off") in pos.legal_plays((2, 1), TAVLA)
    assert results(pos, (2, 1)) == {
        (5, 4),  # 2/off 1/off, the seed's play
        (3, 3, 2, 1), (4, 2, 2, 1), (4, 3, 1, 1), (4, 3, 2),  # 5/3 and a 1
        (5, 2, 1, 1), (5, 2, 2),  # 4/2 and a 1
        (4, 4, 1), (5, 3, 1),  # 2/off and 5/4 or 4/3
    }  # fmt: skip


def test_bear_off_three_one_with_empty_three() -> None:
    """000 §12: no checker on 3 but higher ones: the 3 is moved inside."""
    pos = board(SEED_HOME, FAR)
    assert results(pos, (3, 1)) == {
        (3, 2, 2, 1),  # 5/2 4/3
        (4, 2, 1, 1),  # 5/2 2/1 (or 5/4 4/1)
        (4, 2, 2),  # 5/2 1/off
        (5, 1, 1, 1),  # 4/1 2/1
        (5, 2, 1),  # 4/1 1/off
    }
    for play in pos.legal_plays((3, 1), TAVLA):
        assert all(m.src == 1 for m in play if m.dst == 0)  # only the 1 bears off


def test_bear_off_six_one_from_the_highest_point() -> None:
    """000 §12: nothing on 6 and nothing can move 6: the highest (5) comes
    off; the 1 is then moved inside from 5, 4, 3 or 2."""
    pos = board({5: 2, 4: 1, 3: 1, 2: 1}, FAR)
    assert results(pos, (6, 1)) == {(4, 4, 3, 2), (5, 3, 3, 2), (5, 4, 2, 2), (5, 4, 3, 1)}
    for play in pos.legal_plays((6, 1), TAVLA):
        assert Move(5, 0) in play.moves


def test_larger_die_bears_off_only_from_the_highest() -> None:
    pos = board({5: 1, 2: 1}, FAR)
    # 6 first: 5/off then 2/1; 1 first: 5/4 then 4/off (2/off with the 6: never)
    assert results(pos, (6, 1)) == {(1,), (2,)}


def test_bear_off_needs_all_checkers_home() -> None:
    """001: not while a checker is on the bar or outside home."""
    pos = board({25: 1, 6: 3, 5: 3, 4: 3, 3: 3, 2: 2}, HOME_BUT_24)
    assert notations(pos, (6, 1)) == {"bar/18"}
    outside = board({7: 1, 6: 2, 1: 2}, FAR)
    assert all(m.dst != 0 or m.src == 1 for p in outside.legal_plays((6, 1), TAVLA) for m in p)


def test_bearing_off_counts_for_using_both_dice() -> None:
    """8/3 then 3/off, or 8/5 then 5/off: both dice are always played."""
    pos = board({8: 1, 3: 1}, FAR)
    plays = pos.legal_plays((5, 3), TAVLA)
    assert results(pos, (5, 3)) == {(3,)}
    assert all(len(p) == 2 for p in plays)


# --- end of game (000, 001, 002, 003) ----------------------------------------


def finished(loser: dict[int, int]) -> Position:
    """The winner has borne off all 15; the loser (on roll) has ``loser``."""
    return Position.from_points(loser, {})


@pytest.mark.parametrize(
    ("loser", "rules", "kind"),
    [
        ({6: 15}, TAVLA, "mars"),  # none borne off, all home
        ({6: 15}, Rules.preset("tavla-outside-home"), "single"),
        ({12: 1, 3: 13}, TAVLA, "single"),  # one off, one outside
        ({12: 1, 3: 13}, Rules.preset("tavla-outside-home"), "mars"),
        ({25: 1, 3: 13}, Rules.preset("tavla-outside-home"), "mars"),  # bar counts as outside
        ({20: 1, 6: 14}, TAVLA, "mars"),  # Tavla has no 3-point result
        ({20: 1, 6: 14}, BACKGAMMON, "backgammon"),  # in the winner's home
        ({25: 1, 6: 14}, BACKGAMMON, "backgammon"),  # on the bar
        ({13: 1, 6: 14}, BACKGAMMON, "mars"),
        ({25: 1, 3: 13}, BACKGAMMON, "single"),  # one off: no mars, so no backgammon
        ({25: 1, 3: 13}, BACKGAMMON.replace(mars="outside-home"), "backgammon"),
        ({1: 1}, BACKGAMMON, "single"),
    ],
)
def test_result_kind(loser: dict[int, int], rules: Rules, kind: str) -> None:
    pos = finished(loser)
    assert pos.winner() == 1
    assert pos.result_kind(rules) == kind
    assert pos.flip().winner() == 0
    assert pos.flip().result_kind(rules) == kind


def test_no_result_before_the_end() -> None:
    assert Position.initial().winner() is None
    assert Position.initial().result_kind() is None


def test_points_with_cube_and_jacoby() -> None:
    """003: single 1, mars 2, backgammon 3 (international), times the cube."""
    bg = BACKGAMMON
    assert [bg.points(k) for k in ("single", "mars", "backgammon")] == [1, 2, 3]
    assert [bg.points(k, cube=4) for k in ("single", "mars", "backgammon")] == [4, 8, 12]
    assert TAVLA.points("backgammon") == 2  # no 3-point result in Tavla
    jacoby = bg.replace(jacoby=True)
    assert jacoby.points("backgammon", money=True) == 1  # cube never turned
    assert jacoby.points("mars", cube=2, money=True) == 4
    assert jacoby.points("mars") == 2  # match play: Jacoby does not apply


# --- who starts (000, 001, 003) ----------------------------------------------


def test_opening_rolls() -> None:
    """001: reroll allows a double first; use-opening-dice never does."""
    international = opening_rolls(BACKGAMMON)
    assert len(international) == 30
    assert all(a != b for a, b in international)
    assert set(international) == {(a, b) for a in range(1, 7) for b in range(1, 7) if a != b}
    turkish = opening_rolls(TAVLA)
    assert len(turkish) == 36
    assert {(a, a) for a in range(1, 7)} <= set(turkish)
    assert opening_rolls(TAVLA.replace(opening="use-opening-dice")) == international


def test_presets_match_the_table() -> None:
    """docs/rules.md, named rule sets."""

    def row(r: Rules) -> tuple[object, ...]:
        return (r.opening, r.larger_die, r.hit_and_run, r.mars, r.backgammon, r.cube)

    assert row(TAVLA) == ("reroll", True, True, "none-borne-off", False, False)
    assert row(Rules.preset("tavla-outside-home")) == ("reroll", True, True, "outside-home", False, False)
    assert row(BACKGAMMON) == ("use-opening-dice", True, True, "none-borne-off", True, True)
    assert BACKGAMMON.crawford
    assert Rules.preset("Tavla") == TAVLA
    assert TAVLA.replace(mars="outside-home") == Rules.preset("tavla-outside-home")
    assert TAVLA.replace(cube=True).name == "custom"
