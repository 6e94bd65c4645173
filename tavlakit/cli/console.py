"""What the command line shows while it works: progress bars on stderr.

The layers below print nothing: a long job takes a ``progress(done, total)``
callback (:data:`tavlakit.collections.parallel.Progress`), and the commands pass one
that draws a bar.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from ..collections.parallel import Progress, counted

T = TypeVar("T")

#: Fewer items than this finish too soon for a progress bar to help.
MIN_ITEMS = 20


@contextmanager
def progress_bar(label: str, min_items: int = MIN_ITEMS) -> Iterator[Progress]:
    """A ``progress(done, total)`` callback that draws a rich progress bar on
    stderr while the block runs: only on a terminal and for ``min_items``
    items or more (slow items: fewer), started at the first call, gone when
    the block ends."""
    bar: Any = None
    task: Any = None

    def tick(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None:
            if total < min_items or not sys.stderr.isatty():
                return
            from rich.console import Console
            from rich.progress import Progress as Bar

            bar = Bar(*Bar.get_default_columns(), console=Console(stderr=True), transient=True)
            bar.start()
            task = bar.add_task(label, total=total)
        bar.update(task, completed=done, total=total)

    try:
        yield tick
    finally:
        if bar is not None:
            bar.stop()


def progress(items: Sequence[T] | Iterable[T], label: str, total: int | None = None) -> Iterator[T]:
    """Iterate, with a progress bar (see :func:`progress_bar`; ``total``: how
    many items, for an iterator)."""
    count = total if total is not None else len(items)  # type: ignore[arg-type]
    with progress_bar(label) as tick:
        yield from counted(items, count, tick)


__all__ = ["MIN_ITEMS", "progress", "progress_bar"]
