"""The habits of a good command-line tool: --version, -h, --lang anywhere,
one error style, exit 2 for what cannot be read, standard input, rolls
written as the README says, and no page for an input nothing was read from."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.cli import app

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "tavla-t000.mat"
FIBS = REPO / "samples" / "fibs-bluenote-nori.txt"
START = "4HPwATDgc/ABMA"
COMMANDS = ["validate", "convert", "stats", "analyse", "board", "moves", "show"]
runner = CliRunner()


def run(*args: object):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


def tavlakit(*args: object, stdin: bytes | None = None, shell: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real program in a real process (standard input, argv as typed)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "LANGUAGE": "en"}
    command = shell or [sys.executable, "-m", "tavlakit", *map(str, args)]
    done = subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
        shell=shell is not None,
        executable="/bin/bash" if shell else None,
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.output == f"tavlakit {tk.__version__}\n"


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_h_is_help_on_every_command(command: str | None) -> None:
    words = [command] if command else []
    short, long = run(*words, "-h"), run(*words, "--help")
    assert short.exit_code == long.exit_code == 0, short.output
    assert short.output == long.output and "Usage:" in short.output


@pytest.mark.parametrize("command", ["analyse", "rollout"])
def test_help_keeps_the_extras_brackets(command: str) -> None:
    # (Rich reads "[dask]" as markup unless escaped, and used to print "needs tavlakit.")
    said = runner.invoke(app, [command, "--help"], env={"COLUMNS": "300"}).output
    assert "needs tavlakit[dask]." in " ".join(said.replace("│", " ").split())


def test_lang_after_the_command() -> None:
    """Before: 'No such option: --lang' in an 11-line box."""
    done = tavlakit("validate", "--lang", "tr", SAMPLE)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1 dosya, 6 el, 324 hamle: 0 hata, 0 uyarı\n"
    assert tavlakit("validate", "--lang=tr", "-q", SAMPLE).stdout == done.stdout
    # seen before the commands build their help (the rules' help is made at import)
    helped = tavlakit("validate", "--lang", "tr", "--help")
    assert helped.returncode == 0 and "Kural takımı" in helped.stdout
    assert run("validate", "--lang", "tr", SAMPLE).output == done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["validate", "--rules", "tavle", SAMPLE], "unknown rules 'tavle'; expected one of tavla"),
        (["validate"], "Missing argument"),
        (["validate", REPO / "docs"], "no record files found"),
        (["validate", "--bogus", SAMPLE], "No such option: --bogus"),
        (["validate", "-j", "0", SAMPLE], "0 is not in the range"),
        (["validate", "--jobs"], "requires an argument"),
        (["frob"], "No such command 'frob'"),
        (["--lang", "xx", "validate", SAMPLE], "unknown language 'xx'"),
        (["stats", "--by", "colour", SAMPLE], "--by must be 'player', 'file' or 'match'"),
        (["stats", "--rules", "chess", SAMPLE], "unknown rules 'chess'"),
        (["stats", REPO / "nope.mat"], "no such file or folder"),
        (["convert", SAMPLE, "-o", "x.foo"], "say --to"),
        (["convert", SAMPLE, "-o", "x.mat", "--to", "pdf"], "--to must be one of"),
        (["convert", SAMPLE], "Missing option '--output'"),
        (["show", SAMPLE, "--rules", "tavle"], "unknown rules 'tavle'"),
        (["analyse", SAMPLE], "Missing option '--store'"),
        (["board", START, "--size", "big"], "'big' is not a valid int"),
        (["moves", START, "7", "1"], "'7 1' is not a roll"),
        (["moves", "nope", "6", "5"], "Position ID"),
    ],
)
def test_usage_errors_are_one_line(args: list[object], says: str) -> None:
    """Before: --rules tavle, a missing argument or an unknown option drew a
    5-11-line box; other mistakes one line."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    *notes, error = result.output.splitlines()
    assert error.startswith("error: ") and says in error, result.output
    # a folder of other files says what it found instead, one info line each (validate: then its summary)
    assert all(": info " in note or note.startswith("0 file(s), ") for note in notes), result.output


def test_usage_error_in_a_real_process() -> None:
    done = tavlakit("validate", "--rules", "tavle", SAMPLE)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: unknown rules 'tavle'; expected one of tavla, tavla-outside-home, backgammon\n"


