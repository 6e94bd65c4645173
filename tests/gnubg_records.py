"""Build record.Match objects from gnubg's own ``gnubg.match()`` dumps.

These are the independent reference: the moves, dice and cube actions as
GNU Backgammon itself recorded them, without going through our readers.
"""

from __future__ import annotations

import json
from pathlib import Path

from tavlakit.engine.play import Move
from tavlakit.record.match import Game, Match, Result, Turn

DATA = Path(__file__).parent / "data" / "gnubg"
SIDE = {"X": 0, "O": 1}


def gnubg_dump(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def match_from_gnubg(dump: dict) -> Match:
    """The match as gnubg recorded it (hit marks are not in gnubg's dump)."""
    info = dump["match-info"]
    match = Match(players=(info["X"]["name"], info["O"]["name"]), length=info["match-length"])
    for number, entry in enumerate(dump["games"], 1):
        ginfo = entry["info"]
        game = Game(number=number, score=(ginfo["score-X"], ginfo["score-O"]))
        for action in entry["game"]:
            player = SIDE[action["player"]]
            kind = action["action"]
            if kind == "move":
                moves = tuple(Move(a, b) for a, b in action["move"])
                game.turns.append(Turn(player, "roll", tuple(action["dice"]), moves))
            elif kind in ("double", "take", "drop"):
                game.turns.append(Turn(player, kind))
        if ginfo.get("winner"):
            game.result = Result(SIDE[ginfo["winner"]], ginfo["points-won"], resigned=bool(ginfo.get("resigned")))
        match.games.append(game)
    return match


def dump_names() -> list[str]:
    return sorted(p.stem for p in DATA.glob("selfplay-*.json"))
