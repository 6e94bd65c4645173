"""One job per file on every core: results in input order, progress told as they come.

:func:`pmap` runs a module-level function over items in worker processes
(``jobs=1``: in this process, no pool) and yields the results in input
order. At most a few results per worker are in flight, so memory stays
flat however many files there are. Workers ignore Ctrl-C: the main process
gets the ``KeyboardInterrupt``, stops the workers and re-raises, so a
command writes nothing half-done when it only writes what it has received
(or writes to a temporary name and renames). :class:`Workers` keeps its
processes from one map to the next and hands each item over as soon as
it is made, while the items are still being made.

>>> list(pmap(abs, [-2, 1, -3], jobs=1))
[2, 1, 3]
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

from ..formats.text import read_stream
from ..i18n import language, set_language

T = TypeVar("T")
R = TypeVar("R")

#: Tasks queued per worker process ahead of the one being waited for.
AHEAD = 4

#: What a long job calls as it goes: ``progress(done, total)``; the caller
#: decides what to show (the command line draws a bar: ``tavlakit.cli.console``).
Progress = Callable[[int, int], None]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def job_count(jobs: int | None, items: int) -> int:
    """How many processes to use: ``None`` or 0 means every core, never
    more than there are items, at least one."""
    wanted = jobs or cores()
    return max(1, min(wanted, items))


def jobs_for(paths: Sequence[object], jobs: int | None) -> int | None:
    """``jobs`` for reading ``paths``, or 1 when one of them is a stream
    (``-``, ``/dev/stdin``, a pipe): it is read in this process, once, and
    a worker process could not read it again."""
    return 1 if any(read_stream(str(path)) is not None for path in paths) else jobs


def _start_worker(lang: str) -> None:
    """Ignore Ctrl-C and speak the caller's language (a forkserver worker
    starts from a fresh interpreter, in English)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_language(lang)


def _context() -> Any:
    # fork starts workers in milliseconds with everything imported (the pool
    # is made before the progress bar's thread starts); forking a process
    # that runs other threads (a Dask client, a notebook) is unsafe, so
    # forkserver then
    import multiprocessing  # only with a pool (11 ms of start-up otherwise)

    if sys.platform != "linux":
        return multiprocessing.get_context()
    return multiprocessing.get_context("fork" if threading.active_count() == 1 else "forkserver")


def pmap(
    func: Callable[..., R], items: Sequence[T], jobs: int | None = None, progress: Progress | None = None, **kwargs: Any
) -> Iterator[R]:
    """``func(item, **kwargs)`` for each item, in input order, on ``jobs``
    processes (``None``: every core; 1: in this process). ``func`` and its
    arguments must pickle (a module-level function). ``progress`` is told
    each time an item is done (see :func:`counted`). An exception in ``func`` is
    raised here; catch it inside ``func`` to keep going."""
    call = partial(func, **kwargs) if kwargs else func
    count = job_count(jobs, len(items))
    if count == 1:
        done: Iterable[R] = map(call, items)
    else:
        done = _pooled(call, items, count)
    yield from done if progress is None else counted(done, len(items), progress)


def counted(items: Iterable[T], total: int, progress: Progress) -> Iterator[T]:
    """The items, calling ``progress(done, total)`` after each one is taken
    (not before the first: a pool is started before a caller's bar is)."""
    for done, item in enumerate(items, 1):
        yield item
        progress(done, total)


def _new_pool(count: int) -> Any:
    """A pool of ``count`` worker processes (:func:`_start_worker`)."""
    return _context().Pool(count, initializer=_start_worker, initargs=(language(),))


def _pooled(call: Callable[[T], R], items: Sequence[T], count: int) -> Iterator[R]:
    pool = _new_pool(count)
    try:
        pending: deque[Any] = deque()
        todo = iter(items)
        for item in todo:
            pending.append(pool.apply_async(call, (item,)))
            if len(pending) >= count * AHEAD:
                break
        while pending:
            result = pending.popleft().get()
            for item in todo:
                pending.append(pool.apply_async(call, (item,)))
                break
            yield result
        pool.close()
    finally:
        # normal end, an error, Ctrl-C or the consumer stopping early
        pool.terminate()
        pool.join()


class Workers:
    """Worker processes kept for several :meth:`map` calls (so what a
    worker keeps at module level, its caches, lasts from one to the next),
    started at the first item; ``with`` stops them. ``count=1``: in this
    process, no pool."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._pool: Any = None

    def map(
        self, func: Callable[..., R], items: Iterable[T], progress: Progress | None = None, **kwargs: Any
    ) -> Iterator[tuple[T, R]]:
        """Each item with ``func(item, **kwargs)``, in input order: each item
        handed to the processes as soon as ``items`` yields it (a generator
        goes on making the next ones beside them), all of them before this
        returns; the results then as they come. ``progress`` is told as
        they are taken."""
        call = partial(func, **kwargs) if kwargs else func
        if self.count == 1:
            found = [(item, call(item)) for item in items]
            return iter(found) if progress is None else counted(found, len(found), progress)
        pending = [(item, self._started().apply_async(call, (item,))) for item in items]
        done = ((item, result.get()) for item, result in pending)
        return done if progress is None else counted(done, len(pending), progress)

    def _started(self) -> Any:
        if self._pool is None:
            self._pool = _new_pool(self.count)
        return self._pool

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


__all__ = ["AHEAD", "Progress", "Workers", "cores", "counted", "job_count", "jobs_for", "pmap"]
