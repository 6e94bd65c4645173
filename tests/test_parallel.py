"""Every core: pmap's order and errors, --jobs giving the output of --jobs 1,
Ctrl-C, and the commands that must start without pandas."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.cli import app
from tavlakit.collections.parallel import job_count, pmap
from tavlakit.formats import find_records

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
# several formats and writers: the samples, gnubg's self-play and luck sessions
FILES = [*find_records([SAMPLES]), *find_records([REPO / "tests" / "data" / "gnubg"])][:14]
runner = CliRunner()


def slow_square(n: int, pause: float = 0.0) -> int:
    """Later items finish first, so order must be restored."""
    time.sleep(pause * (10 - n) / 10)
    return n * n


def fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    return n


def test_pmap_keeps_input_order_on_two_processes() -> None:
    assert list(pmap(slow_square, list(range(10)), jobs=2, pause=0.05)) == [n * n for n in range(10)]


def test_pmap_with_another_thread_running() -> None:
    """A process with threads (a Dask client, a notebook) gets forkserver workers, same results."""
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert list(pmap(slow_square, list(range(6)), jobs=2)) == [n * n for n in range(6)]
    finally:
        stop.set()
        thread.join()


def test_pmap_raises_the_worker_error() -> None:
    with pytest.raises(ValueError, match="three"):
        list(pmap(fail_on_three, list(range(6)), jobs=2))


def touch_and_pid(name: str, folder: Path) -> int:
    """Leave a mark that ``name`` was taken up; the worker's process id."""
    (folder / name).touch()
    return os.getpid()


def test_workers_take_items_while_they_are_still_being_made(tmp_path: Path) -> None:
    """Workers.map hands an item over as soon as the generator yields it:
    the last item is made only once the first one has been taken up; each
    item comes back with its result, in order; the same processes serve
    a second map."""
    from tavlakit.collections.parallel import Workers

    def made() -> Iterator[str]:
        yield "first"
        deadline = time.monotonic() + 20
        while not (tmp_path / "first").exists():
            assert time.monotonic() < deadline, "the first item was not taken up while the generator went on"
            time.sleep(0.01)
        yield from ("second", "third")

    with Workers(2) as workers:
        found = list(workers.map(touch_and_pid, made(), folder=tmp_path))
        again = list(workers.map(touch_and_pid, ["fourth", "fifth", "sixth"], folder=tmp_path))
    assert [name for name, _pid in found + again] == ["first", "second", "third", "fourth", "fifth", "sixth"]
    pids = {pid for _name, pid in found + again}
    assert os.getpid() not in pids and len(pids) <= 2


def test_workers_raise_the_worker_error() -> None:
    from tavlakit.collections.parallel import Workers

    with Workers(2) as workers, pytest.raises(ValueError, match="three"):
        list(workers.map(fail_on_three, iter(range(6))))


def test_job_count() -> None:
    assert job_count(1, 100) == 1
    assert job_count(8, 3) == 3
    assert job_count(None, 0) == 1
    assert job_count(None, 1000) == len(os.sched_getaffinity(0))


