"""``tavlakit show``: write a self-contained HTML viewer for each match."""

from __future__ import annotations

from pathlib import Path

import typer

from ..collections.manifest import write_atomic
from ..engine.numbering import Numbering
from ..formats import find_records
from ..formats.text import output_stem, source_name
from ..i18n import _
from .collection import NET_HELP, choose_net, jobs_option
from .common import (
    PLY_HELP,
    RULES_DEFAULT_HELP,
    RULES_HELP,
    default_numbering,
    fail,
    level_help,
    parse_level,
    parse_numbering,
    parse_rules,
)
from .console import progress_bar


def show(
    paths: list[Path] = typer.Argument(..., help=_("Transcript files or folders (.mat .txt .sgf .json .xg).")),
    out: Path | None = typer.Option(None, "-o", "--out", help=_("Output .html file (one match) or folder.")),
    game: int | None = typer.Option(None, "--game", help=_("Open the viewer at this game number.")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} {_(RULES_DEFAULT_HELP)}"),
    analyse: bool = typer.Option(
        False,
        "--analyse/--no-analyse",
        help=_("Add dice luck, play errors, cube decisions and a chart per game (gnubg-nn, slower)."),
    ),
    level: str | None = typer.Option(None, "--level", help=_("With --analyse.") + " " + level_help()),
    ply: int | None = typer.Option(None, help=_(PLY_HELP)),
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
    if (level is not None or ply is not None) and not analyse:
        raise fail(_("--level and --ply go with --analyse"))
    chosen_level = parse_level(level, ply)
    weights = choose_net(net) if analyse else None
    files = find_records(paths)
    for note in files.problems:  # what was found instead (positions, other kinds of file)
        typer.echo(str(note), err=True)
    if not files:
        raise fail(_("no record files found"))
    if out is None and any(str(path) == "-" for path in files):
        raise fail(_("standard input (-) needs -o, the page to write"))
    from ..pictures.pages import index_page, write_pages  # not imported by the other commands

    many = len(files) > 1 or any(p.is_dir() for p in paths)
    targets = _targets(files, paths, out, many)
    rows = []
    failed = 0
    with progress_bar(_("drawing")) as bar:
        drawn = write_pages(
            files,
            targets,
            rules=chosen,
            analyse=analyse,
            numbering=kind,
            game=game,
            net=weights,
            level=chosen_level,
            jobs=jobs,
            progress=bar,
        )
        for path, target, (trouble, row) in zip(files, targets, drawn):
            if row is None:
                typer.echo(trouble, err=True)
                failed += 1
                continue
            rows.append(row)
            typer.echo(_("{path}: wrote {target}").format(path=source_name(path), target=target))
    if many:
        index = targets[0].parent / "index.html"
        write_atomic(index, lambda tmp: tmp.write_text(index_page(rows), encoding="utf-8"))
        typer.echo(_("wrote {index}").format(index=index))
    if failed:
        raise typer.Exit(2)


def _targets(files: list[Path], paths: list[Path], out: Path | None, many: bool) -> list[Path]:
    """The page of each file: in the folder ``out`` (made when missing) for
    many, named after each file's path inside the folder given; else ``out``
    itself when it names an .html file, or the file's name in ``out``."""
    from ..pictures.pages import page_names

    if many:
        folder = out or Path(".")
        if folder.exists() and not folder.is_dir():
            raise fail(_("{path} is not a folder (several matches are written)").format(path=folder))
        folder.mkdir(parents=True, exist_ok=True)
        roots = [p.resolve() for p in paths if p.is_dir()]
        return [folder / name for name in page_names([output_stem(f) for f in files], roots)]
    if out and out.suffix.lower() in (".html", ".htm"):
        target = out
    else:
        target = (out or Path(".")) / f"{output_stem(files[0]).stem}.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    return [target]
