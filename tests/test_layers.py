"""The layers of docs/architecture.md hold: ``lint-imports`` with the
contracts in pyproject.toml finds no import running up a layer, no circle
but the allowed one, and no console in the analysis."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_lint_imports_keeps_every_contract() -> None:
    script = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert script, "lint-imports is not installed (pip install -e '.[test]')"
    environ = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's package, not an installed one
    run = subprocess.run(
        [script, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout and " kept" in run.stdout, run.stdout
