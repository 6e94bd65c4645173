"""Match equity tables: the chance of winning the match at a score.

A table gives, for each pair of "away" counts (the points each player
still needs), the match winning chance (MWC) of the first: the
pre-Crawford table, and for each player the post-Crawford table (that
player trailing, the other 1-away, after the Crawford game). The default
is the table Debian's GNU Backgammon 1.07 uses by default, shipped with
tavlakit: *Kazaross XG2 25 point MET* (Neil Kazaross, 2011: XG rollouts to
9 points, gnubg rollouts to 15, extended to 25; transcribed for gnubg by
Michael Petch; ``tavlakit/met/Kazaross-XG2.xml``, gnubg's
``met/Kazaross-XG2.xml``, its notice kept). :func:`load_met` reads any
table in gnubg's XML format (explicit tables: ``<row>``/``<me>``).

Beyond the table's length a table is extended as gnubg extends it, to
:data:`MAXSCORE`: the pre-Crawford part with David Montgomery's normal
approximation, the post-Crawford part with Zadeh's recursion (gammon rate
0.25), so lookups agree with gnubg's at every score.

>>> met = default_met()
>>> met.name
'Kazaross XG2 25 point MET'
>>> round(met.away(1, 2), 5), round(met.away(2, 1), 5)
(0.67736, 0.32264)
>>> round(met.away(1, 2, post_crawford=True), 5)  # the trailer 2-away after the Crawford game
0.51197
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ..i18n import _

#: Scores up to which gnubg 1.07 keeps a table (``MAXSCORE``).
MAXSCORE = 64
#: The file of the default table inside the package.
DEFAULT_MET = "Kazaross-XG2.xml"


@dataclass(frozen=True, eq=False)
class MatchEquityTable:
    """One match equity table, extended to :data:`MAXSCORE` scores.

    ``pre[i][j]``: the MWC of a player ``i + 1`` away against one ``j + 1``
    away (before or in the Crawford game); ``post[p][i]``: the MWC of player
    ``p`` ``i + 1`` away after the Crawford game, the other 1-away (gnubg's
    player 0 is the left column of a record, ours too).
    """

    name: str
    description: str
    source: str
    length: int
    pre: tuple[tuple[float, ...], ...]
    post: tuple[tuple[float, ...], tuple[float, ...]]

    def away(self, mine: int, theirs: int, *, post_crawford: bool = False) -> float:
        """MWC of a player ``mine`` away against one ``theirs`` away (0 or
        less: that player has won). ``post_crawford``: a game after the
        Crawford game (one of them 1-away); the trailer is taken as player 0
        of the post-Crawford tables, which gnubg's tables give the same for
        both players."""
        return self._lookup(mine, theirs, post_crawford and (mine == 1 or theirs == 1))

    def at_score(self, score: tuple[int, int], length: int, *, crawford: bool) -> float:
        """Player 0's MWC at the start of a game at ``score`` of a
        ``length``-point match (``crawford``: this is the Crawford game),
        gnubg's ``getMEAtScore``."""
        a0, a1 = length - score[0], length - score[1]
        return self._lookup(a0, a1, post=not crawford and (a0 == 1 or a1 == 1))

    def after(self, score: tuple[int, int], length: int, *, crawford: bool, winner: int, points: int) -> float:
        """Player 0's MWC after ``winner`` wins ``points`` in a game begun at
        ``score`` (gnubg's ``getME``): once someone has been 1-away the next
        game is post-Crawford."""
        a0, a1 = length - score[0], length - score[1]
        post = crawford or a0 == 1 or a1 == 1
        if winner == 0:
            a0 -= points
        else:
            a1 -= points
        return self._lookup(a0, a1, post)

    def _lookup(self, a0: int, a1: int, post: bool) -> float:
        if a0 <= 0:
            return 1.0
        if a1 <= 0:
            return 0.0
        if a0 > MAXSCORE or a1 > MAXSCORE:
            raise ValueError(
                _("a score {mine}-away against {theirs}-away is beyond the table's {most} points").format(
                    mine=a0, theirs=a1, most=MAXSCORE
                )
            )
        if post:
            return 1.0 - self.post[1][a1 - 1] if a0 == 1 else self.post[0][a0 - 1]
        return self.pre[a0 - 1][a1 - 1]


