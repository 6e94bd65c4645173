"""A store folder's manifest and the plan of a run: which record files must
be analysed again. No pandas here, so a re-run with nothing to do starts
and ends quickly; the Parquet side is :mod:`tavlakit.analysis.store`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._version import __version__
from ..engine.rules import Rules
from ..i18n import _
from ..record.problem import Problem
from .schema import schema_version

MANIFEST = "tavlakit-store.json"
#: The layout version; a store with a larger one was written by a newer tavlakit.
FORMAT = 1
TABLES = ("plays", "games")
#: The store's index of positions (:mod:`tavlakit.collections.positions`), named in the manifest once written.
INDEX = "positions.parquet"
#: The partitions of gnubg's statistics and the judged turns, at the store's analysis level
#: (written when the luck is: the net judges them).
JUDGED = ("statistics", "decisions")


class StoreError(ValueError):
    """The folder is not a store this tavlakit can write; nothing was changed."""


@dataclass
class Summary:
    """What a run of :func:`tavlakit.analysis.store.update` did (or would do)."""

    files: int = 0
    analysed: list[str] = field(default_factory=list)
    reused: int = 0
    dropped: int = 0
    """Files of the store not among the inputs, dropped (``prune``)."""
    kept: int = 0
    """Files of the store not among the inputs, kept."""
    total: int = 0
    """Files in the store after the run."""
    unread: list[str] = field(default_factory=list)
    """The inputs nothing could be read from (their problems are in the files table)."""
    problems: list[Problem] = field(default_factory=list)
    """File problems of the files analysed now, and duplicate-match notes."""
    game_errors: dict[str, int] = field(default_factory=dict)
    """Files analysed now whose games have errors, and how many."""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text)[:3])


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """``write`` to a hidden temporary name beside ``path``, then rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a failed or interrupted write leaves nothing behind
        raise


def write_json(path: Path, data: Any) -> None:
    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())

    write_atomic(path, write)


class Store:
    """An open store folder (see the module's docstring)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.manifest = self._read_manifest()

    def _read_manifest(self) -> dict[str, Any]:
        path = self.folder / MANIFEST
        if not path.is_file():
            if self.folder.is_dir() and any(self.folder.iterdir()):
                raise StoreError(
                    _("{folder} is not a tavlakit store (it has no {manifest}); nothing was written to it").format(
                        folder=self.folder, manifest=MANIFEST
                    )
                )
            if self.folder.exists() and not self.folder.is_dir():
                raise StoreError(_("{folder} is not a folder").format(folder=self.folder))
            return {"format": FORMAT, "tavlakit": __version__, "files": []}
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
            newer = manifest["format"] > FORMAT or _version(manifest["tavlakit"]) > _version(__version__)
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreError(
                _("{path}: not a tavlakit store manifest ({error})").format(path=path, error=exc)
            ) from None
        if newer:
            raise StoreError(
                _(
                    "{folder} was written by tavlakit {version}, newer than this one ({ours}); "
                    "nothing was written to it"
                ).format(folder=self.folder, version=manifest["tavlakit"], ours=__version__)
            )
        return dict(manifest)

    def entry(self, key: str) -> dict[str, Any] | None:
        """A file's entry by partition key, if its partitions are whole."""
        meta = self.folder / "meta" / f"{key}.json"
        if not (meta.is_file() and all((self.folder / t / f"{key}.parquet").is_file() for t in TABLES)):
            return None
        entry: dict[str, Any] = json.loads(meta.read_text(encoding="utf-8"))
        if entry.get("judged") and not all((self.folder / t / f"{key}.parquet").is_file() for t in JUDGED):
            return None
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


def problem(data: dict[str, Any]) -> Problem:
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


def _key(
    path: str, sha: str | None, rules: Rules | None, luck: bool, net: str | None = None, level: str | None = None
) -> str:
    facts: list[Any] = [path, sha, __version__, schema_version(), repr(rules) if rules else None, luck]
    if net is not None:  # (the keys of stores analysed with gnubg-nn's own net stay as they were)
        facts.append(net)
    if level is not None:
        facts.append(level)
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:24]


