"""Every turn where a position stood: in a plays frame, or in a store.

A store keeps an index of its positions (:data:`INDEX`): the columns a
found turn shows, of every partition, sorted by Position ID in row groups
of :data:`GROUP` rows, so that a look-up reads one small group of one
file (Parquet predicate pushdown on the groups' statistics) however many
files the store holds. :func:`write_index` brings it up to date after a
run, reading only the partitions it does not hold yet; the index names
the partitions it covers, and a store whose index does not cover its
manifest is searched partition by partition (:func:`scan`), slower, with
the same answer.

A position is looked up by its Position ID, seen by the player on roll,
as the plays frame keeps it (``position_id``: the board before the turn,
seen by the turn's player). ``swapped=True`` also finds the same board
with the other player on roll (:meth:`Position.flip
<tavlakit.engine.position.Position.flip>`); the column ``swapped`` says
which of the two a row stood in.

>>> import tavlakit as tk
>>> from tavlakit._data import data_dir
>>> plays = tk.analysis.analyse(data_dir("samples") / "tavla-t000.mat", luck=False).plays
>>> found = find_plays(plays, "4HPwATDgc/ABMA")  # the starting position
>>> len(found), found["turn"].unique().tolist()
(6, [0])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..collections.manifest import INDEX
from ..engine.matchid import parse_id
from ..engine.position import Position

#: The columns of a found turn (those of the plays frame, then ``swapped``).
FOUND_COLUMNS = (
    "path",
    "game",
    "turn",
    "number",
    "player",
    "name",
    "kind",
    "dice",
    "play",
    "cube_action",
    "error",
    "position_id",
)


def wanted(position: str | Position, swapped: bool = False) -> dict[str, bool]:
    """The Position IDs to look for, each with whether it is the swapped one:
    ``position`` (a :class:`Position`, or a Position ID, ``PosID:MatchID`` or
    an XGID: a ``ValueError`` says what is wrong with it) and, with
    ``swapped``, the same board with the other player on roll.

    >>> wanted("4HPwATDgc/ABMA", swapped=True)
    {'4HPwATDgc/ABMA': False}
    >>> wanted("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", swapped=True)
    {'4HPwATDgc/ABMA': False}
    """
    pos = position if isinstance(position, Position) else parse_id(position)[0]
    ids = {pos.position_id(): False}
    if swapped:
        ids.setdefault(pos.flip().position_id(), True)
    return ids


def find_plays(plays: pd.DataFrame, position: str | Position, swapped: bool = False) -> pd.DataFrame:
    """The rows of a plays frame where ``position`` stood before the turn
    (:func:`wanted`), in the frame's order, with :data:`FOUND_COLUMNS` and
    ``swapped``."""
    ids = wanted(position, swapped)
    found = plays.loc[plays["position_id"].isin(list(ids)), list(FOUND_COLUMNS)].reset_index(drop=True)
    return found.assign(swapped=found["position_id"].map(ids).astype("boolean"))


#: The row group size of the store's index, which keeps a look-up small.
GROUP = 1 << 15
#: The index's key of the partitions it covers (in its Parquet metadata), in the manifest's order.
_KEYS = b"tavlakit.keys"


def _partition(folder: Path, key: str) -> Path:
    return folder / "plays" / f"{key}.parquet"


def write_index(folder: Path, keys: Sequence[str], write: Any) -> None:
    """Bring the store's index up to date with the partitions ``keys`` (the
    manifest's, in order): the rows of the partitions the old index covers
    are kept, the others read; ``write(path, table, rows)`` writes the new
    one (atomically, in row groups of ``rows``). Each row carries ``file``,
    its partition's place in ``keys``, and ``row``, its place in the partition."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    place = {key: index for index, key in enumerate(keys)}
    old, covered = _read_old(folder / INDEX)
    parts = []
    if old is not None:
        moved = pa.array([place.get(key, -1) for key in covered], pa.int32())
        files = pc.take(moved, old["file"])
        kept = old.set_column(old.schema.get_field_index("file"), "file", files).filter(pc.greater_equal(files, 0))
        parts.append(kept)
    known = set(covered)
    for key in keys:
        if key not in known:
            table = pq.read_table(_partition(folder, key), columns=list(FOUND_COLUMNS))
            rows = table.num_rows
            table = table.append_column("file", pa.array([place[key]] * rows, pa.int32()))
            parts.append(table.append_column("row", pa.array(range(rows), pa.int32())))
    if parts:
        table = pa.concat_tables([p.select([*FOUND_COLUMNS, "file", "row"]) for p in parts])
    else:
        table = pa.table({"file": pa.array([], pa.int32())})  # (a store of no file: no partition to take columns from)
    if parts:
        table = table.sort_by([("position_id", "ascending"), ("file", "ascending")])
    meta = dict(table.schema.metadata or {})
    meta[_KEYS] = json.dumps(list(keys)).encode()
    write(folder / INDEX, table.replace_schema_metadata(meta), GROUP)


def _read_old(path: Path) -> tuple[Any, list[str]]:
    """The old index and the keys it covers (None and none: no index, or one that cannot be read)."""
    import pyarrow.parquet as pq

    if not path.is_file():
        return None, []
    try:
        table = pq.read_table(path)
        return table, json.loads(table.schema.metadata[_KEYS])
    except (OSError, ValueError, KeyError):
        return None, []


def indexed(folder: Path, keys: Sequence[str], ids: Sequence[str]) -> pd.DataFrame | None:
    """The found turns of the positions ``ids`` from the store's index, in
    the store's order; None when the index does not cover exactly the
    partitions ``keys``."""
    import pyarrow.parquet as pq

    path = folder / INDEX
    try:
        index = pq.ParquetFile(path)
    except (OSError, ValueError):
        return None
    meta = index.schema_arrow.metadata or {}
    if meta.get(_KEYS) != json.dumps(list(keys)).encode():
        return None
    table = pq.read_table(path, columns=[*FOUND_COLUMNS, "file", "row"], filters=[("position_id", "in", list(ids))])
    return _in_order(table, ["file", "row"])


def scan(folder: Path, keys: Sequence[str], ids: Sequence[str]) -> pd.DataFrame:
    """The found turns of the positions ``ids``, read from every partition
    (the rows of other positions left in the files), in the store's order."""
    import pyarrow.dataset as ds

    files = [str(_partition(folder, key)) for key in keys]
    filtered = ds.field("position_id").isin(list(ids))
    table = ds.dataset(files, format="parquet").to_table(columns=[*FOUND_COLUMNS, "__fragment_index"], filter=filtered)
    return _in_order(table, ["__fragment_index"])  # (a partition's rows come in their order)


def _in_order(table: Any, by: list[str]) -> pd.DataFrame:
    """The rows in the store's order, by the columns ``by`` (a stable sort),
    without them."""
    frame: pd.DataFrame = table.sort_by([(column, "ascending") for column in by]).drop_columns(by).to_pandas()
    return frame


__all__ = ["FOUND_COLUMNS", "GROUP", "INDEX", "find_plays", "indexed", "scan", "wanted", "write_index"]
