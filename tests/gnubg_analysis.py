"""Run gnubg 1.07's default ``analyse match`` on a record and keep each turn's analysis (used by test_lookahead.py).

Inside gnubg (``gnubg -t -q -p gnubg_analysis.py``) this imports the
record named by ``TAVLAKIT_RECORD`` (``import mat``), analyses it with
gnubg's default settings on one thread, and writes to ``TAVLAKIT_OUT``:
``show analysis`` as gnubg prints it and, per game, each turn's action
with its analysis cut to what the tests compare (a roll: ``n`` legal
plays, the ``best`` and ``played`` scores, ``luck``; a cube decision:
``nd`` and ``dt``, gnubg's cubeful no double and double/take).
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def analyse_in_gnubg(gnubg_bin: Path, record: Path, workdir: Path) -> dict:
    """gnubg's default analysis of ``record``, turn by turn."""
    from gnubg_jobs import run_gnubg

    out = workdir / "analysis.json"
    run_gnubg(gnubg_bin, __file__, workdir, check=True, TAVLAKIT_RECORD=str(record), TAVLAKIT_OUT=str(out))
    found: dict = json.loads(out.read_text(encoding="utf-8"))
    return found


def _turn(action: dict) -> dict:
    analysis = action.pop("analysis", None) or {}
    turn = {"action": action["action"], "player": action.get("player"), "dice": action.get("dice")}
    moves = analysis.get("moves") or []
    if moves:
        turn.update(n=len(moves), best=moves[0]["score"], played=moves[analysis.get("imove", 0)]["score"])
    if "luck-value" in analysis:
        turn["luck"] = analysis["luck-value"]
    if "nd-cubeful-eq" in analysis:
        turn.update(nd=analysis["nd-cubeful-eq"], dt=analysis["dt-cubeful-eq"])
    return turn


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    gnubg.command("set threads 1")
    gnubg.command(f'import mat "{os.environ["TAVLAKIT_RECORD"]}"')
    gnubg.command("analyse match")
    data = gnubg.match(analysis=1)
    games = [[_turn(action) for action in game["game"]] for game in data["games"]]
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps({"games": games}), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_RECORD"):
    _main()
