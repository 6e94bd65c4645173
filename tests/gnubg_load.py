"""Load .sgf and .mat files into Debian's gnubg and dump what it read
(``gnubg.match()``).

Used by the interop tests: one gnubg process loads every file of a batch
(``load match`` for SGF, ``import mat`` for .mat). Inside gnubg this module
runs as a script (``gnubg -t -q -p``) and reads its job list from the
``TAVLAKIT_GNUBG_JOBS`` environment variable. The scripts that made the
reference data under ``tests/data`` import :func:`strip` from here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # gnubg's embedded Python has no tavlakit
    from tavlakit.record.match import Match

SIDE = {"X": 0, "O": 1}


def strip(value):
    """``gnubg.match()`` without analysis entries."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k != "analysis"}
    if isinstance(value, (list, tuple)):
        return [strip(v) for v in value]
    return value


def play_itself(gnubg) -> None:  # type: ignore[no-untyped-def]
    """Inside gnubg: both players gnubg at 0 ply, games and rolls automatic,
    so ``new match N`` plays a whole match in seconds."""
    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        gnubg.command(f"set player {player} chequerplay evaluation plies 0")
        gnubg.command(f"set player {player} cubedecision evaluation plies 0")
    gnubg.command("set automatic game on")
    gnubg.command("set automatic roll on")
    gnubg.command("set display off")


def dump_match(gnubg, path: str) -> None:  # type: ignore[no-untyped-def]
    """Inside gnubg: write :func:`strip` of ``gnubg.match()`` as JSON."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump(strip(gnubg.match()), out, indent=1, default=str)
        out.write("\n")


def load_in_gnubg(gnubg_bin: Path, files: list[Path], workdir: Path) -> list[dict]:
    """gnubg's ``gnubg.match()`` for each .sgf or .mat file (one gnubg run),
    plus the position and match IDs it shows after loading (``"ids"``)."""
    jobs = [(str(f), str(workdir / f"dump-{i}.json")) for i, f in enumerate(files)]
    job_file = workdir / "jobs.json"
    job_file.write_text(json.dumps(jobs), encoding="utf-8")
    from gnubg_jobs import run_gnubg

    run = run_gnubg(gnubg_bin, __file__, workdir, TAVLAKIT_GNUBG_JOBS=str(job_file))
    dumps = []
    for record, out in jobs:
        path = Path(out)
        if not path.exists():
            raise AssertionError(f"gnubg did not load {record}:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
        dumps.append(json.loads(path.read_text(encoding="utf-8")))
    return dumps


def gnubg_view(dump: dict) -> list[dict]:
    """What gnubg read, game by game: scores, result, actions."""
    games = []
    for entry in dump["games"]:
        info = entry["info"]
        actions = []
        for action in entry["game"]:
            kind = action["action"]
            if kind == "move":
                actions.append(
                    (SIDE[action["player"]], "roll", tuple(action["dice"]), tuple(tuple(m) for m in action["move"]))
                )
            elif kind in ("double", "take", "drop"):
                actions.append((SIDE[action["player"]], kind, None, ()))
        winner = info.get("winner")
        if actions and actions[-1][1] == "roll" and not actions[-1][3]:
            actions.pop()  # see record_view
        games.append(
            {
                "score": (info["score-X"], info["score-O"]),
                "result": (SIDE[winner], info["points-won"], bool(info.get("resigned"))) if winner else None,
                "actions": actions,
            }
        )
    return games


def record_view(match: Match) -> list[dict]:
    """The same view of a record. A last roll without moves is left out of
    both views: a game cannot end on a dance, so it is a roll followed by a
    resignation (or the end of the record), which gnubg keeps as set dice
    (``DI``), not in gnubg.match(); a .mat does not say it was resigned."""
    games = []
    for game in match.games:
        actions = []
        for i, turn in enumerate(game.turns):
            if turn.kind == "roll":
                if not turn.moves and i == len(game.turns) - 1:
                    continue
                actions.append((turn.player, "roll", tuple(turn.dice or ()), tuple((m.src, m.dst) for m in turn.moves)))
            else:
                actions.append((turn.player, "double" if turn.kind == "beaver" else turn.kind, None, ()))
        result = game.result
        games.append(
            {
                "score": game.score,
                "result": (result.winner, result.points, result.resigned) if result else None,
                "actions": actions,
            }
        )
    return games


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    gnubg.command("set confirm new off")
    for record, out in json.loads(Path(os.environ["TAVLAKIT_GNUBG_JOBS"]).read_text(encoding="utf-8")):
        command = "import mat" if record.endswith(".mat") else "load match"
        gnubg.command(f'{command} "{record}"')
        dump = strip(gnubg.match())
        try:
            dump["ids"] = [gnubg.positionid(), gnubg.matchid()]
        except ValueError:  # "no current position available"
            dump["ids"] = None
        Path(out).write_text(json.dumps(dump, default=str), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_GNUBG_JOBS"):
    _main()
