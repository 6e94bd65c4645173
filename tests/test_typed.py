"""tavlakit is a typed package: the wheel ships ``py.typed`` (PEP 561) and
the whole package passes ``mypy --strict`` (the config in pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: What is checked: all of it.
STRICT = ["tavlakit"]


def test_wheel_carries_py_typed(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    wheel = next(tmp_path.glob("tavlakit-*.whl"))
    assert "tavlakit/py.typed" in zipfile.ZipFile(wheel).namelist()


def test_mypy_strict() -> None:
    pytest.importorskip("mypy")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *STRICT],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env=env,
    )
    assert run.returncode == 0, run.stdout + run.stderr
