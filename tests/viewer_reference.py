"""What the match viewer must show, from GNU Backgammon's own record of a match."""

from __future__ import annotations

from typing import Any

from tavlakit.engine.play import Move
from tavlakit.engine.position import Position


def gnubg_ids(dump: dict[str, Any]) -> list[str]:
    """gnubg's Position ID, player to move next on roll, at every frame of
    the viewer: each game's start, then after each action but resignations.

    gnubg records the board before each move and double, seen by the
    player on roll. After a move that is the next move's or double's
    board; after a double, a take or a drop, the double's board (the doubler
    rolls next). Only after a game's last move is there no next board: there
    gnubg's own move is applied to gnubg's board before it."""
    ids = []
    for game in dump["games"]:
        actions = [a for a in game["game"] if a["action"] != "resign"]
        ids.append(actions[0]["board"])
        double = None
        for i, action in enumerate(actions):
            if action["action"] == "double":
                double = action["board"]
            if action["action"] != "move":
                ids.append(double)
                continue
            following = next((a["board"] for a in actions[i + 1 : i + 2] if "board" in a), None)
            if following is None:
                before = Position.from_position_id(action["board"])
                following = before.play(Move(a, b) for a, b in action["move"]).position_id()
            ids.append(following)
    return ids


def game_starts(dump: dict[str, Any]) -> list[int]:
    """The index, among :func:`gnubg_ids`, of each game's first frame."""
    starts, at = [], 0
    for game in dump["games"]:
        starts.append(at)
        at += 1 + sum(1 for a in game["game"] if a["action"] != "resign")
    return starts