@pytest.fixture()
def unreadable(tmp_path: Path) -> dict[str, Path]:
    """Inputs nothing can be read from, one of each kind."""
    folder = tmp_path / "odd"
    folder.mkdir()
    files = {
        "binary": folder / "binary.mat",
        "empty": folder / "empty.mat",
        "notes": folder / "notes.txt",
        "json": folder / "list.json",
    }
    files["binary"].write_bytes(bytes(range(256)) * 4)
    files["empty"].write_bytes(b"")
    files["notes"].write_text("Notes about the club's Tuesday games.\nNothing else.\n", encoding="utf-8")
    files["json"].write_text("[1, 2, 3]\n", encoding="utf-8")
    return files


def test_an_unreadable_input_is_exit_2(unreadable: dict[str, Path], tmp_path: Path) -> None:
    """Whatever the reason; errors in a match that was read are 1. Before:
    binary, empty, notes and a JSON that is not a match were 1."""
    devices = [("device", Path("/dev/zero"))] if Path("/dev/zero").exists() else []  # before: read for ever
    for kind, path in [*unreadable.items(), ("missing", tmp_path / "missing.mat"), *devices]:
        assert run("validate", path).exit_code == 2, kind
        assert run("convert", path, "-o", tmp_path / "x.sgf").exit_code == 2, kind
        assert run("show", path, "-o", tmp_path / "x.html").exit_code == 2, kind
    assert not (tmp_path / "x.sgf").exists() and not (tmp_path / "x.html").exists()
    bad = tmp_path / "bad.mat"
    bad.write_text(SAMPLE.read_text(encoding="utf-8").replace("24/", "25/", 1), encoding="utf-8")
    assert run("validate", bad).exit_code == 1
    assert run("validate", "--strict", bad).exit_code == 1
    assert run("validate", SAMPLE, unreadable["empty"]).exit_code == 2


def test_show_writes_no_page_for_an_input_nothing_was_read_from(unreadable: dict[str, Path], tmp_path: Path) -> None:
    """The same rule as convert. Before: a page and an index row
    'Player 1 - Player 2, money game' for each."""
    folder = unreadable["binary"].parent
    (folder / "good.mat").write_bytes(SAMPLE.read_bytes())
    site = tmp_path / "site"
    result = run("show", folder, "-o", site, "-j", "1")
    assert result.exit_code == 2
    assert sorted(p.name for p in site.iterdir()) == ["good.html", "index.html"]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert index.count("<tr><td>") == 1 and "good.html" in index and "Player 1" not in index
    said = result.output.splitlines()
    for path in unreadable.values():
        assert f"{path}: not shown (nothing could be read from it)" in said
        assert any(line.startswith(f"{path}") and " error " in line for line in said)


@pytest.mark.parametrize("roll", ["65", "6-5", "6 5", "şeş beş", "ses bes", "56"])
def test_moves_reads_a_roll_as_the_readme_writes_it(roll: str) -> None:
    """Before: '65' and '6-5' were 'unknown dice name'."""
    expected = run("moves", START, "6", "5")
    result = run("moves", START, *roll.split())
    assert result.exit_code == 0, result.output
    plays = set(result.output.splitlines())
    assert plays == set(expected.output.splitlines())
    # the 7 distinct opening 6-5s (worked by hand: 19 and 1 are blocked)
    assert plays == {"24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"}


def test_standard_input_for_validate() -> None:
    """Before: '-' was 'No such file or directory' and a piped /dev/stdin
    'the file holds no match' (read once to choose the encoding, then empty)."""
    data = SAMPLE.read_bytes()
    for name in ("-", "/dev/stdin"):
        done = tavlakit("validate", name, stdin=data)
        assert (done.returncode, done.stdout) == (0, "1 file(s), 6 game(s), 324 play(s): 0 error(s), 0 warning(s)\n")
    bad = data.replace(b"24/", b"25/", 1)
    lines = tavlakit("validate", "-", stdin=bad).stdout.splitlines()
    row = next(i for i, line in enumerate(data.decode().splitlines()) if "25/" in line.replace("24/", "25/", 1))
    assert lines[0].startswith(f"<stdin>:{row + 1}:") and " error illegal-play: " in lines[0]
    assert lines[1].strip() == bad.decode().splitlines()[row].strip()  # the row, read from the stream kept
    # with other files, on two processes: the stream is read here, once
    both = tavlakit("validate", "-", FIBS, "-j", "2", stdin=data)
    assert both.stdout.splitlines()[-1].startswith("2 file(s), 10 game(s), 464 play(s): 0 error(s)")
    fifo = tavlakit(shell=f"{sys.executable} -m tavlakit validate --rules tavla <(cat '{FIBS}')")
    assert fifo.returncode == 1 and "/dev/fd/" in fifo.stdout and "cube-not-allowed 5" in fifo.stdout
    empty = tavlakit("validate", "-", stdin=b"")
    assert empty.returncode == 2 and empty.stdout.startswith("<stdin>: error empty")


