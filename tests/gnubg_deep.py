"""Ask Debian's gnubg for its grandmaster (3-ply) judgements (used by test_grandmaster.py).

Inside gnubg (``gnubg -t -q -p gnubg_deep.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`), each ``[position_id, [cube, owner,
mover, length, [s0, s1], crawford], dice]``, with gnubg's "eval" and "hint"
set to its grandmaster preset (3 plies, pruning nets, cubeful, no noise, the
large move filter of 3 plies: up to 16 plays within 0.32 at 0 ply, none
judged at 1 ply, up to 4 within 0.08 at 2 plies). Dice ``None``: the 3-ply
cube decision (``gnubg.cfevaluate``: optimal, no double, double/take,
double/pass, gnubg's recommendation); dice ``[a, b]`` (money, centred cube):
gnubg's hint, each play's equity and the plies it was judged at, best first.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

#: gnubg's commands for its grandmaster preset (its ``aecSettings`` and ``MOVEFILTER_LARGE``).
GRANDMASTER = [
    "set evaluation chequerplay evaluation plies 3",
    "set evaluation chequerplay evaluation prune on",
    "set evaluation chequerplay evaluation cubeful on",
    "set evaluation chequerplay evaluation noise 0",
    "set evaluation movefilter 3 0 0 16 0.32",
    "set evaluation movefilter 3 1 -1",
    "set evaluation movefilter 3 2 0 4 0.08",
]


def ask_gnubg_deep(gnubg_bin: Path, jobs: list[list], workdir: Path) -> list[dict]:
    """Run the jobs in one gnubg process; one answer per job."""
    from gnubg_jobs import run_jobs

    return run_jobs(gnubg_bin, __file__, jobs, workdir)


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    for command in GRANDMASTER:
        gnubg.command(command)
    answers = []
    for position_id, (cube, owner, mover, length, score, crawford), dice in json.loads(
        Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")
    ):
        if dice is None:
            board = gnubg.positionfromid(position_id)
            ci = gnubg.cubeinfo(cube, owner, mover, length, tuple(score), crawford)
            answers.append({"cube": list(gnubg.cfevaluate(board, ci, gnubg.evalcontext(1, 3, 1, 1, 0.0))[:5])})
            continue
        gnubg.command("new session")
        gnubg.command("set board " + position_id)
        gnubg.command("set dice {} {}".format(*dice))
        hint = gnubg.hint(500)["hint"]
        answers.append({"moves": [[h["move"], h["equity"], h["context"]["plies"]] for h in hint]})
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
