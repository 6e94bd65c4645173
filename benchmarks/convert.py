"""Conversion speed and counts: every record of the shared corpus that reads
without errors is written to .mat, SGF and JSON and read back, on one core.
Prints, per output format, how many matches converted and round-tripped
equal, and matches/s for write and for read-back.

    python benchmarks/convert.py [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import time
from collections import Counter
from pathlib import Path

from tavlakit.formats import FORMATS, read_match, write_match
from tavlakit.record.match import Game, Match

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def clean_matches(corpus: Path) -> tuple[list[Match], Counter[str]]:
    """Matches from .mat/.txt/.sgf files that read with no error."""
    matches: list[Match] = []
    skipped: Counter[str] = Counter()
    for path in sorted(corpus.rglob("*")):
        if path.suffix.lower() not in (".mat", ".txt", ".sgf"):
            continue
        match = read_match(path)
        errors = [p for g in match.games for p in g.problems if p.severity == "error"]
        errors += [p for p in match.problems if p.severity == "error"]
        if errors or not match.games:
            skipped[path.suffix.lower()] += 1
            continue
        matches.append(match)
    return matches, skipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    args = parser.parse_args()
    matches, skipped = clean_matches(args.corpus)
    games = sum(len(m.games) for m in matches)
    print(
        f"{len(matches)} matches ({games} games) read without errors; not converted: "
        + ", ".join(f"{n} {ext} file(s)" for ext, n in sorted(skipped.items()))
    )
    for fmt in FORMATS:
        texts = []
        lost: Counter[str] = Counter()
        start = time.perf_counter()
        for match in matches:
            out = io.StringIO()
            lost.update(p.code for p in write_match(match, out, fmt))
            texts.append(out.getvalue())
        wrote = time.perf_counter() - start
        start = time.perf_counter()
        back = [read_match(io.StringIO(text), fmt) for text in texts]
        read = time.perf_counter() - start
        equal = sum(1 for a, b in zip(matches, back) if a == b)
        same_games = sum(1 for a, b in zip(matches, back) if _plain(a.games) == _plain(b.games))
        print(
            f"{fmt:>4}: {equal}/{len(matches)} read back equal, {same_games}/{len(matches)} with the same plays, "
            f"cube actions and results; write {len(matches) / wrote:,.0f} matches/s, "
            f"read back {len(matches) / read:,.0f} matches/s" + (f"; reported lost: {dict(lost)}" if lost else "")
        )


def _plain(games: list[Game]) -> list[Game]:
    """The games without what SGF cannot say the way a .mat does: hit marks
    (SGF has none; its reader marks hits from the board), 'Cannot Move'
    (a roll with no moves) and an unknown Crawford flag (SGF says no)."""
    out = []
    for game in games:
        turns = [
            dataclasses.replace(
                t,
                moves=tuple(m._replace(hit=False) for m in t.moves),
                status="play" if t.status == "cannot-move" else t.status,
            )
            for t in game.turns
        ]
        out.append(dataclasses.replace(game, turns=turns, crawford=bool(game.crawford)))
    return out


if __name__ == "__main__":
    main()
