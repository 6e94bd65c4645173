"""gnubg 1.07's default ``analyse match`` of real records, beside tavlakit's.

Used by ``tests/test_gnubg_agreement.py`` (a few short matches) and by
``benchmarks/gnubg_agreement.py`` (any set of files). Each record is read
by tavlakit, written as a .mat and imported into its own gnubg process,
which analyses it with gnubg's default settings (nothing set but ``set
confirm new off``; ``HOME`` is a fresh folder, so no ``.gnubgautorc``
changes them) and prints ``show statistics match``. That printed table
is what is read here, not ``gnubg.match(statistics=1)``: its dictionary
swaps the two players' dice marks and gives the cube error as a rate.

A row per player then holds gnubg's figure and tavlakit's side by side,
and whether they agree: checker and cube error EMG and luck EMG within
``max(0.05, 5%)``, each mark count within 1 and the overall error rate
within 0.5 mEMG.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: What gnubg runs: the .mat, gnubg's default analysis, its printed
#: statistics; ``TAVLAKIT_COMMANDS`` (JSON list) adds commands before the
#: import (``set cube use off`` for a session played without a cube).
SCRIPT = """
import gnubg, json, os, time
gnubg.command("set confirm new off")
for command in json.loads(os.environ.get("TAVLAKIT_COMMANDS", "[]")):
    gnubg.command(command)
