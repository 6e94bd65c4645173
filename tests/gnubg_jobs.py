"""Run a job list inside Debian's gnubg and read its answers back.

:func:`run_gnubg` runs any script inside gnubg. The job scripts
(``gnubg_ids.py``, ``gnubg_cube.py``) run themselves inside
gnubg (``gnubg -t -q -p SCRIPT``): they read the jobs from the JSON file
named by ``TAVLAKIT_JOBS`` and write one answer per job to the one named by
``TAVLAKIT_OUT``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any


def run_gnubg(
    gnubg_bin: Path, script: str | Path, workdir: Path, timeout: int = 300, check: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run a Python ``script`` inside Debian's gnubg (``gnubg -t -q -p``) in
    ``workdir``, with ``env`` added to the environment; ``check``: a failure
    raises."""
    return subprocess.run(
        [str(gnubg_bin), "-t", "-q", "-p", str(script)],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=workdir,
        check=check,
    )


def run_jobs(gnubg_bin: Path, script: str, jobs: list[Any], workdir: Path, **env: str) -> list[Any]:
    """Run ``script`` inside one gnubg process on ``jobs`` (``env``: more
    variables for it); its answers, one per job."""
    name = Path(script).stem
    job_file, out_file = workdir / f"{name}-jobs.json", workdir / f"{name}-answers.json"
    job_file.write_text(json.dumps(jobs), encoding="utf-8")
    variables = dict(os.environ, TAVLAKIT_JOBS=str(job_file), TAVLAKIT_OUT=str(out_file), **env)
    run = subprocess.run(
        [str(gnubg_bin), "-t", "-q", "-p", script],
        env=variables,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=workdir,
    )
    if not out_file.exists():
        raise AssertionError(f"gnubg gave no answers:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    answers: list[Any] = json.loads(out_file.read_text(encoding="utf-8"))
    return answers
