"""How far the net's gammon chances are from Tavla's mars chances
(``python docs/tavla_mars_rollout.py [GAMES]``; the numbers of docs/tavla-met.md).

From a few positions, games are played to the end by gnubg-nn's own 0-ply
play (``best_move``), the dice drawn with a fixed seed; each finished game
is scored under both mars definitions. Printed per position: the net's
0-ply chance of a mars for either side (gnubg's gammon: the loser has borne
off nothing) and the share of played-out games that ended in a mars under
``none-borne-off`` and under ``outside-home``, with a 95% interval.
"""

from __future__ import annotations

import random
import sys

import gnubg_nn

from tavlakit import Position, Rules
from tavlakit.analysis.outcomes import wilson
from tavlakit.engine.ids import decode_position_key
from tavlakit.evaluation.equity import net_board

RULES = {name: Rules.preset(name) for name in ("tavla", "tavla-outside-home")}


def play_out(start: Position, rng: random.Random) -> Position:
    """One game from ``start`` (side to move on roll) to its end, both sides
    playing gnubg-nn's 0-ply best move; the final board, the winner just moved."""
    pos = start
    while pos.winner() is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        found = gnubg_nn.best_move(net_board(pos), dice[0], dice[1], b=1)
        if not found or not found[0]:  # no legal move: the turn passes
            pos = pos.flip()
            continue
        opponent, mover = decode_position_key(found[1])
        pos = Position.from_points(mover, opponent)
    return pos


def starts(rng: random.Random, count: int) -> list[Position]:
    """The initial position and ``count - 1`` positions reached by 10 to 30
    plies of gnubg-nn's play (with some contact left)."""
    out = [Position.initial()]
    while len(out) < count:
        pos = Position.initial()
        for _ in range(rng.randint(10, 30)):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            found = gnubg_nn.best_move(net_board(pos), dice[0], dice[1], b=1)
            if found and found[0]:
                opponent, mover = decode_position_key(found[1])
                pos = Position.from_points(mover, opponent)
            else:
                pos = pos.flip()
        if pos.winner() is None and gnubg_nn.classify(net_board(pos)) == gnubg_nn.c_contact:
            out.append(pos)
    return out


def main(games: int) -> None:
    rng = random.Random(19)
    print(f"{games} games per position, gnubg-nn 0-ply play")
    print(f"{'position id':16} {'net mars':>9} {'none-borne-off':>24} {'outside-home':>24}")
    for start in starts(rng, 4):
        _w, wg, _wbg, lg, _lbg = gnubg_nn.probabilities(net_board(start), 0)
        counts = {name: 0 for name in RULES}
        for _ in range(games):
            end = play_out(start, rng)
            for name, rules in RULES.items():
                counts[name] += end.result_kind(rules) in ("mars", "backgammon")
        cells = []
        for name in RULES:
            low, high = wilson(counts[name], games)
            cells.append(f"{counts[name] / games:.3f} [{low:.3f}, {high:.3f}]")
        print(f"{start.position_id():16} {wg + lg:9.3f} {cells[0]:>24} {cells[1]:>24}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
