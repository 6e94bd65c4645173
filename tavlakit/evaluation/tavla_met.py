"""A match equity table for Tavla, computed from the rules in force.

Tavla has no cube: a game is worth 1 (single) or 2 (mars; under rules with
``backgammon`` a backgammon is 3), and each game opens with a throw that
gives either player the start with the same chance. So every game begins
alike, whatever the score, and the chance ``E(a, b)`` of winning a match
needing ``a`` points against an opponent needing ``b`` follows from one
recursion over the outcomes of a game::

    E(a, b) = sum_k p_k E(a - k, b) + sum_k p_k E(a, b - k),
    E(a <= 0, b) = 1,  E(a > 0, b <= 0) = 0,

where ``p_k`` is the chance that one given player wins ``k`` points (the
same for both players: the starter is drawn at random). The ``p_k`` are
the chances at the start of a game: gnubg-nn's 0-ply probabilities after
the starter's best play of each first throw (all 36 under ``reroll``, the
30 non-doubles under ``use-opening-dice``), averaged, with the starter's
and the other side's view each counted half. The Crawford rule is about
the cube and has no part here: the table's post-Crawford rows equal the
1-away column. See ``docs/tavla-met.md``.

Under ``mars="outside-home"`` the net's gammon chances (the loser has
borne off nothing) stand in for mars chances: the net does not know that
rule (``docs/tavla-met.md`` measures how far off that is).

>>> from tavlakit import Rules
>>> met = tavla_met(Rules.preset("tavla"))
>>> met.away(1, 1)
0.5
>>> single, mars = game_chances(Rules.preset("tavla"))[:2]
>>> abs(met.away(2, 1) - (0.5 * single + mars)) < 1e-12   # win: single -> 1-away/1-away, mars -> the match
True
"""

from __future__ import annotations

from functools import cache

from ..engine.position import Position
from ..engine.rules import Rules, opening_rolls
from .equity import Evaluator, Probabilities
from .met import MAXSCORE, MatchEquityTable


def start_probabilities(rules: Rules, ev: Evaluator | None = None) -> Probabilities:
    """The starter's five probabilities at the start of a game: the
    average over the first throws of the rules of the probabilities after
    the best play (gnubg-nn, 0-ply)."""
    ev = ev or Evaluator(rules)
    start = Position.initial()
    total = [0.0] * 5
    rolls = opening_rolls(rules)
    for dice in rolls:
        best = max(start.legal_positions(dice, rules), key=ev.equity_after)
        win, win_g, win_bg, lose_g, lose_bg = ev.probabilities(best)  # the other side on roll
        for i, value in enumerate((1.0 - win, lose_g, lose_bg, win_g, win_bg)):
            total[i] += value
    w, wg, wbg, lg, lbg = (value / len(rolls) for value in total)
    return (w, wg, wbg, lg, lbg)


def game_chances(rules: Rules, probabilities: Probabilities | None = None) -> tuple[float, float, float]:
    """The chance that one given player wins a game single, with a mars,
    with a backgammon (0 unless the rules have backgammons), the starter
    drawn at random. The three sum to one half."""
    _w, wg, wbg, lg, lbg = probabilities or start_probabilities(rules)
    mars_and_more = (wg + lg) / 2.0
    backgammon = (wbg + lbg) / 2.0 if rules.backgammon else 0.0
    return 0.5 - mars_and_more, mars_and_more - backgammon, backgammon


@cache
def tavla_met(rules: Rules, probabilities: Probabilities | None = None) -> MatchEquityTable:
    """The match equity table of ``rules`` (no cube), to :data:`~.met.MAXSCORE`
    points; ``probabilities``: the starter's chances to use instead of the
    net's (:func:`start_probabilities`)."""
    single, mars, backgammon = game_chances(rules, probabilities)
    outcomes = [(1, single), (2, mars)] + ([(3, backgammon)] if backgammon else [])
    table = [[0.0] * (MAXSCORE + 1) for _ in range(MAXSCORE + 1)]  # table[a][b], a and b 1..MAXSCORE

    def value(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return table[a][b]

    for total in range(2, 2 * MAXSCORE + 1):  # E(a, b) needs only smaller a + b
        for a in range(max(1, total - MAXSCORE), min(MAXSCORE, total - 1) + 1):
            b = total - a
            table[a][b] = sum(p * (value(a - k, b) + value(a, b - k)) for k, p in outcomes)
    pre = tuple(tuple(table[a][1:]) for a in range(1, MAXSCORE + 1))
    column = tuple(pre[i][0] for i in range(MAXSCORE))
    stand_in = " (the net's gammon chances standing in for mars chances)" if rules.mars == "outside-home" else ""
    return MatchEquityTable(
        name=f"Tavla MET ({rules.name}, mars {mars + backgammon:.4f} per player per game)",
        description=(
            "computed by tavlakit from the chances at the start of a game: no cube, a mars counts 2" + stand_in
        ),
        source="tavlakit.evaluation.tavla_met",
        length=MAXSCORE,
        pre=pre,
        post=(column, column),
    )


__all__ = ["game_chances", "start_probabilities", "tavla_met"]
