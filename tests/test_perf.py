"""The lazy command line and ``show --jobs``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tavlakit._data import data_dir
from tavlakit.cli import COMMANDS, app

SAMPLES = data_dir("samples")


def test_running_one_command_imports_only_its_module() -> None:
    code = ("import sys\nfrom tavlakit.cli import app\n"
            f"try:\n    app(['validate', {str(SAMPLES / 'tavla-t000.mat')!r}])\n"
            "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "print(sorted(m for m in sys.modules if m.startswith('tavlakit.cli.')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.strip().splitlines()[-1]
    assert "tavlakit.cli.validate" in loaded
    for other in ("stats", "analyse", "show", "convert", "board"):
        assert f"tavlakit.cli.{other}'" not in loaded, loaded


def test_help_lists_every_command_in_order() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    where = [result.output.find(f" {name} ") for name in COMMANDS]
    assert all(w > 0 for w in where) and where == sorted(where), result.output


def _show(folder: Path, out: Path, jobs: int) -> tuple[str, dict[str, str]]:
    result = CliRunner().invoke(app, ["show", str(folder), "-o", str(out), "-j", str(jobs)])
    pages = {p.name: p.read_text(encoding="utf-8") for p in sorted(out.iterdir())}
    return f"{result.exit_code}\n{result.output}", pages


def test_show_jobs_writes_what_one_job_writes(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for sample in sorted(SAMPLES.glob("*.mat")) + sorted(SAMPLES.glob("*.txt")):
        (folder / sample.name).write_bytes(sample.read_bytes())
    (folder / "broken.mat").write_text("this is not a match\n", encoding="utf-8")
    one = _show(folder, tmp_path / "one", 1)
    two = _show(folder, tmp_path / "two", 2)
    assert one[0].replace(str(tmp_path / "one"), "OUT") == two[0].replace(str(tmp_path / "two"), "OUT")
    assert one[1] == two[1]
    assert "index.html" in one[1] and len(one[1]) >= 4
    assert not [n for n in one[1] if n.endswith(".tmp")]