def _invoke(*args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def test_validate_jobs_gives_the_same_output_in_the_same_order() -> None:
    one = _invoke("validate", *FILES, "--jobs", "1")
    two = _invoke("validate", *FILES, "-j", "2")
    assert one == two
    # every file's problems are there, in input order (the .sgf twin comes after its .mat)
    assert one[1].index("charlot1-charlot2_7p_2025-11-08-2305.sgf: info duplicate-match") > 0
    assert one[1].splitlines()[-1].startswith(f"{len(FILES)} file(s)")


def test_validate_json_jobs_same() -> None:
    assert _invoke("validate", "--json", *FILES, "-j", "1") == _invoke("validate", "--json", *FILES, "-j", "2")


def test_validate_strict_stops_at_the_same_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    text = (SAMPLES / "tavla-t000.mat").read_text(encoding="utf-8")
    bad.write_text(text.replace("24/", "25/", 1), encoding="utf-8")
    files = [*FILES[:3], bad, *FILES[3:]]
    one = _invoke("validate", "--strict", *files, "-j", "1")
    assert one == _invoke("validate", "--strict", *files, "-j", "2")
    assert one[0] != 0


def test_convert_jobs_same_files_and_messages(tmp_path: Path) -> None:
    """Two processes write byte for byte the files one writes, say the same, and leave no partial file."""
    bad = tmp_path / "bad.mat"
    bad.write_text((SAMPLES / "tavla-t000.mat").read_text(encoding="utf-8").replace("24/", "25/", 1), encoding="utf-8")
    inputs = [*FILES[:6], bad]
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        result = runner.invoke(app, ["convert", *map(str, inputs), "-o", str(out), "--to", "sgf", "-j", jobs])
        said = result.output.replace(str(out), "OUT")
        outs.append((result.exit_code, said, {p.name: p.read_bytes() for p in sorted(out.iterdir())}))
    assert outs[0] == outs[1]
    code, output, written = outs[0]
    assert code == 1 and "bad.mat: not converted" in output
    assert len(written) == len(inputs) - 1 and not [name for name in written if name.startswith(".")]


def test_stats_jobs_same_table() -> None:
    args = ("stats", "--no-luck", "--json", *FILES[:6])
    assert _invoke(*args, "-j", "1") == _invoke(*args, "-j", "2")


def test_analyse_paths_on_two_processes_equals_read_matches() -> None:
    files = FILES[:8]
    expected = tk.analysis.analyse(tk.read_matches(files), luck=False)
    got = tk.analysis.analyse(files, luck=False, jobs=2)
    pd.testing.assert_frame_equal(got.plays, expected.plays)
    pd.testing.assert_frame_equal(got.games, expected.games)
    assert got.problems == expected.problems


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("delay", [1.0, 4.0])
def test_ctrl_c_stops_workers_and_exits_130(corpus_dir: Path, delay: float) -> None:
    """Ctrl-C at any moment of the command (reading its arguments, importing
    the analysis, in the pool, building the tables) is one "interrupted" line
    and exit 130: typer's own handler exits 130 silently, so both are
    asserted. 1 s is after the imports of the command line; whatever the
    machine's speed, the corpus takes longer than 4 s to analyse here, so
    the later one lands in the pool or after it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavlakit", "stats", "-j", "2", str(corpus_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        # as a shell starts it: Ctrl-C's default action (a pytest-xdist worker ignores
        # SIGINT, and the command would inherit that)
        preexec_fn=_default_sigint,
    )
    time.sleep(delay)
    assert proc.poll() is None, "finished before the interrupt: use a larger collection"
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.splitlines()[-1:] == ["interrupted"], err
    assert "Traceback" not in err
    assert out == ""
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(proc.pid, 0)


QUICK = {
    "validate": ["validate", str(SAMPLES / "tavla-t000.mat")],
    "board": ["board", "4HPwATDgc/ABMA"],
    "moves": ["moves", "4HPwATDgc/ABMA", "3", "1"],
}


#: Not needed to read, check, convert or print a record; each would add to
#: every start-up (pydantic: typer 0.29's option checks; typer.rich_utils:
#: rich's Markdown, for help screens; the pictures).
HEAVY = (
    "pandas",
    "matplotlib",
    "gnubg_nn",
    "pyarrow",
    "numpy",
    "pydantic",
    "typer.rich_utils",
    "tavlakit.pictures.svg",
    "tavlakit.pictures.viewer",
    "tavlakit.analysis",
)


@pytest.mark.parametrize("command", [*QUICK, "convert"])
def test_quick_commands_import_nothing_heavy(command: str, tmp_path: Path) -> None:
    args = QUICK.get(command) or ["convert", str(SAMPLES / "tavla-t000.mat"), "-o", str(tmp_path / "t.sgf")]
    code = (
        "import sys\nfrom tavlakit.cli import app\n"
        f"try:\n    app({args!r})\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "HEAVY []"


def _show(folder: Path, out: Path, jobs: int) -> tuple[str, dict[str, str]]:
    result = runner.invoke(app, ["show", str(folder), "-o", str(out), "-j", str(jobs)])
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
