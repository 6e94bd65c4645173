"""Mutation fuzzing in CI: real corpus records (.mat, SGF, position texts)
and SGF/JSON written by tavlakit from corpus matches, with bytes flipped,
lines deleted or doubled, digits changed (or made letters, or numbers no
match can have) or the file cut short. Reading and validating must never
raise, never give an ``internal`` problem and never hang; nor must any
other command (stats, analyse, show, convert; board and moves for position
texts). ``benchmarks/fuzz.py`` runs many more cases.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from fuzzing import COMMANDS, check, mutate, run_command, seeds

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


#: Mutated files the commands are run on, and how often a costly one (the nets: luck, statistics) comes.
COMMAND_FILES = 300
COSTLY_EVERY = 10


def test_every_command_on_mutated_records(corpus_dir: Path, tmp_path: Path) -> None:
    """Each mutated file is validated and given one other command in turn
    (a costly one every tenth file): no traceback, no ``internal``, no hang,
    an exit status of 0, 1 or 2."""
    rng = random.Random("fuzz-commands")
    picked = seeds(corpus_dir, tmp_path, 10, rng, most=20_000)
    pool = [(kind, path) for kind, paths in picked.items() for path in paths]
    assert {kind for kind, _path in pool} == {"mat", "sgf", "json", "position"}
    cheap = [c for c in COMMANDS if not c.costly]
    costly = [c for c in COMMANDS if c.costly]
    ran: Counter[str] = Counter()
    for number in range(COMMAND_FILES):
        kind, source = pool[number % len(pool)]
        mutated, names = mutate(source.read_bytes(), rng)
        target = tmp_path / f"m{number}-{source.name}"
        target.write_bytes(mutated)
        outcome = check(target)
        assert outcome.failure is None, (source.name, names, outcome.failure)
        group = costly if number % COSTLY_EVERY == 0 else cheap
        # the commands of its kind, the ones made for it first (board and moves for a position text)
        fitting = sorted((c for c in group if kind in c.kinds), key=lambda c: len(c.kinds))
        command = fitting[(number // len(pool)) % len(fitting)]
        outcome = run_command(command, target, tmp_path / f"out{number}")
        assert outcome.failure is None, (source.name, names, outcome.failure)
        ran[command.name] += 1
    assert set(ran) == {c.name for c in COMMANDS}, ran


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
