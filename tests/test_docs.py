"""The documentation says what the code does.

The site builds with every warning an error (a reference to a tavlakit
object that does not resolve, a page in no table of contents, a broken
link); the formats page names every format the registry reads; the
architecture page every module; every command and option is documented;
and every example that shows its output is run, so the README and the
pages cannot go stale (issue 28; the README items of issue 27).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from conftest import find_corpus

from tavlakit.cli import app
from tavlakit.formats.registry import REGISTRY

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
README = REPO / "README.md"
PACKAGE = REPO / "tavlakit"
#: The pages a reader reads: the README, the pages of docs/ and the benchmarks' figures.
PAGES = [README, *sorted(DOCS.rglob("*.md")), REPO / "benchmarks" / "README.md"]
#: What the examples may read, seen from the checkout's root.
EXAMPLE_FOLDERS = ("samples", "tests")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def all_docs() -> str:
    return "\n".join(text(page) for page in PAGES)


def section(page: str, heading: str) -> str:
    """The text of ``page`` under ``heading`` (a Markdown heading line), up to the next heading of its level."""
    level = heading.split(" ")[0]
    start = page.index(heading + "\n") + len(heading)
    end = re.search(rf"^{level} ", page[start:], re.MULTILINE)
    return page[start : start + end.start()] if end else page[start:]


def modules(folder: Path) -> list[str]:
    return sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")


LAYERS = sorted(path.parent.name for path in PACKAGE.glob("*/__init__.py"))


# --- the site -----------------------------------------------------------------


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    """``python -m sphinx -W -n`` as docs/development.md says, offline (no
    intersphinx), into a folder of its own: the pages, the README as the
    front page, and the API reference from the docstrings."""
    out = tmp_path / "html"
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-n", "--keep-going", "-q"]
        + ["-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-6000:]
    front = text(out / "index.html")
    assert "A first look" in front and 'href="validator.html"' in front and 'src="_images/board.png"' in front
    # autodoc wrote the reference (an autodoc directive MyST reads as Markdown writes nothing, and warns of nothing)
    engine = text(out / "api" / "engine.html")
    assert 'id="tavlakit.engine.position.Position"' in engine
    assert 'id="tavlakit.engine.position.Position.pips"' in engine
    door = text(out / "api" / "index.html")
    assert 'href="engine.html#tavlakit.engine.position.Position"' in door  # tk.Position links to where it is defined
    assert "match_statisticspy" in text(out / "speed.html")  # the benchmarks' figures, a section per script


def test_the_test_extra_brings_what_the_build_needs() -> None:
    """CI installs the test extra only (``pip install -e '.[test]'``): it must bring the docs extra."""
    pyproject = text(REPO / "pyproject.toml")
    extras = pyproject[pyproject.index("[project.optional-dependencies]") :]
    docs = re.search(r"^docs = \[(.*?)\]$", extras, re.MULTILINE | re.DOTALL)
    test = re.search(r"^test = \[(.*?)^\]$", extras, re.MULTILINE | re.DOTALL)
    assert docs is not None and test is not None
    assert '"sphinx>=' in docs.group(1) and '"myst-parser>=' in docs.group(1)
    assert '"tavlakit[docs]"' in test.group(1)


# --- the docs say what the code does -------------------------------------------------


def test_the_formats_page_names_every_registered_format() -> None:
    page = text(DOCS / "formats.md")
    table = section(page, "## The formats")
    rows = {line.split("`")[1] for line in table.splitlines() if line.startswith("| `")}
    assert rows == set(REGISTRY), rows ^ set(REGISTRY)
    for fmt in REGISTRY.values():
        for extension in fmt.extensions:
            assert f"`{extension}`" in table, (fmt.name, extension)
    not_read = section(page, "## Formats tavlakit does not read")
    read = [name for fmt in REGISTRY.values() for name in (fmt.name, *fmt.extensions) if f"`{name}`" in not_read]
    assert read == [], f"listed as not read, but the registry reads them: {read}"
    assert "position text" not in not_read.lower() and "export" not in not_read.lower()


def test_the_architecture_page_names_every_module() -> None:
    """Its module table and its folder tree, both, every module of every folder."""
    page = text(DOCS / "architecture.md")
    table = section(page, "## The modules on their layers")
    rows = {
        match.group(1): line for line in table.splitlines() if (match := re.search(r"\| `(\w+)/`: ", line)) is not None
    }
    assert sorted(rows) == LAYERS
    missing = [
        f"{layer}/{name}" for layer in LAYERS for name in modules(PACKAGE / layer) if f"`{name}`" not in rows[layer]
    ]
    top = [path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py"]
    missing += [name for name in top if f"`{name}`" not in table]
    assert missing == []
    tree = section(page, "## The folder tree")
    listed: dict[str, set[str]] = {}
    layer = None
    for line in tree.splitlines():
        start = re.match(r"^  (\w+)/(.*)", line)
        if start:
            layer, line = start.groups()
        elif not line.startswith("    "):
            layer = None
        if layer is not None:
            listed.setdefault(layer, set()).update(re.findall(r"\w+", line.split("<-")[0]))
    assert sorted(listed) == LAYERS
    unlisted = [f"{layer}/{name}" for layer in LAYERS for name in modules(PACKAGE / layer) if name not in listed[layer]]
    assert unlisted == []


def test_every_module_below_the_command_line_is_in_the_api_reference() -> None:
    reference = "\n".join(text(page) for page in (DOCS / "api").glob("*.md"))
    documented = set(re.findall(r"^\.\. automodule:: ([\w.]+)$", reference, re.MULTILINE))
    wanted = {f"tavlakit.{layer}" for layer in LAYERS if layer != "cli"} | {"tavlakit", "tavlakit.i18n"}
    wanted |= {f"tavlakit.{layer}.{name}" for layer in LAYERS if layer != "cli" for name in modules(PACKAGE / layer)}
    assert sorted(wanted - documented) == []
    assert sorted(documented - wanted) == []  # a module that went away leaves the reference too


def test_the_pages_name_files_that_exist() -> None:
    """A path the pages write in code (``formats/registry.py``, ``tests/test_x.py``) is a
    file of the checkout or of the package; any other, of the shared corpus (checked where
    it is there). The changelog keeps old paths."""
    corpus, _ = find_corpus()
    ours = {path.name for root in (REPO, PACKAGE) for path in root.iterdir()}
    named = r"`((?:[\w.-]+/)+[\w.-]+\.(?:py|md|lark|tsv|ipynb|toml|json|xml|cfg|mat|sgf|txt|xg|gmd))`"
    missing = []
    for page in PAGES:
        for path in re.findall(named, text(page)) if page.name != "changelog.md" else []:
            if path.split("/")[0] in ours:
                found = (REPO / path).exists() or (PACKAGE / path).exists()
            else:
                found = corpus is None or (corpus / path).exists()
            if not found:
                missing.append(f"{page.relative_to(REPO)}: {path}")
    assert missing == []


def test_every_command_and_option_is_documented() -> None:
    """Each command has a row in the README's table; each option of each
    command is named in the README or a page (nothing the README said was lost)."""
    readme = text(README)
    table = section(readme, "## Commands")
    docs = all_docs()
    command = typer.main.get_command(app)
    assert hasattr(command, "commands")
    undocumented = []
    for name, sub in command.commands.items():
        assert f"| `tavlakit {name} " in table or f"/ `tavlakit {name} " in table, name
        for param in sub.params:
            for option in [*param.opts, *param.secondary_opts]:
                if option.startswith("--") and option != "--help" and not re.search(rf"{option}\b", docs):
                    undocumented.append(f"{name} {option}")
    assert undocumented == []


def test_the_benchmarks_page_has_a_section_for_every_script() -> None:
    page = text(REPO / "benchmarks" / "README.md")
    scripts = sorted(path.name for path in (REPO / "benchmarks").glob("*.py"))
    sections = sorted(re.findall(r"^## (\S+\.py)$", page, re.MULTILINE))
    assert sections == scripts
    for script in scripts:
        assert re.search(r"Measured \d{4}-\d\d-\d\d", section(page, f"## {script}")), script


def test_the_pages_give_no_figure_of_an_earlier_release() -> None:
    """Figures live with their benchmark; the narrative keeps what a user needs."""
    stale = [
        f"{page.relative_to(REPO)}: {line.strip()[:80]}"
        for page in PAGES
        if page.name != "changelog.md"
        for line in text(page).splitlines()
        if re.search(r"release before|\d\d:\d\d UTC", line) and page.parent.name != "benchmarks"
    ]
    assert stale == []


# --- issue 27: what the README tells a newcomer ---------------------------------------------


def test_the_readme_names_every_shared_folder_the_tests_read() -> None:
    """The seeds beside the corpus (both in the project's shared folder): a test skips without each."""
    read = set()
    for path in (REPO / "tests").glob("*.py"):
        read |= set(re.findall(r'"shared"\s*/\s*"(\w+)"', text(path)))
    assert len(read) >= 2, read
    setup = section(text(README), "## Set up")
    assert [name for name in sorted(read) if f"`../shared/{name}`" not in setup] == []


def test_the_readme_says_how_to_run_the_notebook(tmp_path: Path) -> None:
    """The README's notebook command runs with what the test extra installs
    (``jupyter nbconvert`` is in no extra: a newcomer got "command not found")."""
    setup = section(text(README), "## Set up")
    commands = [line for line in setup.splitlines() if line.startswith("jupyter ")]
    assert commands == ["jupyter execute notebooks/study.ipynb"]
    corpus = tmp_path / "corpus"  # two samples, as tests/test_notebook.py makes it: the run stays short
    for folder, name in (("tavla", "tavla-t000.mat"), ("bglib", "fibs-bluenote-nori.txt")):
        (corpus / folder).mkdir(parents=True)
        (corpus / folder / name).write_bytes((REPO / "samples" / name).read_bytes())
    env = {**os.environ, "TAVLAKIT_CORPUS": str(corpus), "PYTHONPATH": str(REPO)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    run = subprocess.run(["bash", "-c", commands[0]], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]


# --- the examples are what the code prints ---------------------------------------------


@pytest.fixture
def checkout_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch folder that looks like the checkout's root to an example."""
    for name in EXAMPLE_FOLDERS:
        (tmp_path / name).symlink_to(REPO / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def doctest_pages() -> list[Path]:
    return [page for page in PAGES if re.search(r"^\s*>>> ", text(page), re.MULTILINE)]


def test_the_readme_shows_its_examples_output() -> None:
    """The first look and the players table are doctests (their figures went
    stale when they were comments and a pasted table)."""
    readme = text(README)
    examples = doctest.DocTestParser().get_examples(readme)
    assert len(examples) >= 10
    assert any("luck_per_roll" in example.want for example in examples)


@pytest.mark.parametrize("page", doctest_pages(), ids=lambda page: str(page.relative_to(REPO)))
def test_the_doctests_of_the_pages(page: Path, checkout_root: Path) -> None:
    parser = doctest.DocTestParser()
    fenced = re.sub(r"^```.*$", "", text(page), flags=re.MULTILINE)  # a fence ends an example's output
    test = parser.get_doctest(fenced, {}, str(page.relative_to(REPO)), str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


def console_sessions(page: str) -> list[list[tuple[str, list[str]]]]:
    """Each ```console block: its commands, each with the lines shown under it."""
    sessions = []
    for block in re.findall(r"^```console\n(.*?)^```$", page, re.MULTILINE | re.DOTALL):
        session: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                session.append((line[2:], []))
            else:
                assert session, f"output before a command: {line}"
                session[-1][1].append(line.rstrip())
        sessions.append(session)
    return sessions


def shows(expected: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``expected``, a line ``...`` standing for any lines."""
    pattern = "".join("(?:.*\n)*?" if line == "..." else re.escape(line) + "\n" for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in printed)) is not None


CONSOLE_PAGES = [page for page in PAGES if "```console" in text(page)]


@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_the_console_sessions_of_the_pages(page: Path, checkout_root: Path) -> None:
    """Each ``$ tavlakit ...`` line run in a shell from the checkout's root,
    in English, stdout and stderr as a terminal shows them."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1", "LANGUAGE": "en", "COLUMNS": "80"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    sessions = console_sessions(text(page))
    assert sessions
    for number, session in enumerate(sessions, 1):
        folder = checkout_root / f"session-{number}"
        folder.mkdir()
        for name in EXAMPLE_FOLDERS:
            (folder / name).symlink_to(REPO / name)
        for command, expected in session:
            assert command.startswith("tavlakit "), command
            run = subprocess.run(
                ["bash", "-c", command],
                cwd=folder,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=600,
            )
            printed = [line.rstrip() for line in run.stdout.splitlines()]
            assert shows(expected, printed), f"$ {command}\n" + "\n".join(printed)
