"""Mutation fuzzing in CI: real corpus records (.mat, SGF) and SGF/JSON
written by tavlakit from corpus matches, with bytes flipped, lines deleted
or doubled, digits changed or the file cut short. Reading and validating
must never raise, never give an ``internal`` problem and never hang.
``benchmarks/fuzz.py`` runs many more cases.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fuzzing import check, mutate, seeds

from tavlakit.formats import read_match

FILES = 6  # seed files per format
CASES = 8  # mutated copies of each


@pytest.fixture(scope="module")
def seed_files(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    return seeds(corpus_dir, tmp_path_factory.mktemp("seeds"), FILES, random.Random("fuzz-seeds"))


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_mutated_records_give_problems_not_failures(seed_files, fmt: str, tmp_path: Path) -> None:
    rng = random.Random(f"fuzz-{fmt}")
    files = seed_files[fmt]
    assert files, f"no {fmt} seed files"
    tried = 0
    for source in files:
        data = source.read_bytes()
        assert check(source).failure is None, source
        for case in range(CASES):
            mutated, names = mutate(data, rng)
            target = tmp_path / f"{case}-{source.name}"
            target.write_bytes(mutated)
            outcome = check(target)
            assert outcome.failure is None, (source.name, names, outcome.failure)
            tried += 1
    assert tried >= CASES * 3


@pytest.mark.parametrize(
    "tag",
    [
        'Jacoby "6n"',
        'Crawford "maybe"',
        'CubeLimit "lots"',
        'Rules "bogus"',
        'Variation "Hypergammon"',
        'Rules "mars=sometimes"',
        'Rules "cube=perhaps"',
    ],
)
def test_unreadable_tag_is_a_located_bad_tag(tag: str, tmp_path: Path) -> None:
    path = tmp_path / "tagged.mat"
    path.write_text(
        f"; [{tag}]\n\n 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n",
        encoding="utf-8",
    )
    outcome = check(path)
    assert outcome.failure is None
    match = read_match(path)
    bad = [p for p in match.problems if p.code == "bad-tag"]
    assert [(p.line, p.column) for p in bad] == [(1, 1)], match.problems
    assert tag.split()[1].strip('"').split("=")[-1] in bad[0].message
