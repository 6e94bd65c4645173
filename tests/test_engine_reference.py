"""The fast generator against a plain breadth-first one, under every option.

gnubg-nn knows only backgammon rules; the Tavla options ``larger_die`` and
``hit_and_run`` are checked here against a deliberately naive generator:
it tries every die order and every checker at every step, with no cuts,
keeping the set of boards (and stopped checkers) reached after each die.
"""

from __future__ import annotations

import random

import pytest
from test_engine_gnubg import ROLLS, played_boards, random_boards, to_array

from tavlakit import Rules
from tavlakit.engine.movegen import legal_results

State = tuple[tuple[int, ...], tuple[int, ...]]  # board, checkers that may not move on


def steps(state: State, die: int, hit_and_run: bool) -> set[State]:
    """Every state one checker moving ``die`` pips can reach."""
    s, stopped = state
    out = set()
    sources = [25] if s[25] > 0 else [p for p in range(1, 25) if s[p] > stopped[p]]
    for src in sources:
        dst = src - die
        if dst >= 1:
            if s[dst] < -1:
                continue
        else:
            if any(s[p] > 0 for p in range(7, 26)):
                continue  # not all home
            if dst < 0 and any(s[p] > 0 for p in range(src + 1, 7)):
                continue  # a higher checker must use this die
            dst = 0
        t = list(s)
        stop = list(stopped)
        t[src] -= 1
        if dst and t[dst] == -1:
            t[dst] = 1
            t[0] -= 1
            if not hit_and_run and dst <= 6:
                stop[dst] += 1
        elif dst:
            t[dst] += 1
        out.add((tuple(t), tuple(stop)))
    return out


def reference(s: tuple[int, ...], dice: tuple[int, int], rules: Rules) -> set[tuple[int, ...]]:
    a, b = dice
    orders = [(a,) * 4] if a == b else [(a, b), (b, a)]
    by_count: dict[int, set[tuple[int, ...]]] = {0: {s}}
    first_die: dict[tuple[int, ...], set[int]] = {}
    for order in orders:
        states = {(s, (0,) * 26)}
        for n, die in enumerate(order, start=1):
            states = {nxt for state in states for nxt in steps(state, die, rules.hit_and_run)}
            if not states:
                break
            by_count.setdefault(n, set()).update(board for board, _ in states)
            if n == 1:
                for board, _ in states:
                    first_die.setdefault(board, set()).add(die)
    most = max(by_count)
    found = by_count[most]
    if most == 1 and a != b and rules.larger_die:
        larger = {board for board in found if max(a, b) in first_die[board]}
        found = larger or found
    return found


def boards_for(larger_die: bool, hit_and_run: bool) -> list[tuple[int, ...]]:
    rng = random.Random(f"{larger_die}{hit_and_run}")
    boards = played_boards(rng, 100, greedy=False) + random_boards(rng, 320)
    return [to_array(board) for board in boards]


@pytest.mark.parametrize("larger_die", [True, False])
@pytest.mark.parametrize("hit_and_run", [True, False])
def test_options_against_reference(larger_die: bool, hit_and_run: bool) -> None:
    rules = Rules.preset("tavla").replace(larger_die=larger_die, hit_and_run=hit_and_run)
    bad = [
        (s, dice)
        for s in boards_for(larger_die, hit_and_run)
        for dice in ROLLS
        if set(legal_results(s, dice, rules)) != reference(s, dice, rules)
    ]
    assert bad == []


def test_options_make_a_difference() -> None:
    """The boards above do exercise both options (counted with the engine,
    which the test above holds to the reference)."""
    tavla = Rules.preset("tavla")
    differ = {"larger_die": 0, "hit_and_run": 0}
    for s in boards_for(True, True):
        for dice in ROLLS:
            for option in differ:
                other = tavla.replace(**{option: False})
                if legal_results(s, dice, tavla).keys() != legal_results(s, dice, other).keys():
                    differ[option] += 1
    assert min(differ.values()) >= 10, differ


def test_no_move_found_without_a_search() -> None:
    """A dance or a closed board is found before any search (``_stuck``): the
    boards above hold thousands, which the test above holds to the reference;
    the play is no move."""
    tavla = Rules.preset("tavla")
    stuck = [(s, dice) for s in boards_for(True, True) for dice in ROLLS if reference(s, dice, tavla) == {s}]
    assert len(stuck) > 500
    assert all(legal_results(s, dice, tavla) == {s: ()} for s, dice in stuck)
