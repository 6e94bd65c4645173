"""``tavlakit validate`` streams: memory does not grow with the file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAME_SOURCE = REPO / "tests" / "data" / "gnubg" / "selfplay-3p-7.mat"

MEASURE = """
import resource, sys
from typer.testing import CliRunner
from tavlakit.cli import app
result = CliRunner().invoke(app, ["validate", "--quiet", sys.argv[1]])
print(result.output.strip().splitlines()[-1])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _session(path: Path, games: int) -> int:
    """A money session of ``games`` copies of one real gnubg game, with
    score lines that add up. Returns the file size."""
    text = GAME_SOURCE.read_text(encoding="utf-8")
    body = text[text.index(" Game 1") :]
    first = body[: body.index(" Game 2")] if " Game 2" in body else body
    _head, rows = first.split("\n", 1)
    score_line, rows = rows.split("\n", 1)
    winner = 1 if re.search(r"\n {20,}Wins", rows) else 0
    points = int(re.search(r"Wins (\d+)", rows).group(1))
    names = re.findall(r"(\S+) : \d+", score_line)
    with open(path, "w", encoding="utf-8") as out:
        out.write(" 0 point match\n\n")
        score = [0, 0]
        for number in range(1, games + 1):
            out.write(f" Game {number}\n")
            out.write(f" {names[0] + ' : ' + str(score[0]):<31}{names[1]} : {score[1]}\n")
            out.write(rows.rstrip("\n") + "\n\n")
            score[winner] += points
    return path.stat().st_size


def _measure(path: Path) -> tuple[str, int]:
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, timeout=300, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr
    summary, peak_kb = proc.stdout.strip().splitlines()[-2:]
    return summary, int(peak_kb)


def test_memory_flat_for_large_files(tmp_path: Path) -> None:
    small, large = tmp_path / "small.mat", tmp_path / "large.mat"
    small_size = _session(small, 100)
    large_size = _session(large, 8000)
    assert large_size > 7_000_000
    small_summary, small_peak = _measure(small)
    large_summary, large_peak = _measure(large)
    assert "100 game(s)" in small_summary and "0 error(s)" in small_summary
    assert "8000 game(s)" in large_summary and "0 error(s)" in large_summary
    growth = (large_peak - small_peak) * 1024
    # 80x the file, yet the peak grows by far less than the extra bytes
    assert growth < (large_size - small_size) / 4, (small_peak, large_peak, large_size)
