"""Have Debian's gnubg play and analyse money sessions with the Jacoby rule on or off (used by test_jacoby.py).

Inside gnubg (``gnubg -t -q -p gnubg_money.py``) this reads a job list from
``TAVLAKIT_JOBS`` (:mod:`gnubg_jobs`): ``[name, seed, games, jacoby]``. For
each, gnubg plays itself a money session of ``games`` games, both sides at 0
ply with evaluation noise (so that there are errors to find), cube on,
beavers off (as tavlakit's backgammon rules), the Jacoby rule as the job
says; then ``analyse match`` at 0 ply, cubeful, under the same rules;
``export match mat <name>.mat`` (gnubg's export does not say the Jacoby
rule) and prints ``show statistics match`` between two marker lines, which
the test reads from gnubg's output (the printed table is what players quote:
``gnubg.match(statistics=1)`` swaps the players' dice marks and gives the
cube error as a rate). Answers the .mat written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

NOISE = 0.06
MARK = "=== tavlakit statistics of {name} ==="


def gnubg_money(gnubg_bin: Path, jobs: list[list], workdir: Path) -> dict[str, tuple[Path, str]]:
    """Run the jobs in one gnubg process: per name, the .mat written and gnubg's printed statistics."""
    from gnubg_jobs import run_gnubg

    job_file, out_file = workdir / "money-jobs.json", workdir / "money-answers.json"
    job_file.write_text(json.dumps(jobs), encoding="utf-8")
    run = run_gnubg(gnubg_bin, __file__, workdir, timeout=900, TAVLAKIT_JOBS=str(job_file), TAVLAKIT_OUT=str(out_file))
    if not out_file.exists():
        raise AssertionError(f"gnubg gave no answers:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    out = {}
    for (name, *_rest), mat in zip(jobs, json.loads(out_file.read_text(encoding="utf-8"))):
        start = run.stdout.index(MARK.format(name=name))
        end = run.stdout.find("=== tavlakit", start + 1)
        out[name] = (Path(mat), run.stdout[start : end if end >= 0 else None])
    return out


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        for kind in ("chequerplay", "cubedecision"):
            gnubg.command(f"set player {player} {kind} evaluation plies 0")
            gnubg.command(f"set player {player} {kind} evaluation noise {NOISE}")
    for command in (
        "set beavers 0",
        "set cube use on",
        "set automatic roll on",
        "set automatic game off",
        "set display off",
        "set confirm new off",
        "set defaultnames Alpha Bravo",
        "set analysis chequerplay evaluation plies 0",
        "set analysis chequerplay evaluation cubeful on",
        "set analysis cubedecision evaluation plies 0",
        "set analysis cubedecision evaluation cubeful on",
    ):
        gnubg.command(command)
    answers = []
    for name, seed, games, jacoby in json.loads(Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8")):
        gnubg.command(f"set jacoby {'on' if jacoby else 'off'}")
        gnubg.command(f"set seed {seed}")
        gnubg.command("new session")
        for _ in range(games - 1):
            gnubg.command("new game")
        gnubg.command("analyse match")
        mat = str(Path(os.getcwd()) / f"{name}.mat")
        gnubg.command(f"export match mat {mat}")
        print(MARK.format(name=name), flush=True)
        gnubg.command("show statistics match")
        answers.append(mat)
    print("=== tavlakit end ===", flush=True)
    Path(os.environ["TAVLAKIT_OUT"]).write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
