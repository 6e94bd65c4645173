"""Ask Debian's gnubg for its evaluations of positions (used by the tests of the nets and the look-ahead).

Inside gnubg (``gnubg -t -q -p gnubg_eval.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`): ``[position_id, [cube, owner, mover,
length, [s0, s1], crawford], plies, prune, cube?]`` (owner -1: centred;
mover 0/1 as gnubg's players; money play under gnubg's defaults, Jacoby
on, as tavlakit's ``CubeState()``); for each it writes
gnubg's cubeless probabilities of the side on roll at ``plies`` plies
(``gnubg.evaluate``, ``prune``: with the pruning nets) and, if asked, the
cubeful cube decision at the same depth (``gnubg.cfevaluate``: optimal, no
double, double/take, double/pass, the recommendation).
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def ask_gnubg_eval(gnubg_bin: Path, jobs: list[list], workdir: Path) -> list[dict]:
    """Run the jobs in one gnubg process; one answer per job."""
    from gnubg_jobs import run_jobs

    return run_jobs(gnubg_bin, __file__, jobs, workdir)


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    answers = []
    for position_id, (cube, owner, mover, length, score, crawford), plies, prune, cube_too in json.loads(
        Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")
    ):
        board = gnubg.positionfromid(position_id)
        ci = gnubg.cubeinfo(cube, owner, mover, length, tuple(score), crawford)
        answer = {"probs": list(gnubg.evaluate(board, ci, gnubg.evalcontext(0, plies, 1, prune, 0.0))[:5])}
        if cube_too:
            answer["cube"] = list(gnubg.cfevaluate(board, ci, gnubg.evalcontext(1, plies, 1, prune, 0.0))[:5])
        answers.append(answer)
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
