"""The message catalogs from a checkout: extract, update, compile, check (Babel).

Run from a checkout (needs Babel, ``pip install tavlakit[i18n]``)::

    python -m tavlakit.i18n_tools            # extract + update + compile + check
    python -m tavlakit.i18n_tools check      # change nothing; exit 1 on any gap

``babel.cfg`` says which files are read: every ``_()``, ``N_()`` and
``ngettext()`` of tavlakit, and the docstrings of the CLI commands (Typer
shows them as help; :func:`extract_cli` reads them). The template is
``tavlakit/locale/tavlakit.pot``, each language's source
``tavlakit/locale/<lang>/LC_MESSAGES/tavlakit.po``, compiled beside it to the
``.mo`` that ships in the wheel.
"""

from __future__ import annotations

import ast
import io
import os
import re
import sys
import tempfile
from collections.abc import Collection, Iterator, Mapping
from gettext import GNUTranslations
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_python
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LOCALE_DIR

ROOT = LOCALE_DIR.parents[1]
MAPPING = ROOT / "babel.cfg"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: Translations kept for messages the code may come to have (``locale/<lang>/compendium.po``).
COMPENDIUM = "compendium.po"
_PLACEHOLDER = re.compile(r"(?<!\{)\{([^{}]*)\}")


def extract_cli(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Any
) -> Iterator[tuple[Any, ...]]:
    """Babel extractor for tavlakit/cli: the marked strings, and the docstring
    of every command (a function with ``typer.Argument``/``typer.Option`` defaults)."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and _is_command(node):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.body[0].lineno, "", doc, []


def _is_command(node: ast.FunctionDef) -> bool:
    defaults = node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
    return any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ("Argument", "Option")
        for d in defaults
    )


def _pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]


def extract(output: Path = TEMPLATE) -> None:
    """Write the template of every message id in the code to ``output``."""
    here, target = Path.cwd(), output.resolve()
    os.chdir(ROOT)  # the locations in the template are relative to the checkout
    try:
        _pybabel(
            "extract",
            "-F",
            str(MAPPING),
            "-o",
            str(target),
            "--add-location=file",
            "--sort-by-file",
            "--project=tavlakit",
            "--no-wrap",
            ".",
        )
    finally:
        os.chdir(here)


def catalogs() -> dict[str, Path]:
    """Each translated language and its .po source."""
    return {p.parent.parent.name: p for p in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def update() -> None:
    """Merge the template into every .po (new ids untranslated, near ones
    fuzzy), then fill what is untranslated or fuzzy from the language's
    compendium (``locale/<lang>/compendium.po``) where it has the same id."""
    _pybabel("update", "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-D", DOMAIN, "--ignore-obsolete", "--no-wrap")
    for po in catalogs().values():
        compendium = po.parent.parent / COMPENDIUM
        if compendium.exists():
            fill_from(po, compendium)


def fill_from(po: Path, compendium: Path) -> int:
    """Translate the untranslated and fuzzy messages of ``po`` that
    ``compendium`` translates (same id); returns how many."""
    catalog, known = _read(po), _read(compendium)
    filled = 0
    for message in catalog:
        if message.id and (message.fuzzy or not all(_strings(message.string))):
            found = known.get(message.id)
            if found is not None and all(_strings(found.string)) and not found.fuzzy:
                message.string = found.string
                message.flags.discard("fuzzy")
                message.previous_id = []
                filled += 1
    if filled:
        with po.open("wb") as f:
            write_po(f, catalog, width=0, ignore_obsolete=True)
    return filled


def compile_catalogs() -> None:
    """Compile every .po to its .mo (fuzzy entries left out)."""
    _pybabel("compile", "-d", str(LOCALE_DIR), "-D", DOMAIN)


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _strings(string: object) -> list[str]:
    """The translation(s) of a message: one, or one per plural form."""
    return [_text(s) for s in string] if isinstance(string, (tuple, list)) else [_text(string)]


def placeholders(text: str) -> list[str]:
    """The ``{placeholders}`` of a message, sorted: a translation keeps them."""
    return sorted(_PLACEHOLDER.findall(text))


def _text(message: object) -> str:
    """A message id or string (a tuple or list for plural forms) as one text."""
    return (
        message if isinstance(message, str) else str(next(iter(message))) if isinstance(message, (tuple, list)) else ""
    )


def gaps(po: Path, template: Path | None = None) -> list[str]:
    """What is wrong with one catalog: message ids untranslated, fuzzy,
    missing (in ``template`` but not in the catalog), with other
    ``{placeholders}`` than the English, failing Babel's own checks
    (``%`` formats), or a .mo not in step with the .po."""
    catalog = _read(po)
    out = [gap for message in catalog if message.id for gap in _message_gaps(message)]
    out += [f"babel check: {_text(m.id)!r}: {'; '.join(map(str, errors))}" for m, errors in catalog.check()]
    if template is not None:
        ids = {_text(m.id) for m in catalog if m.id}
        out += [f"missing: {_text(m.id)!r}" for m in _read(template) if m.id and _text(m.id) not in ids]
    return out + _compiled_gaps(po, catalog)


def _message_gaps(message: Message) -> list[str]:
    """What is wrong with one message: untranslated, fuzzy, or other placeholders."""
    msgid = _text(message.id)
    strings = _strings(message.string)
    if not all(strings):
        return [f"untranslated: {msgid!r}"]
    if message.fuzzy:
        return [f"fuzzy: {msgid!r}"]
    if any(placeholders(s) != placeholders(msgid) for s in strings):
        return [f"placeholders differ: {msgid!r}"]
    return []


def _compiled_gaps(po: Path, catalog: Catalog) -> list[str]:
    """The .mo beside ``po``: missing, or saying other words than the catalog."""
    mo = po.with_suffix(".mo")
    if not mo.exists():
        return [f"not compiled: {mo}"]
    with mo.open("rb") as f:
        compiled = GNUTranslations(f)
    out = []
    for message in catalog:
        if not message.id or message.fuzzy or not all(_strings(message.string)):
            continue
        if isinstance(message.id, str):
            shown = [compiled.gettext(message.id)]
        else:
            singular, plural = (str(i) for i in list(message.id)[:2])
            shown = [compiled.ngettext(singular, plural, n) for n in (1, 2)]
        if shown != _strings(message.string):
            out.append(f"{mo.name} out of date: {_text(message.id)!r}")
    return out


_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _own_names(scope: ast.AST) -> Iterator[ast.Name]:
    """The names used in ``scope`` itself, not in the scopes nested in it."""
    for child in ast.iter_child_nodes(scope):
        if isinstance(child, ast.Name):
            yield child
        if not isinstance(child, _SCOPES):
            yield from _own_names(child)


def shadowed_gettext(folder: Path = ROOT / "tavlakit") -> list[str]:
    """Functions that call ``_()`` and also bind ``_`` (``for _, x in ...``):
    the call then fails with UnboundLocalError, so each is reported."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [n for n in _own_names(node) if n.id == "_"]
                if any(isinstance(n.ctx, ast.Store) for n in names) and any(isinstance(n.ctx, ast.Load) for n in names):
                    out.append(f"{path.relative_to(folder)}:{node.lineno}: {node.name}() binds _ and calls _()")
    return out


