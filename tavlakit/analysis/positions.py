"""Every turn where a position stood, in a plays frame (the store's own
look-up: :func:`tavlakit.analysis.store.find`, through its index of
positions, :mod:`tavlakit.collections.positions`).

>>> import tavlakit as tk
>>> from tavlakit._data import data_dir
>>> plays = tk.analysis.analyse(data_dir("samples") / "tavla-t000.mat", luck=False).plays
>>> found = find_plays(plays, "4HPwATDgc/ABMA")  # the starting position
>>> len(found), found["turn"].unique().tolist()
(6, [0])
"""

from __future__ import annotations

import pandas as pd

from ..collections.positions import FOUND_COLUMNS, wanted
from ..engine.position import Position


def find_plays(plays: pd.DataFrame, position: str | Position, *, swapped: bool = False) -> pd.DataFrame:
    """The rows of a plays frame where ``position`` stood before the turn
    (:func:`~tavlakit.collections.positions.wanted`: with ``swapped``, also
    the same board with the other player on roll), in the frame's order,
    with :data:`~tavlakit.collections.positions.FOUND_COLUMNS` and ``swapped``."""
    ids = wanted(position, swapped=swapped)
    found = plays.loc[plays["position_id"].isin(list(ids)), list(FOUND_COLUMNS)].reset_index(drop=True)
    return found.assign(swapped=found["position_id"].map(ids).astype("boolean"))


__all__ = ["FOUND_COLUMNS", "find_plays", "wanted"]
