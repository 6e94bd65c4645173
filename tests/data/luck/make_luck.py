"""Reference dice luck from GNU Backgammon (run inside gnubg).

    cd tests/data/luck && /usr/games/gnubg -t -q -p make_luck.py

gnubg plays itself (both sides 0-ply, cube off, Jacoby off, money) for a few
sessions. For every roll of every game this script computes the luck of the
roll with gnubg's own evaluator, following gnubg's definition (analysis.c,
LuckNormal / LuckFirst): the cubeless money equity after gnubg's best 0-ply
play for the roll thrown, minus the mean of the same over all 36 rolls (over
the 30 non-doubles, 15 for each side, for the opening roll of a game).
``gnubg.findbestmove`` picks the play and ``gnubg.evaluate`` scores the result
with the opponent on roll. It also runs ``analyse match`` and keeps gnubg's
own per-roll ``luck-value`` (0-ply, cubeful) and gnubg's pip counts, and
exports each session as ``session-<seed>.mat``.

The three sessions committed here took about 15 minutes of wall-clock time
(gnubg 1.07.001, Debian). Writes ``session-<seed>.json``: a list of games, each a list of rolls
``{"player", "position_id", "dice", "luck", "analysis_luck", "pips"}``;
``position_id`` is the position before the roll with the roller on roll and
``pips`` is (roller, opponent) as gnubg's board gives them.
"""

import json
import os
import sys

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
SESSIONS = [tuple(int(n) for n in item.split(":")) for item in os.environ.get("LUCK_SESSIONS", "").split()] or [
    (101, 12),
    (202, 12),
    (303, 12),
]
"""(seed, games) per session; the environment's ``LUCK_SESSIONS="7:1"`` overrides."""
OUT = os.environ.get("LUCK_OUT", HERE)
MAX_ROLLS = int(os.environ.get("LUCK_MAX_ROLLS", "0")) or None
"""Keep only the first rolls of each game (for a quick live check)."""

CUBE = gnubg.cubeinfo(1, -1, 0, 0)  # cube 1, centred, player 0 on move, money
EC = gnubg.evalcontext(0, 0, 0, 1, 0.0)  # cubeless, 0-ply, no noise


def move(board, steps):
    """Play gnubg's 1-based (from, to) steps on board = (opponent, mover);
    return the board with the opponent on roll."""
    opp, me = list(board[0]), list(board[1])
    for k in range(0, len(steps), 2):
        src, dst = steps[k], steps[k + 1]
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return (me, opp)


def after_best(board, dice):
    """Cubeless equity (for the mover) after gnubg's best play for dice."""
    steps = gnubg.findbestmove(board, CUBE, EC, dice)
    swapped = move(board, steps) if steps else (list(board[1]), list(board[0]))
    return -gnubg.evaluate(swapped, CUBE, EC)[5]


def luck(board, dice, first):
    d1, d2 = max(dice), min(dice)
    if first and d1 != d2:
        values = {}
        for a in range(1, 7):
            for b in range(1, a):
                values[(a, b)] = after_best(board, (a, b))
                other = (list(board[1]), list(board[0]))
                values[(b, a)] = -after_best(other, (a, b))
        return values[(d1, d2)] - sum(values.values()) / 30.0
    total = 0.0
    mine = None
    for a in range(1, 7):
        for b in range(1, a + 1):
            value = after_best(board, (a, b))
            total += value if a == b else 2 * value
            if (a, b) == (d1, d2):
                mine = value
    return mine - total / 36.0


def pips(board):
    return [sum((i + 1) * n for i, n in enumerate(side)) for side in (board[1], board[0])]


for player in (0, 1):
    gnubg.command(f"set player {player} gnubg")
    gnubg.command(f"set player {player} chequerplay evaluation plies 0")
    gnubg.command(f"set player {player} cubedecision evaluation plies 0")
for command in (
    "set cube use off",
    "set jacoby off",
    "set automatic roll on",
    "set automatic game off",
    "set display off",
    "set analysis chequerplay evaluation plies 0",
    "set analysis cubedecision evaluation plies 0",
):
    gnubg.command(command)

for seed, games in SESSIONS:
    gnubg.command(f"set seed {seed}")
    gnubg.command("new session")
    for _ in range(games - 1):
        gnubg.command("new game")
    gnubg.command("analyse match")
    gnubg.command(f"export match mat {os.path.join(OUT, f'session-{seed}.mat')}")
    out = []
    for game in gnubg.match(1)["games"]:
        rolls = []
        first = True
        for record in game["game"]:
            if record.get("action") != "move" or not record.get("dice"):
                continue
            board = gnubg.positionfromid(record["board"])
            dice = tuple(record["dice"])
            if MAX_ROLLS is not None and len(rolls) >= MAX_ROLLS:
                break
            rolls.append(
                {
                    "player": 0 if record["player"] == "X" else 1,
                    "position_id": record["board"],
                    "dice": list(dice),
                    "luck": round(luck(board, dice, first), 6),
                    "analysis_luck": round(record["analysis"]["luck-value"], 6),
                    "pips": pips(board),
                }
            )
            first = False
        out.append(rolls)
    with open(os.path.join(OUT, f"session-{seed}.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"session {seed}: {len(out)} games, {sum(map(len, out))} rolls", file=sys.stderr)
