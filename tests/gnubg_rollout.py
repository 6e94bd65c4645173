"""Ask Debian's gnubg 1.07 for its own rollouts (used by test_rollout.py and benchmarks/rollout.py).

Inside gnubg (``gnubg -t -q -p gnubg_rollout.py``, on a terminal: gnubg prints
a rollout's results only there) this reads a job list from ``TAVLAKIT_JOBS``:
``[gnubg_id, jacoby]`` (a ``PositionID:MatchID``, the side on roll not yet
rolled); with ``TAVLAKIT_TRIALS`` trials, truncation at ``TAVLAKIT_TRUNCATE``
plies (0: none), seed ``TAVLAKIT_SEED`` and ``TAVLAKIT_THREADS`` threads, it
rolls each position out as gnubg's ``rollout`` command does (0-ply cubeful
chequer play and cube decisions, variance reduction, quasi-random dice; gnubg
1.07 makes no cube decision before the first roll), equities in EMG, and
prints each result between markers. :func:`ask_gnubg_rollout` runs it and
reads back, per job, the seven means (win, win gammon, win backgammon, lose
gammon, lose backgammon, cubeless equity, cubeful equity), their standard
errors and the seconds (wall and CPU) the rollout took. With ``TAVLAKIT_PLIES``
1 the trials' chequer play and cube decisions are gnubg's at 1 ply (its
pruning nets, the move filter keeping up to 16 plays within 0.32, tavlakit's
1-ply level).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

_NUMBER = r"[-+]?\d+\.\d+"
_SIX = rf"({_NUMBER}) ({_NUMBER}) ({_NUMBER}) - ({_NUMBER}) ({_NUMBER}) ({_NUMBER})"
_LINE = re.compile(rf"^\s*\[?\s*{_SIX} CL\s+({_NUMBER}) CF\s+({_NUMBER})")


def ask_gnubg_rollout(
    gnubg_bin: Path,
    jobs: list[list],
    workdir: Path,
    trials: int,
    truncate: int,
    seed: int,
    threads: int = 1,
    plies: int = 0,
) -> list[dict]:
    """gnubg's rollout of each job (see the module's docstring)."""
    job_file = workdir / "rollout-jobs.json"
    job_file.write_text(json.dumps(jobs), encoding="utf-8")
    env = dict(os.environ, TAVLAKIT_JOBS=str(job_file), TAVLAKIT_TRIALS=str(trials), TAVLAKIT_TRUNCATE=str(truncate),
               TAVLAKIT_SEED=str(seed), TAVLAKIT_THREADS=str(threads), TAVLAKIT_PLIES=str(plies))  # fmt: skip
    primary, secondary = os.openpty()  # gnubg prints a rollout's results only to a terminal
    run = subprocess.Popen(
        [str(gnubg_bin), "-t", "-q", "-p", __file__], stdin=secondary, stdout=secondary, stderr=secondary,
        env=env, cwd=workdir,
    )  # fmt: skip
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the terminal closed: gnubg is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    run.wait(timeout=600)
    return _parse(b"".join(chunks).decode("utf-8", "replace"), len(jobs))


def _parse(text: str, count: int) -> list[dict]:
    answers = []
    for number in range(count):
        part = text.split(f"@@begin {number}@@", 1)[-1].split(f"@@end {number}@@", 1)
        if len(part) < 2:
            raise AssertionError(f"gnubg gave no rollout for job {number}:\n{text[-3000:]}")
        body, rest = part
        found = [m.groups() for m in map(_LINE.match, body.splitlines()) if m]
        seconds = float(rest.split("@@seconds ", 1)[1].split("@@", 1)[0])
        cpu = float(rest.split("@@cpu ", 1)[1].split("@@", 1)[0])
        mean, se = found[-2], found[-1]  # the final results: means, then their standard errors
        answers.append({"mean": [float(x) for x in mean], "se": [float(x) for x in se], "seconds": seconds, "cpu": cpu})
    return answers


def _main() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    setup = [
        "set player 0 human", "set player 1 human", "set display off", "set output digits 4", "set output mwc off",
        f"set rollout trials {os.environ['TAVLAKIT_TRIALS']}", f"set rollout seed {os.environ['TAVLAKIT_SEED']}",
        f"set rollout chequerplay plies {os.environ['TAVLAKIT_PLIES']}",
        f"set rollout cubedecision plies {os.environ['TAVLAKIT_PLIES']}", "set rollout cubeful on",
        "set rollout chequerplay prune on", "set rollout cubedecision prune on",
        "set rollout movefilter 1 0 0 16 0.32",
        "set rollout varredn on", "set rollout quasirandom on", "set rollout initial off",
        "set rollout truncation chequerplay plies 0", "set rollout truncation cubedecision plies 0",
        f"set threads {os.environ['TAVLAKIT_THREADS']}",
    ]  # fmt: skip
    truncate = int(os.environ["TAVLAKIT_TRUNCATE"])
    setup += [f"set rollout truncation enable {'on' if truncate else 'off'}"]
    setup += [f"set rollout truncation plies {truncate}"] if truncate else []
    for command in setup:
        gnubg.command(command)
    jobs = json.loads(Path(os.environ["TAVLAKIT_JOBS"]).read_text(encoding="utf-8"))
    for number, (gnubg_id, jacoby) in enumerate(jobs):
        gnubg.command(f"set jacoby {'on' if jacoby else 'off'}")
        gnubg.command("new session")
        gnubg.command(f"set gnubgid {gnubg_id}")
        print(f"@@begin {number}@@", flush=True)
        start, cpu = time.time(), time.process_time()
        gnubg.command("rollout")
        print(f"@@end {number}@@ @@seconds {time.time() - start}@@ @@cpu {time.process_time() - cpu}@@", flush=True)


if __name__ == "__main__" and os.environ.get("TAVLAKIT_JOBS"):
    _main()
