"""An incremental Parquet store of a collection's analysis.

A store is a folder::

    tavlakit-store.json   the manifest: which file partitions make the store (written last)
    plays/<key>.parquet   one partition per record file (the plays frame's rows)
    games/<key>.parquet
    meta/<key>.json       that file's entry: content hash, size, rules, level, problems, fingerprint,
                          the sizes of its partitions
    players/<key>.parquet players_frame's rows of that file (scope "match"; overall: open_store)
    statistics/<key>.parquet  gnubg's statistics of that file's match (scope "match"), at the store's level
    decisions/<key>.parquet   its judged turns (the decisions frame's rows)
    files.parquet         the files table, one row per record file
    positions.parquet     every turn's position and what was played there, sorted by Position ID
                          (the index :func:`find` reads; :mod:`.positions`)
    .lock                 held by the run writing the store

:func:`update` analyses only the files that are new or changed (by content
hash) or whose tavlakit version, columns (:mod:`tavlakit.collections.schema`), rules,
luck setting, weights or analysis level differ; the files of the store that are not among its
inputs keep their rows unless it is asked to drop them (``prune``). An
input that does not exist is an error before anything is written. Every file is written under
a temporary name and renamed, partitions before the manifest, so a run
killed at any moment leaves the previous manifest and whole partitions:
:func:`open_store` reads the store as it was, and the next run reuses the
partitions the killed one finished. Read the folder directly (pandas,
Dask, DuckDB) after a run that ended; :func:`open_store` always reads the
last one that ended.

One run writes at a time (an exclusive lock on ``.lock``, held from
reading the manifest to renaming the new one); a write that fails (a full
disk, a read-only folder) leaves the store as it was. Each entry records
the sizes of its partitions, and the manifest those of the files table
and the index: a damaged one is named with its record file, and written
again when that file is given (:func:`check` reads every partition whole).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from .._version import __version__
from ..collections.manifest import (
    FORMAT,
    INDEX,
    JUDGED,
    MANIFEST,
    TABLE,
    TABLES,
    Staged,
    Store,
    StoreError,
    StoreWriteError,
    Summary,
    Task,
    entry_unread,
    json_writer,
    leftovers,
    locked,
    nothing_to_do,
    plan,
    problem,
    require_existing,
    sweep,
    sync_folder,
    unreadable_partition,
    write_atomic,
    write_json,
    writing,
)
from ..collections.parallel import Progress, counted, pmap
from ..collections.positions import find_table, schemas_of, write_index
from ..collections.schema import schema_version
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.levels import DEFAULT_LEVEL, Level, LevelLike, level as as_level
from ..evaluation.net import net_digest, net_in_use, use_net
from ..formats import find_records
from ..i18n import _
from ..record.problem import Problem
from ..replay.fingerprint import duplicate_problem, duplicates
from . import frames
from .collection import FileAnalysis, analyse_file, assemble
from .decisions import DecisionRow, decisions_from_rows
from .frames import Analysis, match_players
from .positions import find_plays, wanted
from .statistics import (
    STATISTICS_FRAME_COLUMNS,
    PlayerStatistics,
    PlayerTotals,
    Rates,
    UnjudgedTurn,
    statistics_from_frame,
)

#: Runs the analysis of the files to do elsewhere, yielding results in their order:
#: (files, rules, luck, net weights, analysis level).
Mapper = Callable[[Sequence[Path], "Rules | None", bool, "str | None", Level], Iterator[FileAnalysis]]
#: The level a store judges its matches at unless asked: world class, gnubg's own default analysis,
#: as every other command; ``expert`` is about forty times as fast (a thousand matches' CPU hours at
#: each: benchmarks/README.md; docs/analysis-levels.md).
STORE_LEVEL = DEFAULT_LEVEL


def _parquet_writer(frame: pd.DataFrame) -> Callable[[Path], None]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    return lambda tmp: pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)


def _write_parquet(path: Path, frame: pd.DataFrame) -> None:
    write_atomic(path, _parquet_writer(frame))


def _stage_table(staged: Staged, path: Path, table: Any, rows: int) -> None:
    import pyarrow.parquet as pq

    staged.write(path, lambda tmp: pq.write_table(table, tmp, row_group_size=rows))


def update(
    folder: str | Path,
    paths: Sequence[str | Path],
    rules: Rules | None = None,
    *,
    luck: bool = True,
    jobs: int | None = None,
    mapper: Mapper | None = None,
    progress: Progress | None = None,
    prune: bool = False,
    net: str | Path | None = None,
    level: LevelLike = STORE_LEVEL,
    waiting: Callable[[], None] | None = None,
) -> Summary:
    """Bring the store in ``folder`` up to date with the record files in
    ``paths`` (files or folders); see the module's docstring. The files are
    analysed on ``jobs`` processes (``None``: every core), each writing its
    own partitions, or by ``mapper`` (a Dask cluster:
    :func:`.dask.client_mapper`), whose results are written here.
    ``progress(done, total)`` is told as the files are done. ``prune``
    drops the files of the store that are not among ``paths``; else they
    are kept. ``net``: the weights to work the luck out with from now on
    (:func:`~tavlakit.evaluation.net.use_net`; default the net in use; a
    Dask worker needs the file at the same path); a file analysed with
    other weights is analysed again. With the luck, gnubg's statistics of
    each match and its judged turns are stored too, at ``level`` (default
    :data:`STORE_LEVEL`); a file judged at another level is analysed again.
    One run writes at a time: another one's waits for it to end
    (``waiting()`` is told first), then reads the store as that one left it.
    Raises :class:`~tavlakit.collections.manifest.StoreError` for a folder
    that is not a store it may write, or an input that does not exist,
    before writing anything; :class:`~tavlakit.collections.manifest.StoreWriteError`
    when a write fails (a full disk, a read-only folder): the store then reads as
    before the run, and the error says which files were analysed."""
    files = find_records(paths)
    require_existing(files)
    Store(folder)  # (a folder that is not a store: refused before anything is written)
    try:
        with writing(Path(folder)):
            Path(folder).mkdir(parents=True, exist_ok=True)
        with locked(Path(folder), waiting):
            store = Store(folder)  # the manifest as it is now, another writer's run ended
            if net is not None:
                use_net(net)
            weights, digest = net_in_use(), net_digest() if luck else None
            judged = as_level(level)
            keys, todo, summary = plan(
                store, files, rules, luck=luck, prune=prune, net=digest, level=judged.key if luck else None
            )
            if nothing_to_do(store, keys, todo):
                return summary
            try:
                entries = _write(
                    store, keys, todo, summary, mapper, progress, jobs, rules, luck, weights, digest, judged
                )
            except StoreWriteError as exc:
                exc.analysed = list(summary.analysed)
                exc.pending = [str(t.path) for t in todo[len(summary.analysed) :]]
                raise
    except StoreWriteError as exc:
        if exc.pending is None:  # (before the run had a plan)
            exc.pending = [str(path) for path in files]
        raise
    twins = duplicates((e["path"], e["fingerprint"]) for e in entries)
    summary.problems.extend(duplicate_problem(dup, first) for dup, first in twins.items())
    summary.problems.extend(_mixed_levels(Path(folder), entries))
    return summary


def _mixed_levels(folder: Path, entries: list[dict[str, Any]]) -> list[Problem]:
    """A warning when the store's judged files are judged at more than one
    level (files kept from an earlier run at another level): their
    statistics do not compare."""
    counts = Counter(e.get("level") for e in entries if e.get("judged"))
    if len(counts) < 2:
        return []
    levels = ", ".join(f"{name} ({count})" for name, count in sorted(counts.items(), key=lambda kv: str(kv[0])))
    said = _(
        "its files are judged at different levels: {levels} (the files table's level column); "
        "give them all with one --level to compare their statistics"
    ).format(levels=levels)
    return [Problem("mixed-levels", "warning", said, file=str(folder))]


def _index(store: Store, keys: list[str], staged: Staged) -> None:
    """Write the index of positions of ``keys`` (staged); a partition that
    cannot be read (damaged, its size as written) is a :class:`StoreError`."""
    import pyarrow as pa

    try:
        write_index(store.folder, keys, partial(_stage_table, staged))
    except pa.ArrowException as exc:
        raise StoreError(unreadable_partition(store, keys, exc)) from None


def _write(
    store: Store,
    keys: list[str],
    todo: list[Task],
    summary: Summary,
    mapper: Mapper | None,
    progress: Progress | None,
    jobs: int | None,
    rules: Rules | None,
    luck: bool,
    weights: str | None,
    digest: str | None,
    judged: Level,
) -> list[dict[str, Any]]:
    """Analyse the files ``todo`` into partitions, then write the files
    table, the index and the manifest of ``keys`` (all under temporary
    names, renamed together: the manifest last); returns the entries."""
    with writing(store.folder):
        if not (store.folder / MANIFEST).exists():
            write_json(store.folder / MANIFEST, store.manifest)
        for table in (*TABLES, *JUDGED, "players", "meta"):
            (store.folder / table).mkdir(exist_ok=True)
    if mapper is None:
        metas: Iterator[dict[str, Any]] = pmap(
            _store_file,
            todo,
            jobs,
            progress,
            folder=store.folder,
            rules=rules,
            luck=luck,
            net=weights,
            digest=digest,
            level=judged,
        )
    else:
        results = mapper([t.path for t in todo], rules, luck, weights, judged)
        metas = (_write_part(store.folder, r, t, rules, luck, digest) for t, r in zip(todo, results))
        if progress is not None:
            metas = counted(metas, len(todo), progress)
    for meta in metas:
        summary.analysed.append(meta["path"])
        summary.unread.extend([meta["path"]] if entry_unread(meta) else [])
        own = [problem(p) for p in meta["problems"] if p["severity"] == "error"]
        summary.problems.extend(own)
        if meta["errors"] > len(own):
            summary.game_errors[meta["path"]] = meta["errors"] - len(own)
    store.manifest = {"format": FORMAT, "tavlakit": __version__, "files": keys}
    entries = store.entries()
    store.manifest["schemas"] = schemas_of(entries)  # (what find checks, without reading every entry)
    store.manifest["index"] = INDEX
    with writing(store.folder), Staged() as staged:
        staged.write(store.folder / TABLE, _parquet_writer(files_table(entries)))
        _index(store, keys, staged)
        store.manifest["sizes"] = staged.sizes()
        staged.write(store.folder / MANIFEST, json_writer(store.manifest))
        staged.commit()
        sync_folder(store.folder)
    sweep(store, set(keys))
    return entries


def _store_file(
    task: Task,
    folder: Path,
    rules: Rules | None,
    luck: bool,
    net: str | None = None,
    digest: str | None = None,
    level: Level = STORE_LEVEL,
) -> dict[str, Any]:
    """Analyse one file and write its partitions (in a worker process)."""
    result = analyse_file(task.path, rules, luck=luck, statistics=luck, level=level, net=net)
    return _write_part(folder, result, task, rules, luck, digest)


def _write_part(
    folder: Path, result: FileAnalysis, task: Task, rules: Rules | None, luck: bool, net: str | None = None
) -> dict[str, Any]:
    """Write a file's partitions, its entry last (``net``: the digest of the
    weights used, None for gnubg-nn's own); returns the entry."""
    key = task.key
    parts = {"plays": result.plays, "games": result.games}
    players = match_players(result.plays, result.games)
    if not players.empty:
        parts["players"] = _typed(players)
    tally = result.tally
    if tally is not None:
        rows = pd.DataFrame([row.record() for row in tally.rows()], columns=list(STATISTICS_FRAME_COLUMNS))
        parts["statistics"] = rows.astype(_STATISTICS_TYPES)
        parts["decisions"] = decisions_from_rows(tally.decisions).astype(_DECISION_TYPES)
    with writing(folder):
        for table, frame in parts.items():
            _write_parquet(folder / table / f"{key}.parquet", frame)
        sizes = {table: (folder / table / f"{key}.parquet").stat().st_size for table in parts}
    meta = {
        "key": key,
        "path": result.source,
        "sha256": task.sha256,
        "size": task.size,
        "tavlakit": __version__,
        "schema": schema_version(),
        "rules": result.rules,
        "rules_name": result.rules_name,
        "rules_option": repr(rules) if rules else None,
        "luck": luck,
        "net": net,
        "level": tally.level if tally is not None else None,
        "judged": tally is not None,
        "games": len(result.games),
        "plays": len(result.plays),
        "errors": result.errors,
        "warnings": result.warnings,
        "fingerprint": result.fingerprint,
        "problems": [p.to_dict() for p in result.problems],
        "sizes": sizes,
    }
    with writing(folder):
        write_atomic(folder / "meta" / f"{key}.json", json_writer(meta))
    return meta


