"""Frames built piece by piece from rows, with fixed column types.

``columns`` maps each column's name to its kind (``"string"``, ``"Int64"``,
``"boolean"``, ``"float64"``), as :data:`~tavlakit.collections.schema.PLAY_COLUMNS`
does; every frame made here has exactly those columns with those dtypes,
so batches concatenate and Parquet files written in parts share a schema.

>>> rows_frame([{"name": "a", "n": 1}, {"name": "b"}], {"name": "string", "n": "Int64"}).dtypes.astype(str).tolist()
['string', 'Int64']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd


def rows_frame(rows: list[dict[str, Any]], columns: dict[str, str]) -> pd.DataFrame:
    """The frame of rows (dicts of column name to value)."""
    return values_frame(column_values(rows, columns), columns)


def column_values(rows: list[dict[str, Any]], columns: dict[str, str]) -> dict[str, list[Any]]:
    """The rows' values column by column (a row may leave a column out: missing)."""
    return {name: [row.get(name) for row in rows] for name in columns}


def values_frame(values: dict[str, list[Any]], columns: dict[str, str]) -> pd.DataFrame:
    """The frame of values given column by column."""
    builder = Builder(columns)
    builder.add(values)
    return builder.frame()


class Builder:
    """A frame put together piece by piece (a file's or a match's rows).

    Rows are gathered as Python values up to :attr:`BATCH` rows, then made
    compact (Arrow arrays), so a collection never sits in memory as Python
    objects; :meth:`frame` builds each column straight into its pandas
    array (what ``pd.array`` would build, without its type inference): the
    pieces become the chunks of the string columns, the others are copied
    into numpy arrays.
    """

    BATCH = 8192

    def __init__(self, columns: dict[str, str]) -> None:
        self.columns = columns
        self.first = next(iter(columns))
        """The first column: its pending values count the rows of the batch."""
        self.pieces: dict[str, list[Any]] = {name: [] for name in columns}
        self.pending: dict[str, list[Any]] = {name: [] for name in columns}

    def add(self, values: dict[str, list[Any]]) -> None:
        """Add one piece: its rows' values column by column."""
        for name in self.columns:
            self.pending[name].extend(values[name])
        if len(self.pending[self.first]) >= self.BATCH:
            self._compact()

    def _compact(self) -> None:
        for name, kind in self.columns.items():
            self.pieces[name].append(_piece(self.pending[name], kind))
            self.pending[name] = []

    def frame(self) -> pd.DataFrame:
        """The frame of every row added (the builder is used up)."""
        if self.pending[self.first] or not self.pieces[self.first]:
            self._compact()
        data = {name: _array(self.pieces.pop(name), kind) for name, kind in self.columns.items()}
        _pa().default_memory_pool().release_unused()  # the pieces copied into numpy arrays
        return pd.DataFrame(data, copy=False)


#: The Arrow type of the pieces of each kind of column.
_ARROW = {"string": "large_string", "float64": "float64", "Int64": "int64", "boolean": "bool_"}


def _piece(values: list[Any], kind: str) -> Any:
    """One piece of a column, compact: an Arrow array (None: missing)."""
    return _pa().array(values, getattr(_pa(), _ARROW[kind])())


def _array(pieces: list[Any], kind: str) -> Any:
    """The pandas array of a column's pieces, end to end."""
    chunks = _pa().chunked_array(pieces, getattr(_pa(), _ARROW[kind])())
    if kind == "string":  # the pieces become the chunks: no copy
        return pd.arrays.ArrowStringArray(chunks)
    if kind == "float64":  # missing: NaN
        return chunks.to_numpy()
    dtype: Any = pd.Int64Dtype() if kind == "Int64" else pd.BooleanDtype()  # (not in pandas-stubs)
    return dtype.__from_arrow__(chunks)  # values and missing mask, as pandas reads Arrow


def _pa() -> Any:
    import pyarrow  # pandas' "string" columns are pyarrow arrays

    return pyarrow


class Labels:
    """Short unique labels for the matches of one run: the file name, with
    parent folders in front while another file already has that label."""

    def __init__(self) -> None:
        self.given: dict[str, str] = {}
        self.taken: set[str] = set()

    def __call__(self, path: str) -> str:
        if path in self.given:
            return self.given[path]
        parts = Path(path).parts or (path,)
        label = path
        for depth in range(1, len(parts) + 1):
            label = "/".join(parts[-depth:])
            if label not in self.taken:
                break
        self.given[path] = label
        self.taken.add(label)
        return label


__all__ = ["Labels", "Builder", "column_values", "rows_frame", "values_frame"]
