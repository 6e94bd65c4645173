"""Ask Debian's gnubg for Position and Match IDs (used by test_matchid.py).

Inside gnubg (``gnubg -t -q -p gnubg_ids.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`): ``["xgid", text]`` runs ``set xgid``, ``["matchid",
id]`` runs ``set matchid``, ``["command", text]`` runs any command; after
each, gnubg's IDs and its own view of the state (``posinfo()``,
``cubeinfo()``) are written out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def ask_gnubg(gnubg_bin: Path, jobs: list[list[str]], workdir: Path) -> list[dict]:
    """Run the jobs in one gnubg process; one answer per job."""
    from gnubg_jobs import run_jobs

    return run_jobs(gnubg_bin, __file__, jobs, workdir)


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    gnubg.command("new game")
    answers = []
    for kind, text in json.loads(Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")):
        gnubg.command(text if kind == "command" else f"set {kind} {text}")
        answers.append(
            {
                "position_id": gnubg.positionid(),
                "match_id": gnubg.matchid(),
                "posinfo": gnubg.posinfo(),
                "cubeinfo": {k: v for k, v in gnubg.cubeinfo().items() if k != "gammonprice"},
            }
        )
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