def test_standard_input_for_convert_show_and_stats(tmp_path: Path) -> None:
    data = SAMPLE.read_bytes()
    done = tavlakit("convert", "-", "-o", tmp_path / "t.sgf", stdin=data)
    assert done.returncode == 0, done.stderr
    converted = tk.read_match(tmp_path / "t.sgf")
    assert [g.result for g in converted.games] == [g.result for g in tk.read_match(SAMPLE).games]
    page = tavlakit("show", "-", "-o", tmp_path / "t.html", stdin=data)
    assert page.returncode == 0 and page.stdout == f"<stdin>: wrote {tmp_path / 't.html'}\n"
    assert "Mehmet Ali" in (tmp_path / "t.html").read_text(encoding="utf-8")
    nowhere = tavlakit("show", "-", stdin=data)
    assert nowhere.returncode == 2 and nowhere.stderr.startswith("error: ") and "-o" in nowhere.stderr
    stats = tavlakit("stats", "--no-luck", "--json", "-", stdin=data)
    assert stats.returncode == 0, stats.stderr
    assert '"player": "Ayşe"' in stats.stdout and '"games": 6' in stats.stdout


@pytest.fixture(scope="module")
def summary() -> tuple[object, object]:
    """The stats tables of the Tavla sample with luck, its players given
    long names (and a file name longer than a column)."""
    from tavlakit.analysis.summary import by_file, by_player

    result = tk.analysis.analyse(tk.read_match(SAMPLE))
    names = {"Ayşe": "Ayşe Gülsüm Karaosmanoğlu", "Mehmet Ali": "Mehmet Ali (İzmir)"}
    players, files = by_player(result), by_file(result)
    for table in (players, files):
        table["player"] = table["player"].replace(names)
    files["match"] = "a-very-long-file-name-from-a-download-site-2026-12-01.mat"
    return players, files


@pytest.mark.parametrize("by", ["player", "file"])
def test_stats_fits_an_80_column_terminal(
    summary: tuple[object, object], by: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: 14 columns squeezed into 80, every header and most names cut
    to 'pla…', 'Meh…'."""
    from tavlakit.analysis.summary import SHOWN
    from tavlakit.cli.stats import _print

    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws for a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    table = summary[0] if by == "player" else summary[1]
    shown = table[[c for c in SHOWN if c in table.columns]]
    _print(shown, "caption")
    out = re.sub("\x1b\\[[0-9;]*m", "", capsys.readouterr().out)  # bold headers
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out  # nothing cut
    for name in ("Ayşe Gülsüm Karaosmanoğlu", "Mehmet Ali (İzmir)"):
        assert any(name in line for line in lines)  # whole, on one line
    for value in shown["luck_per_roll"]:
        assert f"{value:.3f}" in out
    for rating in set(shown["luck_rating"]):  # wrapped between words at most
        assert all(word in out for word in rating.split())
    for header in ("mars", "won", "lost", "luck/", "roll", "rating", "net", "error/", "play", "faces", "doubles"):
        assert header in out
    if by == "file":
        assert "a-very-long-file-name" in out and "rolls" in out and "errors" in out


def test_stats_no_luck_leaves_out_the_luck_columns_and_help_explains_every_column() -> None:
    """Before: --no-luck printed four empty columns; --help named none."""
    args = ["stats", SAMPLE, "--by", "file"]
    plain = run(*args, "--no-luck").output.splitlines()[0].split()
    assert plain == [
        "match",
        "player",
        "games",
        "wins",
        "mars_for",
        "mars_against",
        "faces_p",
        "doubles_rate",
        "plies",
        "problems",
    ]
    lucky = run(*args).output.splitlines()[0].split()
    assert {"luck_per_roll", "luck_rating", "net_luck", "error_rate"} <= set(lucky)
    helped = " ".join(run("stats", "--help").output.split())
    from tavlakit.analysis.summary import SHOWN
    from tavlakit.cli.stats import SHORT

    for column in SHOWN:
        assert f"({column})" in helped or f"{column})" in helped, column
        assert SHORT[column].replace("/\n", "/").replace("\n", " ") in helped, column  # as headed
