"""Are the dice fair? Face and roll counts, chi-square tests, doubles.

The chi-square survival function is computed exactly from its closed form
for whole degrees of freedom (no scipy):

>>> round(chi2_sf(11.07, 5), 3)  # the 5% critical value for 5 degrees
0.05
>>> round(chi2_sf(31.41, 20), 3)
0.05
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..evaluation.equity import ROLLS, WEIGHTS
from .outcomes import wilson

FACES = tuple(range(1, 7))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(half))
    term = math.exp(-half) * math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (df + 1) // 2):
        total += term
        term *= half / (i + 0.5)
    return min(1.0, total)


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's statistic, its degrees of freedom and p-value."""
    if len(observed) != len(expected) or len(observed) < 2:
        raise ValueError("observed and expected need the same length, at least 2")
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    df = len(observed) - 1
    return stat, df, chi2_sf(stat, df)


def _free(plays: pd.DataFrame) -> pd.Series:
    """Which rows are rolls thrown freely: the opening throw under
    ``use-opening-dice`` (never a double) is left out."""
    return (plays["kind"] == "roll").fillna(False) & plays["die1"].notna() & ~plays["opening_dice"].fillna(False)


def _rolls(plays: pd.DataFrame) -> pd.DataFrame:
    """The rolls thrown freely (see :func:`_free`)."""
    return plays[_free(plays).to_numpy(dtype=bool)]


def face_counts(plays: pd.DataFrame) -> pd.Series:
    """How often each face 1-6 shows (both dice of every roll)."""
    rows = _rolls(plays)
    faces = pd.concat([rows["die1"], rows["die2"]]).astype(int)
    counts: pd.Series = faces.value_counts().reindex(FACES, fill_value=0)
    counts.name = "count"
    return counts


def roll_counts(plays: pd.DataFrame) -> pd.Series:
    """How often each of the 21 rolls (larger die first, ``"65"``) is thrown."""
    rows = _rolls(plays)
    hi = rows[["die1", "die2"]].max(axis=1).astype(int)
    lo = rows[["die1", "die2"]].min(axis=1).astype(int)
    keys = hi.astype(str) + lo.astype(str)
    return keys.value_counts().reindex([f"{a}{b}" for a, b in ROLLS], fill_value=0).rename("count")


def fairness(plays: pd.DataFrame, by: str | None = "name") -> pd.DataFrame:
    """One row per group (``by`` a plays column such as ``name`` or ``match``;
    ``None``: everything): rolls, chi-square and p-value of the faces
    (5 degrees) and of the 21 rolls (20 degrees), doubles against 1/6 with
    a Wilson interval."""
    if by is None:
        codes, keys = np.zeros(len(plays), dtype="int64"), pd.Index(["all"])
    else:
        codes, keys = pd.factorize(plays[by])  # the groups in order of first row, as groupby(sort=False)
    free = _free(plays).to_numpy(dtype=bool) & (codes >= 0)
    code = codes[free]
    die1 = plays["die1"].to_numpy(dtype="float64", na_value=0)[free].astype("int64")
    die2 = plays["die2"].to_numpy(dtype="float64", na_value=0)[free].astype("int64")
    faces_of = (
        np.bincount(code * 7 + die1, minlength=7 * len(keys)) + np.bincount(code * 7 + die2, minlength=7 * len(keys))
    ).reshape(-1, 7)[:, 1:]
    roll_index = {(a, b): i for i, (a, b) in enumerate(ROLLS)}
    index = np.array([[roll_index.get((max(a, b), min(a, b)), 21) for b in range(7)] for a in range(7)])
    rolls_of = np.bincount(code * 22 + index[die1, die2], minlength=22 * len(keys)).reshape(-1, 22)[:, :21]
    doubles_at = [i for i, (a, b) in enumerate(ROLLS) if a == b]
    rows = []
    for key, faces, rolls in zip(keys, faces_of.tolist(), rolls_of.tolist()):
        n = sum(rolls)
        row: dict[str, object] = {by or "group": key, "rolls": n}
        if n:
            chi_f, _, p_f = chi_square(faces, [2 * n / 6] * 6)
            chi_r, _, p_r = chi_square(rolls, [n * WEIGHTS[r] / 36 for r in ROLLS])
            doubles = sum(rolls[i] for i in doubles_at)
            low, high = wilson(doubles, n)
            row.update(
                faces_chi2=chi_f,
                faces_p=p_f,
                rolls_chi2=chi_r,
                rolls_p=p_r,
                doubles=doubles,
                doubles_rate=doubles / n,
                doubles_low=low,
                doubles_high=high,
            )
        rows.append(row)
    columns = [by or "group", "rolls", "faces_chi2", "faces_p", "rolls_chi2", "rolls_p"]
    columns += ["doubles", "doubles_rate", "doubles_low", "doubles_high"]
    return pd.DataFrame(rows, columns=columns)  # (its columns even without a roll)


__all__ = ["FACES", "chi2_sf", "chi_square", "face_counts", "fairness", "roll_counts"]
