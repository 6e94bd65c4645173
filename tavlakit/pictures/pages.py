"""The viewer's pages of many records, written on every core, and their index page.

:func:`write_pages` writes one self-contained page per record
(:mod:`.viewer`), each under a temporary name renamed when whole;
:func:`index_page` lists the matches written; :func:`page_names` gives
each record a distinct page name.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..collections.manifest import write_atomic
from ..collections.parallel import Progress, jobs_for, pmap
from ..engine.numbering import Numbering
from ..engine.rules import Rules
from ..evaluation.levels import DEFAULT_LEVEL, LevelLike
from ..formats import read_matches
from ..i18n import _
from ..record.match import Match
from ..record.problem import Problem, counts_text, internal_problem, nothing_read, worst
from .viewer import build, page as viewer_page

#: A written page's row of the index: its file name, the match, its problems, the final score.
IndexRow = tuple[str, Match, list[Problem], str]


def page_names(files: list[Path], roots: list[Path]) -> list[str]:
    """One distinct ``.html`` name per record, from its path inside the
    folder given (``sub-x.html``); the extension stays in the name where
    two records differ only by it (``x.mat.html``, ``x.sgf.html``)."""
    stems = []
    for path in files:
        root = next((r for r in roots if r in path.resolve().parents), None)
        parts = path.resolve().relative_to(root).parts if root else (path.name,)
        stems.append(("-".join(parts[:-1] + (Path(parts[-1]).stem,)), parts[-1]))
    counts = Counter(stem.lower() for stem, _last in stems)
    names: list[str] = []
    for stem, last in stems:
        name = f"{stem}.html" if counts[stem.lower()] == 1 else f"{stem}{Path(last).suffix}.html"
        while name.lower() in (n.lower() for n in names):
            name = "_" + name
        names.append(name)
    return names


def index_page(rows: list[IndexRow]) -> str:
    """The page listing every match written: players, length, final score,
    problems (errors in red, warnings in amber)."""
    head = "".join(
        f"<th>{html.escape(t)}</th>"
        for t in (_("match"), _("players"), _("length"), _("games"), _("final score"), _("problems"))
    )
    body = []
    for name, match, problems, score in rows:
        length = str(match.length) if match.length else _("money")
        players = " \u2013 ".join(match.players)
        severity = worst(problems)
        shown = f' class="{severity}"' if severity else ""
        body.append(
            f'<tr><td><a href="{html.escape(name)}">{html.escape(Path(match.source or name).name)}</a></td>'
            f"<td>{html.escape(players)}</td><td>{length}</td><td>{len(match.games)}</td>"
            f"<td>{html.escape(score)}</td><td{shown}>{html.escape(counts_text(problems))}</td></tr>"
        )
    title = html.escape(_("Matches"))
    style = (
        "body{font:14px/1.4 system-ui,sans-serif;margin:16px;background:#faf7f0;color:#222}"
        "table{border-collapse:collapse;background:#fff}th,td{padding:4px 10px;border:1px solid #ddd;"
        "text-align:left}th{background:#f0ebe0}td.error{color:#b3261e;font-weight:600}"
        "td.warning{color:#9a6700;font-weight:600}td.info{color:#666}"
    )
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title><style>{style}</style>'
        f"</head><body><h1>{title}</h1><table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}"
        "</tbody></table></body></html>\n"
    )


def write_page(
    job: tuple[Path, Path],
    rules: Rules | None,
    *,
    analyse: bool,
    numbering: Numbering | None,
    game: int | None,
    net: str | None = None,
    level: LevelLike = DEFAULT_LEVEL,
) -> tuple[str, IndexRow | None]:
    """Write the viewer of one record file (``job``: the file and its page),
    in whatever process runs it (``net``: the weights the analysis uses;
    ``level``: how deep it looks, :mod:`~tavlakit.evaluation.levels`).
    Returns the line to say on stderr when it could not (and no index
    row), else the index row."""
    if analyse:
        from ..evaluation.net import use_net

        use_net(net)

    path, target = job
    match = next(read_matches([path]))
    position = next((p for p in match.problems if p.code == "position"), None)
    if position is not None and not match.games:  # said as in a folder (find_records' note): no page
        return str(position), None
    if nothing_read(match.problems, len(match.games)):  # as convert: no page, no index row
        first = next(p for p in match.problems if p.severity == "error")
        return "\n".join(
            (str(first), _("{path}: not shown (nothing could be read from it)").format(path=match.source))
        ), None
    try:
        frames = build(match, rules=rules, analyse=analyse, numbering=numbering, level=level)
        page = viewer_page(frames, game=game)
    except ValueError as exc:  # --game N that the match does not have
        return f"{path}: {exc}", None
    except Exception as exc:  # a bug in tavlakit: say so, go on with the other files
        return str(internal_problem(path, exc)), None
    write_atomic(target, lambda tmp: tmp.write_text(page, encoding="utf-8"))
    return "", (target.name, match, frames.shown(), "{}\u2013{}".format(*match.final_score()))


def write_pages(
    files: Sequence[Path],
    targets: Sequence[Path],
    *,
    rules: Rules | None = None,
    analyse: bool = False,
    numbering: Numbering | None = None,
    game: int | None = None,
    net: str | None = None,
    level: LevelLike = DEFAULT_LEVEL,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Iterator[tuple[str, IndexRow | None]]:
    """:func:`write_page` of each file to its target, in input order, on
    ``jobs`` processes (``None``: every core)."""
    yield from pmap(
        write_page,
        list(zip(files, targets)),
        jobs_for(files, jobs),
        progress,
        rules=rules,
        analyse=analyse,
        numbering=numbering,
        game=game,
        net=net,
        level=level,
    )


__all__ = ["IndexRow", "index_page", "page_names", "write_page", "write_pages"]
