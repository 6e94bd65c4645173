"""``tavlakit show``: write a self-contained HTML viewer for each match."""

from __future__ import annotations

import html
from collections import Counter
from pathlib import Path

import typer

from ..collections.manifest import write_atomic
from ..collections.parallel import pmap
from ..engine.numbering import Numbering
from ..engine.rules import Rules
from ..formats import find_records, read_matches
from ..formats.text import source_name
from ..i18n import _
from ..record.match import Match
from ..record.problem import Problem, counts_text, internal_problem, worst
from .collection import NET_HELP, choose_net, jobs_option
from .common import (
    RULES_DEFAULT_HELP,
    RULES_HELP,
    default_numbering,
    fail,
    nothing_read,
    output_stem,
    parse_numbering,
    parse_rules,
    stream_jobs,
)
from .console import progress


def _page_names(files: list[Path], roots: list[Path]) -> list[str]:
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


def _index(rows: list[tuple[str, Match, list[Problem], str]]) -> str:
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


def draw(
    job: tuple[Path, Path],
    rules: Rules | None,
    analyse: bool,
    numbering: Numbering | None,
    game: int | None,
    net: str | None = None,
) -> tuple[str, tuple[str, Match, list[Problem], str] | None]:
    """Write the viewer of one record file (``job``: the file and its page),
    in whatever process runs it (``net``: the weights the analysis uses).
    Returns the line to say on stderr when it could not (and no index
    row), else the index row."""
    from ..pictures.viewer import build, page as viewer_page  # not imported by the other commands

    if analyse:
        from ..evaluation.net import use_net

        use_net(net)

    path, target = job
    match = next(read_matches([path]))
    if nothing_read(match.problems, len(match.games)):  # as convert: no page, no index row
        first = next(p for p in match.problems if p.severity == "error")
        return "\n".join(
            (str(first), _("{path}: not shown (nothing could be read from it)").format(path=match.source))
        ), None
    try:
        frames = build(match, rules=rules, analyse=analyse, numbering=numbering)
        page = viewer_page(frames, game=game)
    except ValueError as exc:  # --game N that the match does not have
        return f"{path}: {exc}", None
    except Exception as exc:  # a bug in tavlakit: say so, go on with the other files
        return str(internal_problem(path, exc)), None
    write_atomic(target, lambda tmp: tmp.write_text(page, encoding="utf-8"))
    return "", (target.name, match, frames.shown(), "{}\u2013{}".format(*match.final_score()))


def show(
    paths: list[Path] = typer.Argument(..., help=_("Transcript files or folders (.mat .txt .sgf .json .xg).")),
    out: Path | None = typer.Option(None, "-o", "--out", help=_("Output .html file (one match) or folder.")),
    game: int | None = typer.Option(None, "--game", help=_("Open the viewer at this game number.")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    analyse: bool = typer.Option(
        False, "--analyse/--no-analyse", help=_("Add dice luck, play errors and a chart per game (gnubg-nn, slower).")
    ),
    numbering: str | None = typer.Option(
        None,
        help=_(
            "Point numbers: gnubg or relative (those of the player "
            "whose play is shown) or absolute (White 24->1, Black 1->24). "
            "Default: absolute in Turkish (--lang tr) and for a file "
            "numbered so, else gnubg."
        ),
    ),
    net: Path | None = typer.Option(None, help=_(NET_HELP) + " " + _("With --analyse.")),
    jobs: int | None = jobs_option(),
) -> None:
    """Write a self-contained HTML viewer (board, moves, problems) for each match.

    On a folder, or with several files, OUT is a folder and also gets an
    index.html listing every match. An input nothing could be read from
    (binary, empty, not a record) gets no page; the exit status is then 2.
    """
    # None: each file's own numbering
    kind = (
        parse_numbering(numbering)
        if numbering is not None
        else (Numbering.ABSOLUTE if default_numbering() is Numbering.ABSOLUTE else None)
    )
    chosen = parse_rules(rules) if rules else None
    if net is not None and not analyse:
        raise fail(_("--net goes with --analyse"))
    weights = choose_net(net) if analyse else None
    files = find_records(paths)
    if not files:
        raise fail(_("no record files found"))
    if out is None and any(str(path) == "-" for path in files):
        raise fail(_("standard input (-) needs -o, the page to write"))
    many = len(files) > 1 or any(p.is_dir() for p in paths)
    if many:
        folder = out or Path(".")
        if folder.exists() and not folder.is_dir():
            raise fail(_("{path} is not a folder (several matches are written)").format(path=folder))
        folder.mkdir(parents=True, exist_ok=True)
        targets = [
            folder / name
            for name in _page_names([output_stem(f) for f in files], [p.resolve() for p in paths if p.is_dir()])
        ]
    else:
        targets = [
            out
            if out and out.suffix.lower() in (".html", ".htm")
            else (out or Path(".")) / f"{output_stem(files[0]).stem}.html"
        ]
        targets[0].parent.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, Match, list[Problem], str]] = []
    failed = 0
    drawn = progress(
        pmap(
            draw,
            list(zip(files, targets)),
            stream_jobs(files, jobs),
            rules=chosen,
            analyse=analyse,
            numbering=kind,
            game=game,
            net=weights,
        ),
        _("drawing"),
        len(files),
    )
    for (path, target), (trouble, row) in zip(zip(files, targets), drawn):
        if row is None:
            typer.echo(trouble, err=True)
            failed += 1
            continue
        rows.append(row)
        typer.echo(_("{path}: wrote {target}").format(path=source_name(path), target=target))
    if many:
        index = targets[0].parent / "index.html"
        write_atomic(index, lambda tmp: tmp.write_text(_index(rows), encoding="utf-8"))
        typer.echo(_("wrote {index}").format(index=index))
    if failed:
        raise typer.Exit(2)
