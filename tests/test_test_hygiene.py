"""The tests themselves: they run on any machine, with the corpus where the fixture finds it."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: Absolute paths of one machine, and the corpus named by its place instead of the ``corpus_dir`` fixture.
MACHINE = re.compile("|".join(("/" + "work", "/" + "root", "shared" + "/corpus")))


def test_no_test_names_a_machine_path() -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "conftest.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MACHINE.search(line)
    ]
    assert found == []
