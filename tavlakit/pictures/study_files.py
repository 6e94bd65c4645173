"""The page and the deck of a player's mistakes in record files (what
``tavlakit mistakes`` does): the files analysed on every core, the
mistakes drawn as one page (:mod:`.study`) and, when asked, an Anki deck
(:mod:`.anki`), each written under a temporary name renamed when whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from ..analysis.mistakes import Mistakes
from ..collections.manifest import write_atomic
from ..collections.parallel import Progress
from ..engine.numbering import Numbering, NumberingLike
from ..engine.rules import Rules
from ..evaluation.levels import DEFAULT_LEVEL, LevelLike, level as as_level
from ..i18n import _
from ..record.problem import Problem
from .study import page


@dataclass
class Studied:
    """What :func:`write_study` did: the mistakes written, and the inputs
    nothing could be read from (their first error each)."""

    mistakes: Mistakes = field(default_factory=Mistakes)
    unread: list[Problem] = field(default_factory=list)
    _: KW_ONLY
    analysed: bool = False
    """Whether a game could be read (else nothing is written)."""
    written: bool = False
    """Whether the page (and the deck) were written: not when no game could be read."""


def write_study(
    files: Sequence[Path],
    page_path: Path,
    deck_path: Path | None = None,
    *,
    player: str | None = None,
    top: int | None = 20,
    min_error: float = 0.0,
    rules: Rules | None = None,
    level: LevelLike = DEFAULT_LEVEL,
    numbering: NumberingLike = Numbering.RELATIVE,
    jobs: int | None = None,
    verify: int = 0,
    trials: int = 1296,
    progress: Progress | None = None,
) -> Studied:
    """Analyse the record ``files`` (gnubg's statistics, at ``level``:
    :mod:`~tavlakit.evaluation.levels`, default world class) on ``jobs`` processes, and write the mistakes of
    ``player`` (:meth:`Analysis.mistakes <tavlakit.analysis.frames.Analysis.mistakes>`)
    as a :func:`~tavlakit.pictures.study.page` to ``page_path`` and, with ``deck_path``, as an Anki
    deck (:func:`tavlakit.pictures.anki.deck`); the ``verify`` worst rolled
    out first (``trials`` each, :func:`tavlakit.analysis.rollouts.verified`),
    their rolled-out equities on the page and the deck. A player not in the files is
    an :class:`~tavlakit.analysis.mistakes.UnknownPlayer` (a ValueError, its
    message listing the names there), a ``level`` not implemented a
    ValueError, both before anything is written; a file that cannot be
    written an OSError."""
    studied = study(files, player=player, top=top, min_error=min_error, rules=rules, level=level, jobs=jobs,
                    progress=progress)  # fmt: skip
    if studied.mistakes and verify:
        from ..analysis.rollouts import verified

        studied.mistakes = verified(studied.mistakes, verify, trials=trials, jobs=jobs)
    if studied.analysed:
        write(studied, page_path, deck_path, player=player, numbering=numbering, files=len(files))
    return studied


def study(
    files: Sequence[Path],
    *,
    player: str | None = None,
    top: int | None = 20,
    min_error: float = 0.0,
    rules: Rules | None = None,
    level: LevelLike = DEFAULT_LEVEL,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Studied:
    """The mistakes :func:`write_study` writes, found and not yet written."""
    from ..analysis.collection import analyse_paths

    analysis = analyse_paths(
        files, rules, luck=False, jobs=jobs, progress=progress, statistics=True, level=as_level(level)
    )
    read = set(analysis.games["path"])
    unread = [p for p in analysis.problems if p.severity == "error" and p.file not in read]
    if analysis.games.empty:
        return Studied(unread=unread)
    return Studied(analysis.mistakes(player, top, min_error), unread, analysed=True)


def write(
    studied: Studied,
    page_path: Path,
    deck_path: Path | None = None,
    *,
    player: str | None = None,
    numbering: NumberingLike = Numbering.RELATIVE,
    files: int | None = None,
) -> None:
    """Write the mistakes :func:`study` found as a page and, with ``deck_path``, an Anki deck."""
    found = studied.mistakes
    text = page(found, numbering=numbering, files=files)
    write_atomic(page_path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    if deck_path is not None:
        from .anki import deck

        title = _("tavlakit: mistakes of {name}").format(name=player) if player else _("tavlakit: mistakes")
        write_atomic(deck_path, lambda tmp: deck(found, tmp, title=title, numbering=numbering))
    studied.written = True


__all__ = ["Studied", "study", "write", "write_study"]
