"""Have Debian's gnubg analyse records and save them as its SGF (used by test_sgf_analysis.py).

Inside gnubg (``gnubg -t -q -p gnubg_sgf.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`): ``[mat_path, sgf_path, cube_on]``; for
each it imports the .mat, runs ``analyse match`` at 0 ply, cubeful (Jacoby
and beavers off, as tavlakit's backgammon rules), saves the match with its
analysis (``save match``), writes gnubg's statistics of that same analysis
beside it (``<sgf>.stats.json``: ``gnubg.match(statistics=1)["stats"]``) and
answers the path written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def gnubg_sgf(gnubg_bin: Path, jobs: list[list], workdir: Path) -> list[str]:
    """Run the jobs in one gnubg process; the SGF files written."""
    from gnubg_jobs import run_jobs

    return run_jobs(gnubg_bin, __file__, jobs, workdir)


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    for command in (
        "set jacoby off",
        "set beavers 0",
        "set display off",
        "set confirm new off",
        "set analysis chequerplay evaluation plies 0",
        "set analysis chequerplay evaluation cubeful on",
        "set analysis cubedecision evaluation plies 0",
        "set analysis cubedecision evaluation cubeful on",
    ):
        gnubg.command(command)
    answers = []
    for mat, sgf, cube in json.loads(Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")):
        gnubg.command(f"set cube use {'on' if cube else 'off'}")
        gnubg.command(f"import mat {mat}")
        gnubg.command("analyse match")
        gnubg.command(f"save match {sgf}")
        stats = gnubg.match(analysis=0, statistics=1)["stats"]
        Path(f"{sgf}.stats.json").write_text(json.dumps(stats), encoding="utf-8")
        answers.append(sgf)
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