def _dtypes(annotations: dict[str, Any]) -> dict[str, str]:
    """Column types from type annotations (written as text), nullable where
    a value may be missing: one Parquet schema for every file's partition,
    whatever it holds (a Tavla match has no cube decisions)."""
    out = {}
    for name, kind in annotations.items():
        text = str(kind)
        out[name] = (
            "boolean" if "bool" in text else "Int64" if "int" in text else "float64" if "float" in text else "string"
        )
    return out


_STATISTICS_TYPES = _dtypes(
    {
        f.name: f.type
        for cls in (PlayerStatistics, PlayerTotals, Rates)
        for f in dataclasses.fields(cls)
        if f.name not in ("totals", "rates")
    }
)
_DECISION_TYPES = _dtypes(DecisionRow.__annotations__)


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """The same column types in every file's players partition (one Parquet
    schema): object columns of whole numbers become Int64, other object
    and str columns string, bool boolean, int Int64; floats stay float64."""
    out = frame.reset_index(drop=True)
    for column in out.columns:
        values = out[column]
        if values.dtype == object:
            integers = pd.api.types.infer_dtype(values, skipna=True) == "integer"
            out[column] = values.astype("Int64" if integers else "string")
        elif pd.api.types.is_string_dtype(values):  # pandas' default str type (missing: NaN)
            out[column] = values.astype("string")
        elif pd.api.types.is_bool_dtype(values):
            out[column] = values.astype("boolean")
        elif pd.api.types.is_integer_dtype(values):
            out[column] = values.astype("Int64")
    return out


