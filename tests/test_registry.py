"""The format registry: options a format does not take are errors, every
format is read game by game, one decoder for every format."""

from __future__ import annotations

import inspect
import io
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.engine.numbering import Numbering
from tavlakit.formats import REGISTRY, WRITABLE, WriteOptions, open_games
from tavlakit.formats.mat import write_mat
from tavlakit.formats.registry import _OPTION_VALUES, by_content, by_extension, named

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
MAT = SAMPLES / "tavla-t000.mat"


def test_an_option_a_format_does_not_take_is_an_error(tmp_path: Path) -> None:
    """Before: numbering="absolute" was silently ignored for SGF."""
    match = tk.read_match(MAT)
    target = tmp_path / "x.sgf"
    with pytest.raises(ValueError, match="sgf format takes no option 'numbering'"):
        tk.write_match(match, target, numbering="absolute")
    assert not target.exists()  # checked before the file is opened
    with pytest.raises(ValueError, match="unknown numbering 'upside-down'; expected relative"):
        tk.write_match(match, tmp_path / "x.mat", numbering="upside-down")  # type: ignore[typeddict-item]
    assert not (tmp_path / "x.mat").exists()  # a value is checked before the file is opened too
    with pytest.raises(ValueError, match="takes no option 'colour'"):
        tk.write_match(match, io.StringIO(), "json", colour="red")


def test_an_unknown_option_names_the_options_the_format_takes() -> None:
    match = tk.read_match(MAT)
    with pytest.raises(ValueError, match=r"^the mat format takes no option 'colour' \(it takes numbering\)$"):
        tk.write_match(match, io.StringIO(), "mat", colour="red")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=r"^the json format takes no option 'numbering' \(it takes none\)$"):
        REGISTRY["json"].write(match, io.StringIO(), numbering="absolute")


def test_a_writers_options_are_its_typed_keyword_only_parameters() -> None:
    """Before: every writer took ``**options: str``."""
    for name in WRITABLE:
        writer = REGISTRY[name].writer
        assert writer is not None
        parameters = list(inspect.signature(writer()).parameters.values())
        assert [p.kind for p in parameters[:2]] == [inspect.Parameter.POSITIONAL_OR_KEYWORD] * 2  # match, stream
        assert all(p.kind is p.KEYWORD_ONLY and p.annotation != inspect.Parameter.empty for p in parameters[2:])
        assert REGISTRY[name].options == tuple(p.name for p in parameters[2:])
    assert REGISTRY["mat"].options == ("numbering",) and REGISTRY["sgf"].options == REGISTRY["json"].options == ()
    # the front door's typed options are every writer's
    assert WriteOptions.__optional_keys__ == {o for name in WRITABLE for o in REGISTRY[name].options}
    assert set(_OPTION_VALUES) == WriteOptions.__optional_keys__  # each option's value is checked
    match = tk.read_match(MAT)
    with pytest.raises(TypeError):
        write_mat(match, io.StringIO(), "absolute")  # type: ignore[misc]


def test_options_are_made_the_writers_types() -> None:
    checked = REGISTRY["mat"].check_options({"numbering": "gnubg"})
    assert checked == {"numbering": Numbering.RELATIVE} and checked["numbering"] is Numbering.RELATIVE
    match = tk.read_match(MAT)
    by_member, by_name = io.StringIO(), io.StringIO()
    write_mat(match, by_member, numbering=Numbering.ABSOLUTE)
    tk.write_match(match, by_name, "mat", numbering="absolute")
    assert by_member.getvalue() == by_name.getvalue()


def test_the_mat_option_is_applied() -> None:
    match = tk.read_match(MAT)
    out = io.StringIO()
    assert tk.write_match(match, out, "mat", numbering="absolute") == []
    assert '; [Numbering "absolute"]' in out.getvalue()
    assert tk.read_match(io.StringIO(out.getvalue()), "mat") == match


def test_formats_know_extensions_and_content() -> None:
    assert {ext: fmt.name for fmt in REGISTRY.values() for ext in fmt.extensions} == {
        ".mat": "mat",
        ".txt": "mat",
        ".sgf": "sgf",
        ".json": "json",
        ".gmd": "gmd",
        ".xg": "xg",
    }
    assert by_extension("A.SGF") is REGISTRY["sgf"] and by_extension("notes.md") is None
    for text, name in (
        ("\ufeff  (;GM[6])", "sgf"),
        ('\n{"games": []}', "json"),
        (" 5 point match", "mat"),
        ("", "mat"),
        ("GMD-2 # Created by Gibbon", "gmd"),
        ("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10", "xg-position"),
    ):
        assert by_content(text).name == name
    with pytest.raises(ValueError, match="unknown format 'xgz'; expected one of mat, sgf, json, gmd, xg-position"):
        named("xgz")
    with pytest.raises(ValueError, match="reads the gmd format but does not write it"):
        REGISTRY["gmd"].check_options({})


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_every_format_is_read_game_by_game(fmt: str) -> None:
    """Before: only .mat streamed; SGF and JSON returned whole matches."""
    whole = tk.read_match(MAT)
    text = io.StringIO()
    tk.write_match(whole, text, fmt)
    reader = REGISTRY[fmt].open(io.StringIO(text.getvalue()), "x")
    assert reader.match.players == whole.players and reader.match.games == []
    games = reader.games()
    first = next(games)
    assert first == whole.games[0] and reader.match.games == []
    assert [first, *games] == whole.games


@pytest.mark.parametrize("suffix", [".mat", ".sgf", ".json"])
def test_one_decoder_for_every_format(tmp_path: Path, suffix: str) -> None:
    """The same cp1254 bytes give the same text and the same located
    'encoding' warning whichever format reads them."""
    match = tk.read_match(MAT)
    match.players = ("Ayşe", "Gül")
    text = io.StringIO()
    tk.write_match(match, text, suffix[1:])
    path = tmp_path / f"x{suffix}"
    path.write_bytes(text.getvalue().encode("cp1254"))
    header, games = open_games(path)
    assert header.players == ("Ayşe", "Gül") and len(list(games)) == 6
    [problem] = [p for p in header.problems if p.code == "encoding"]
    assert problem.severity == "warning" and problem.file == str(path) and "cp1254" in problem.message
    assert problem.line == next(i for i, row in enumerate(text.getvalue().splitlines(), 1) if "Ay" in row)


@pytest.mark.parametrize(
    ("fmt", "text", "line"),
    [
        ("mat", '; [Rules "bogus"]\n\n 3 point match\n', 1),
        ("sgf", "(;FF[4]GM[6]\nTK[Rules=bogus]PW[a]PB[b];W[31fehe])", 2),
        ("json", '{"format": "tavlakit-match", "tags": {"Rules": "bogus"}, "games": []}', None),
    ],
)
def test_every_reader_resolves_the_rules_once_with_located_bad_tags(fmt: str, text: str, line: int | None) -> None:
    """A tag that cannot be read is a bad-tag problem where the tag is
    written, found when the header is read (not when .rules is first asked)."""
    header, games = open_games(io.StringIO(text), fmt)
    [bad] = [p for p in header.problems if p.code == "bad-tag"]
    assert bad.line == line and "bogus" in bad.message
    assert header.rules is None or header.rules.name == "backgammon"
    list(games)