gnubg.command("show analysis")
gnubg.command('import mat "%s"' % os.environ["TAVLAKIT_MAT"])
start = time.process_time()
gnubg.command("analyse match")
spent = time.process_time() - start
gnubg.command("show statistics match")
json.dump({"cpu": spent}, open(os.environ["TAVLAKIT_OUT"], "w"))
"""

#: gnubg's ``show analysis`` lines that make its default analysis "world
#: class": 2 plies with the pruning nets for chequer play and cube
#: decisions, the default move filter, luck at 0 ply.
DEFAULT_ANALYSIS = (
    "2-ply evaluation.",
    "Using pruning neural nets.",
    "keep the first 0 0-ply moves and up to 16 more moves within equity 0.32",
    "Luck analysis:",
)

#: gnubg's section title -> our name for it.
SECTIONS = {
    "Chequerplay statistics": "checker",
    "Luck statistics": "luck",
    "Cube statistics": "cube",
    "Overall statistics": "overall",
}

#: (section, gnubg's label) -> the column of tavlakit's statistics frame;
#: gnubg prints errors as negative numbers, the frame as positive ones.
COLUMNS = {
    ("checker", "Total moves"): "total_moves",
    ("checker", "Unforced moves"): "unforced_moves",
    ("checker", "Moves marked doubtful"): "moves_doubtful",
    ("checker", "Moves marked bad"): "moves_bad",
    ("checker", "Moves marked very bad"): "moves_very_bad",
    ("checker", "Error total EMG (MWC)"): "checker_error_emg",
    ("luck", "Rolls marked very lucky"): "rolls_very_lucky",
    ("luck", "Rolls marked lucky"): "rolls_lucky",
    ("luck", "Rolls marked unlucky"): "rolls_unlucky",
    ("luck", "Rolls marked very unlucky"): "rolls_very_unlucky",
    ("luck", "Luck total EMG (MWC)"): "luck_emg",
    ("cube", "Close or actual cube decisions"): "close_cube_decisions",
    ("cube", "Error total EMG (MWC)"): "cube_error_emg",
    ("overall", "Error rate mEMG (MWC)"): "error_rate_memg",
}
NEGATED = {"checker_error_emg", "cube_error_emg", "error_rate_memg"}
#: The figures compared as equities (within max(0.05, 5%)) and as marks (within 1).
EQUITIES = ("checker_error_emg", "cube_error_emg", "luck_emg")
MARKS = (
    "moves_doubtful",
    "moves_bad",
    "moves_very_bad",
    "rolls_very_lucky",
    "rolls_lucky",
    "rolls_unlucky",
    "rolls_very_unlucky",
)
#: The overall error rate, compared within this many mEMG.
RATE_TOLERANCE = 0.5

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class GnubgStatistics:
    """What gnubg printed for one match: its two players (the .mat's left
    column first) and, per tavlakit column, their two figures; the CPU
    seconds of ``analyse match`` and the ``show analysis`` text."""

    players: tuple[str, str]
    figures: dict[str, tuple[float, float]]
    cpu: float
    settings: str


def parse_statistics(text: str) -> tuple[tuple[str, str], dict[str, tuple[float, float]]]:
    """The players and figures of gnubg's printed ``show statistics match``
    (its columns: a label of 40 characters, then two of 24)."""
    start = text.rindex("\nPlayer ") + 1
    players: tuple[str, str] | None = None
    figures: dict[str, tuple[float, float]] = {}
    section = ""
    for line in text[start:].splitlines():
        # (a money session's lines say "Points" where a match's say "MWC")
        label, cells = line[:40].strip().replace("(Points)", "(MWC)"), (line[41:65], line[65:])
        if players is None:
            players = (cells[0].strip(), cells[1].strip())
        elif label in SECTIONS:
            section = SECTIONS[label]
        elif (section, label) in COLUMNS:
            column = COLUMNS[section, label]
            sign = -1.0 if column in NEGATED else 1.0
            pair = [_NUMBER.search(cell) for cell in cells]
            figures[column] = tuple(sign * float(m.group()) if m else 0.0 for m in pair)  # type: ignore[assignment]
    assert players is not None, text[-2000:]
    return players, figures


def gnubg_statistics(
    gnubg_bin: Path, mat: Path, workdir: Path, commands: Iterable[str] = (), timeout: int = 1800
) -> GnubgStatistics:
    """Run gnubg's default ``analyse match`` on ``mat`` in a process of its own."""
    home = workdir / f"home-{mat.stem}"
    home.mkdir(parents=True, exist_ok=True)
    script, out = home / "analyse.py", home / "out.json"
    script.write_text(SCRIPT, encoding="utf-8")
    run = subprocess.run(
        [str(gnubg_bin), "-t", "-q", "-p", str(script)],
        env=dict(
            os.environ,
            HOME=str(home),
            TAVLAKIT_MAT=str(mat),
            TAVLAKIT_OUT=str(out),
            TAVLAKIT_COMMANDS=json.dumps(list(commands)),
        ),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=home,
    )
    if not out.exists():
        raise AssertionError(f"gnubg did not analyse {mat}:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    players, figures = parse_statistics(run.stdout)
    start = run.stdout.index("Analysis will be performed")
    luck = run.stdout.index("Luck analysis:", start)
    settings = run.stdout[start : run.stdout.index("Noiseless evaluations.", luck) + len("Noiseless evaluations.")]
    return GnubgStatistics(players, figures, json.loads(out.read_text())["cpu"], settings)


@dataclass(frozen=True)
class Record:
    """A record to compare: its path, the match tavlakit read, its rules."""

    path: Path
    match: Any  # tavlakit.Match
    rules: Any  # tavlakit.Rules


def read_record(path: Path) -> Record:
    """The record as tavlakit reads it, with the rules ``stats`` would use;
    ``FILE#N``: its first N games only (a long money session cut short)."""
    import tavlakit as tk
    from tavlakit.replay.walker import default_rules

    name, _, games = str(path).partition("#")
    match = tk.read_match(name)
    if games:
        match.games = match.games[: int(games)]
    rules = default_rules(match)
    if match.tags.get("CubeLimit") == "1":  # a session played without the cube (the raccoon harness's)
        rules = rules.replace(cube=False)
    return Record(path, match, rules)


def gnubg_commands(record: Record) -> list[str]:
    """What gnubg is told before its import so that it analyses the game the
    record holds: the cube off for a session played without it, and a money
    session's Jacoby rule as tavlakit reads it (gnubg's import leaves the
    rule at its default, on; without a cube that default would count no
    gammon at all, where the record's game counts them)."""
    from tavlakit.replay.jacoby import jacoby_used

    commands = [] if record.rules.cube else ["set cube use off"]
    if not record.match.length:
        jacoby, _source = jacoby_used(record.match, record.rules)
        commands.append("set jacoby on" if jacoby else "set jacoby off")
    return commands


def gnubg_runs(
    gnubg_bin: Path, records: list[Record], jobs: int = 1, cache: Path | None = None
) -> list[GnubgStatistics]:
    """gnubg's default analysis of each record (``jobs`` gnubg processes at
    once); ``cache``: a folder keeping each answer by the .mat gnubg read
    (a report run again does not wait for gnubg again)."""
    import tavlakit as tk

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        mats = []
        for i, record in enumerate(records):
            mat = workdir / f"record-{i}.mat"
            tk.write_match(record.match, mat)
            mats.append(mat)

        def one(i: int) -> GnubgStatistics:
            cube = gnubg_commands(records[i])
            saved = None
            if cache is not None:
                digest = hashlib.sha256(mats[i].read_bytes() + json.dumps(cube).encode()).hexdigest()[:24]
                saved = cache / f"{digest}.json"
                if saved.is_file():
                    data = json.loads(saved.read_text(encoding="utf-8"))
                    figures = {k: (v[0], v[1]) for k, v in data["figures"].items()}
                    return GnubgStatistics(tuple(data["players"]), figures, data["cpu"], data["settings"])  # type: ignore[arg-type]
            found = gnubg_statistics(gnubg_bin, mats[i], workdir, cube)
            if saved is not None:
                saved.parent.mkdir(parents=True, exist_ok=True)
                saved.write_text(json.dumps(dataclasses.asdict(found)), encoding="utf-8")
            return found

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            return list(pool.map(one, range(len(records))))


def agreement_rows(record: Record, theirs: GnubgStatistics, ours: Any) -> Iterator[dict[str, Any]]:
    """One row per player: gnubg's figures and tavlakit's (``ours``: the
    match rows of tavlakit's statistics frame), and whether they agree."""
    frame = ours[ours["scope"] == "match"].set_index("side")
    for side in (0, 1):
        mine = frame.loc[side]
        # gnubg keeps a name up to a comma (FIBS's "name,rating")
        assert mine["player"].startswith(theirs.players[side]), (theirs.players, mine["player"])
        row: dict[str, Any] = {
            "record": record.path.name,
            "length": record.match.length,
            "player": mine["player"],
        }
        for column, pair in theirs.figures.items():
            row[f"gnubg_{column}"] = pair[side]
            row[column] = float(mine[column])
        for column in EQUITIES:
            row[f"{column}_ok"] = abs(row[column] - row[f"gnubg_{column}"]) <= max(
                0.05, 0.05 * abs(row[f"gnubg_{column}"])
            )
        row["marks_ok"] = all(abs(row[m] - row[f"gnubg_{m}"]) <= 1 for m in MARKS)
        row["rate_ok"] = abs(row["error_rate_memg"] - row["gnubg_error_rate_memg"]) <= RATE_TOLERANCE
        row["all_ok"] = all(row[f"{c}_ok"] for c in EQUITIES) and row["marks_ok"] and row["rate_ok"]
        yield row


CHECKS = ("checker_error_emg_ok", "cube_error_emg_ok", "luck_emg_ok", "marks_ok", "rate_ok", "all_ok")


def tavlakit_statistics(record: Record, level: str | None = None) -> Any:
    """tavlakit's statistics frame of the record at ``level`` (default: tavlakit's default)."""
    from tavlakit.analysis.statistics import statistics_frame

    if level is None:
        return statistics_frame([record.match], record.rules)
    return statistics_frame([record.match], record.rules, level=level)
