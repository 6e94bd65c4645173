"""The code keeps the style pyproject.toml chooses: ``ruff check`` (the rule
set of ``[tool.ruff.lint]``) finds nothing and ``ruff format --check`` would
change nothing, over the package, the tests, the benchmarks and the docs'
scripts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache", str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("args", [("check",), ("format", "--check")], ids=["check", "format"])
def test_ruff(args: tuple[str, ...]) -> None:
    run = ruff(*args)
    assert run.returncode == 0, run.stdout + run.stderr
