"""Ask Debian's gnubg for its 0-ply cube evaluations (used by test_cubeful.py).

Inside gnubg (``gnubg -t -q -p gnubg_cube.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`): ``[position_id, [cube, owner, mover, length, [s0, s1],
crawford]]`` (owner -1: centred; mover 0/1 as gnubg's players); for each it
writes gnubg's cubeless 0-ply probabilities of the side on roll
(``gnubg.evaluate``), its cubeful 0-ply cube decision (``gnubg.cfevaluate``:
optimal, no double, double/take, double/pass, the recommendation; at
``TAVLAKIT_CUBE_PLIES`` plies, 0 by default) and the position class.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def ask_gnubg_cube(gnubg_bin: Path, jobs: list[list], workdir: Path, plies: int = 0) -> list[dict]:
    """Run the jobs in one gnubg process (cube decisions at ``plies``); one answer per job."""
    from gnubg_jobs import run_jobs

    return run_jobs(gnubg_bin, __file__, jobs, workdir, TAVLAKIT_CUBE_PLIES=str(plies))


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    cubeless = gnubg.evalcontext(0, 0, 0, 1, 0.0)
    cubeful = gnubg.evalcontext(1, int(os.environ.get("TAVLAKIT_CUBE_PLIES", "0")), 0, 1, 0.0)
    answers = []
    for position_id, (cube, owner, mover, length, score, crawford) in json.loads(
        Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")
    ):
        board = gnubg.positionfromid(position_id)
        ci = gnubg.cubeinfo(cube, owner, mover, length, tuple(score), crawford)
        answers.append(
            {
                "probs": list(gnubg.evaluate(board, ci, cubeless)[:5]),
                "cube": list(gnubg.cfevaluate(board, ci, cubeful)[:5]),
                "class": gnubg.classifypos(board, 0),
            }
        )
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
