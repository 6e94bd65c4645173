"""The package works as installed, not only from the checkout: the wheel
carries its data, and the README's set-up works in a fresh clone and venv."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
import venv
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
#: The environment of the commands run in a new venv: nothing that points
#: Python back at the checkout or at the venv the tests run in.
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}

CHECK = """
import sys
import tavlakit as tk
from tavlakit._data import data_dir, grammar_text
assert tk.__file__.startswith(sys.prefix), (tk.__file__, sys.prefix)  # the wheel in the venv
samples = data_dir("samples")
assert str(samples).startswith(sys.prefix), samples
for name in ("mat", "sgf"):
    assert grammar_text(name).strip()
match = tk.read_match(samples / "tavla-t000.mat")
report = tk.validate(match)
assert report.games == 6 and not report.errors, report.errors
sgf = tk.read_match(samples / "charlot1-charlot2_7p_2025-11-08-2305.sgf")
assert len(sgf.games) == 4
from tavlakit import i18n
assert i18n.available_languages() == ["en", "tr"], i18n.available_languages()
i18n.set_language("tr")
assert i18n._("the file holds no match") == "dosyada maç yok"
from tavlakit.evaluation.met import default_met
assert default_met().name == "Kazaross XG2 25 point MET" and abs(default_met().away(1, 2) - 0.67736) < 1e-9
from tavlakit.pictures import study
assert ".mistake {" in study.page([])  # the study page's style, from the package
print("ok", samples)
"""


def _dependency_dirs(wheel: Path) -> list[str]:
    """The folders holding the installed distributions of the wheel's
    dependencies (and theirs), from the running environment's metadata."""
    with zipfile.ZipFile(wheel) as archive:
        text = next(archive.read(n).decode() for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    declared = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Requires-Dist:")]
    seen: set[str] = set()
    folders: list[str] = []
    todo = [r for r in map(Requirement, declared) if r.marker is None or r.marker.evaluate({"extra": ""})]
    while todo:
        name = todo.pop().name.lower()
        if name in seen:
            continue
        seen.add(name)
        dist = metadata.distribution(name)
        folder = str(Path(str(dist.locate_file(""))).resolve())
        if folder not in folders:
            folders.append(folder)
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req)
    return folders


def test_wheel_carries_grammars_and_samples(tmp_path: Path) -> None:
    """Build the wheel, install it (``--no-deps``) into a venv that does not
    see the system's or this environment's site-packages; the venv reaches
    the dependencies only through a ``.pth`` file naming the folders of
    their installed distributions (a ``.pth`` line adds a folder without
    running the ``.pth`` files in it, so the editable install of the
    checkout stays out of sight). Works offline, in a fresh venv and in CI."""
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    wheel = next(tmp_path.glob("tavlakit-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "tavlakit/grammars/mat.lark",
        "tavlakit/grammars/sgf.lark",
        "tavlakit/samples/tavla-t000.mat",
        "tavlakit/locale/tr/LC_MESSAGES/tavlakit.mo",
        "tavlakit/evaluation/met/Kazaross-XG2.xml",
        "tavlakit/pictures/static/viewer.js",
        "tavlakit/pictures/static/study.css",
        "tavlakit/recorder/static/recorder.js",
        "tavlakit/recorder/static/recorder.css",
    } <= names

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    folders = _dependency_dirs(wheel)
    pip_dir = str(Path(str(metadata.distribution("pip").locate_file(""))).resolve())
    Path(site, "dependencies.pth").write_text("\n".join([*folders, pip_dir]) + "\n")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        env=CLEAN_ENV,
    )
    assert install.returncode == 0, install.stderr
    # every dependency the wheel declares is there, at a version it accepts
    check = subprocess.run(
        [str(python), "-m", "pip", "check"], capture_output=True, text=True, timeout=300, env=CLEAN_ENV
    )
    assert check.returncode == 0, check.stdout + check.stderr
    # run outside the checkout so nothing can be found there
    run = subprocess.run(
        [str(python), "-c", CHECK], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=CLEAN_ENV
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok")


def _pypi_reachable() -> bool:
    try:
        with urllib.request.urlopen("https://pypi.org/simple/lark/", timeout=10):
            return True
    except OSError:
        return False


@pytest.mark.newcomer
def test_readme_first_command_in_a_fresh_clone(tmp_path: Path) -> None:
    """``git clone``, a fresh venv, then the README's first command exactly,
    in a folder with no ``../shared`` beside it (about a minute; measured
    55-90 s here, mostly pip)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs git and a git checkout to clone")
    if not _pypi_reachable():
        pytest.skip("PyPI is not reachable: the fresh venv cannot install the dependencies")
    clone = tmp_path / "tavlakit"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, timeout=120)
    assert not (clone.parent / "shared").exists()
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True, timeout=300)
    readme = (clone / "README.md").read_text(encoding="utf-8")
    command = "pip install -e . && tavlakit validate samples/"
    assert command in readme
    start = time.perf_counter()
    run = subprocess.run(
        ["bash", "-c", f". {tmp_path / 'venv' / 'bin' / 'activate'} && {command}"],
        cwd=clone,
        env=CLEAN_ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    elapsed = time.perf_counter() - start
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert " file(s), " in summary and " 0 error(s)" in summary, summary
    print(f"README's first command in a fresh venv: {elapsed:.0f} s")


def test_the_store_page_names_what_reading_the_store_needs() -> None:
    """The store's Dask and DuckDB examples (docs/collections.md) say what to install first."""
    page = (REPO / "docs" / "collections.md").read_text(encoding="utf-8")
    reading = page[page.index("Reading it") : page.index("## Dask, for more than one machine")]
    assert "pip install\n'tavlakit[dask]'" in reading or "pip install 'tavlakit[dask]'" in reading
    assert "pip install duckdb" in reading
