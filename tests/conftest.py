"""Shared fixtures: the shared corpus and Debian's gnubg."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

# scripts that made the reference data run inside gnubg, not under pytest
collect_ignore_glob = ["data/*"]

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
GNUBG = Path("/usr/games/gnubg")


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """``../shared/corpus`` beside the checkout (present in CI)."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def gnubg_bin() -> Path:
    """Debian's gnubg binary (installed by .ci/run)."""
    found = GNUBG if GNUBG.exists() else shutil.which("gnubg")
    if not found:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg)")
    return Path(found)
