"""An incremental Parquet store of a collection's analysis.

A store is a folder::

    tavlakit-store.json   the manifest: which file partitions make the store (written last)
    plays/<key>.parquet   one partition per record file (the plays frame's rows)
    games/<key>.parquet
    meta/<key>.json       that file's entry: content hash, size, rules, problems, fingerprint
    players.parquet       players_frame of the whole store
    files.parquet         the files table, one row per record file

:func:`update` analyses only the files that are new or changed (by content
hash) or whose tavlakit version, rules or luck setting differ, and drops
the files that are no longer among its inputs. Every file is written under
a temporary name and renamed, partitions before the manifest, so a run
killed at any moment leaves the previous manifest and whole partitions:
:func:`open_store` reads the store as it was, and the next run reuses the
partitions the killed one finished. Read the folder directly (pandas,
Dask, DuckDB) after a run that ended; :func:`open_store` always reads the
last one that ended.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .. import __version__
from ..fingerprint import duplicate_problem, duplicates
from ..formats import find_records
from ..i18n import _
from ..parallel import pmap
from ..problem import Problem
from ..rules import Rules
from . import frames
from .collection import FileAnalysis, analyse_file, assemble
from .frames import Analysis, players_frame

MANIFEST = "tavlakit-store.json"
#: The layout version; a store with a larger one was written by a newer tavlakit.
FORMAT = 1
TABLES = ("plays", "games")

#: Runs the analysis of the files to do elsewhere, yielding results in their order.
Mapper = Callable[[Sequence[Path], "Rules | None", bool], Iterator[FileAnalysis]]


class StoreError(ValueError):
    """The folder is not a store this tavlakit can write; nothing was changed."""


@dataclass
class Summary:
    """What :func:`update` did."""

    files: int = 0
    analysed: list[str] = field(default_factory=list)
    reused: int = 0
    dropped: int = 0
    problems: list[Problem] = field(default_factory=list)
    """File problems of the files analysed now, and duplicate-match notes."""
    game_errors: dict[str, int] = field(default_factory=dict)
    """Files analysed now whose games have errors, and how many."""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text)[:3])


def _write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """``write`` to a hidden temporary name beside ``path``, then rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    write(tmp)
    os.replace(tmp, path)


def _write_json(path: Path, data: Any) -> None:
    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())

    _write_atomic(path, write)


def _write_parquet(path: Path, frame: pd.DataFrame) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    _write_atomic(path, lambda tmp: pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp))


