"""A store folder's manifest and the plan of a run: which record files must
be analysed again. No pandas here, so a re-run with nothing to do starts
and ends quickly; the Parquet side is :mod:`tavlakit.analysis.store`.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._version import __version__
from ..engine.rules import Rules
from ..i18n import N_, _
from ..record.problem import Problem
from .schema import schema_version

MANIFEST = "tavlakit-store.json"
#: The layout version; a store with a larger one was written by a newer tavlakit.
FORMAT = 1
TABLES = ("plays", "games")
#: The store's index of positions (:mod:`tavlakit.collections.positions`), named in the manifest once written.
INDEX = "positions.parquet"
#: The files table, one row per record file.
TABLE = "files.parquet"
#: The partitions of gnubg's statistics and the judged turns, at the store's analysis level
#: (written when the luck is: the net judges them).
JUDGED = ("statistics", "decisions")
#: The file a writer holds an exclusive lock on for its whole run (one writer at a time).
LOCK = ".lock"
#: Why a write failed, as the error says it (the system's words are English only).
_REASONS = {
    errno.ENOSPC: N_("no space left on device"),
    errno.EDQUOT: N_("disk quota exceeded"),
    errno.EFBIG: N_("file too large (a file size limit: ulimit -f)"),
    errno.EROFS: N_("read-only file system"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EIO: N_("input/output error"),
}


class StoreError(ValueError):
    """The folder is not a store this tavlakit can write, or one that cannot be read; nothing was changed."""


class StoreWriteError(StoreError):
    """Writing the store failed (a full disk, a read-only folder...): the
    store reads as before the run. ``analysed``: the files analysed before
    the failure (their whole partitions are kept: the next run reuses them);
    ``pending``: the files not analysed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.analysed: list[str] = []
        self.pending: list[str] | None = None


def cannot_write(folder: Path, error: OSError) -> StoreWriteError:
    """The one-line error of a failed write to the store in ``folder``."""
    reason = _(_REASONS[error.errno]) if error.errno in _REASONS else (error.strerror or str(error)).lower()
    return StoreWriteError(_("cannot write the store {folder}: {reason}").format(folder=folder, reason=reason))


@contextmanager
def writing(folder: Path) -> Iterator[None]:
    """Turn an :class:`OSError` of the block into :func:`cannot_write`'s error."""
    try:
        yield
    except OSError as exc:
        raise cannot_write(folder, exc) from exc


