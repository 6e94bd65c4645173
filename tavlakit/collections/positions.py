"""The store's index of positions, and every turn where a position stood
in it (pyarrow; no pandas, so that a look-up starts quickly).

The index (:data:`~tavlakit.collections.manifest.INDEX`) holds the columns
a found turn shows (:data:`FOUND_COLUMNS`) of every partition of the
store, sorted by Position ID in row groups of :data:`GROUP` rows, so that a
look-up reads one small group of one file (Parquet predicate pushdown on
the groups' statistics) however many files the store holds.
:func:`write_index` brings it up to date after a run, reading only the
partitions it does not hold yet. The index names the partitions it
covers; a store whose index does not cover its manifest is searched
partition by partition (:func:`scan`), slower, with the same answer.

A position is looked up by its Position ID, seen by the player on roll,
as the plays frame keeps it (``position_id``: the board before the turn,
seen by the turn's player). ``swapped=True`` also finds the same board
with the other player on roll (:meth:`Position.flip
<tavlakit.engine.position.Position.flip>`); the column ``swapped`` says
which of the two a row stood in.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..engine.matchid import parse_id
from ..engine.position import Position
from ..i18n import _
from .manifest import INDEX, MANIFEST, Store, StoreError, unreadable_partition
from .schema import schema_version

#: The columns of a found turn (those of the plays frame; then ``swapped``).
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
#: The row group size of the store's index, which keeps a look-up small.
GROUP = 1 << 15
#: The index's key of the partitions it covers (in its Parquet metadata), in the manifest's order.
_KEYS = b"tavlakit.keys"


def wanted(position: str | Position, *, swapped: bool = False) -> dict[str, bool]:
    """The Position IDs to look for, each with whether it is the swapped one:
    ``position`` (a :class:`~tavlakit.engine.position.Position`, or a Position ID, ``PosID:MatchID`` or
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


def find_table(folder: str | Path, ids: Sequence[str]) -> Any:
    """Every turn of the store in ``folder`` where one of the Position IDs
    ``ids`` stood before it, in the store's order, as a pyarrow table of
    :data:`FOUND_COLUMNS`: from the index, else from every partition; None
    for a store of no file. Raises :class:`~tavlakit.collections.manifest.StoreError` for a folder that is
    not a store, or one analysed by an older tavlakit (:func:`readable`)."""
    store = readable(folder)
    keys = list(store.manifest["files"])
    if not keys:
        return None
    found = indexed(store.folder, keys, ids)
    if found is not None:
        return found
    import pyarrow as pa

    try:
        return scan(store.folder, keys, ids)
    except (pa.ArrowException, OSError) as exc:
        raise StoreError(unreadable_partition(store, keys, exc)) from None


def find_rows(folder: str | Path, position: str | Position, *, swapped: bool = False) -> list[dict[str, Any]]:
    """:func:`find_table` of ``position`` (:func:`wanted`) as one dict per
    turn, with ``swapped``: what the command prints."""
    ids = wanted(position, swapped=swapped)
    table = find_table(folder, list(ids))
    rows: list[dict[str, Any]] = [] if table is None else table.to_pylist()
    for row in rows:
        row["swapped"] = ids[row["position_id"]]
    return rows


def readable(folder: str | Path) -> Store:
    """The store in ``folder`` to read, its partitions of the columns of
    this tavlakit; else a :class:`~tavlakit.collections.manifest.StoreError` saying what to do."""
    if not (Path(folder) / MANIFEST).is_file():
        raise StoreError(
            _("{folder} is not a tavlakit store (it has no {manifest})").format(folder=folder, manifest=MANIFEST)
        )
    store = Store(folder)
    schemas = store.manifest.get("schemas")
    if schemas is None:  # (a store written before its manifest listed them)
        schemas = schemas_of(store.entries())
    if any(schema != schema_version() for schema in schemas):
        raise StoreError(
            _(
                "{folder} holds an analysis of an older tavlakit, with other columns: "
                "analyse its files into it again (tavlakit analyse FILES --store {folder})"
            ).format(folder=folder)
        )
    return store


def schemas_of(entries: list[dict[str, Any]]) -> list[str]:
    """The column digests the files of a store were analysed with (what the manifest lists)."""
    return sorted({entry.get("schema") or "" for entry in entries})


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
        table = table.sort_by([("position_id", "ascending"), ("file", "ascending")])  # (stable: rows stay in order)
    else:  # a store of no file: no partition to take the columns from
        table = pa.table({"file": pa.array([], pa.int32())})
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


def indexed(folder: Path, keys: Sequence[str], ids: Sequence[str]) -> Any:
    """The found turns of the positions ``ids`` from the store's index, in
    the store's order (a pyarrow table); None when the index does not cover
    exactly the partitions ``keys``. Only the row groups whose statistics
    hold an id are read, and in them (sorted) only each id's run of rows is
    kept: no array is made from Python values, so pyarrow leaves pandas
    unimported."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = folder / INDEX
    try:
        index = pq.ParquetFile(path)
    except (OSError, ValueError):
        return None
    meta = index.schema_arrow.metadata or {}
    if meta.get(_KEYS) != json.dumps(list(keys)).encode():
        return None
    column = index.schema_arrow.get_field_index("position_id")
    groups = []
    for group in range(index.metadata.num_row_groups):
        stats = index.metadata.row_group(group).column(column).statistics
        if stats is None or not stats.has_min_max or any(stats.min <= i <= stats.max for i in ids):
            groups.append(group)
    table = index.read_row_groups(groups, columns=[*FOUND_COLUMNS, "file", "row"])
    order = table.column("position_id").to_pylist()  # (sorted as the index is; unknown boards, None, last)
    known = len(order) - table.column("position_id").null_count
    runs = [(bisect_left(order, i, 0, known), bisect_right(order, i, 0, known)) for i in sorted(set(ids))]
    found = pa.concat_tables([table.slice(start, end - start) for start, end in runs]) if runs else table.slice(0, 0)
    return _in_order(found, ["file", "row"])


def scan(folder: Path, keys: Sequence[str], ids: Sequence[str]) -> Any:
    """The found turns of the positions ``ids``, read from every partition
    (the rows of other positions left in the files), in the store's order."""
    import pyarrow.dataset as ds

    files = [str(_partition(folder, key)) for key in keys]
    filtered = ds.field("position_id").isin(list(ids))
    table = ds.dataset(files, format="parquet").to_table(columns=[*FOUND_COLUMNS, "__fragment_index"], filter=filtered)
    return _in_order(table, ["__fragment_index"])  # (a partition's rows come in their order)


def _in_order(table: Any, by: list[str]) -> Any:
    """The rows in the store's order, by the columns ``by`` (a stable sort), without them."""
    return table.sort_by([(column, "ascending") for column in by]).drop_columns(by)


__all__ = [
    "FOUND_COLUMNS",
    "GROUP",
    "find_rows",
    "find_table",
    "indexed",
    "readable",
    "scan",
    "schemas_of",
    "wanted",
    "write_index",
]
