"""Mutation fuzzing of real records, longer than the test suite's run:
corpus .mat/.txt, .sgf and position text files, and SGF/JSON written by
tavlakit from corpus matches, mutated (bytes flipped, lines deleted or
doubled, digits changed, made letters or numbers no match can have,
truncation), read and validated as ``tavlakit validate`` does; with
``--commands`` every other command too (stats, analyse, show, convert;
board and moves for position texts: ``tests/fuzzing.py``'s COMMANDS), as a
user types them. Prints what it tried, the problem codes it got, the
slowest file, each command's runs and seconds, and every failure (an
exception, an ``internal`` problem, an exit status beyond 2, or a hang).

    python benchmarks/fuzz.py [--corpus ../shared/corpus] [--files 20] [--cases 30] [--seed 1]
                              [--commands] [--most 20000]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fuzzing import COMMANDS, check, mutate, run_command, seeds

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    parser.add_argument("--files", type=int, default=20, help="seed files per format")
    parser.add_argument("--cases", type=int, default=30, help="mutated copies of each seed file")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--commands", action="store_true", help="run every command on each mutated file too")
    parser.add_argument("--most", type=int, default=None, help="seed files of at most so many bytes")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tried: Counter[str] = Counter()
    mutations: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    failures: list[str] = []
    slowest = (0.0, "")
    runs: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fmt, files in seeds(args.corpus, folder, args.files, rng, args.most).items():
            for source in files:
                data = source.read_bytes()
                for case in range(args.cases):
                    mutated, names = mutate(data, rng)
                    target = folder / f"m{case}-{source.name}"
                    target.write_bytes(mutated)
                    start = time.perf_counter()
                    outcome = check(target)
                    took = time.perf_counter() - start
                    slowest = max(slowest, (took, f"{source.name} {'+'.join(names)}"))
                    tried[fmt] += 1
                    mutations.update(names)
                    codes.update(outcome.codes)
                    if outcome.failure:
                        failures.append(f"{fmt} {source} {'+'.join(names)}: {outcome.failure}")
                    for command in COMMANDS if args.commands else ():
                        if fmt not in command.kinds:
                            continue
                        start = time.perf_counter()
                        outcome = run_command(command, target, folder / f"out-{case}-{command.name}")
                        seconds[command.name] += time.perf_counter() - start
                        runs[command.name] += 1
                        if outcome.failure:
                            failures.append(f"{fmt} {source} {'+'.join(names)}: {outcome.failure}")
    print(f"tried {sum(tried.values())} mutated files: " + ", ".join(f"{k} {v}" for k, v in sorted(tried.items())))
    print("mutations: " + ", ".join(f"{k} {v}" for k, v in sorted(mutations.items())))
    print("problem codes: " + ", ".join(f"{k} {v}" for k, v in sorted(codes.items())))
    print(f"slowest file: {slowest[0]:.2f} s ({slowest[1]})")
    for name, count in runs.items():
        print(f"  {name}: {count} run(s), {seconds[name]:.1f} s")
    print(f"failures: {len(failures)}")
    for line in failures:
        print("  " + line)
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
