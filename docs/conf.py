"""Sphinx's configuration of tavlakit's documentation.

Build it with ``pip install -e '.[docs]'`` and
``python -m sphinx -W -n docs docs/_build/html``; ``tests/test_docs.py``
builds it so in the test suite (warnings are errors). The pages are
Markdown (MyST), the API reference comes from the docstrings (autodoc,
reST roles as they are written), and nothing is fetched: no intersphinx.
"""

from __future__ import annotations

import importlib
import re
import sys
import types
from pathlib import Path
from typing import Any

from sphinx.ext.autosummary import Autosummary

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tavlakit import __version__  # noqa: E402

project = "tavlakit"
author = "tavlakit developers"
copyright = "tavlakit developers; GPL-3.0-or-later"
version = release = __version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]  # the README (the front page) starts its sections at level 2 after its title

# The reference documents each module's own members; a package's docstring
# names what it hands on (its __all__ would document them twice).
autodoc_default_options = {"members": True, "ignore-module-all": True, "undoc-members": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
add_module_names = False  # the page and its heading say the module
autosummary_generate = False

# Every reference to tavlakit must resolve; the standard library's, numpy's,
# pandas'... cannot without intersphinx (which downloads), so they are
# left as text.
nitpicky = True
EXTERNAL = (
    "pathlib|collections|typing|typing_extensions|enum|contextlib|io|datetime|os|re|types|abc|"
    "numpy|np|npt|pandas|pd|pyarrow|gnubg_nn|lark|matplotlib|numba|dask|distributed|typer|rich|starlette"
)
BUILTIN_GENERICS = r"(dict|tuple|list|set|frozenset|type)\[.*"
nitpick_ignore_regex = [
    ("py:.*", rf"({EXTERNAL})(\..*)?"),
    ("py:.*", BUILTIN_GENERICS),
    ("py:(class|obj)", r"tavlakit\..*\.[A-Z]"),  # TypeVars (T, F, R...)
    ("py:class", r"Axes|Token|Floats32"),  # annotations of names imported for type checking only
    ("py:class", r"NDArray|Ints|Floats|Bytes|Bools"),  # numpy arrays of a kind, by their aliases
    ("py:class", r"(tavlakit\..*\.)?_\w+"),  # a module's private types in its public annotations
]

html_theme = "alabaster"
html_title = f"tavlakit {release}"
html_theme_options = {
    "description": "Tavla and backgammon records",
    "fixed_sidebar": True,
    "show_relbars": True,
    "page_width": "1180px",
    "sidebar_width": "250px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_static_path: list[str] = []


class FrontDoor(Autosummary):
    """``{front-door} module``: a table of the names the module hands on
    (its ``__all__``), each linked to where it is defined."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[Any]:
        module = importlib.import_module(self.arguments[0])
        names = [name for name in module.__all__ if _linkable(getattr(module, name))]
        self.content = [f"~{_defined_at(module, name)}" for name in names]
        self.arguments = []
        self.options["nosignatures"] = True  # a dataclass's signature reads badly in one cell
        return super().run()

    def get_items(self, names: list[str]) -> list[tuple[str, str, str, str]]:
        """Each summary's references as plain code: a first line read out of its module's context."""
        return [(name, sig, ROLE.sub(_as_code, summary), real) for name, sig, summary, real in super().get_items(names)]


ROLE = re.compile(r":[\w:]+:`(~?)([^`<]+?)(?:\s*<[^>]*>)?`")


def _as_code(role: re.Match[str]) -> str:
    short, target = role.groups()
    return f"``{target.rsplit('.', 1)[-1] if short else target.lstrip('.')}``"


def _linkable(obj: Any) -> bool:
    """A module, class or function (a constant's definition cannot be found from its value)."""
    return isinstance(obj, types.ModuleType) or hasattr(obj, "__qualname__")


def _defined_at(module: Any, name: str) -> str:
    obj = getattr(module, name)
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    return f"{obj.__module__}.{obj.__qualname__}"


#: Where the front page (docs/index.md) takes the README.
README_HERE = "<!-- the README, its links made the site's: docs/conf.py -->"


def site_links(app: Any, docname: str, source: list[str]) -> None:
    """The README is the site's front page; the benchmarks' figures (benchmarks/README.md)
    are its page ``speed``. Links are written for a reader of the repository and made the
    site's here."""
    text = source[0]
    if README_HERE in text:
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        readme = readme.replace("](docs/", "](").replace("](benchmarks/README.md", "](speed.md")
        text = text.replace(README_HERE, readme)
        app.env.note_dependency(str(ROOT / "README.md"))
    source[0] = text.replace("](../benchmarks/README.md", "](speed.md")


def setup(app: Any) -> None:
    app.add_directive("front-door", FrontDoor)
    app.connect("source-read", site_links)