def files_table(entries: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per record file: what was analysed, how, and what was wrong
    (``problem``: the first error of the file itself, located)."""
    twins = duplicates((e["path"], e["fingerprint"]) for e in entries)
    rows = [
        {
            "path": e["path"],
            "sha256": e["sha256"],
            "size": e["size"],
            "tavlakit": e["tavlakit"],
            "rules": e["rules_name"],
            "luck": e["luck"],
            "level": e.get("level"),
            "games": e["games"],
            "plays": e["plays"],
            "errors": e["errors"],
            "warnings": e["warnings"],
            "problem": next((str(problem(p)) for p in e["problems"] if p["severity"] == "error"), None),
            "fingerprint": e["fingerprint"],
            "duplicate_of": twins.get(e["path"]),
        }
        for e in entries
    ]
    columns = {
        "path": "string",
        "sha256": "string",
        "size": "Int64",
        "tavlakit": "string",
        "rules": "string",
        "luck": "boolean",
        "level": "string",
        "games": "Int64",
        "plays": "Int64",
        "errors": "Int64",
        "warnings": "Int64",
        "problem": "string",
        "fingerprint": "string",
        "duplicate_of": "string",
    }
    return pd.DataFrame(
        {
            c: pd.array([r[c] for r in rows], dtype=t)  # type: ignore[call-overload]
            for c, t in columns.items()
        }
    )


def store_analysis(store: Store, *, dedupe: bool = False) -> Analysis:
    """The store's frames, as :func:`~tavlakit.analysis.collection.analyse` of its files gives them."""
    import pyarrow as pa

    entries = store.entries()
    tables = {t: [_read(store, t, e) for e in entries] for t in TABLES}
    empty = frames.analyse_matches([], luck=False)
    plays, games = ((pa.concat_tables(tables[t]).to_pandas() if tables[t] else getattr(empty, t)) for t in TABLES)
    files = [(e["path"], e["fingerprint"], [problem(p) for p in e["problems"]]) for e in entries]
    result = assemble(plays, games, files, dedupe=dedupe)
    kept = set(result.games["path"]) | {e["path"] for e in entries if not e["games"]}  # (dedupe: twins left out)
    judged = [e for e in entries if e.get("judged") and e["path"] in kept]
    if judged:
        _set_judged(store, result, judged)
    return result


def _read(store: Store, table: str, entry: dict[str, Any]) -> Any:
    """A partition of a file, as a pyarrow table; a :class:`StoreError` names a damaged one and its record file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(store.folder / table / f"{entry['key']}.parquet")
    except (pa.ArrowException, OSError) as exc:
        what = _("{name} is damaged ({error})").format(
            name=f"{table}/{entry['key']}.parquet", error=str(exc).splitlines()[0]
        )
        raise StoreError(store.damaged(entry["key"], what, inside=True)) from None


def _set_judged(store: Store, result: Analysis, entries: list[dict[str, Any]]) -> None:
    """Give the analysis the statistics and decisions frames of the entries
    that hold them (the level of their judging: the ``level`` column, and
    ``attrs["level"]`` when they all share it)."""
    import pyarrow as pa

    statistics, decisions = (pa.concat_tables([_read(store, t, e) for e in entries]).to_pandas() for t in JUDGED)
    levels = {e.get("level") for e in entries}
    level = levels.pop() if len(levels) == 1 else None
    labels = dict(zip(result.games["path"], result.games["match"]))
    decisions["match"] = decisions["path"].map(labels)
    unjudged = [
        UnjudgedTurn(path=r.path, player=r.name, game=int(r.game), turn=int(r.turn), kind=r.kind, reason=r.unjudged)
        for r in decisions[decisions["unjudged"].notna()].itertuples()
    ]
    decisions = decisions[list(decisions_from_rows([]).columns)]
    decisions.attrs["level"] = level
    result.set_judged(statistics_from_frame(statistics, unjudged, level), decisions)


def open_store(folder: str | Path, *, dedupe: bool = False) -> Analysis:
    """The :class:`~tavlakit.analysis.frames.Analysis` of a store: the same
    frames as ``analyse`` of its files (``dedupe``: matches stored twice
    once). A run that ends while it reads (its manifest replaced, the
    partitions it no longer names removed) makes it read the store again,
    as that run left it."""
    if not (Path(folder) / MANIFEST).is_file():
        raise StoreError(
            _("{folder} is not a tavlakit store (it has no {manifest})").format(folder=folder, manifest=MANIFEST)
        )
    store = Store(folder)
    while True:
        try:
            return store_analysis(store, dedupe=dedupe)
        except StoreError:
            now = Store(folder)
            if now.manifest == store.manifest:
                raise  # (damaged, not replaced)
            store = now


def check(folder: str | Path) -> list[Problem]:
    """Every damaged partition of the store in ``folder`` (each read whole:
    missing, truncated, unreadable; code ``damaged-partition``, naming the
    record file to analyse again) and every partition or temporary file no
    manifest names (``orphaned-partition``: left by a run that did not
    end; the next run reuses or removes it). Raises
    :class:`~tavlakit.collections.manifest.StoreError` for a folder that is not a store."""
    if not (Path(folder) / MANIFEST).is_file():
        raise StoreError(
            _("{folder} is not a tavlakit store (it has no {manifest})").format(folder=folder, manifest=MANIFEST)
        )
    store = Store(folder)
    found = []
    for key in store.manifest["files"]:
        entry = store.meta(key)
        what, inside = store.damage(key, entry), False
        if what is None and entry is not None:
            what = _unreadable(store, [f"{t}/{key}.parquet" for t in entry.get("sizes") or TABLES])
            inside = True
        if what is not None:
            said = store.repair(key, what, inside=inside)
            found.append(Problem("damaged-partition", "error", said, file=str(store.folder)))
    tables = [TABLE, *([INDEX] if store.manifest.get("index") else [])]
    what = _unreadable(store, tables)
    if what is not None:
        advice = _("remove it: the next analyse run writes it again")
        found.append(Problem("damaged-partition", "error", f"{what}: {advice}", file=str(store.folder)))
    said = _("no manifest names it (left by a run that did not end: the next run reuses or removes it)")
    found += [
        Problem("orphaned-partition", "warning", said, file=str(path))
        for path in leftovers(store, set(store.manifest["files"]))
    ]
    return found


def _unreadable(store: Store, names: Sequence[str]) -> str | None:
    """What is wrong with the first of the store's Parquet files ``names`` that cannot be read whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for name in names:
        try:
            pq.read_table(store.folder / name)
        except (pa.ArrowException, OSError) as exc:
            return _("{name} is damaged ({error})").format(name=name, error=str(exc).splitlines()[0])
    return None


def find(folder: str | Path, position: str | Position, *, swapped: bool = False) -> pd.DataFrame:
    """Every turn of the store in ``folder`` where ``position`` stood
    before the turn, and with ``swapped`` the same board with the other
    player on roll: the rows :func:`~tavlakit.analysis.positions.find_plays` finds in the
    plays frame of :func:`open_store`, read from the store's index of
    positions (one small row group of one file; a store whose index is
    not up to date: from its partitions, slower:
    :mod:`tavlakit.collections.positions`). ``position``: a
    :class:`~tavlakit.engine.position.Position`, Position ID,
    ``PosID:MatchID`` or XGID (a ``ValueError`` says what is wrong with it).
    Raises :class:`~tavlakit.collections.manifest.StoreError` for a folder
    that is not a store, or one analysed by an older tavlakit (whose columns
    differ: analyse it again)."""
    ids = wanted(position, swapped=swapped)
    table = find_table(folder, list(ids))
    if table is None or not table.num_rows:  # (the plays frame's column types, as open_store gives them)
        return find_plays(frames.analyse_matches([], luck=False).plays, position, swapped=swapped)
    found: pd.DataFrame = table.to_pandas()
    return found.assign(swapped=found["position_id"].map(ids).astype("boolean"))


def files_frame(folder: str | Path) -> pd.DataFrame:
    """The store's files table (see :func:`files_table`)."""
    return files_table(Store(folder).entries())


__all__ = [
    "FORMAT",
    "MANIFEST",
    "STORE_LEVEL",
    "Mapper",
    "Store",
    "StoreError",
    "Summary",
    "check",
    "files_frame",
    "files_table",
    "find",
    "open_store",
    "store_analysis",
    "update",
]