class Store:
    """An open store folder (see the module's docstring)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.manifest = self._read_manifest()

    def _read_manifest(self) -> dict[str, Any]:
        path = self.folder / MANIFEST
        if not path.is_file():
            if self.folder.is_dir() and any(self.folder.iterdir()):
                raise StoreError(_("{folder} is not a tavlakit store (it has no {manifest}); nothing was written "
                                   "to it").format(folder=self.folder, manifest=MANIFEST))
            if self.folder.exists() and not self.folder.is_dir():
                raise StoreError(_("{folder} is not a folder").format(folder=self.folder))
            return {"format": FORMAT, "tavlakit": __version__, "files": []}
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
            newer = manifest["format"] > FORMAT or _version(manifest["tavlakit"]) > _version(__version__)
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreError(_("{path}: not a tavlakit store manifest ({error})").format(path=path, error=exc)) from None
        if newer:
            raise StoreError(_("{folder} was written by tavlakit {version}, newer than this one ({ours}); "
                               "nothing was written to it").format(folder=self.folder, version=manifest["tavlakit"],
                                                                   ours=__version__))
        return dict(manifest)

    def entry(self, key: str) -> dict[str, Any] | None:
        """A file's entry by partition key, if its partitions are whole."""
        meta = self.folder / "meta" / f"{key}.json"
        if not (meta.is_file() and all((self.folder / t / f"{key}.parquet").is_file() for t in TABLES)):
            return None
        entry: dict[str, Any] = json.loads(meta.read_text(encoding="utf-8"))
        return entry

    def entries(self) -> list[dict[str, Any]]:
        """The entries of the last run that ended, in input order."""
        out = []
        for key in self.manifest["files"]:
            entry = self.entry(key)
            if entry is None:
                raise StoreError(_("{folder}: the partition {key} is missing").format(folder=self.folder, key=key))
            out.append(entry)
        return out

    def analysis(self, dedupe: bool = False) -> Analysis:
        """The store's frames, as :func:`~tavlakit.analysis.frames.analyse` of its files gives them."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        entries = self.entries()
        tables = {t: [pq.read_table(self.folder / t / f"{e['key']}.parquet") for e in entries] for t in TABLES}
        empty = frames.analyse([], luck=False)
        plays, games = ((pa.concat_tables(tables[t]).to_pandas() if tables[t] else getattr(empty, t)) for t in TABLES)
        files = [(e["path"], e["fingerprint"], [_problem(p) for p in e["problems"]]) for e in entries]
        return assemble(plays, games, files, dedupe)


def _problem(data: dict[str, Any]) -> Problem:
    return Problem(**{**data, "expected": tuple(data["expected"])})


def content_hash(path: Path) -> tuple[str | None, int | None]:
    """The SHA-256 and size of a file (``None`` when it cannot be read)."""
    digest = hashlib.sha256()
    size = 0
    try:
        with open(path, "rb") as stream:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
    except OSError:
        return None, None
    return digest.hexdigest(), size


def _key(path: str, sha: str | None, rules: Rules | None, luck: bool) -> str:
    text = json.dumps([path, sha, __version__, repr(rules) if rules else None, luck])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _reusable(old: dict[str, Any] | None, sha: str | None, rules: Rules | None, luck: bool) -> bool:
    """The old entry of the same path still holds: same content, version and
    luck, and the same rules (asked for, or the file's own rules equal the
    rules now asked for)."""
    if old is None or sha is None or old["sha256"] != sha or old["tavlakit"] != __version__ or old["luck"] != luck:
        return False
    wanted = repr(rules) if rules else None
    return bool(old["rules_option"] == wanted or (wanted is not None and old["rules"] == wanted))


@dataclass(frozen=True)
class Task:
    """A file to analyse into the store, and the partition key it goes to."""

    path: Path
    key: str
    sha256: str | None
    size: int | None


def update(folder: str | Path, paths: Sequence[str | Path], rules: Rules | None = None, luck: bool = True,
           jobs: int | None = None, mapper: Mapper | None = None, label: str | None = None) -> Summary:
    """Bring the store in ``folder`` up to date with the record files in
    ``paths`` (files or folders); see the module's docstring. The files are
    analysed on ``jobs`` processes (``None``: every core), each writing its
    own partitions, or by ``mapper`` (a Dask cluster:
    :func:`.dask.client_mapper`), whose results are written here. ``label``
    shows a progress bar. Raises :class:`StoreError` for a folder that is
    not a store it may write, before writing anything."""
    store = Store(folder)
    store.folder.mkdir(parents=True, exist_ok=True)
    with open(store.folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (store.folder / MANIFEST).exists():
            _write_json(store.folder / MANIFEST, store.manifest)
        keys, todo, summary = _plan(store, find_records(paths), rules, luck)
        if keys == list(store.manifest["files"]) and not todo:
            return summary
        for table in (*TABLES, "meta"):
            (store.folder / table).mkdir(exist_ok=True)
        if mapper is None:
            metas: Iterator[dict[str, Any]] = pmap(_store_file, todo, jobs, label, folder=store.folder,
                                                   rules=rules, luck=luck)
        else:
            results = mapper([t.path for t in todo], rules, luck)
            metas = (_write_part(store.folder, r, t, rules, luck) for t, r in zip(todo, results))
        for meta in metas:
            summary.analysed.append(meta["path"])
            own = [_problem(p) for p in meta["problems"] if p["severity"] == "error"]
            summary.problems.extend(own)
            if meta["errors"] > len(own):
                summary.game_errors[meta["path"]] = meta["errors"] - len(own)
        store.manifest = {"format": FORMAT, "tavlakit": __version__, "files": keys}
        entries = store.entries()
        _write_parquet(store.folder / "players.parquet", players_frame(store.analysis()))
        _write_parquet(store.folder / "files.parquet", files_table(entries))
        _write_json(store.folder / MANIFEST, store.manifest)
        _sweep(store, set(keys))
    twins = duplicates((e["path"], e["fingerprint"]) for e in entries)
    summary.problems.extend(duplicate_problem(dup, first) for dup, first in twins.items())
    return summary


def _plan(store: Store, files: list[Path], rules: Rules | None, luck: bool) -> tuple[list[str], list[Task], Summary]:
    """The partition keys of the store to be, in input order, and the files to analyse."""
    old = {e["path"]: e for e in (store.entry(k) for k in store.manifest["files"]) if e is not None}
    keys: list[str] = []
    todo: list[Task] = []
    for path in files:
        sha, size = content_hash(path)
        previous = old.get(str(path))
        if previous is not None and _reusable(previous, sha, rules, luck):
            keys.append(previous["key"])
            continue
        key = _key(str(path), sha, rules, luck)
        keys.append(key)
        if store.entry(key) is None:  # else a killed run finished it
            todo.append(Task(path, key, sha, size))
    summary = Summary(files=len(files), reused=len(files) - len(todo),
                      dropped=len(set(old) - {str(p) for p in files}))
    return keys, todo, summary


def _store_file(task: Task, folder: Path, rules: Rules | None, luck: bool) -> dict[str, Any]:
    """Analyse one file and write its partitions (in a worker process)."""
    return _write_part(folder, analyse_file(task.path, rules, luck), task, rules, luck)


def _write_part(folder: Path, result: FileAnalysis, task: Task, rules: Rules | None, luck: bool) -> dict[str, Any]:
    """Write a file's partitions, its entry last; returns the entry."""
    key = task.key
    _write_parquet(folder / "plays" / f"{key}.parquet", result.plays)
    _write_parquet(folder / "games" / f"{key}.parquet", result.games)
    meta = {
        "key": key, "path": result.source, "sha256": task.sha256, "size": task.size, "tavlakit": __version__,
        "rules": result.rules, "rules_name": result.rules_name, "rules_option": repr(rules) if rules else None,
        "luck": luck, "games": len(result.games), "plays": len(result.plays), "errors": result.errors,
        "warnings": result.warnings, "fingerprint": result.fingerprint,
        "problems": [p.to_dict() for p in result.problems],
    }
    _write_json(folder / "meta" / f"{key}.json", meta)
    return meta


