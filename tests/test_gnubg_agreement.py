"""tavlakit's default match statistics against gnubg 1.07's default ``analyse match``.

A real match of the corpus (a 9-point match from Backgammon Studio), read
by tavlakit, is analysed by gnubg with its own default settings (world
class: 2 plies, pruning nets, its move filter; ``show analysis`` is
checked) and by tavlakit at its default level; per player, the errors
and luck, the marks and the error rate must agree as the issue asks.
``benchmarks/gnubg_agreement.py`` runs the same comparison on ten matches
and a money session.
"""

from __future__ import annotations

from pathlib import Path

from gnubg_statistics import (
    CHECKS,
    DEFAULT_ANALYSIS,
    agreement_rows,
    gnubg_runs,
    parse_statistics,
    read_record,
    tavlakit_statistics,
)

#: Short enough for the suite (3 games, 145 rolls).
MATCH = "bglab/Llabba - Bigeagle32 9pt Backgammon Studio 2023_09_21 12_05_50.txt"


def test_gnubgs_printed_statistics_are_read_column_by_column() -> None:
    text = "\n".join(
        [
            "noise before",
            f"{'Player':<40} {'Ann Lee':<23} {'Bo':<23}",
            "",
            "Chequerplay statistics",
            "",
            f"{'Moves marked doubtful':<40} {'10':>4}{'':<19} {'6':>4}",
            f"{'Error total EMG (MWC)':<40} {'    -1.603 (-18.443%)':<23} {'    -2.775 (-31.050%)':<23}",
            "Luck statistics",
            f"{'Luck total EMG (MWC)':<40} {'    +2.741 (+15.088%)':<23} {'    -2.337 (-28.305%)':<23}",
            "Cube statistics",
            f"{'Error total EMG (MWC)':<40} {'    -0.105 ( -0.896%)':<23} {'    -0.798 ( -5.566%)':<23}",
            "Overall statistics",
            f"{'Error rate mEMG (MWC)':<40} {'   -13.0   ( -0.148%)':<23} {'   -24.1   ( -0.247%)':<23}",
        ]
    )
    players, figures = parse_statistics(text)
    assert players == ("Ann Lee", "Bo")
    assert figures == {
        "moves_doubtful": (10.0, 6.0),
        "checker_error_emg": (1.603, 2.775),
        "luck_emg": (2.741, -2.337),
        "cube_error_emg": (0.105, 0.798),
        "error_rate_memg": (13.0, 24.1),
    }


def test_default_statistics_agree_with_gnubgs_default_analysis(corpus_dir: Path, gnubg_bin: Path) -> None:
    record = read_record(corpus_dir / MATCH)
    (theirs,) = gnubg_runs(gnubg_bin, [record])
    for line in DEFAULT_ANALYSIS:
        assert line in theirs.settings, theirs.settings
    rows = list(agreement_rows(record, theirs, tavlakit_statistics(record)))
    assert len(rows) == 2
    for row in rows:
        failed = [check for check in CHECKS if not row[check]]
        assert not failed, {k: v for k, v in row.items() if not k.endswith("_ok")}