def load_met(path: str | Path) -> MatchEquityTable:
    """A table from a file in gnubg's XML format (explicit tables); a
    ``ValueError`` naming the file and what is wrong otherwise."""
    where = str(path)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise ValueError(_("{path}: not a match equity table: {error}").format(path=where, error=exc)) from None
    if root.tag != "met":
        raise ValueError(
            _("{path}: not a match equity table: the root element is <{tag}>, not <met>").format(
                path=where, tag=root.tag
            )
        )
    name = (root.findtext("info/name") or Path(where).stem).strip()
    description = (root.findtext("info/description") or "").strip()
    pre_node = root.find("pre-crawford-table")
    if pre_node is None:
        raise ValueError(_("{path}: no <pre-crawford-table>").format(path=where))
    pre = _explicit(pre_node, where)
    size = len(pre)
    if size < 2 or any(len(row) < size for row in pre):
        raise ValueError(_("{path}: the pre-Crawford table is not square ({rows} rows)").format(path=where, rows=size))
    post: list[list[float]] = [[], []]
    for node in root.findall("post-crawford-table"):
        rows = _explicit(node, where)
        if len(rows) != 1:
            raise ValueError(
                _("{path}: a post-Crawford table has {rows} rows, not 1").format(path=where, rows=len(rows))
            )
        player = node.get("player", "both")
        for p in (0, 1) if player == "both" else (int(player),) if player in ("0", "1") else ():
            post[p] = rows[0]
    if not post[0] or not post[1]:
        raise ValueError(_("{path}: no post-Crawford table for each player").format(path=where))
    return MatchEquityTable(
        name,
        description,
        where,
        size,
        _extend_pre([row[:size] for row in pre]),
        (_extend_post(post[0], size), _extend_post(post[1], size)),
    )


def _explicit(node: ET.Element, where: str) -> list[list[float]]:
    kind = node.get("type", "explicit")
    if kind != "explicit":
        raise ValueError(
            _(
                "{path}: a table of type '{kind}' (computed from parameters) is not supported; only explicit tables are"
            ).format(path=where, kind=kind)
        )
    try:
        return [[float(me.text or "") for me in row.findall("me")] for row in node.findall("row")]
    except ValueError:
        raise ValueError(_("{path}: a table entry that is not a number").format(path=where)) from None


#: Montgomery's standard deviations of a game's points by away count (gnubg's ExtendMET).
_STDDEV = (0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72, 1.77)


def _extend_pre(table: list[list[float]]) -> tuple[tuple[float, ...], ...]:
    """The pre-Crawford table extended to MAXSCORE with gnubg's normal
    approximation (the larger away count's row, then the mirror)."""
    size = len(table)
    full = [[0.0] * MAXSCORE for _ in range(MAXSCORE)]
    for i in range(size):
        full[i][:size] = table[i]
    for i in range(size, MAXSCORE):
        n0 = i + 1
        s0 = _STDDEV[n0] if n0 <= 10 else 1.77
        for j in range(i + 1):
            n1 = j + 1
            s1 = _STDDEV[n1] if n1 <= 10 else 1.77
            sigma = math.sqrt(s0 * s0 + s1 * s1) * math.sqrt((n0 + n1) / 2.0)
            full[i][j] = _normal_area(n0 - n1, 6.0 * sigma, sigma) if 6.0 * sigma > n0 - n1 else 0.0
    for i in range(MAXSCORE):
        for j in range(max(size, i + 1), MAXSCORE):
            full[i][j] = 1.0 - full[j][i]
    return tuple(tuple(row) for row in full)


def _normal_area(low: float, high: float, sigma: float) -> float:
    def cdf(x: float) -> float:
        return (math.erf(x / sigma / math.sqrt(2.0)) + 1.0) / 2.0

    return cdf(high) - cdf(low)


def _extend_post(row: list[float], size: int) -> tuple[float, ...]:
    """A post-Crawford row: the table's first ``size - 1`` entries (the
    first legal post-Crawford score of a ``size``-point table is
    ``size - 1`` away), then Zadeh's recursion with a trailer's gammon rate
    of 0.25, as gnubg extends it."""
    out = list(row[: size - 1])
    gammons = 0.25
    for i in range(len(out), MAXSCORE):
        four = out[i - 4] if i >= 4 else 1.0
        two = out[i - 2] if i >= 2 else 1.0
        value = gammons * 0.5 * four + (1.0 - gammons) * 0.5 * two
        value -= 0.015 if i == 1 else 0.004 if i == 3 else 0.0
        out.append(value)
    return tuple(out)


@cache
def default_met() -> MatchEquityTable:
    """The table Debian's gnubg 1.07 uses by default (:data:`DEFAULT_MET`)."""
    with resources.as_file(resources.files("tavlakit.evaluation") / "met" / DEFAULT_MET) as path:
        table = load_met(path)
    return MatchEquityTable(
        table.name, table.description, f"tavlakit/met/{DEFAULT_MET}", table.length, table.pre, table.post
    )


__all__ = ["DEFAULT_MET", "MAXSCORE", "MatchEquityTable", "default_met", "load_met"]
