"""A bounded cache of 0-ply evaluations for the compiled look-ahead.

gnubg's look-ahead (:mod:`.lookahead`) meets the same positions again and
again: the plays of one candidate's 2-ply tree lead where another's do,
and the next turn's tree repeats some of this one's (of a match's full
evaluations about a fifth). :class:`Cache` keeps the five probabilities
of the boards the nets evaluated (gnubg's values, as
:func:`.net_inputs.evaluate_into` gives them, after its checks), keyed
by the board itself (its 50 counts, four bits each: no two boards share a
key) and by which nets evaluated it (the look-ahead keeps the full nets'
only), so a value found is the value the nets would give, bit for bit.

The table is a fixed number of slots (a power of two, the size asked for)
in buckets of two: a board is looked for in its bucket only, and a new
one takes an empty slot there or, the bucket full, replaces one (the
newest positions are the likeliest to come back). A slot is one 64-byte
line of memory, its key and its values together: a lookup costs one or
two reads from memory, no more (a table far larger than the processor's
caches is read at random). Its memory is bounded (64 bytes a slot) and it
never needs clearing, but when the nets in use change (:func:`clear`).
Size 0: no cache.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .jit import jit
from .registers import count_at

Bytes = NDArray[np.int8]
Ints = NDArray[np.int64]
Keys = NDArray[np.uint64]

#: Slots in a bucket (a board is looked for in its bucket only).
BUCKET = 2
#: The slots of a cache unless asked otherwise (2 MB: a table larger than the processor's own caches costs
#: as much to look into as the evaluations it saves, measured: ``benchmarks/README.md``).
DEFAULT_SLOTS = 1 << 15
#: Numbers of :attr:`Cache.counts`: lookups and hits of the pruning nets, then of the full nets.
PRUNE_LOOKUPS, PRUNE_HITS, FULL_LOOKUPS, FULL_HITS = range(4)


class Cache(NamedTuple):
    """The slots, 64 bytes each: its key in the first 4 words (the fourth
    0 where the slot is empty), its five probabilities in the float32
    numbers 8 to 12 (:data:`AT`; the same memory, seen as float32); and
    how many lookups and hits (:data:`PRUNE_LOOKUPS` ...)."""

    keys: NDArray[np.uint64]  # (slots, 8)
    values: NDArray[np.float32]  # (slots, 16): every probability the nets give is a float32
    counts: Ints  # (4,)


#: Where a slot's probabilities start among its float32 numbers (after the key's 4 words).
AT = 8


def empty_cache(slots: int = DEFAULT_SLOTS) -> Cache:
    """An empty cache of at least ``slots`` slots (rounded up to a power of
    two, at least a bucket); 0: none (every lookup misses)."""
    if slots < 0:
        raise ValueError(f"a cache of {slots} slots")
    size = 0 if slots == 0 else max(BUCKET, 1 << (slots - 1).bit_length())
    data = np.zeros((size, 8), dtype=np.uint64)
    return Cache(data, data.view(np.float32), np.zeros(4, np.int64))


def clear(c: Cache) -> None:
    """Forget every value (the nets changed); the counts stay."""
    c.keys[:, 3] = 0


def hit_rates(c: Cache) -> tuple[float, float]:
    """The share of the lookups of the pruning nets and of the full nets that found their value."""
    n = c.counts
    return (
        float(n[PRUNE_HITS] / n[PRUNE_LOOKUPS]) if n[PRUNE_LOOKUPS] else 0.0,
        float(n[FULL_HITS] / n[FULL_LOOKUPS]) if n[FULL_LOOKUPS] else 0.0,
    )


@jit
def key_into(board: Bytes, prune: bool, key: Keys) -> None:
    """The key of ``board`` evaluated by the pruning nets (``prune``) or
    the full nets: its 50 counts, four bits each, side 0 first; the last
    word also says which nets, and is never 0."""
    for w in range(4):  # (sixteen counts a word, each word made in a register)
        word = np.uint64(0x100 if prune else 0x200) if w == 3 else np.uint64(0)
        for i in range(16 * w, min(16 * w + 16, 50)):
            word |= np.uint64(count_at(board, i)) << np.uint64(4 * (i & 15))
        key[w] = word


@jit
def _bucket(key: Keys, size: int) -> int:
    """The first slot of ``key``'s bucket."""
    h = key[0] * np.uint64(0x9E3779B97F4A7C15)
    h ^= key[1] * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= key[2] * np.uint64(0x165667B19E3779F9)
    h ^= key[3] * np.uint64(0xD6E8FEB86659FD93)
    h ^= h >> np.uint64(31)
    return int(h & np.uint64(size - 1)) & ~(BUCKET - 1)


@jit
def find(c: Cache, key: Keys, prune: bool, p: NDArray[np.float64]) -> bool:
    """Whether ``key``'s value is kept; if so, into ``p`` (5)."""
    c.counts[PRUNE_LOOKUPS if prune else FULL_LOOKUPS] += 1
    size = len(c.keys)
    if size == 0:
        return False
    start = _bucket(key, size)
    for s in range(start, start + BUCKET):
        k = c.keys[s]
        if k[3] == key[3] and k[0] == key[0] and k[1] == key[1] and k[2] == key[2]:
            for i in range(5):
                p[i] = c.values[s, AT + i]
            c.counts[PRUNE_HITS if prune else FULL_HITS] += 1
            return True
    return False


@jit
def store(c: Cache, key: Keys, p: NDArray[np.float64]) -> None:
    """Keep ``p``, the value of ``key``: in an empty slot of its bucket,
    else in place of one (chosen by the key)."""
    size = len(c.keys)
    if size == 0:
        return
    start = _bucket(key, size)
    at = start + int((key[0] ^ key[1] ^ (key[2] >> np.uint64(7))) & np.uint64(BUCKET - 1))
    for s in range(start, start + BUCKET):
        if c.keys[s, 3] == 0:
            at = s
            break
    for w in range(4):
        c.keys[at, w] = key[w]
    for i in range(5):
        c.values[at, AT + i] = p[i]


__all__ = [
    "AT",
    "BUCKET",
    "DEFAULT_SLOTS",
    "FULL_HITS",
    "FULL_LOOKUPS",
    "PRUNE_HITS",
    "PRUNE_LOOKUPS",
    "Cache",
    "empty_cache",
    "clear",
    "find",
    "hit_rates",
    "key_into",
    "store",
]