@contextmanager
def locked(folder: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the store's exclusive lock for the block: another writer's run
    waits (``waiting()`` is told first, when it must). The kernel lets the
    lock go when the process ends, even killed."""
    import fcntl  # (POSIX: where it is missing, only writing a store fails)

    with writing(folder), open(folder / LOCK, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


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


def json_writer(data: Any) -> Callable[[Path], None]:
    """A function writing ``data`` as JSON to a path, on disk when it returns."""

    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())

    return write


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically, on disk when this returns."""
    write_atomic(path, json_writer(data))
    sync_folder(path.parent)


def sync_folder(path: Path) -> None:
    """Put a folder's renames on disk."""
    folder = os.open(path, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


class Staged:
    """Files written under temporary names and renamed together by
    :meth:`commit` (their space taken before any of them replaces a file of
    the store); left out, they are removed when the block ends."""

    def __init__(self) -> None:
        self.pending: list[tuple[Path, Path]] = []

    def write(self, path: Path, write: Callable[[Path], object]) -> None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.staged.tmp")
        self.pending.append((tmp, path))
        write(tmp)

    def sizes(self) -> dict[str, int]:
        """The size of each file written so far, by name."""
        return {path.name: tmp.stat().st_size for tmp, path in self.pending}

    def commit(self) -> None:
        while self.pending:
            tmp, path = self.pending.pop(0)
            os.replace(tmp, path)

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, *exc: object) -> None:
        for tmp, _path in self.pending:
            tmp.unlink(missing_ok=True)


class Store:
    """An open store folder (see the module's docstring)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.manifest = self._read_manifest()

    def _read_manifest(self) -> dict[str, Any]:
        path = self.folder / MANIFEST
        if not path.is_file():
            if self.folder.is_dir() and any(not _ours(p.name) for p in self.folder.iterdir()):
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

    def meta(self, key: str) -> dict[str, Any] | None:
        """A file's entry as written (None: missing or unreadable)."""
        try:
            entry = json.loads((self.folder / "meta" / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and entry.get("key") == key else None

    def damage(self, key: str, entry: dict[str, Any] | None = None) -> str | None:
        """What is wrong with the partitions of ``key`` (None: they are
        whole): a partition missing or not of the size written (truncated,
        written in part), or an entry that cannot be read (``entry``: its
        entry, read already)."""
        entry = entry or self.meta(key)
        if entry is None:
            return _("its entry meta/{key}.json is missing or unreadable").format(key=key)
        sizes = entry.get("sizes") or dict.fromkeys((*TABLES, *(JUDGED if entry.get("judged") else ())))
        for table, size in sizes.items():
            path = self.folder / table / f"{key}.parquet"
            try:
                found = path.stat().st_size
            except OSError:
                return _("the partition {table}/{key}.parquet is missing").format(table=table, key=key)
            if size is not None and found != size:
                return _("the partition {table}/{key}.parquet is damaged: {found} bytes, written {size}").format(
                    table=table, key=key, found=found, size=size
                )
        return None

    def entry(self, key: str) -> dict[str, Any] | None:
        """A file's entry by partition key, if its partitions are whole."""
        entry = self.meta(key)
        return None if entry is None or self.damage(key, entry) else entry

    def entries(self) -> list[dict[str, Any]]:
        """The entries of the last run that ended, in input order; a
        :class:`StoreError` names a damaged one and its record file."""
        out = []
        for key in self.manifest["files"]:
            entry = self.entry(key)
            if entry is None:
                raise StoreError(self.damaged(key))
            out.append(entry)
        return out

    def damaged(self, key: str, what: str | None = None, *, inside: bool = False) -> str:
        """The error of a damaged partition of ``key``: which one, of which
        record file, and what to do (``what``: what is wrong, else :meth:`damage`)."""
        return f"{self.folder}: {self.repair(key, what, inside=inside)}"

    def repair(self, key: str, what: str | None = None, *, inside: bool = False) -> str:
        """What is wrong with the partitions of ``key``, of which record file,
        and what to do (``inside``: damage a run cannot see, the size as
        written: its entry must go first)."""
        entry = self.meta(key)
        what = what or self.damage(key, entry) or ""
        if entry is None:
            return _(
                "{what}: analyse its record file again with --store {folder} "
                "('tavlakit store check {folder}' lists what is damaged)"
            ).format(folder=self.folder, what=what)
        if inside:
            return _("{what} (of {path}): remove {meta}, then analyse {path} again with --store {folder}").format(
                what=what, path=entry["path"], meta=self.folder / "meta" / f"{key}.json", folder=self.folder
            )
        return _("{what} (of {path}): analyse {path} again with --store {folder}").format(
            folder=self.folder, what=what, path=entry["path"]
        )


def _ours(name: str) -> bool:
    """A name a store's first run gives a file before its manifest is there:
    the lock, the manifest's temporary file (another run may be writing it)."""
    return name == LOCK or (name.startswith(f".{MANIFEST}.") and name.endswith(".tmp"))


def unreadable_partition(store: Store, keys: Sequence[str], error: Exception) -> str:
    """The error of a partition among ``keys`` that could not be read:
    the first damaged one by its size, else what the reader said."""
    broken = next((key for key in keys if store.damage(key)), None)
    if broken is not None:
        return store.damaged(broken)
    return _("{folder}: a partition is damaged ({error}): 'tavlakit store check {folder}' names it").format(
        folder=store.folder, error=str(error).splitlines()[0]
    )


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
    metas = {key: store.meta(key) for key in store.manifest["files"]}
    old = {e["path"]: e for k, e in metas.items() if e is not None and not store.damage(k, e)}
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
        if finished is None:  # else a killed run finished it; a damaged partition is written again
            todo.append(Task(path, key, sha, size))
        elif entry_unread(finished):
            unread.append(finished["path"])
    keys, others, damaged = _places(store, metas, given, prune)
    if damaged:
        more = _(" (and {count} more: 'tavlakit store check {folder}' lists them)").format(
            count=len(damaged) - 1, folder=store.folder
        )
        raise StoreError(damaged[0] + (more if len(damaged) > 1 else "") + _("; nothing was written to the store"))
    summary = Summary(
        files=len(given),
        reused=len(given) - len(todo),
        dropped=others if prune else 0,
        kept=0 if prune else others,
        total=len(keys),
        unread=unread,
    )
    return keys, todo, summary


def _places(
    store: Store, metas: dict[str, dict[str, Any] | None], given: dict[str, str], prune: bool
) -> tuple[list[str], int, list[str]]:
    """The keys of the store to be (each of its files in its place, the new
    ones after), how many of its files are not among those ``given``, and
    the errors of the damaged ones among them (kept: a run refuses them; given, a
    damaged file is analysed again; ``prune`` drops them)."""
    keys: dict[str, None] = {}
    others = 0
    damaged = []
    mine = set(given.values())
    for key, entry in metas.items():
        path = entry["path"] if entry is not None else None
        if path in given or key in mine:  # (an entry that cannot be read: the same file gives the same key)
            keys[given.get(path, key) if path is not None else key] = None
            continue
        others += 1
        if not prune:
            keys[key] = None
            if store.damage(key, entry):
                damaged.append(store.damaged(key))
    keys.update(dict.fromkeys(given.values()))
    return list(keys), others, damaged


def nothing_to_do(store: Store, keys: list[str], todo: list[Task]) -> bool:
    """Whether the plan leaves the store as it is: the same partitions, none
    to analyse, its files table and index of positions written and of the
    sizes the manifest says (a store of an earlier tavlakit gets an index;
    one missing or truncated is written again)."""
    sizes = store.manifest.get("sizes", {})
    whole = all(_whole(store.folder / name, sizes.get(name)) for name in (TABLE, INDEX))
    return keys == list(store.manifest["files"]) and not todo and store.manifest.get("index") == INDEX and whole


def _whole(path: Path, size: int | None) -> bool:
    """Whether a file is there, of the size written when known."""
    try:
        return size is None or path.stat().st_size == size
    except OSError:
        return False


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


def leftovers(store: Store, live: set[str]) -> Iterator[Path]:
    """The partitions and temporary files no manifest names (of ``live``, its keys)."""
    tables = (*TABLES, *JUDGED, "players")
    for table, suffix in (*((t, ".parquet") for t in tables), ("meta", ".json")):
        for path in sorted((store.folder / table).iterdir()) if (store.folder / table).is_dir() else ():
            if path.name.startswith(".") or path.name.removesuffix(suffix) not in live:
                yield path
    yield from sorted(store.folder.glob(".*.tmp"))


def sweep(store: Store, live: set[str]) -> None:
    """Remove the :func:`leftovers` (as far as it can: what is left is swept by the next run)."""
    try:
        for path in list(leftovers(store, live)):
            path.unlink(missing_ok=True)
    except OSError:
        pass


__all__ = [
    "FORMAT",
    "INDEX",
    "JUDGED",
    "MANIFEST",
    "TABLE",
    "TABLES",
    "LOCK",
    "Staged",
    "Store",
    "StoreError",
    "StoreWriteError",
    "cannot_write",
    "Summary",
    "Task",
    "content_hash",
    "entry_unread",
    "json_writer",
    "leftovers",
    "locked",
    "nothing_to_do",
    "plan",
    "problem",
    "require_existing",
    "sweep",
    "sync_folder",
    "unreadable_partition",
    "write_atomic",
    "write_json",
    "writing",
]
