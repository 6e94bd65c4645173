"""The nets' sums in vector registers (evaluation/registers.py) against numpy's
float32 arithmetic, one input after another: the same bits, for nets of 8,
16, 24 and 128 units (whole vectors and masked ones), gnubg's sigmoid as
written out in numpy, and the occupied points and counts of boards."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numba import njit

from tavlakit.evaluation import registers

ONE = 1
EIGHT = 8
FIVE = 5


@njit(cache=False)
def _hidden(
    bias: Any, weights: Any, rows: Any, values: Any, beta: float, table: Any, units: Any, slot: int, ones: bool
) -> None:
    """Each unit's sum of ``values`` times the rows of ``weights``, its sigmoid, into column ``slot``."""
    for first in range(0, len(bias), registers.LANES * EIGHT):
        acc = registers.start(bias, first, EIGHT)
        for m in range(len(rows)):
            registers.add_times(acc, weights, rows[m], np.float32(1.0) if ones else values[m], first, EIGHT)
        if beta:
            registers.sigmoid(acc, beta, table, EIGHT)
        registers.store_column(acc, units, slot, first, EIGHT)


@njit(cache=False)
def _small(bias: Any, weights: Any, rows: Any, units: Any) -> None:
    """As :func:`_hidden`, a vector at a time, inputs of value 1."""
    for first in range(0, len(bias), registers.LANES * ONE):
        acc = registers.start(bias, first, ONE)
        for m in range(len(rows)):
            registers.add_times(acc, weights, rows[m], np.float32(1.0), first, ONE)
        registers.store_column(acc, units, 0, first, ONE)


@njit(cache=False)
def _outputs(bias: Any, units: Any, weights: Any, beta: float, table: Any, outs: Any) -> None:
    acc = registers.start_each(bias, FIVE)
    for j in range(len(units)):
        registers.add_each(acc, units, j, weights, FIVE)
    registers.sigmoid(acc, beta, table, FIVE)
    registers.store_each(acc, outs, FIVE)


@njit(cache=False)
def _occupied(boards: Any, out: Any) -> None:
    for r in range(len(boards)):
        out[r] = registers.occupied(boards[r])


@njit(cache=False)
def _counts(boards: Any, out: Any) -> None:
    for r in range(len(boards)):
        for q in range(50):
            out[r, q] = registers.count_at(boards[r], q)


TABLE = (np.exp(np.arange(101) / 10.0) / 10.0).astype(np.float32)


def sigmoid(x: np.ndarray, beta: float) -> np.ndarray:
    """gnubg's sigmoid in float32, written out in numpy."""
    f = np.float32
    v = x * f(-beta)
    tenths = np.minimum(f(10) * np.abs(v), f(100))
    near = f(1) / (f(1) + TABLE[tenths.astype(np.int32)] * ((f(10) - np.floor(tenths)) + tenths))
    small = np.where(np.abs(v) < f(10), near, f(1 / 19931.370438230298))
    return np.where(v >= 0, small, f(1) - small).astype(np.float32)


def summed(bias: np.ndarray, weights: np.ndarray, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The sums input by input in numpy's float32 (no fused multiply-add)."""
    out = bias.copy()
    for row, value in zip(rows, values, strict=True):
        out = out + weights[row] * value
    return out


@pytest.mark.parametrize("units", [8, 16, 24, 128, 136])
def test_sums_and_sigmoid_are_numpys_bits(units: int) -> None:
    rng = np.random.default_rng(units)
    weights = (rng.standard_normal((250, units)) * 3).astype(np.float32)
    bias = rng.standard_normal(units).astype(np.float32)
    rows = np.sort(rng.choice(250, 60, replace=False))
    values = rng.random(60).astype(np.float32)
    got = np.full((units, 16), -1.0, np.float32)
    _hidden(bias, weights, rows, values, 0.0, TABLE, got, 3, False)
    assert np.array_equal(got[:, 3], summed(bias, weights, rows, values))
    assert (got[:, [0, 1, 2, 4]] == -1).all()  # the other columns untouched
    _hidden(bias, weights, rows, values, 0.1, TABLE, got, 5, False)
    assert np.array_equal(got[:, 5], sigmoid(summed(bias, weights, rows, values), 0.1))
    _hidden(bias, weights, rows, values, 0.0, TABLE, got, 6, True)
    assert np.array_equal(got[:, 6], summed(bias, weights, rows, np.ones(60, np.float32)))
    if units <= 24:
        small = np.zeros((units, 1), np.float32)
        _small(bias, weights, rows, small)
        assert np.array_equal(small[:, 0], got[:, 6])


def test_sigmoid_covers_the_table_and_beyond() -> None:
    x = np.concatenate([np.linspace(-120, 120, 2401), [0.0, -0.0, 9.99, -9.99, 10.0, -10.0]]).astype(np.float32)
    x = np.resize(x, 128 * (len(x) // 128 + 1))
    for at in range(0, len(x), 128):
        got = np.zeros((128, 1), np.float32)
        chunk = x[at : at + 128]
        _hidden(
            chunk,
            np.zeros((1, 128), np.float32),
            np.zeros(0, np.int64),
            np.zeros(0, np.float32),
            0.1,
            TABLE,
            got,
            0,
            False,
        )
        assert np.array_equal(got[:, 0], sigmoid(chunk, 0.1))


def test_outputs_of_a_block_are_numpys_bits() -> None:
    rng = np.random.default_rng(5)
    units = rng.random((128, 16)).astype(np.float32)
    weights = rng.standard_normal((128, 5)).astype(np.float32)
    bias = rng.standard_normal(5).astype(np.float32)
    outs = np.zeros((5, 16), np.float32)
    _outputs(bias, units, weights, 1.0, TABLE, outs)
    expected = np.repeat(bias[:, None], 16, axis=1)
    for j in range(128):
        expected = expected + units[j][None, :] * weights[j][:, None]
    assert np.array_equal(outs, sigmoid(expected, 1.0))


def test_occupied_points() -> None:
    rng = np.random.default_rng(9)
    boards = (rng.integers(0, 4, (200, 2, 25)) * (rng.random((200, 2, 25)) < 0.4)).astype(np.int8)
    got = np.zeros(200, np.int64)
    _occupied(boards, got)
    flat = boards.reshape(200, 50) != 0
    assert np.array_equal(got, (flat * (1 << np.arange(50, dtype=np.int64))).sum(axis=1))


def test_counts_by_number() -> None:
    rng = np.random.default_rng(10)
    boards = rng.integers(-3, 16, (50, 2, 25)).astype(np.int8)
    got = np.zeros((50, 50), np.int8)
    _counts(boards, got)
    assert np.array_equal(got[:, :25], boards[:, 0]) and np.array_equal(got[:, 25:], boards[:, 1])
