"""What the command line shows while it works."""

from __future__ import annotations

import sys
from typing import Iterable, Iterator, Sequence, TypeVar

T = TypeVar("T")

#: Fewer items than this finish too soon for a progress bar to help.
MIN_ITEMS = 20


def progress(items: Sequence[T] | Iterable[T], label: str, total: int | None = None) -> Iterator[T]:
    """Iterate, with a rich progress bar on stderr when it is a terminal and
    there are many items (``total``: how many, for an iterator)."""
    count = total if total is not None else len(items)  # type: ignore[arg-type]
    if count < MIN_ITEMS or not sys.stderr.isatty():
        yield from items
        return
    from rich.console import Console
    from rich.progress import track

    yield from track(items, description=label, total=count, console=Console(stderr=True), transient=True)


__all__ = ["MIN_ITEMS", "progress"]
