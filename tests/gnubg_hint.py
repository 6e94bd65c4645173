"""Ask Debian's gnubg for its hint on positions given as gnubg IDs (used by test_mistakes.py).

Inside gnubg (``gnubg -t -q -p gnubg_hint.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`): ``[gnubg ID, dice rolled?]``.
For each it sets the ID (``set gnubgid``) and writes what gnubg read (its
own ID back, the match's score, cube and dice) and, when dice are rolled,
its ranked hint at 0 ply, cubeful, no pruning (``gnubg.hint``: each move
and its equity), else its 0-ply cube decision (``gnubg.cfevaluate``: the
no double, double/take and double/pass equities).
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def ask_gnubg_hint(gnubg_bin: Path, jobs: list[tuple[str, bool]], workdir: Path) -> list[dict]:
    """Run the jobs in one gnubg process; one answer per job."""
    from gnubg_jobs import run_jobs

    return run_jobs(gnubg_bin, __file__, [list(job) for job in jobs], workdir)


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    gnubg.command("set evaluation chequerplay evaluation plies 0")
    gnubg.command("set evaluation chequerplay evaluation prune off")
    cubeful = gnubg.evalcontext(1, 0, 0, 1, 0.0)
    answers = []
    for gid, rolled in json.loads(Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")):
        gnubg.command("set gnubgid " + gid)
        info = gnubg.cubeinfo()
        answer = {
            "id": gnubg.positionid(gnubg.board()) + ":" + gnubg.matchid(),
            "score": list(info["score"]),
            "cube": info["cube"],
        }
        if rolled:
            answer["moves"] = [[h["move"], h["equity"]] for h in gnubg.hint(500)["hint"]]
        else:  # a cube decision
            answer["cube_equities"] = list(gnubg.cfevaluate(gnubg.board(), info, cubeful)[1:4])
        answers.append(answer)
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
