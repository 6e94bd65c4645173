"""Reference statistics from GNU Backgammon (run inside gnubg).

    cd tests/data/stats && /usr/games/gnubg -t -q -p make_stats.py

gnubg plays itself, both sides at 0 ply with evaluation noise (so that
there are errors to find), matches of several lengths and money sessions
(cube on and off; beavers off, as tavlakit's backgammon rules; Jacoby off, or
as ``STATS_JACOBY`` says, written in a money session's tags since gnubg's
export does not say it),
then runs ``analyse match`` with every analysis at 0 ply (cubeful) and
writes, per record, ``<name>.mat`` (``export match mat``) and
``<name>.json``: ``gnubg.match(analysis=1, statistics=1)`` (per turn: the
candidate plays with their scores, the played one, the luck; per cube
decision gnubg's probabilities and cubeful equities; per game and match the
statistics) and the text of ``show statistics match``.
"""

import json
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
NOISE = 0.06
#: (name, match length (0: money), seed, games of a money session, cube on)
RECORDS = [
    ("match-3p-31", 3, 31, 0, True),
    ("match-5p-52", 5, 52, 0, True),
    ("match-7p-73", 7, 73, 0, True),
    ("match-9p-94", 9, 94, 0, True),
    ("money-cube-15", 0, 15, 6, True),
    ("money-nocube-16", 0, 16, 6, False),
]
if os.environ.get("STATS_RECORDS"):  # "name:length:seed:games:cube ..." (a live test makes its own)
    RECORDS = [
        (name, int(length), int(seed), int(games), cube == "1")
        for name, length, seed, games, cube in (item.split(":") for item in os.environ["STATS_RECORDS"].split())
    ]
HERE = os.environ.get("STATS_OUT", HERE)
PLIES = os.environ.get("STATS_PLIES", "0")
JACOBY = os.environ.get("STATS_JACOBY", "off")
"""The Jacoby rule the money sessions are played and analysed with (gnubg's own default is on)."""
"""The plies of the analysis (the players still play at 0 ply)."""


def compact(action):
    """A turn of gnubg.match() with its analysis cut to what the tests compare."""
    analysis = action.pop("analysis", None)
    if analysis:
        moves = analysis.get("moves") or []
        short = {
            k: analysis[k] for k in ("probs", "nd-cubeful-eq", "dt-cubeful-eq", "luck-value", "imove") if k in analysis
        }
        if moves:
            short.update(n=len(moves), best=moves[0]["score"], played=moves[analysis.get("imove", 0)]["score"])
        action["analysis"] = short
    return action


for player in (0, 1):
    gnubg.command(f"set player {player} gnubg")
    gnubg.command(f"set player {player} chequerplay evaluation plies 0")
    gnubg.command(f"set player {player} chequerplay evaluation noise {NOISE}")
    gnubg.command(f"set player {player} cubedecision evaluation plies 0")
    gnubg.command(f"set player {player} cubedecision evaluation noise {NOISE}")
for command in (
    f"set jacoby {JACOBY}",
    "set beavers 0",
    "set automatic roll on",
    "set display off",
    "set confirm new off",
    "set defaultnames Alpha Bravo",
    f"set analysis chequerplay evaluation plies {PLIES}",
    "set analysis chequerplay evaluation cubeful on",
    f"set analysis cubedecision evaluation plies {PLIES}",
    "set analysis cubedecision evaluation cubeful on",
):
    gnubg.command(command)

for name, length, seed, games, cube in RECORDS:
    gnubg.command(f"set cube use {'on' if cube else 'off'}")
    gnubg.command(f"set seed {seed}")
    if length:
        gnubg.command("set automatic game on")
        gnubg.command(f"new match {length}")
    else:
        gnubg.command("set automatic game off")
        gnubg.command("new session")
        for _ in range(games - 1):
            gnubg.command("new game")
    gnubg.command("analyse match")
    base = os.path.join(HERE, name)
    gnubg.command(f"export match mat {base}.mat")
    if not length:  # gnubg's export does not say the session's Jacoby rule: the tag says how it was played
        with open(f"{base}.mat", encoding="utf-8") as exported:
            text = exported.read()
        with open(f"{base}.mat", "w", encoding="utf-8") as exported:
            exported.write(f'; [Jacoby "{JACOBY.capitalize()}"]\n' + text)
    data = gnubg.match(analysis=1, statistics=1)
    for game in data["games"]:
        game["game"] = [compact(action) for action in game["game"]]
    with open(base + ".json", "w", encoding="utf-8") as out:
        json.dump(data, out, separators=(",", ":"), default=str)
        out.write("\n")
