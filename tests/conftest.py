"""Shared fixtures: the shared corpus, Debian's gnubg and Debian's chromium (through Playwright)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# scripts that made the reference data run inside gnubg, not under pytest
collect_ignore_glob = ["data/*"]

REPO = Path(__file__).resolve().parents[1]
#: The environment variable naming the corpus folder (see the README's "Set up").
CORPUS_VARIABLE = "TAVLAKIT_CORPUS"
GNUBG = Path("/usr/games/gnubg")
#: gnubg run by qemu-user's emulated CPU: its nets' sigmoid takes the exact reciprocal (below)
GNUBG_EXACT = Path(__file__).parent / "gnubg-exact"
CHROMIUM = Path(os.environ.get("TAVLAKIT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_corpus(environ: dict[str, str] | os._Environ[str] = os.environ, repo: Path = REPO) -> tuple[Path | None, str]:
    """The corpus folder, from ``TAVLAKIT_CORPUS`` or else ``../shared/corpus``
    beside the checkout, or ``None`` with a message that says how to point
    the tests at one."""
    named = environ.get(CORPUS_VARIABLE)
    if named:
        path = Path(named).expanduser()
        if path.is_dir():
            return path, ""
        return None, f"{CORPUS_VARIABLE}={named} is not a folder"
    beside = repo.parent / "shared" / "corpus"
    if beside.is_dir():
        return beside, ""
    return None, (
        f"no corpus: set {CORPUS_VARIABLE} to a corpus folder (with its SOURCES.tsv), "
        f"or put the project's shared folder at {beside.parent}"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "newcomer: runs the README's set-up in a fresh clone and venv "
        "(needs PyPI, about a minute; deselect with -m 'not newcomer')",
    )


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The corpus: ``$TAVLAKIT_CORPUS`` or ``../shared/corpus`` (present in CI)."""
    found, why = find_corpus()
    if found is None and os.environ.get(CORPUS_VARIABLE):
        pytest.fail(why)  # a corpus was asked for: not finding it is an error, not a skip
    if found is None:
        pytest.skip(why)
    return found


@pytest.fixture(scope="session")
def gnubg_wd() -> Path:
    """gnubg 1.07's binary weights (Debian's gnubg package, installed by .ci/run)."""
    from tavlakit.evaluation.net import GNUBG_WD

    if not GNUBG_WD.exists():
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg)")
    return GNUBG_WD


@pytest.fixture(scope="session")
def gnubg_bin() -> Path:
    """Debian's gnubg binary (installed by .ci/run)."""
    found = GNUBG if GNUBG.exists() else shutil.which("gnubg")
    if not found:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg)")
    return Path(found)


@pytest.fixture(scope="session")
def gnubg_exact(gnubg_bin: Path) -> Path:
    """Debian's gnubg as the reference of the nets' values, the same on every
    machine: run by qemu-user (``tests/gnubg-exact``, installed by .ci/run).

    gnubg's SSE code computes each hidden unit's sigmoid with the processor's
    approximate reciprocal (``rcpps``, good to about 12 bits), whose last bits
    differ from one processor to another: natively, its evaluations differ
    by up to about 1e-3 from one machine to the next. qemu computes that
    instruction as an exact division, as tavlakit's kernels do."""
    if not shutil.which("qemu-x86_64"):
        pytest.skip("qemu-user is not installed (apt-get install qemu-user): gnubg's own values depend on the CPU")
    return GNUBG_EXACT


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright (no browser download); skipped where either is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