def unextractable(folder: Path = ROOT / "tavlakit") -> list[str]:
    """``_()`` / ``N_()`` calls Babel cannot extract or gettext cannot find:
    an f-string or an expression built from strings (``_(f"x {y}")``,
    ``_("a" % b)``, ``_("a" + b)``) as the message, or a call inside an
    f-string's braces (``f"<b>{_('x')}</b>"``: Babel reads no code there)."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = {id(n) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)}
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_", "ngettext")
            ):
                continue
            where = f"{path.relative_to(folder)}:{node.lineno}: {node.func.id}()"
            if node.args and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)):
                out.append(f'{where} of a built string; write {node.func.id}("... {{name}} ...").format(name=...)')
            elif id(node) in inside and node.args and isinstance(node.args[0], ast.Constant):
                out.append(f"{where} inside an f-string; take it out of the braces")
    return out


def check() -> list[str]:
    """The gaps of every catalog against the code as it is now (nothing
    written), the functions that shadow ``_`` and the messages Babel cannot
    extract."""
    with tempfile.TemporaryDirectory() as folder:
        template = Path(folder) / f"{DOMAIN}.pot"
        extract(template)
        gaps_found = [f"{lang}: {gap}" for lang, po in catalogs().items() for gap in gaps(po, template)]
    return gaps_found + shadowed_gettext() + unextractable()


def main(argv: list[str]) -> int:
    """``[check]``: see the module's docstring."""
    if argv not in ([], ["check"]):
        print("usage: python -m tavlakit.i18n_tools [check]", file=sys.stderr)
        return 2
    if not argv:
        extract()
        update()
        compile_catalogs()
    problems = check()
    for problem in problems:
        print(problem)
    print(f"{len(problems)} gap(s); catalogs: {', '.join(catalogs())}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