def _reusable(
    old: dict[str, Any] | None, sha: str | None, rules: Rules | None, luck: bool, net: str | None, level: str | None
) -> bool:
    """The old entry of the same path still holds: same content, version,
    columns (:func:`~tavlakit.collections.schema.schema_version`), luck and net weights
    (``net``: their digest, None for gnubg-nn's own), analysis level (its
    key; None without luck) and the same rules (asked for, or the file's own
    rules equal the rules now asked for)."""
    if (
        old is None
        or sha is None
        or old["sha256"] != sha
        or old["tavlakit"] != __version__
        or old.get("schema") != schema_version()
        or old["luck"] != luck
        or old.get("net") != net
        or old.get("level") != level
    ):
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


def plan(
    store: Store,
    files: list[Path],
    rules: Rules | None,
    *,
    luck: bool,
    prune: bool = False,
    net: str | None = None,
    level: str | None = None,
) -> tuple[list[str], list[Task], Summary]:
    """The partition keys of the store to be, the files to analyse, and the
    counts so far. The store's files keep their place (a changed file is
    analysed into the same place), new ones come after them in input order;
    files of the store not among ``files`` are kept, or dropped with
    ``prune``. ``net``: the digest of the weights the luck is worked out
    with (None: gnubg-nn's own, or no luck); ``level``: the key of the
    analysis level the turns are judged at (None: not judged, no luck)."""
    old = {e["path"]: e for e in (store.entry(k) for k in store.manifest["files"]) if e is not None}
    given: dict[str, str] = {}
    todo: list[Task] = []
    unread: list[str] = []
    for path in files:
        if str(path) in given:  # given twice
            continue
        sha, size = content_hash(path)
        previous = old.get(str(path))
        if previous is not None and _reusable(previous, sha, rules, luck, net, level):
            given[str(path)] = previous["key"]
            unread.extend([previous["path"]] if entry_unread(previous) else [])
            continue
        key = _key(str(path), sha, rules, luck, net, level)
        given[str(path)] = key
        finished = store.entry(key)
        if finished is None:  # else a killed run finished it
            todo.append(Task(path, key, sha, size))
        elif entry_unread(finished):
            unread.append(finished["path"])
    others = [name for name in old if name not in given]
    keys = [given.get(name, entry["key"]) for name, entry in old.items() if name in given or not prune]
    keys += [key for name, key in given.items() if name not in old]
    summary = Summary(
        files=len(given),
        reused=len(given) - len(todo),
        dropped=len(others) if prune else 0,
        kept=0 if prune else len(others),
        total=len(keys),
        unread=unread,
    )
    return keys, todo, summary


def nothing_to_do(store: Store, keys: list[str], todo: list[Task]) -> bool:
    """Whether the plan leaves the store as it is: the same partitions, none
    to analyse, and its index of positions written (a store of an earlier
    tavlakit gets one)."""
    index = store.manifest.get("index") == INDEX and (store.folder / INDEX).is_file()
    return keys == list(store.manifest["files"]) and not todo and index


def entry_unread(entry: dict[str, Any]) -> bool:
    """Whether nothing could be read from a store entry's file (no game, an
    error: missing, binary, empty, not a record)."""
    return not entry["games"] and bool(entry["errors"])


def require_existing(files: list[Path]) -> None:
    """Raise :class:`StoreError` naming the inputs that do not exist (a
    mistyped path), before anything is written."""
    missing = [str(path) for path in files if not path.exists()]
    if missing:
        raise StoreError(
            _("{paths}: no such file or folder; nothing was written to the store").format(paths=", ".join(missing))
        )


def sweep(store: Store, live: set[str]) -> None:
    """Remove partitions and temporary files no manifest names."""
    tables = (*TABLES, *JUDGED, "players")
    for table, suffix in (*((t, ".parquet") for t in tables), ("meta", ".json")):
        for path in (store.folder / table).iterdir() if (store.folder / table).is_dir() else ():
            if path.name.startswith(".") or path.name.removesuffix(suffix) not in live:
                path.unlink(missing_ok=True)
    for path in store.folder.glob(".*.tmp"):
        path.unlink(missing_ok=True)


__all__ = [
    "FORMAT",
    "INDEX",
    "JUDGED",
    "MANIFEST",
    "TABLES",
    "Store",
    "StoreError",
    "Summary",
    "Task",
    "content_hash",
    "entry_unread",
    "nothing_to_do",
    "plan",
    "problem",
    "require_existing",
    "sweep",
    "write_atomic",
    "write_json",
]
