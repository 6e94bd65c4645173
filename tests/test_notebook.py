"""The study notebook runs from top to bottom (so it never rots)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "study.ipynb"


SAMPLES = NOTEBOOK.parents[1] / "samples"


def test_study_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It reads the corpus ``TAVLAKIT_CORPUS`` names (here one made of two samples), as the tests do."""
    nbclient = pytest.importorskip("nbclient")
    corpus = tmp_path / "corpus"
    for folder, name in (("tavla", "tavla-t000.mat"), ("bglib", "fibs-bluenote-nori.txt")):
        (corpus / folder).mkdir(parents=True)
        (corpus / folder / name).write_bytes((SAMPLES / name).read_bytes())
    monkeypatch.setenv("TAVLAKIT_CORPUS", str(corpus))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    first = next(cell for cell in nb.cells if cell.cell_type == "code")
    assert "['tavla-t000.mat', 'fibs-bluenote-nori.txt']" in first.outputs[0]["data"]["text/plain"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 4  # luck, mars rates, dice, pip race
    tables = [o for o in outputs if "text/html" in o.get("data", {})]
    assert len(tables) >= 5


def test_notebook_imports_only_public_modules() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    assert "tavlakit._" not in code and "TAVLAKIT_CORPUS" in code