def files_table(entries: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per record file: what was analysed, how, and what was wrong
    (``problem``: the first error of the file itself, located)."""
    twins = duplicates((e["path"], e["fingerprint"]) for e in entries)
    rows = [{
        "path": e["path"], "sha256": e["sha256"], "size": e["size"], "tavlakit": e["tavlakit"],
        "rules": e["rules_name"], "luck": e["luck"], "games": e["games"], "plays": e["plays"],
        "errors": e["errors"], "warnings": e["warnings"],
        "problem": next((str(_problem(p)) for p in e["problems"] if p["severity"] == "error"), None),
        "fingerprint": e["fingerprint"], "duplicate_of": twins.get(e["path"]),
    } for e in entries]
    columns = {"path": "string", "sha256": "string", "size": "Int64", "tavlakit": "string", "rules": "string",
               "luck": "boolean", "games": "Int64", "plays": "Int64", "errors": "Int64", "warnings": "Int64",
               "problem": "string", "fingerprint": "string", "duplicate_of": "string"}
    return pd.DataFrame({c: pd.array([r[c] for r in rows], dtype=t)  # type: ignore[call-overload]
                         for c, t in columns.items()})


def _sweep(store: Store, live: set[str]) -> None:
    """Remove partitions and temporary files no manifest names."""
    for table, suffix in (("plays", ".parquet"), ("games", ".parquet"), ("meta", ".json")):
        for path in (store.folder / table).iterdir():
            if path.name.startswith(".") or path.name.removesuffix(suffix) not in live:
                path.unlink(missing_ok=True)
    for path in store.folder.glob(".*.tmp"):
        path.unlink(missing_ok=True)


def open_store(folder: str | Path, dedupe: bool = False) -> Analysis:
    """The :class:`~tavlakit.analysis.frames.Analysis` of a store: the same
    frames as ``analyse`` of its files (``dedupe``: matches stored twice
    once)."""
    if not (Path(folder) / MANIFEST).is_file():
        raise StoreError(_("{folder} is not a tavlakit store (it has no {manifest})").format(
            folder=folder, manifest=MANIFEST))
    return Store(folder).analysis(dedupe)


def files_frame(folder: str | Path) -> pd.DataFrame:
    """The store's files table (see :func:`files_table`)."""
    return files_table(Store(folder).entries())


__all__ = ["FORMAT", "MANIFEST", "Mapper", "Store", "StoreError", "Summary", "content_hash", "files_frame",
           "files_table", "open_store", "update"]
