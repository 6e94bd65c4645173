"""Analysis levels: how deep a match review looks, named as gnubg names them.

A :class:`Level` says how chequer plays and cube decisions are judged
(plies of look-ahead, gnubg's pruning nets, the move filters that choose
which plays are looked at more deeply) and how a roll's luck is judged.
The named levels are gnubg 1.07's own presets where they match one
(``aecSettings`` and ``aiSettingsMoveFilter`` of its sources):

* ``expert``: 0 ply, without noise or pruning: gnubg's "expert" (fast: for
  bulk studies);
* ``1-ply``: 1 ply with the pruning nets and gnubg's "normal" move filter:
  gnubg's default analysis one ply less deep (gnubg has no preset of this
  depth);
* ``world-class``: 2 plies with gnubg's pruning nets and its "normal" move
  filter: gnubg's "world class", which is also what gnubg's ``analyse
  match`` uses by default (``show analysis``), the figures players quote;
* ``grandmaster``: 3 plies with the pruning nets and gnubg's analysis move
  filter for 3 plies (its ``MOVEFILTER_LARGE``: up to 16 plays within 0.32
  at 0 ply, none judged at 1 ply, up to 4 of them within 0.08 at 2 plies):
  gnubg's "grandmaster", some five times world class's cost.

Luck is judged at 0 ply at every level, as gnubg judges it (its ``ecLuck``).

>>> level("world class").chequer_plies, level("world-class").pruning
(2, True)
>>> level_for_plies(0) is EXPERT
True
>>> EXPERT.key
'expert'
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from ..i18n import N_, _


@dataclass(frozen=True)
class MoveFilter:
    """gnubg's move filter at one ply of a search: the ``accept`` best plays
    go one ply deeper, and up to ``extra`` more of those within
    ``threshold`` (equity) of the best."""

    accept: int
    extra: int
    threshold: float

    def keep(self, ranked: list[float]) -> int:
        """How many of the plays scored ``ranked`` (best first) go deeper.

        >>> MoveFilter(0, 16, 0.32).keep([0.5, 0.4, 0.2, -0.5])
        3
        """
        if not ranked:
            return 0
        kept = min(self.accept, len(ranked))
        top = ranked[0]
        while kept < len(ranked) and kept < self.accept + self.extra and ranked[kept] >= top - self.threshold:
            kept += 1
        return max(kept, 1)


#: gnubg's "normal" move filter at its first ply: 0 plays for sure, up to 16 within 0.32.
NORMAL_FILTER = MoveFilter(0, 16, 0.32)


@dataclass(frozen=True)
class Level:
    """How a review judges a match: ``chequer_plies`` and ``cube_plies`` of
    look-ahead; ``pruning``: gnubg's pruning nets choose the replies worth
    a full evaluation inside the search; ``filters``: the move filter of
    each ply below the top one (``None``: the plays are not judged at that
    ply, gnubg's "skip pruning", :attr:`steps`); ``luck_plies``: the plies a
    roll's luck is judged at."""

    name: str
    chequer_plies: int
    cube_plies: int
    _: KW_ONLY
    pruning: bool = False
    filters: tuple[MoveFilter | None, ...] = ()
    luck_plies: int = 0

    @property
    def key(self) -> str:
        """A short name for the level in files and stores: its name when it
        is a named level, else every setting spelt out."""
        if LEVELS.get(self.name) == self:
            return self.name
        filters = ",".join("-" if f is None else f"{f.accept}/{f.extra}/{f.threshold:g}" for f in self.filters)
        return (
            f"chequer{self.chequer_plies}-cube{self.cube_plies}-luck{self.luck_plies}"
            f"{'-pruned' if self.pruning else ''}-filters[{filters}]"
        )

    @property
    def looks_ahead(self) -> bool:
        """Whether plays or cube decisions are judged deeper than 0 ply."""
        return max(self.chequer_plies, self.cube_plies) > 0

    @property
    def steps(self) -> list[tuple[int, MoveFilter]]:
        """The plies a play is judged at on the way down and the filter
        applied after each (gnubg's FindnSaveBestMoves: a ply without a
        filter is skipped), before the plays left are judged at
        ``chequer_plies``.

        >>> [(ply, f.extra) for ply, f in GRANDMASTER.steps]
        [(0, 16), (2, 4)]
        """
        filters = list(self.filters[: self.chequer_plies]) or [None]
        found = [(ply, f) for ply, f in enumerate(filters) if f is not None]
        return found or [(0, NORMAL_FILTER)]

    @property
    def first_filter(self) -> MoveFilter:
        """The filter that picks the plays looked at more deeply (gnubg's normal one when none is set)."""
        return self.filters[0] if self.filters and self.filters[0] is not None else NORMAL_FILTER

    def title(self) -> str:
        """The level's name as a reader sees it (translated)."""
        return _(TITLES.get(self.name, self.name))

    def describe(self) -> str:
        """The level in a few words, for a footer.

        >>> WORLD_CLASS.describe(), EXPERT.describe(), ONE_PLY.describe()
        ('world class (2 ply, pruning nets)', 'expert (0 ply)', '1 ply')
        """
        if self.chequer_plies == self.cube_plies:
            plies = _("{plies} ply").format(plies=self.chequer_plies)
        else:
            plies = _("chequer play {chequer} ply, cube {cube} ply").format(
                chequer=self.chequer_plies, cube=self.cube_plies
            )
        parts = [plies] + ([_("pruning nets")] if self.pruning else [])
        if self.title() == plies:
            return plies
        return _("{name} ({settings})").format(name=self.title(), settings=", ".join(parts))

    def details(self) -> str:
        """Every setting of the level in one line.

        >>> print(WORLD_CLASS.details().replace("; ", ";\\n"))
        world class: chequer play and cube decisions at 2 ply;
        gnubg's pruning nets;
        move filter: up to 16 plays within 0.32 of the best;
        luck at 0 ply
        """
        if self.chequer_plies == self.cube_plies:
            plies = _("chequer play and cube decisions at {plies} ply").format(plies=self.chequer_plies)
        else:
            plies = _("chequer play at {chequer} ply, cube decisions at {cube} ply").format(
                chequer=self.chequer_plies, cube=self.cube_plies
            )
        parts = [plies]
        if self.pruning:
            parts.append(_("gnubg's pruning nets"))
        if max(self.chequer_plies, self.cube_plies) > 0:
            f = self.first_filter
            shown = _("move filter: up to {extra} plays within {threshold:g} of the best")
            parts.append(shown.format(extra=f.extra, threshold=f.threshold))
            for ply, f in self.steps[1:]:
                shown = _("then up to {extra} of them within {threshold:g} of the best at {ply} ply")
                parts.append(shown.format(extra=f.extra, threshold=f.threshold, ply=ply))
        parts.append(_("luck at {luck} ply").format(luck=self.luck_plies))
        return _("{name}: {settings}").format(name=self.title(), settings="; ".join(parts))


EXPERT = Level("expert", 0, 0)
ONE_PLY = Level("1-ply", 1, 1, pruning=True, filters=(NORMAL_FILTER,))
WORLD_CLASS = Level("world-class", 2, 2, pruning=True, filters=(NORMAL_FILTER, None))
#: gnubg's large move filter at the third ply of a 3-ply search: up to 4 plays within 0.08.
DEEP_FILTER = MoveFilter(0, 4, 0.08)
GRANDMASTER = Level("grandmaster", 3, 3, pruning=True, filters=(NORMAL_FILTER, None, DEEP_FILTER))
#: The named levels, by the name the command line takes.
LEVELS = {lv.name: lv for lv in (EXPERT, ONE_PLY, WORLD_CLASS, GRANDMASTER)}
#: How each is called when shown: gnubg's own words for its presets.
TITLES = {
    "expert": N_("expert"),
    "1-ply": N_("1 ply"),
    "world-class": N_("world class"),
    "grandmaster": N_("grandmaster"),
}
#: The level of a match review when none is asked for.
DEFAULT_LEVEL = WORLD_CLASS


#: A level, its name, or how many plies deep (:func:`level_for_plies`).
LevelLike = Level | str | int


def level(value: LevelLike) -> Level:
    """The level ``value`` names: a :class:`Level` as it is; a name
    (``expert``, ``1-ply``, ``world-class``, ``grandmaster``; case, spaces and underscores
    as one likes); a number of plies, or its digits (:func:`level_for_plies`). Raises
    ``ValueError`` with the names for any other.

    >>> level("World class").name, level(0).name, level("2").name
    ('world-class', 'expert', 'world-class')
    """
    if isinstance(value, Level):
        return value
    if isinstance(value, int) or value.strip().isdigit():
        return level_for_plies(int(value))
    wanted = "-".join(value.strip().lower().replace("_", " ").replace("-", " ").split())
    if wanted in LEVELS:
        return LEVELS[wanted]
    raise ValueError(
        _("unknown analysis level {name!r}: choose from {names}").format(name=value, names=", ".join(LEVELS))
    )


def level_for_plies(plies: int) -> Level:
    """The named level that looks ``plies`` deep: 0 expert, 1 the 1-ply
    level, 2 world class, 3 grandmaster. Raises ``ValueError`` for another."""
    for named in LEVELS.values():
        if named.chequer_plies == plies:
            return named
    raise ValueError(_("{ply} plies: only 0-, 1-, 2- and 3-ply analysis is implemented").format(ply=plies))


__all__ = [
    "DEFAULT_LEVEL",
    "DEEP_FILTER",
    "EXPERT",
    "GRANDMASTER",
    "LEVELS",
    "NORMAL_FILTER",
    "ONE_PLY",
    "WORLD_CLASS",
    "Level",
    "LevelLike",
    "MoveFilter",
    "level",
    "level_for_plies",
]
