"""The frames of a collection as Dask DataFrames, for more than one machine
(``pip install tavlakit[dask]``).

Each partition is ``files_per_partition`` record files, read and analysed
on a Dask worker (workers need tavlakit installed and the files at the same
paths). The meta (columns and dtypes) is declared, so nothing is computed
until asked; computed, the frames equal the pandas ones row for row (the
row order may differ)::

    from distributed import Client
    client = Client("scheduler:8786")
    plays = tk.analysis.dask.plays_frame(["corpus/"], luck=True)
    plays.groupby("name")["luck"].mean().compute()
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.rules import Rules
from ..evaluation.levels import LevelLike
from ..formats import find_records
from . import frames
from .collection import FileAnalysis, analyse_file, combine, relabel
from .store import STORE_LEVEL, Mapper

#: Files per partition unless told: enough work to hide the scheduling cost.
FILES_PER_PARTITION = 8
#: Seconds to wait for a scheduler to answer.
CONNECT_TIMEOUT = 10


def _chunks(paths: Sequence[str | Path], size: int) -> tuple[list[list[Path]], dict[str, str]]:
    files = find_records(paths)
    labels = frames.Labels()
    shown = {str(p): labels(str(p)) for p in files}
    return [files[i : i + size] for i in range(0, len(files), max(1, size))], shown


def _part(chunk: list[Path], table: str, rules: Rules | None, luck: bool, labels: dict[str, str]) -> pd.DataFrame:
    result = combine(analyse_file(path, rules, luck=luck) for path in chunk)
    # the short labels of the whole collection, not of this partition
    return relabel(getattr(result, table), labels.__getitem__)


def _frame(table: str, paths: Sequence[str | Path], rules: Rules | None, luck: bool, files_per_partition: int) -> Any:
    import dask.dataframe as dd

    chunks, labels = _chunks(paths, files_per_partition)
    meta = getattr(frames.analyse_matches([], luck=False), table)
    if not chunks:
        return dd.from_pandas(meta, npartitions=1)  # type: ignore[no-untyped-call]
    return dd.from_map(
        _part,
        chunks,
        table=table,
        rules=rules,
        luck=luck,
        labels=labels,  # type: ignore[no-untyped-call]
        meta=meta,
        label=f"tavlakit-{table}",
        enforce_metadata=True,
    )


def plays_frame(
    paths: Sequence[str | Path],
    *,
    rules: Rules | None = None,
    luck: bool = True,
    files_per_partition: int = FILES_PER_PARTITION,
) -> Any:
    """:func:`~tavlakit.analysis.frames.plays_frame` of the files and folders
    in ``paths`` as a ``dask.dataframe.DataFrame``."""
    return _frame("plays", paths, rules, luck, files_per_partition)


def games_frame(
    paths: Sequence[str | Path], *, rules: Rules | None = None, files_per_partition: int = FILES_PER_PARTITION
) -> Any:
    """:func:`~tavlakit.analysis.frames.games_frame` of the files and folders
    in ``paths`` as a ``dask.dataframe.DataFrame``."""
    return _frame("games", paths, rules, False, files_per_partition)


def client_mapper(address: str) -> Mapper:
    """For :func:`tavlakit.analysis.store.update`: analyse the files on the
    Dask cluster whose scheduler is at ``address``; the results come back
    in input order and are written here."""

    def run(
        files: Sequence[Path], rules: Rules | None, luck: bool, net: str | None = None, level: LevelLike = STORE_LEVEL
    ) -> Iterator[FileAnalysis]:
        from distributed import Client

        with Client(address, timeout=CONNECT_TIMEOUT) as client:  # type: ignore[no-untyped-call]
            options = {"rules": rules, "luck": luck, "net": net, "statistics": luck, "level": level}
            futures = client.map(analyse_file, list(files), **options, pure=False)
            for future in futures:
                yield future.result()
                future.release()

    return run


__all__ = ["CONNECT_TIMEOUT", "FILES_PER_PARTITION", "client_mapper", "games_frame", "plays_frame"]
